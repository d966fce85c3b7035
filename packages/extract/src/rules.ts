import { fragmentText, type HtmlPage, resolveUrl } from '@storefront/html';
import { LOOKUP_MAX_BRANCH, lookup, scalarOf } from './lookup.js';
import { typeNames } from './main-entity.js';
import type { PageSources } from './sources.js';

/** One small rule: where it reads, and the raw values it finds there, best first. */
export interface Rule {
  /** How the README names the rule. */
  readonly label: string;
  readonly read: (sources: PageSources) => readonly unknown[];
}

/** How a field is resolved: its ordered rules, the keys read from objects, and a check for strings. */
export interface FieldSpec {
  readonly rules: readonly Rule[];
  /** Keys read, in order, when a rule reaches an object (an author's `name`). */
  readonly keys: readonly string[];
  /** For fields declared `string`: normalise a value, or refuse it with null (next rule). */
  readonly check?: (value: string, page: HtmlPage) => string | null;
}

// Sources, in the fixed order every field follows: JSON-LD, OpenGraph, meta, microdata,
// then the field's own fallbacks.

const ld = (path: string): Rule => ({
  label: `JSON-LD \`${path}\``,
  read: ({ jsonLd }) =>
    jsonLd.main === null ? [] : lookup(jsonLd.main, path.split('.'), jsonLd.resolve),
});

const ldJoined = (path: string): Rule => ({
  label: `JSON-LD \`${path}\` (a list joined with \`, \`)`,
  read: ({ jsonLd }) =>
    jsonLd.main === null ? [] : joined(lookup(jsonLd.main, path.split('.'), jsonLd.resolve)),
});

const ldOfType = (type: string, path: string): Rule => ({
  label: `JSON-LD \`${type}\` object's \`${path}\``,
  read: ({ jsonLd }) => {
    const item = jsonLd.items.find((node) => typeNames(node).includes(type));
    return item === undefined ? [] : lookup(item, path.split('.'), jsonLd.resolve);
  },
});

const ldAny = (path: string): Rule => ({
  label: `JSON-LD \`${path}\` of any object`,
  read: ({ jsonLd }) => {
    const found: unknown[] = [];
    for (const item of jsonLd.items) {
      if (found.length >= LOOKUP_MAX_BRANCH) break;
      found.push(...lookup(item, path.split('.'), jsonLd.resolve));
    }
    return found;
  },
});

const og = (key: string): Rule => ({
  label: `\`${key}\``,
  read: ({ metadata }) => own(metadata.openGraph, key),
});

const meta = (name: string): Rule => ({
  label: `meta \`${name}\``,
  read: ({ metadata }) => own(metadata.standard, name),
});

const twitter = (key: string): Rule => ({
  label: `\`${key}\``,
  read: ({ metadata }) => own(metadata.twitter, key),
});

const md = (path: string): Rule => ({
  label: `microdata \`${path}\``,
  read: ({ microdata }) => (microdata === null ? [] : lookup(microdata, path.split('.'))),
});

const mdJoined = (path: string): Rule => ({
  label: `microdata \`${path}\` (values joined with \`, \`)`,
  read: ({ microdata }) => (microdata === null ? [] : joined(lookup(microdata, path.split('.')))),
});

const TITLE: Rule = { label: '`<title>`', read: ({ page }) => nonNull(page.title) };
const H1: Rule = { label: 'first `<h1>` of the content', read: (sources) => nonNull(sources.h1) };
const HTML_LANG: Rule = { label: '`<html lang>`', read: (sources) => nonNull(sources.lang) };
const CANONICAL: Rule = {
  label: '`<link rel=canonical>`',
  read: ({ metadata }) => nonNull(metadata.canonical),
};
const PAGE_URL: Rule = { label: 'the page URL', read: ({ page }) => [page.url] };

function own(record: Readonly<Record<string, string>>, key: string): readonly unknown[] {
  return Object.hasOwn(record, key) ? [record[key]] : [];
}

function nonNull(value: string | null): readonly unknown[] {
  return value === null ? [] : [value];
}

