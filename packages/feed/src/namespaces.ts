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
 * The namespaces of Atom before 1.0 whose text constructs follow Atom 0.3 (`mode`,
 * defaulting to `xml`, and a media type in `type`): Atom 0.2/0.3 and the names the
 * format had while it was called Echo and Pie (2003), as early feeds still carry them.
 */
export const ATOM_03_NAMESPACES: ReadonlySet<string> = new Set([
  NS.atom03,
  'http://purl.org/echo/',
  'http://purl.org/pie/',
  'http://example.com/newformat#',
  'http://example.com/necho',
  'uri/of/echo/namespace#',
]);

/**
 * The namespaces of the IETF drafts of Atom 1.0 (`…#draft-ietf-atompub-format-08`, `-09`
 * …), whose vocabulary is already 1.0's (`type="html"`, `published`, `updated`).
 */
const ATOM_DRAFT_PREFIX = 'http://purl.org/atom/ns#draft-ietf-atompub-format-';

/**
 * Whether a `<feed>` in namespace `ns` is Atom: 1.0, a pre-1.0 name (0.3, Echo, Pie, an
 * IETF draft), or no namespace at all.
 */
export function isAtomNamespace(ns: string): boolean {
  return (
    ns === NS.atom || ns === '' || ATOM_03_NAMESPACES.has(ns) || ns.startsWith(ATOM_DRAFT_PREFIX)
  );
}

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
