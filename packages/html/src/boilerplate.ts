import { getAttr } from './dom.js';
import type { HtmlElement } from './types.js';

/** Elements that never carry readable content: code, embedded objects, form controls, metadata. */
export const NON_CONTENT_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'canvas',
  'svg',
  'map',
  'audio',
  'video',
  'source',
  'track',
  'link',
  'meta',
  'head',
  'title',
  'base',
  'button',
  'input',
  'select',
  'textarea',
  'option',
  'optgroup',
  'datalist',
  'dialog',
  'slot',
]);

/** Landmark elements that hold site chrome rather than the page's own content. */
export const CHROME_TAGS: ReadonlySet<string> = new Set(['nav', 'aside', 'menu']);

/** ARIA roles of site chrome. */
export const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
  'tooltip',
  'marquee',
]);

/**
 * `class`/`id` tokens (split on anything but letters and digits, lower-cased) that mark
 * ads, cookie and consent banners, share bars, newsletter boxes, breadcrumbs and other
 * chrome. Matching whole tokens keeps `header-image` or `loading` from matching.
 */
export const CHROME_TOKENS: ReadonlySet<string> = new Set([
  'ad',
  'ads',
  'adv',
  'advert',
  'adverts',
  'advertisement',
  'advertising',
  'adslot',
  'adunit',
  'sponsor',
  'sponsored',
  'promo',
  'promoted',
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'cmp',
  'newsletter',
  'subscribe',
  'signup',
  'paywall',
  'share',
  'sharing',
  'social',
  'breadcrumb',
  'breadcrumbs',
  'skiplink',
  'skip',
  'sidebar',
  'related',
  'recommended',
  'popup',
  'modal',
  'overlay',
  'outbrain',
  'taboola',
  'sronly',
  'sr',
  'visuallyhidden',
  'hidden',
  'offscreen',
  'navbar',
  'topbar',
  'menu',
  'masthead',
  'toolbar',
  'editsection',
]);

/**
 * Chrome words that are also written run together with another word into one token
 * (`relatedposts`, `socialshare`, `sidebarwidget`, `newsletterbox`): a token that starts
 * or ends with one of them is chrome too. Only long words that do not begin or end
 * ordinary words: `ad` or `share` would match `address` or `shareholder`.
 */
const COMPOUND_CHROME: readonly string[] = [
  'related',
  'social',
  'sidebar',
  'newsletter',
  'breadcrumb',
  'recommended',
];

/** Tags a chrome token never removes: the page's own content containers. */
const PROTECTED_TAGS: ReadonlySet<string> = new Set(['html', 'body', 'main', 'article']);

/** Sectioning elements: a `<header>`/`<footer>` inside one belongs to it, not to the site. */
const SECTIONING: ReadonlySet<string> = new Set(['article', 'main', 'section']);

const HIDDEN_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/**
 * True for chrome whatever its text or class: non-content elements, chrome landmarks
 * (`nav`, `aside`, `menu`), a `<header>` or `<footer>` outside a sectioning element
 * (`inSection` answers that, as a flag or by asking), chrome ARIA roles, and hidden
 * elements. The content selection and {@link isBoilerplate} share it.
 */
export function isChrome(
  element: HtmlElement,
  inSection: boolean | ((element: HtmlElement) => boolean),
): boolean {
  const tag = element.tagName;
  if (NON_CONTENT_TAGS.has(tag) || CHROME_TAGS.has(tag)) return true;
  if (
    (tag === 'header' || tag === 'footer') &&
    !(typeof inSection === 'boolean' ? inSection : inSection(element))
  ) {
    return true;
  }
  for (const attr of element.attrs) {
    switch (attr.name) {
      case 'hidden':
        return true;
      case 'aria-hidden':
        if (attr.value.trim().toLowerCase() === 'true') return true;
        break;
      case 'role':
        if (CHROME_ROLES.has(attr.value.trim().toLowerCase())) return true;
        break;
      case 'style':
        if (HIDDEN_STYLE.test(attr.value)) return true;
        break;
    }
  }
  return false;
}

/**
 * True when an element is boilerplate that text and markdown leave out, with everything
 * inside it: non-content elements ({@link NON_CONTENT_TAGS}), site chrome by tag
 * ({@link CHROME_TAGS}), by role ({@link CHROME_ROLES}) or by class/id token
 * ({@link CHROME_TOKENS}), a `<header>` or `<footer>` that is not inside an article,
 * main or section, and hidden elements (`hidden`, `aria-hidden="true"`, inline
 * `display:none` or `visibility:hidden`).
 */