function joined(values: readonly unknown[]): readonly unknown[] {
  const parts: string[] = [];
  for (const value of values) {
    const part = scalarOf(value, ['name']);
    if (part === null || typeof part === 'boolean') continue;
    const text = String(part).trim();
    if (text !== '') parts.push(text);
  }
  return parts.length === 0 ? [] : [parts.join(', ')];
}

// Checks for string values.

function absoluteUrl(value: string, page: HtmlPage): string | null {
  const url = resolveUrl(value.trim(), page.baseUrl);
  return url !== null && (url.startsWith('http://') || url.startsWith('https://')) ? url : null;
}

function currencyCode(value: string): string | null {
  return /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null;
}

function languageTag(value: string): string | null {
  return /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/.test(value) ? value.replace(/_/g, '-') : null;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function isoDate(value: string): string | null {
  const match = ISO_DATE.exec(value);
  if (match === null) return null;
  const [, , month, day, hour, minute, second] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return null;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59)) return null;
  if (second !== undefined && Number(second) > 60) return null;
  return value;
}

function availabilityName(value: string): string {
  const match = /^(?:https?:\/\/schema\.org\/|schema:)([A-Za-z]+)$/.exec(value);
  return match === null ? value : match[1]!;
}

const NAME_KEYS = ['name'] as const;
const IMAGE_KEYS = ['url', 'contentUrl', '@id'] as const;

/**
 * The well-known fields and their ordered rules. A field name matches case-insensitively
 * and ignoring `_` and `-` (`published_at` is `publishedAt`).
 */
