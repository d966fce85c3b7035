import { capString } from '@storefront/core';
import { collapseWhitespace, type HtmlElement } from '@storefront/html';

/**
 * The longest meta value (`content`) kept (4,096 characters, UTF-16 code units); a longer
 * one keeps its start and ends with `…` (`capString` of @storefront/core).
 */
export const META_MAX_VALUE_CHARS = 4096;

/** The longest meta key (`name`, `property`, `http-equiv`) kept (256 characters), cut the same way. */
export const META_MAX_KEY_CHARS = 256;

/** The most keys each of `openGraph`, `twitter` and `standard` holds (200); later keys are left out. */
export const META_MAX_KEYS = 200;

/**
 * Key prefixes that go to `openGraph`: the OpenGraph protocol's own `og:` and the
 * namespaces of its object types (ogp.me §Object Types): article, book, profile, music,
 * video, plus `product:` (the widely used product extension).
 */
export const OPEN_GRAPH_PREFIXES: readonly string[] = Object.freeze([
  'og:',
  'article:',
  'book:',
  'music:',
  'product:',
  'profile:',
  'video:',
]);

/** The three buckets meta elements are sorted into, first value per key. */
export interface MetaBuckets {
  readonly openGraph: Map<string, string>;
  readonly twitter: Map<string, string>;
  readonly standard: Map<string, string>;
}

/** Which bucket a lower-cased meta key belongs to. */
export function metaBucket(key: string): keyof MetaBuckets {
  if (key.startsWith('twitter:')) return 'twitter';
  for (const prefix of OPEN_GRAPH_PREFIXES) if (key.startsWith(prefix)) return 'openGraph';
  return 'standard';
}

function addFirst(map: Map<string, string>, key: string, value: string): void {
  if (key !== '' && value !== '' && !map.has(key) && map.size < META_MAX_KEYS) {
    map.set(key, value);
  }
}

/**
 * Sort one `<meta>` into the buckets:
 * - `property` and `name` each give a key (trimmed, lower-cased) for the collapsed
 *   `content`; a meta with both files its content under both keys;
 * - `charset` gives `standard.charset` (lower-cased);
 * - `http-equiv` gives `standard["http-equiv:<name>"]`, and a `content-type` one also
 *   gives `standard.charset` from its `charset=` parameter (HTML §4.2.5.3's extraction);
 * - `itemprop` metas are microdata, not named metadata, and are left out;
 * - empty or missing `content` files nothing, so a later non-empty duplicate can win.
 */
export function readMeta(element: HtmlElement, buckets: MetaBuckets): void {
  let name: string | null = null;
  let property: string | null = null;
  let content: string | null = null;
  let charset: string | null = null;
  let httpEquiv: string | null = null;
  for (const attr of element.attrs) {
    if (attr.namespace !== undefined) continue;
    switch (attr.name) {
      case 'name':
        name = attr.value;
        break;
      case 'property':
        property = attr.value;
        break;
      case 'content':
        content = attr.value;
        break;
      case 'charset':
        charset = attr.value;
        break;
      case 'http-equiv':
        httpEquiv = attr.value;
        break;
    }
  }
  // Text decoded from malformed UTF-16 can hold lone surrogates; canonical JSON refuses them.
  const value =
    content === null
      ? ''
      : capString(collapseWhitespace(content).toWellFormed(), META_MAX_VALUE_CHARS);
  if (charset !== null) {
    const label = capString(charset.trim().toLowerCase().toWellFormed(), META_MAX_KEY_CHARS);
    addFirst(buckets.standard, 'charset', label);
  }
  if (httpEquiv !== null) {
    const equiv = capString(
      collapseWhitespace(httpEquiv).toLowerCase().toWellFormed(),
      META_MAX_KEY_CHARS,
    );
    if (equiv !== '') {
      addFirst(buckets.standard, `http-equiv:${equiv}`, value);
      if (equiv === 'content-type') {
        const found = charsetFromContent(value);
        const declared = found === null ? null : capString(found, META_MAX_KEY_CHARS);
        if (declared !== null) addFirst(buckets.standard, 'charset', declared);
      }
    }
  }
  if (value === '') return;
  for (const raw of [property, name]) {
    if (raw === null) continue;
    const key = capString(collapseWhitespace(raw).toLowerCase().toWellFormed(), META_MAX_KEY_CHARS);
    if (key !== '') addFirst(buckets[metaBucket(key)], key, value);
  }
}

/**
 * HTML §2.6.3 "extracting a character encoding from a meta element": the value after
 * the first `charset` followed by `=`, unquoted or up to its closing quote.
 */
function charsetFromContent(content: string): string | null {
  const match = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  if (match === null) return null;
  const label = (match[1] ?? match[2] ?? match[3] ?? '').trim().toLowerCase();
  return label === '' ? null : label;
}
