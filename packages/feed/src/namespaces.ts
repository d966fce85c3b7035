/** Namespace names of the vocabularies feeds use. */
export const NS = {
  atom: 'http://www.w3.org/2005/Atom',
  atom03: 'http://purl.org/atom/ns#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rss10: 'http://purl.org/rss/1.0/',
  rss090: 'http://my.netscape.com/rdf/simple/0.9/',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  content: 'http://purl.org/rss/1.0/modules/content/',
  xhtml: 'http://www.w3.org/1999/xhtml',
  xml: 'http://www.w3.org/XML/1998/namespace',
} as const;

/**
 * Prefixes feeds often use without declaring them (`<dc:date>` with no `xmlns:dc`): an
 * undeclared prefix from this list means its usual namespace. Any other undeclared
 * prefix matches nothing.
 */
export const CONVENTIONAL_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['atom', NS.atom],
  ['rdf', NS.rdf],
  ['dc', NS.dc],
  ['dcterms', NS.dcterms],
  ['content', NS.content],
  ['xhtml', NS.xhtml],
]);