export const FIELD_SPECS: Readonly<Record<string, FieldSpec>> = {
  title: {
    rules: [
      ld('headline'),
      ld('name'),
      og('og:title'),
      twitter('twitter:title'),
      meta('title'),
      md('headline'),
      md('name'),
      TITLE,
      H1,
    ],
    keys: NAME_KEYS,
  },
  name: {
    rules: [
      ld('name'),
      ld('headline'),
      og('og:title'),
      twitter('twitter:title'),
      md('name'),
      md('headline'),
      TITLE,
      H1,
    ],
    keys: NAME_KEYS,
  },
  description: {
    rules: [
      ld('description'),
      og('og:description'),
      twitter('twitter:description'),
      meta('description'),
      md('description'),
    ],
    keys: NAME_KEYS,
    check: plainText,
  },
  price: {
    rules: [
      ld('offers.price'),
      ld('offers.lowPrice'),
      ld('offers.priceSpecification.price'),
      ld('price'),
      og('product:price:amount'),
      og('og:price:amount'),
      meta('price'),
      md('offers.price'),
      md('offers.lowPrice'),
      md('price'),
    ],
    keys: [],
  },
  currency: {
    rules: [
      ld('offers.priceCurrency'),
      ld('offers.priceSpecification.priceCurrency'),
      ld('priceCurrency'),
      og('product:price:currency'),
      og('og:price:currency'),
      meta('currency'),
      md('offers.priceCurrency'),
      md('priceCurrency'),
    ],
    keys: NAME_KEYS,
    check: currencyCode,
  },
  author: {
    rules: [
      ld('author'),
      ld('creator'),
      og('article:author'),
      og('book:author'),
      meta('author'),
      twitter('twitter:creator'),
      md('author'),
      md('creator'),
    ],
    keys: NAME_KEYS,
  },
  publishedAt: {
    rules: [
      ld('datePublished'),
      ld('dateCreated'),
      ld('uploadDate'),
      og('article:published_time'),
      meta('date'),
      meta('publish-date'),
      meta('pubdate'),
      meta('dc.date'),
      meta('dcterms.created'),
      meta('citation_publication_date'),
      md('datePublished'),
      md('dateCreated'),
    ],
    keys: NAME_KEYS,
    check: isoDate,
  },
  modifiedAt: {
    rules: [
      ld('dateModified'),
      og('article:modified_time'),
      og('og:updated_time'),
      meta('last-modified'),
      meta('dcterms.modified'),
      md('dateModified'),
    ],
    keys: NAME_KEYS,
    check: isoDate,
  },
  image: {
    rules: [
      ld('image'),
      ld('thumbnailUrl'),
      og('og:image'),
      og('og:image:url'),
      og('og:image:secure_url'),
      twitter('twitter:image'),
      twitter('twitter:image:src'),
      md('image'),
      md('thumbnailUrl'),
    ],
    keys: IMAGE_KEYS,
    check: absoluteUrl,
  },
  url: {
    rules: [ld('url'), og('og:url'), twitter('twitter:url'), md('url'), CANONICAL, PAGE_URL],
    keys: ['url', '@id'],
    check: absoluteUrl,
  },
  siteName: {
    rules: [
      ldOfType('WebSite', 'name'),
      ld('publisher'),
      og('og:site_name'),
      meta('application-name'),
      meta('apple-mobile-web-app-title'),
      md('publisher'),
    ],
    keys: NAME_KEYS,
  },
  brand: {
    rules: [
      ld('brand'),
      ld('manufacturer'),
      og('product:brand'),
      og('og:brand'),
      meta('brand'),
      md('brand'),
      md('manufacturer'),
    ],
    keys: NAME_KEYS,
  },
  sku: {
    rules: [
      ld('sku'),
      ld('offers.sku'),
      ld('productID'),
      og('product:retailer_item_id'),
      meta('sku'),
      md('sku'),
      md('offers.sku'),
      md('productID'),
    ],
    keys: [],
  },
  availability: {
    rules: [
      ld('offers.availability'),
      ld('availability'),
      og('product:availability'),
      og('og:availability'),
      md('offers.availability'),
      md('availability'),
    ],
    keys: ['@id'],
    check: availabilityName,
  },
  rating: {
    rules: [
      ld('aggregateRating.ratingValue'),
      ld('reviewRating.ratingValue'),
      md('aggregateRating.ratingValue'),
      md('reviewRating.ratingValue'),
    ],
    keys: [],
  },
  ratingCount: {
    rules: [
      ld('aggregateRating.ratingCount'),
      ld('aggregateRating.reviewCount'),
      md('aggregateRating.ratingCount'),
      md('aggregateRating.reviewCount'),
    ],
    keys: [],
  },
  language: {
    rules: [
      ld('inLanguage'),
      ldAny('inLanguage'),
      og('og:locale'),
      meta('language'),
      meta('http-equiv:content-language'),
      meta('dc.language'),
      md('inLanguage'),
      HTML_LANG,
    ],
    keys: ['alternateName', 'name'],
    check: languageTag,
  },
  keywords: {
    rules: [ldJoined('keywords'), meta('keywords'), mdJoined('keywords')],
    keys: NAME_KEYS,
  },
  category: {
    rules: [
      ld('category'),
      ld('articleSection'),
      og('article:section'),
      og('product:category'),
      meta('category'),
      md('category'),
      md('articleSection'),
    ],
    keys: NAME_KEYS,
  },
};

const BY_KEY: ReadonlyMap<string, FieldSpec> = new Map(
  Object.entries(FIELD_SPECS).map(([name, spec]) => [fieldKey(name), spec]),
);

function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * The rules of a field: a well-known field's own list, or for any other name the generic
 * lookup: the same-named property of the main JSON-LD entity, `og:<name>`,
 * `meta name=<name>` (both lower-cased), and `itemprop=<name>` of the main microdata item.
 */
export function fieldSpec(name: string): FieldSpec {
  const known = BY_KEY.get(fieldKey(name));
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  return { rules: [ld(name), og(`og:${lower}`), meta(lower), md(name)], keys: NAME_KEYS };
}

/**
 * A description as plain text: JSON-LD descriptions (a job posting's, a product's) are
 * often HTML, so markup is stripped and character references decoded; an empty result
 * is refused so the next rule can answer.
 */
function plainText(value: string): string | null {
  const text = /<[a-zA-Z!/]/.test(value) || /&[#a-zA-Z]/.test(value) ? fragmentText(value) : value;
  return text.trim() === '' ? null : text;
}