export function isBoilerplate(element: HtmlElement): boolean {
  if (isChrome(element, insideSection)) return true;
  const tag = element.tagName;
  const classes = getAttr(element, 'class');
  const id = getAttr(element, 'id');
  if (PROTECTED_TAGS.has(tag) || (element as Marked)[CONTENT_HOLDER] === true) return false;
  return hasChromeToken(classes) || hasChromeToken(id);
}

/**
 * Elements that hold a `<main>`, `role="main"` or `<article>`: a class or id token
 * never removes them (a layout wrapper such as `layout--withSidebar` around the posts
 * of a thread is not a sidebar). Filled by `loadHtml` for every tree it builds.
 */
const CONTENT_HOLDER = Symbol('@storefront/html content holder');
// The tree is built by `loadHtml` and owned by this package: marks live on its nodes,
// so they die with the tree (a weak collection would keep them to the next full GC).
type Marked = HtmlElement & { [CONTENT_HOLDER]?: true; [IN_SECTION]?: boolean };
const IN_SECTION = Symbol('@storefront/html inside section');

/** Mark the ancestors of the main-content elements (`main`, `role="main"`, `article`) of a fresh tree. */
export function markContentHolders(holders: readonly HtmlElement[]): void {
  for (const holder of holders) {
    let node = holder.parentNode;
    while (node !== null && 'tagName' in node && (node as Marked)[CONTENT_HOLDER] !== true) {
      (node as Marked)[CONTENT_HOLDER] = true;
      node = node.parentNode;
    }
  }
}

// Class and id strings repeat across a page and across pages: remember the verdicts.
// The cache only saves time; the answer for a string never changes.
const tokenVerdicts = new Map<string, boolean>();
const TOKEN_CACHE_MAX = 4096;

function hasChromeToken(value: string | null): boolean {
  if (value === null || value === '') return false;
  let verdict = tokenVerdicts.get(value);
  if (verdict === undefined) {
    verdict = chromeTokenIn(value);
    if (tokenVerdicts.size >= TOKEN_CACHE_MAX) tokenVerdicts.clear();
    tokenVerdicts.set(value, verdict);
  }
  return verdict;
}

/**
 * The tokens of a class or id value: split on whitespace, a BEM modifier (`block--state`)
 * dropped, camelCase split (`cookieBanner` -> cookie, banner), lower-cased, split on
 * anything but letters and digits.
 */
export function splitTokens(value: string): string[] {
  const out: string[] = [];
  for (const name of value.split(/[\t\n\f\r ]+/)) {
    // BEM modifiers (`block--withSidebar`) describe a state, not what the element is.
    const block = name.split('--')[0]!;
    for (const token of block
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)) {
      if (token !== '') out.push(token);
    }
  }
  return out;
}

/**
 * True when a class or id value holds a {@link CHROME_TOKENS} token (or a joined pair), or
 * a token run together with one of the {@link COMPOUND_CHROME} words.
 */
export function chromeTokenIn(value: string): boolean {
  for (const name of value.split(/[\t\n\f\r ]+/)) {
    const tokens = splitTokens(name);
    for (const token of tokens)
      if (CHROME_TOKENS.has(token) || isCompoundChrome(token)) return true;
    // `sr-only`, `visually-hidden`, `skip-link`: joined pairs.
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (CHROME_TOKENS.has(tokens[i]! + tokens[i + 1]!)) return true;
    }
  }
  return false;
}

/** `relatedposts`, `socialshare`: a longer token that starts or ends with a {@link COMPOUND_CHROME} word. */
function isCompoundChrome(token: string): boolean {
  for (const word of COMPOUND_CHROME) {
    if (token.length > word.length && (token.startsWith(word) || token.endsWith(word))) {
      return true;
    }
  }
  return false;
}

// Whether an element sits inside an article, main or section, memoised on the elements
// climbed: asking for every <header>/<footer> of a 10,000-level page would otherwise
// climb the same ancestors again and again (quadratic).

function insideSection(element: HtmlElement): boolean {
  const path: HtmlElement[] = [];
  let answer = false;
  let node = element.parentNode;
  while (node !== null && 'tagName' in node) {
    const cached = (node as Marked)[IN_SECTION];
    if (cached !== undefined) {
      answer = cached;
      break;
    }
    if (SECTIONING.has(node.tagName) || getAttr(node, 'role') === 'main') {
      answer = true;
      (node as Marked)[IN_SECTION] = true;
      break;
    }
    path.push(node);
    node = node.parentNode;
  }
  // Every ancestor climbed past has the same answer as the point where the climb stopped.
  for (const ancestor of path) (ancestor as Marked)[IN_SECTION] = answer;
  return answer;
}
