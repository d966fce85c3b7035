import type { CollectedMetadata } from '@storefront/metadata';
import { SEO_MAX_LISTED } from './limits.js';
import type { PageFacts } from './scan.js';

/** What every rule sees. */
export interface CheckContext {
  /** The final URL of the page. */
  readonly url: string;
  readonly https: boolean;
  readonly facts: PageFacts;
  readonly metadata: CollectedMetadata;
  /** The `X-Robots-Tag` response header, or null. */
  readonly xRobotsTag: string | null;
  /** Unique internal and external links. */
  readonly internalLinks: number;
  readonly externalLinks: number;
}

/** One rule's verdict; `remediate` is used only when the check fails. */
export interface Evaluation {
  readonly pass: boolean;
  readonly value: string | null;
  readonly note: string;
  readonly remediate: string;
}

const TITLE_MIN = 10;
const TITLE_MAX = 60;
const DESCRIPTION_MIN = 50;
const DESCRIPTION_MAX = 160;
const OPEN_GRAPH_REQUIRED = ['og:title', 'og:type', 'og:image', 'og:url'] as const;

/** Length in characters (code points), as people count a title. */
function length(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `items` joined with `, `, at most {@link SEO_MAX_LISTED} of them, then "and N more". */
function listed(items: readonly string[], quote = true): string {
  const shown = items.slice(0, SEO_MAX_LISTED).map((item) => (quote ? `\`${item}\`` : item));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The rule of each rubric row, by row id. */
export const RULES: Readonly<Record<string, (context: CheckContext) => Evaluation>> = {
  title: ({ facts }) => {
    const remediate = `Give the page one \`<title>\` of ${TITLE_MIN} to ${TITLE_MAX} characters that names its subject`;
    const titles = facts.titles;
    if (titles.length === 0) return { pass: false, value: null, note: 'No `<title>`', remediate };
    const title = titles[0] as string;
    if (titles.length > 1) {
      return {
        pass: false,
        value: title,
        note: `${titles.length} \`<title>\` elements; browsers and crawlers use the first`,
        remediate: 'Keep one `<title>` and remove the others',
      };
    }
    const chars = length(title);
    if (chars === 0) return { pass: false, value: title, note: 'The title is empty', remediate };
    if (chars < TITLE_MIN || chars > TITLE_MAX) {
      const side =
        chars < TITLE_MIN
          ? `under the minimum of ${TITLE_MIN}`
          : `over the maximum of ${TITLE_MAX} (search results cut longer titles)`;
      return {
        pass: false,
        value: title,
        note: `${plural(chars, 'character')}, ${side}`,
        remediate,
      };
    }
    return { pass: true, value: title, note: plural(chars, 'character'), remediate };
  },

  description: ({ facts }) => {
    const remediate = `Add one \`<meta name="description" content="…">\` of ${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters summarising the page`;
    const descriptions = facts.descriptions;
    if (descriptions.length === 0) {
      return { pass: false, value: null, note: 'No meta description', remediate };
    }
    const description = descriptions[0] as string;
    if (descriptions.length > 1) {
      return {
        pass: false,
        value: description,
        note: `${descriptions.length} meta descriptions`,
        remediate: 'Keep one `<meta name="description">` and remove the others',
      };
    }
    const chars = length(description);
    if (chars === 0) {
      return { pass: false, value: description, note: 'The description is empty', remediate };
    }
    if (chars < DESCRIPTION_MIN || chars > DESCRIPTION_MAX) {
      const side =
        chars < DESCRIPTION_MIN
          ? `under the minimum of ${DESCRIPTION_MIN}`
          : `over the maximum of ${DESCRIPTION_MAX} (search results cut longer descriptions)`;
      return {
        pass: false,
        value: description,
        note: `${plural(chars, 'character')}, ${side}`,
        remediate,
      };
    }
    return { pass: true, value: description, note: plural(chars, 'character'), remediate };
  },

  h1: ({ facts }) => {
    const { h1 } = facts;
    const value = h1.length === 0 ? null : (h1[0] as string);
    if (h1.length === 0) {
      return {
        pass: false,
        value,
        note: 'No `<h1>`',
        remediate: 'Add one `<h1>` naming the main subject of the page',
      };
    }
    if (h1.length > 1) {
      return {
        pass: false,
        value,
        note: `${h1.length} \`<h1>\` elements: ${listed(h1)}`,
        remediate: 'Keep one `<h1>` for the page’s subject and make the others `<h2>`',
      };
    }
    if (value === '') {
      return {
        pass: false,
        value,
        note: 'The `<h1>` has no text',
        remediate: 'Put the page’s subject in the `<h1>` as text',
      };
    }
    return { pass: true, value, note: 'One `<h1>`', remediate: '' };
  },

  'heading-order': ({ facts }) => {
    const { headings } = facts;
    const remediate =
      'Nest headings one level at a time (`h1`, then `h2`, then `h3`); style them with CSS rather than picking a level for its size';
    if (headings.length === 0) {
      return { pass: true, value: null, note: 'No headings', remediate };
    }
    const outline = headings.map((level) => `h${level}`);
    const value = listed(outline, false);
    const skips: string[] = [];
    for (let i = 1; i < headings.length; i++) {
      const previous = headings[i - 1] as number;
      const level = headings[i] as number;
      if (level > previous + 1) skips.push(`\`h${previous}\` → \`h${level}\``);
    }
    if (skips.length > 0) {
      return {
        pass: false,
        value,
        note: `${plural(skips.length, 'skipped level')}: ${listed(skips, false)}`,
        remediate,
      };
    }
    return { pass: true, value, note: plural(headings.length, 'heading'), remediate };
  },

  canonical: ({ facts, url }) => {
    const remediate =
      'Add one `<link rel="canonical" href="https://…">` with the absolute URL this page should be indexed under';
    const { canonicals } = facts;
    if (canonicals.length === 0) {
      return { pass: false, value: null, note: 'No `<link rel="canonical">`', remediate };
    }
    const first = canonicals[0] as { raw: string; url: string | null };
    const value = first.raw;
    const distinct = new Set(canonicals.map((c) => c.url ?? c.raw));
    if (distinct.size > 1) {
      return {
        pass: false,
        value: listed([...distinct]),
        note: `${distinct.size} different canonical URLs; crawlers may ignore them all`,
        remediate: 'Keep one canonical URL',
      };
    }
    if (first.url === null) {
      return { pass: false, value, note: 'The canonical is not an http(s) URL', remediate };
    }
    if (!/^https?:/i.test(first.raw)) {
      return {
        pass: false,
        value,
        note: `A relative canonical; it resolves to \`${first.url}\``,
        remediate: `Write the canonical as an absolute URL: \`<link rel="canonical" href="${first.url}">\``,
      };
    }
    const note = first.url === url ? 'Points to this page' : `Points to \`${first.url}\``;
    return { pass: true, value, note, remediate };
  },

  indexable: ({ facts, xRobotsTag }) => {
    const sources: string[] = [];
    const blocked: string[] = [];
    const nofollow: string[] = [];
    for (const { name, content } of facts.robotsMeta) {
      sources.push(`<meta name="${name}" content="${content}">`);
      const tokens = directives(content);
      if (tokens.includes('noindex') || tokens.includes('none')) blocked.push(`meta ${name}`);
      else if (tokens.includes('nofollow')) nofollow.push(`meta ${name}`);
    }
    if (xRobotsTag !== null) {
      sources.push(`X-Robots-Tag: ${xRobotsTag}`);
      for (const rule of xRobotsRules(xRobotsTag)) {
        const where = rule.agent === null ? 'X-Robots-Tag' : `X-Robots-Tag for ${rule.agent}`;
        if (rule.tokens.includes('noindex') || rule.tokens.includes('none')) blocked.push(where);
        else if (rule.tokens.includes('nofollow')) nofollow.push(where);
      }
    }
    const value = sources.length === 0 ? null : sources.join('\n');
    if (blocked.length > 0) {
      return {
        pass: false,
        value,
        note: `Indexing is forbidden by ${listed(blocked, false)}`,
        remediate:
          'If the page should appear in search results, remove `noindex` (and `none`) from the robots meta and the `X-Robots-Tag` header',
      };
    }
    const note =
      sources.length === 0
        ? 'No robots directives: indexing is allowed'
        : nofollow.length > 0
          ? `Indexing is allowed; links are not followed (\`nofollow\` in ${listed(nofollow, false)})`
          : 'Indexing is allowed';
    return { pass: true, value, note, remediate: '' };
  },

  hreflang: ({ facts, url, metadata }) => {
    const { hreflang } = facts;
    const remediate =
      'List every language version with `<link rel="alternate" hreflang="xx" href="https://…">`, one URL per valid language code, including this page itself, and the same set on every version';
    if (hreflang.length === 0) {
      return {
        pass: true,
        value: null,
        note: 'Not used (a page in one language needs none)',
        remediate,
      };
    }
    const value = listed(
      hreflang.map((h) => `${h.lang} → ${h.href ?? '(invalid URL)'}`),
      false,
    );
    const problems: string[] = [];
    const invalid = hreflang.filter((h) => !validHreflang(h.lang)).map((h) => h.lang);
    if (invalid.length > 0) problems.push(`invalid language codes ${listed(invalid)}`);
    const unresolved = hreflang.filter((h) => h.href === null).map((h) => h.lang);
    if (unresolved.length > 0) problems.push(`no http(s) URL for ${listed(unresolved)}`);
    const byLang = new Map<string, Set<string>>();
    for (const { lang, href } of hreflang) {
      if (href === null) continue;
      const key = lang.toLowerCase();
      const urls = byLang.get(key) ?? new Set<string>();
      urls.add(href);
      byLang.set(key, urls);
    }
    const conflicting = [...byLang].filter(([, urls]) => urls.size > 1).map(([lang]) => lang);
    if (conflicting.length > 0) problems.push(`several URLs for ${listed(conflicting)}`);
    const self = new Set([url, metadata.canonical].filter((u): u is string => u !== null));
    if (!hreflang.some((h) => h.href !== null && self.has(h.href))) {
      problems.push('no annotation points back to this page');
    }
    if (problems.length > 0) {
      return { pass: false, value, note: `${problems.join('; ')}`, remediate };
    }
    return { pass: true, value, note: plural(hreflang.length, 'annotation'), remediate };
  },

  'image-alt': ({ facts }) => {
    const { images, imagesWithAlt, imagesWithoutAlt } = facts;
    const value = images === 0 ? null : `${imagesWithAlt} of ${images} images have alt`;
    if (images === 0) return { pass: true, value, note: 'No images', remediate: '' };
    if (imagesWithoutAlt.length > 0) {
      return {
        pass: false,
        value,
        note: `Without \`alt\`: ${listed(imagesWithoutAlt)}`,
        remediate:
          'Give every `<img>` an `alt` describing it, or `alt=""` when it is decoration only',
      };
    }
    return { pass: true, value, note: 'Every image has `alt`', remediate: '' };
  },

  'structured-data': ({ facts }) => {
    const { jsonLdBlocks, jsonLdInvalid, jsonLdTypes, microdata } = facts;
    const parts: string[] = [];
    if (jsonLdBlocks > 0) parts.push(plural(jsonLdBlocks, 'JSON-LD block'));
    if (jsonLdTypes.length > 0) parts.push(`types ${listed(jsonLdTypes)}`);
    if (microdata > 0) parts.push(plural(microdata, 'microdata item'));
    const value = parts.length === 0 ? null : parts.join('; ');
    if (jsonLdInvalid.length > 0) {
      return {
        pass: false,
        value,
        note: `JSON-LD ${jsonLdInvalid.length === 1 ? 'block' : 'blocks'} ${listed(jsonLdInvalid.map(String), false)} of ${jsonLdBlocks} did not parse as JSON`,
        remediate:
          'Fix the JSON of every `<script type="application/ld+json">` block (check it with a JSON parser); crawlers drop a block that does not parse',
      };
    }
    if (jsonLdBlocks === 0 && microdata === 0) {
      return {
        pass: false,
        value,
        note: 'No JSON-LD and no microdata',
        remediate:
          'Describe the page with schema.org JSON-LD in a `<script type="application/ld+json">` (for example `Article`, `Product` or `Organization`)',
      };
    }
    return { pass: true, value, note: 'Present and parseable', remediate: '' };
  },

  'open-graph': ({ metadata }) => {
    const og = metadata.openGraph;
    const present = OPEN_GRAPH_REQUIRED.filter((key) => (og[key] ?? '') !== '');
    const missing = OPEN_GRAPH_REQUIRED.filter((key) => (og[key] ?? '') === '');
    const value =
      present.length === 0 ? null : present.map((key) => `${key}=${og[key]}`).join('\n');
    if (missing.length > 0) {
      return {
        pass: false,
        value,
        note: `Missing ${listed(missing)}`,
        remediate: `Add ${missing.map((key) => `\`<meta property="${key}" content="…">\``).join(', ')}`,
      };
    }
    return { pass: true, value, note: 'The four required properties are present', remediate: '' };
  },

  twitter: ({ metadata }) => {
    const tw = metadata.twitter;
    const og = metadata.openGraph;
    const card = tw['twitter:card'] ?? null;
    const title = tw['twitter:title'] ?? og['og:title'] ?? null;
    const image = tw['twitter:image'] ?? tw['twitter:image:src'] ?? og['og:image'] ?? null;
    const value = card === null ? null : `twitter:card=${card}`;
    const missing: string[] = [];
    if (card === null) missing.push('`twitter:card`');
    if (title === null || title === '') missing.push('a title (`twitter:title` or `og:title`)');
    if (image === null) missing.push('an image (`twitter:image` or `og:image`)');
    if (missing.length > 0) {
      return {
        pass: false,
        value,
        note: `Missing ${missing.join(', ')}`,
        remediate:
          'Add `<meta name="twitter:card" content="summary_large_image">` and a title and an image (Twitter falls back to `og:title` and `og:image`)',
      };
    }
    return { pass: true, value, note: 'A card with a title and an image', remediate: '' };
  },

  links: ({ internalLinks, externalLinks }) => {
    const value = `${internalLinks} internal, ${externalLinks} external`;
    if (internalLinks === 0) {
      return {
        pass: false,
        value,
        note: 'No link to another page of the site: crawlers reaching this page go no further',
        remediate: 'Link to related pages of the site with ordinary `<a href>` links',
      };
    }
    return { pass: true, value, note: plural(internalLinks, 'internal link'), remediate: '' };
  },

  'mixed-content': ({ https, facts }) => {
    if (!https) {
      return {
        pass: false,
        value: null,
        note: 'The page is served over plain HTTP',
        remediate:
          'Serve the page over HTTPS and redirect its `http:` URL there; search engines prefer HTTPS pages',
      };
    }
    const { insecure } = facts;
    if (insecure.length > 0) {
      return {
        pass: false,
        value: listed(insecure),
        note: `${plural(insecure.length, 'subresource')} loaded over \`http:\` (browsers block or flag them)`,
        remediate: 'Load every image, script, style sheet and frame over `https:`',
      };
    }
    return { pass: true, value: null, note: 'No http subresources', remediate: '' };
  },
};

