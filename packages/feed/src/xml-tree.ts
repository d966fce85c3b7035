import { resolveUrl } from '@storefront/html';
import { XMLParser } from 'fast-xml-parser';
import { FEED_MAX_DEPTH } from './limits.js';
import { CONVENTIONAL_PREFIXES, NS } from './namespaces.js';
import { xmlEntityDecoder } from './xml-entities.js';

/** fast-xml-parser's `preserveOrder` node: `{ [tag]: children, ':@'?: attributes }` or `{ '#text': value }`. */
type RawNode = Readonly<Record<string, unknown>>;

/** A node of the tree: an element or a run of character data (CDATA already unwrapped). */
export type XmlNode = XmlElement | string;

const ATTRIBUTE_PREFIX = '@_';
const TEXT_KEY = '#text';
const ATTRIBUTES_KEY = ':@';

/**
 * security.md §3.1's recommended options, plus: `preserveOrder` (document order of mixed
 * content and items), untrimmed values (the text layer collapses whitespace itself), no
 * declaration or processing-instruction nodes, and our own entity decoder, which decodes
 * the XML references only and never expands a declared entity.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: FEED_MAX_DEPTH,
  processEntities: {
    enabled: true,
    maxEntityCount: 1,
    maxEntitySize: 1,
    maxExpansionDepth: 1,
    maxTotalExpansions: 100_000,
    maxExpandedLength: 1_000_000,
  },
  entityDecoder: xmlEntityDecoder,
});

/**
 * An element with its namespace resolved (Namespaces in XML 1.0 §6) and its `xml:base`
 * (XML Base §4.2) resolved to an absolute URL. Children are built on first use, so only
 * the parts of a feed that are read cost anything beyond the parse.
 */
export class XmlElement {
  /** The qualified name as written, e.g. `dc:date`. */
  readonly name: string;
  /** The local part of the name, e.g. `date`. */
  readonly local: string;
  /** The namespace name; `''` for none. */
  readonly ns: string;
  /** The base URL in scope for this element and its attributes, or null when there is none. */
  readonly base: string | null;
  private readonly attributes: ReadonlyMap<string, string>;
  private readonly scope: ReadonlyMap<string, string>;
  private readonly raw: readonly RawNode[];
  private built: readonly XmlNode[] | undefined;

  constructor(
    name: string,
    raw: readonly RawNode[],
    attributes: ReadonlyMap<string, string>,
    parentScope: ReadonlyMap<string, string>,
    parentBase: string | null,
  ) {
    this.name = name;
    this.raw = raw;
    this.attributes = attributes;
    this.scope = declaredScope(attributes, parentScope);
    const colon = name.indexOf(':');
    const prefix = colon === -1 ? '' : name.slice(0, colon);
    this.local = colon === -1 ? name : name.slice(colon + 1);
    this.ns = namespaceOf(prefix, this.scope);
    const base = attributes.get('xml:base');
    this.base = base === undefined ? parentBase : (absoluteUrl(base, parentBase) ?? parentBase);
  }

  /** The value of an unprefixed attribute, or of a qualified one such as `xml:base`; null when absent. */
  attr(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  /** The value of the attribute `local` in namespace `ns` (any prefix bound to it), or null. */
  attrNS(ns: string, local: string): string | null {
    for (const [name, value] of this.attributes) {
      const colon = name.indexOf(':');
      if (colon === -1 || name.slice(colon + 1) !== local) continue;
      if (namespaceOf(name.slice(0, colon), this.scope) === ns) return value;
    }
    return null;
  }

  /** Child elements and character data, in document order. */
  get children(): readonly XmlNode[] {
    if (this.built === undefined) {
      const children: XmlNode[] = [];
      for (const node of this.raw) {
        const child = toNode(node, this.scope, this.base);
        if (child !== null) children.push(child);
      }
      this.built = children;
    }
    return this.built;
  }
}

/** What {@link parseXml} returns. */
export type ParseXmlResult =
  | { readonly ok: true; readonly root: XmlElement }
  | { readonly ok: false; readonly message: string };

/**
 * Parse XML text with fast-xml-parser and return its root element. Any exception the
 * parser raises (for example `[SECURITY] Invalid name` on a `<__proto__>` element) is
 * returned as a message, never thrown.
 *
 * @param baseUrl the document's URL, the base of relative references outside any `xml:base`.
 */
export function parseXml(text: string, baseUrl: string | null): ParseXmlResult {
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `The XML parser refused the document: ${reason}` };
  }
  if (Array.isArray(parsed)) {
    const scope: ReadonlyMap<string, string> = new Map();
    for (const node of parsed as RawNode[]) {
      const root = toNode(node, scope, baseUrl);
      if (root instanceof XmlElement) return { ok: true, root };
    }
  }
  return { ok: false, message: 'The XML parser found no root element' };
}

/** Resolve `href` against `base` (or alone when it is absolute); null when that fails. */
export function absoluteUrl(href: string, base: string | null): string | null {
  const value = href.trim();
  if (base !== null) {
    const resolved = resolveUrl(value, base);
    if (resolved !== null) return resolved;
  }
  return URL.canParse(value) ? new URL(value).href : null;
}

function toNode(
  node: RawNode,
  scope: ReadonlyMap<string, string>,
  base: string | null,
): XmlNode | null {
  for (const key of Object.keys(node)) {
    if (key === ATTRIBUTES_KEY) continue;
    const value = node[key];
    if (key === TEXT_KEY) return typeof value === 'string' ? value : String(value ?? '');
    const raw = Array.isArray(value) ? (value as RawNode[]) : [];
    return new XmlElement(key, raw, attributesOf(node[ATTRIBUTES_KEY]), scope, base);
  }
  return null;
}

function attributesOf(value: unknown): ReadonlyMap<string, string> {
  const attributes = new Map<string, string>();
  if (value === null || typeof value !== 'object') return attributes;
  for (const [key, attribute] of Object.entries(value)) {
    if (!key.startsWith(ATTRIBUTE_PREFIX)) continue;
    attributes.set(key.slice(ATTRIBUTE_PREFIX.length), String(attribute));
  }
  return attributes;
}

function declaredScope(
  attributes: ReadonlyMap<string, string>,
  parent: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  let scope: Map<string, string> | null = null;
  for (const [name, value] of attributes) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    scope ??= new Map(parent);
    scope.set(name === 'xmlns' ? '' : name.slice(6), value.trim());
  }
  return scope ?? parent;
}

function namespaceOf(prefix: string, scope: ReadonlyMap<string, string>): string {
  if (prefix === 'xml') return NS.xml;
  const declared = scope.get(prefix);
  if (declared !== undefined) return declared;
  if (prefix === '') return '';
  // An undeclared prefix: a conventional one keeps its usual meaning, any other matches nothing.
  return CONVENTIONAL_PREFIXES.get(prefix) ?? `undeclared-prefix:${prefix}`;
}