/** The directives of a robots meta `content`, lower-cased. */
function directives(content: string): string[] {
  return content
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
}

/**
 * The rules of an `X-Robots-Tag` value: comma-separated directives, where `agent:`
 * before a directive starts the rules of that crawler (`googlebot: noindex`). A
 * directive with a value of its own (`unavailable_after: …`, `max-snippet: 50`) is
 * kept whole.
 */
function xRobotsRules(value: string): { agent: string | null; tokens: string[] }[] {
  const rules: { agent: string | null; tokens: string[] }[] = [];
  let current: { agent: string | null; tokens: string[] } = { agent: null, tokens: [] };
  rules.push(current);
  for (const raw of value.split(',')) {
    let token = raw.trim().toLowerCase();
    const colon = token.indexOf(':');
    if (colon > 0) {
      const head = token.slice(0, colon).trim();
      if (!KNOWN_VALUED.has(head)) {
        current = { agent: head, tokens: [] };
        rules.push(current);
        token = token.slice(colon + 1).trim();
      }
    }
    if (token !== '') current.tokens.push(token);
  }
  return rules.filter((rule) => rule.tokens.length > 0);
}

/** Robots directives that take a value after a colon. */
const KNOWN_VALUED = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/** A BCP 47 language tag of the shape hreflang takes (language, optional script, optional region), or `x-default`. */
function validHreflang(lang: string): boolean {
  if (lang.toLowerCase() === 'x-default') return true;
  return /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i.test(lang);
}
