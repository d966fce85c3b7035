import { chromeTokenIn, isChrome, NON_CONTENT_TAGS, splitTokens } from './boilerplate.js';
import { getAttr, isElement, isText, textContent, walk } from './dom.js';
import { pageMemo } from './memo.js';
import { BLOCK_TAGS, readableText } from './text.js';
import type { HtmlElement, HtmlNode, HtmlPage } from './types.js';

/**
 * The main content of a page, chosen once and shared by every product that reads it
 * (text, markdown, extract): where to start, and which elements below it to leave out
 * with everything inside them.
 */
export interface ContentSelection {
  /** The element the content is read from (the best-scoring block, its parent, or `<body>`). */
  readonly root: HtmlNode;
  /** True for an element below {@link root} that the content leaves out, subtree and all. */
  readonly leaves: (element: HtmlElement) => boolean;
  /** How the root was found: scored, or a fallback for a page whose scored content was empty. */
  readonly method: 'scored' | 'landmark' | 'body' | 'whole-body';
}

/**
 * Select a page's main content by scoring its blocks, the way a reader mode does, in two
 * iterative passes over the shared parse5 tree (no recursion, so a deep page cannot
 * exhaust the stack):
 *
 * 1. **Measure and score.** Every element gets its text length, link-text length, comma
 *    count and counts of paragraphs, images, list items, form controls and embeds.
 *    Every paragraph-like unit of text (a `<p>`, `<pre>`, `<td>`, `<h2>`–`<h6>`, a block
 *    with no block inside it, or a run of inline text between blocks) of at least 25
 *    characters scores `1 + commas + min(length / 100, 3)`, added in full to its parent,
 *    half to its grandparent and a third of its level to the three above. A container
 *    starts from a base for its tag (`div` +5, `article` and `main` +10, `itemprop=
 *    articleBody` +25, lists and headings below zero) and a class/id weight of ±25 per
 *    attribute from whole tokens (`content`, `article`, `post`… up; `sidebar`,
 *    `comment`, `share`… down). Its final score is multiplied by one minus its link
 *    density.
 * 2. **Pick and clean.** The best container wins (the first in document order on a tie);
 *    when three other candidates score within a quarter of it, their common ancestor
 *    wins instead; a parent that scores higher is climbed to. Siblings that score at
 *    least a fifth of the winner, or are paragraphs of real prose, join it. Below the
 *    root, elements are left out when they are chrome by tag or role (`nav`, `aside`,
 *    site `header`/`footer`, `role=navigation`…), hidden, non-content (`script`,
 *    `form` controls…), comments, short bylines, or link-dense and thin lists and blocks
 *    (related stories, share bars, tag clouds). A class/id token such as `sidebar` only
 *    leaves an element out when its own text is weak: an element with 400+ characters of
 *    prose at low link density stays whatever its class says.
 *
 * When the scored content has no text, the body is read with only the chrome left out,
 * then the whole body: a page with text never gives an empty result. Deterministic: the
 * same tree gives the same selection. Memoised per page.
 */
export function selectContent(page: HtmlPage): ContentSelection {
  return pageMemo(page, SELECTION, () => select(page));
}

const SELECTION = Symbol('@storefront/html content selection');

/** The element the main content is read from ({@link selectContent}'s root). */
export function contentRoot(page: HtmlPage): HtmlNode {
  return selectContent(page).root;
}

/**
 * The readable text of the page's main content ({@link selectContent} read by
 * {@link readableText}): what `/buy/fetch` and the page text of notarize and diff carry.
 */
export function contentText(page: HtmlPage): string {
  const { root, leaves } = selectContent(page);
  return readableText(root, { leaves });
}

/** Per-element measures from the first pass. */
interface Stats {
  /** Characters of text (whitespace runs count as one), chrome excluded. */
  text: number;
  /** Characters of that text inside links (`#` links count 0.3). */
  links: number;
  commas: number;
  paragraphs: number;
  images: number;
  items: number;
  inputs: number;
  embeds: number;
  /** Characters of text inside headings. */
  headings: number;
  /** Characters of heading text that are also link text (a teaser's linked headline). */
  headingLinks: number;
  /** Table rows below, whether a caption, `th` or `thead` is, and the widest row's cells. */
  rows: number;
  headers: boolean;
  cells: number;
  /** Whether a block element sits below this one. */
  hasBlock: boolean;
  /** Content score; NaN until the element is a candidate. */
  score: number;
  /** Inline text run since the last block child: length and commas. */
  run: number;
  runCommas: number;
  parent: Stats | null;
  element: HtmlElement;
}

const SCORED_LEAVES: ReadonlySet<string> = new Set([
  'p',
  'pre',
  'td',
  'section',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'article',
  'main',
]);
/** Containers whose inline runs between blocks count as paragraphs of their own. */
const RUN_HOLDERS: ReadonlySet<string> = new Set(['div', 'section', 'article', 'main', 'td']);
const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const EMBEDS: ReadonlySet<string> = new Set(['iframe', 'embed', 'object', 'video', 'audio']);
const INPUTS: ReadonlySet<string> = new Set(['input', 'select', 'textarea', 'button']);
const CLEANED: ReadonlySet<string> = new Set(['div', 'ul', 'table', 'form', 'fieldset']);
const SECTIONING: ReadonlySet<string> = new Set(['article', 'main', 'section']);

const BASE_SCORES: Readonly<Record<string, number>> = {
  div: 5,
  article: 10,
  main: 10,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5,
};

/** Class/id tokens that say "this is the content". */
const POSITIVE_TOKENS: ReadonlySet<string> = new Set([
  'article',
  'articlebody',
  'body',
  'content',
  'entry',
  'hentry',
  'main',
  'page',
  'post',
  'text',
  'blog',
  'story',
  'prose',
  'markdown',
]);

/** Class/id tokens that lower a container's score, beyond the chrome tokens. */
const NEGATIVE_TOKENS: ReadonlySet<string> = new Set([
  'comment',
  'comments',
  'disqus',
  'footer',
  'footnote',
  'widget',
  'meta',
  'tags',
  'tag',
  'banner',
  'combx',
  'contact',
  'masthead',
  'scroll',
  'shoutbox',
  'skyscraper',
  'shopping',
  'byline',
  'author',
  'pagination',
  'pager',
  'teaser',
  'teasers',
  'trending',
  'popular',
]);

/** Tokens of user comments: left out of the content below the root whatever their length. */
const COMMENT_TOKENS: ReadonlySet<string> = new Set(['comment', 'comments', 'disqus', 'respond']);
/** Tokens of a byline: left out when short. */
const BYLINE_TOKENS: ReadonlySet<string> = new Set(['byline', 'author', 'dateline']);

const MIN_UNIT = 25;
/** Content shorter than this (characters) is retried with lighter cleaning and wider roots. */
const MIN_CONTENT = 500;
/** Text that overrules a chrome class/id token: this many characters of prose... */
const STRONG_TEXT = 400;
/** ...at most this link density. */
const STRONG_LINK_DENSITY = 0.25;

function select(page: HtmlPage): ContentSelection {
  const body = page.body ?? page.html;
  if (body === null) {
    return { root: page.document, leaves: () => false, method: 'whole-body' };
  }
  const dropped = new Set<HtmlElement>();
  const stats = new Map<HtmlElement, Stats>();
  const candidates: Stats[] = [];
  const landmarks: Stats[] = [];
  measure(body, stats, dropped, candidates, landmarks);

  // Attempts in order: the scored root fully cleaned, then lightly cleaned (comments and
  // weak chrome-token elements only), then the landmark, then the body, both lightly
  // cleaned. The first with at least MIN_CONTENT characters wins: a short page is read
  // whole rather than cut down to a fragment.
  let best: { selection: ContentSelection; kept: number } | null = null;
  const attempt = (
    root: HtmlElement,
    base: ReadonlySet<HtmlElement>,
    full: boolean,
    method: ContentSelection['method'],
  ): boolean => {
    const leaves = new Set(base);
    const kept = clean(root, stats, leaves, full);
    if (best === null || kept > best.kept) {
      best = { selection: { root, leaves: (e) => leaves.has(e), method }, kept };
    }
    return kept >= MIN_CONTENT;
  };
  const top = pickTop(body, candidates);
  if (top !== null) {
    const { root, siblings } = wholeStructure(withSiblings(top, stats));
    const base = new Set(dropped);
    if (siblings !== null) {
      for (const child of root.childNodes) {
        if (isElement(child) && !siblings.has(child)) base.add(child);
      }
    }
    if (attempt(root, base, true, 'scored') || attempt(root, base, false, 'scored')) {
      return best!.selection;
    }
  }
  const landmark = landmarkRoot(landmarks);
  if (landmark !== null && attempt(landmark, dropped, false, 'landmark')) return best!.selection;
  // Short content. A short page (under MIN_CONTENT characters in all) is read whole;
  // on a longer page the longest of the scored root and the landmark is kept.
  const found = best as { selection: ContentSelection; kept: number } | null;
  const scoredOrLandmark = found;
  best = null;
  attempt(body, dropped, false, 'body');
  const whole = best as { selection: ContentSelection; kept: number } | null;
  if (scoredOrLandmark !== null && scoredOrLandmark.kept > 0) {
    if (landmark !== null || whole === null || whole.kept >= MIN_CONTENT) {
      return scoredOrLandmark.selection;
    }
  }
  if (whole !== null && whole.kept > 0) return whole.selection;
  // Only chrome has text: the whole body, but for non-content elements.
  return {
    root: body,
    leaves: (e) => NON_CONTENT_TAGS.has(e.tagName),
    method: 'whole-body',
  };
}

/** First pass: measure every element, drop chrome, and score paragraph units into candidates. */
function measure(
  body: HtmlElement,
  stats: Map<HtmlElement, Stats>,
  dropped: Set<HtmlElement>,
  candidates: Stats[],
  landmarks: Stats[],
): void {
  const stack: Stats[] = [];
  let linkDepth = 0;
  let linkWeight = 1;
  const linkWeights: number[] = [];
  let sectionDepth = 0;
  let headingDepth = 0;
  // `<br>`s in a row with nothing but whitespace between: two or more end a paragraph.
  let breaks = 0;

  const addScore = (from: Stats | null, points: number) => {
    // Full to the first, half to the second, then a third of the level to three more.
    let level = 0;
    for (let s = from; s !== null && level < 5; s = s.parent, level++) {
      if (Number.isNaN(s.score)) {
        s.score = baseScore(s.element);
        candidates.push(s);
      }
      s.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
    }
  };
  const flushRun = (s: Stats) => {
    if (s.run >= MIN_UNIT && RUN_HOLDERS.has(s.element.tagName)) {
      addScore(s, 1 + s.runCommas + Math.min(Math.floor(s.run / 100), 3));
    }
    s.run = 0;
    s.runCommas = 0;
  };

  walk(body, {
    enter(node) {
      if (isText(node)) {
        const top = stack[stack.length - 1];
        if (top === undefined) return;
        const { length, commas } = measureText(node.value);
        if (length > 0) breaks = 0;
        top.text += length;
        top.commas += commas;
        top.run += length;
        top.runCommas += commas;
        if (linkDepth > 0) top.links += length * linkWeight;
        if (headingDepth > 0) {
          top.headings += length;
          if (linkDepth > 0) top.headingLinks += length;
        }
        return;
      }
      if (!isElement(node)) return 'skip';
      const tag = node.tagName;
      const parent = stack[stack.length - 1] ?? null;
      if (tag === 'br') {
        if (++breaks === 2 && parent !== null && RUN_HOLDERS.has(parent.element.tagName)) {
          parent.hasBlock = true;
          flushRun(parent);
        }
        return 'skip';
      }
      breaks = 0;
      if (node !== body && isChrome(node, sectionDepth > 0)) {
        if (parent !== null) {
          if (EMBEDS.has(tag)) parent.embeds++;
          else if (INPUTS.has(tag)) parent.inputs++;
        }
        dropped.add(node);
        return 'skip';
      }
      const s: Stats = {
        text: 0,
        links: 0,
        commas: 0,
        paragraphs: tag === 'p' ? 1 : 0,
        images: tag === 'img' ? 1 : 0,
        items: tag === 'li' ? 1 : 0,
        inputs: 0,
        embeds: 0,
        headings: 0,
        headingLinks: 0,
        rows: tag === 'tr' ? 1 : 0,
        headers: tag === 'th' || tag === 'caption' || tag === 'thead',
        cells: 0,
        hasBlock: false,
        score: Number.NaN,
        run: 0,
        runCommas: 0,
        parent,
        element: node,
      };
      stats.set(node, s);
      if (tag === 'main' || tag === 'article' || getAttr(node, 'role') === 'main')
        landmarks.push(s);
      if (parent !== null && BLOCK_TAGS.has(tag)) {
        // A block starts: the inline run of the parent so far is a paragraph of its own.
        parent.hasBlock = true;
        flushRun(parent);
      }
      stack.push(s);
      if (tag === 'a') {
        linkWeights.push(linkWeight);
        const href = getAttr(node, 'href');
        linkWeight = href?.startsWith('#') ? 0.3 : 1;
        linkDepth++;
      }
      if (SECTIONING.has(tag)) sectionDepth++;
      if (HEADINGS.has(tag)) headingDepth++;
    },
    leave(node) {
      if (!isElement(node)) return;
      const s = stack[stack.length - 1];
      if (s === undefined || s.element !== node) return;
      stack.pop();
      const tag = node.tagName;
      if (tag === 'a') {
        linkDepth--;
        linkWeight = linkWeights.pop() ?? 1;
      }
      if (SECTIONING.has(tag)) sectionDepth--;
      if (HEADINGS.has(tag)) headingDepth--;
      if (!s.hasBlock && SCORED_LEAVES.has(tag)) {
        // A paragraph: its whole text scores into its ancestors.
        if (s.text >= MIN_UNIT) {
          addScore(s.parent, 1 + s.commas + Math.min(Math.floor(s.text / 100), 3));
        }
      } else if (s.hasBlock) {
        flushRun(s);
      }
      const parent = s.parent;
      if (parent !== null) {
        parent.text += s.text;
        parent.links += s.links;
        parent.commas += s.commas;
        parent.paragraphs += s.paragraphs;
        parent.images += s.images;
        parent.items += s.items;
        parent.inputs += s.inputs;
        parent.embeds += s.embeds;
        parent.headings += s.headings;
        parent.headingLinks += s.headingLinks;
        parent.rows += s.rows;
        parent.headers ||= s.headers;
        // A row's width is its own cells; above it, the widest row's.
        if (parent.element.tagName === 'tr') {
          if (tag === 'td' || tag === 'th') parent.cells++;
        } else {
          parent.cells = Math.max(parent.cells, s.cells);
        }
        // An inline element holding blocks (a `<span>` around a `<main>`) is a block too.
        if (BLOCK_TAGS.has(tag) || s.hasBlock) parent.hasBlock = true;
        else {
          // Inline: its text continues the parent's run.
          parent.run += s.text;
          parent.runCommas += s.commas;
        }
      }
    },
  });
}

/** The first `<main>` (or `role=main`) with text, else the only `<article>` with text. */
function landmarkRoot(landmarks: readonly Stats[]): HtmlElement | null {
  const withText = landmarks.filter((s) => s.text > 0);
  const main = withText.find((s) => s.element.tagName !== 'article');
  if (main !== undefined) return main.element;
  const articles = withText.filter((s) => s.element.tagName === 'article');
  return articles.length === 1 ? articles[0]!.element : null;
}

/** The best candidate after link density, refined as reader modes do; null when nothing scored. */
function pickTop(body: HtmlElement, candidates: readonly Stats[]): Stats | null {
  let top: Stats | null = null;
  for (const c of candidates) {
    c.score *= 1 - linkDensity(c);
    if (top === null || c.score > top.score) top = c;
  }
  if (top === null || top.element === body) return top;
  const best = top.score;

  // Several candidates nearly as good: the content is spread over them (a thread, a
  // page of sections), so take the closest ancestor holding three of them.
  const close = candidates.filter((c) => c !== top && c.score >= top!.score * 0.75);
  if (close.length >= 3) {
    for (let a = top.parent; a !== null && a.element !== body; a = a.parent) {
      let holds = 0;
      for (const c of close) if (isAncestor(a, c)) holds++;
      if (holds >= 3) {
        top = a;
        break;
      }
    }
  }

  // Climb to a parent that scores higher, through parents that keep at least a third.
  let last = top.score;
  const threshold = top.score / 3;
  const density = linkDensity(top);
  for (let a = top.parent; a !== null && a.element !== body; a = a.parent) {
    if (Number.isNaN(a.score)) continue;
    if (a.score < threshold) break;
    if (a.score > last && linkDensity(a) <= density + 0.05) {
      top = a;
      break;
    }
    last = a.score;
  }
  // An only child says nothing its parent does not: climb while alone.
  for (
    let a = top.parent;
    a !== null && a.element !== body && elementChildren(a.element) === 1;
    a = a.parent
  ) {
    top = a;
  }
  // An ancestor chosen above stands for the best block, so it keeps that block's score
  // when its own is lower (the siblings' thresholds are measured against it).
  if (!(top.score >= best)) top.score = best;
  return top;
}

/** The root to read, and the children of it that are the content (null: all of them). */
function withSiblings(
  top: Stats,
  stats: Map<HtmlElement, Stats>,
): { root: HtmlElement; siblings: Set<HtmlElement> | null } {
  const parent = top.parent;
  if (parent === null) return { root: top.element, siblings: null };
  const threshold = Math.max(10, top.score * 0.2);
  const topClass = getAttr(top.element, 'class') ?? '';
  const siblings = new Set<HtmlElement>([top.element]);
  for (const child of parent.element.childNodes) {
    if (!isElement(child) || child === top.element) continue;
    const s = stats.get(child);
    if (s === undefined) continue;
    const bonus = topClass !== '' && getAttr(child, 'class') === topClass ? top.score * 0.2 : 0;
    const score = Number.isNaN(s.score) ? 0 : s.score;
    if (score + bonus >= threshold) {
      siblings.add(child);
      continue;
    }
    if (child.tagName === 'p') {
      const density = linkDensity(s);
      if (s.text > 80 && density < 0.25) siblings.add(child);
      else if (s.text > 0 && s.text <= 80 && density === 0 && /\.( |$)/.test(textContent(child))) {
        siblings.add(child);
      }
    }
  }
  if (siblings.size === 1) return { root: top.element, siblings: null };
  return { root: parent.element, siblings };
}

/** Elements whose markup is part of what they say: a root inside or on one keeps it whole. */
const STRUCTURES: ReadonlySet<string> = new Set([
  'blockquote',
  'li',
  'ul',
  'ol',
  'dl',
  'table',
  'pre',
  'figure',
  'details',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/** Containers whose inside is never read without them (tables and lists often are layout). */
const QUOTES: ReadonlySet<string> = new Set(['blockquote', 'pre', 'figure', 'details']);

/**
 * A root inside a quote, code block, figure or details climbs to the outermost one, and a
 * root that is one is read from its parent with only itself kept, so markdown keeps the
 * quote marks, list markers and table rows the text sits in.
 */
function wholeStructure(chosen: { root: HtmlElement; siblings: Set<HtmlElement> | null }): {
  root: HtmlElement;
  siblings: Set<HtmlElement> | null;
} {
  if (chosen.siblings !== null) return chosen;
  let root = chosen.root;
  for (let n = root.parentNode; n !== null && 'tagName' in n; n = n.parentNode) {
    if (n.tagName === 'body') break;
    if (QUOTES.has(n.tagName)) root = n;
  }
  const parent = root.parentNode;
  if (!STRUCTURES.has(root.tagName) || parent === null || !('tagName' in parent)) {
    return { root, siblings: null };
  }
  return { root: parent, siblings: new Set([root]) };
}

/**
 * Second pass over the chosen root: leave out comments, short bylines, weak elements
 * with a chrome token, and thin or link-dense blocks. Returns the characters kept.
 */
function clean(
  root: HtmlElement,
  stats: Map<HtmlElement, Stats>,
  leaves: Set<HtmlElement>,
  full: boolean,
): number {
  let kept = 0;
  walk(root, {
    enter(node) {
      if (isText(node)) {
        kept += measureText(node.value).length;
        return;
      }
      if (!isElement(node)) return 'skip';
      if (node === root) return;
      if (leaves.has(node)) return 'skip';
      const s = stats.get(node);
      if (s === undefined) return 'skip';
      if (shouldLeave(node, s, full)) {
        leaves.add(node);
        return 'skip';
      }
    },
  });
  return kept;
}

function shouldLeave(element: HtmlElement, s: Stats, full: boolean): boolean {
  const tag = element.tagName;
  const tokens = tokensOf(element);
  if (tokens !== null) {
    if (hasAny(tokens, COMMENT_TOKENS) && !hasAny(tokens, POSITIVE_TOKENS)) return true;
    if (hasAny(tokens, BYLINE_TOKENS) && s.text < 100) return true;
  }
  const density = linkDensity(s);
  const strong = s.text - s.links >= STRONG_TEXT && density <= STRONG_LINK_DENSITY;
  const weight = classWeight(element);
  if (!strong && tokens !== null && tokens.chrome) return true;
  if (!full || !CLEANED.has(tag)) return false;
  if (tag === 'table' && isDataTable(element, s)) return false;
  if (weight < 0 && !strong) return true;
  if (s.commas >= 10) return false;
  // A wrapper that is mostly an unlinked heading (a section title with an "edit" link)
  // is a heading; a teaser's headline is a link.
  const plainHeading = s.headings - s.headingLinks;
  if (plainHeading > 0 && plainHeading * 2 >= s.text - s.links) return false;
  const isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
  const paragraphs = s.paragraphs;
  const items = s.items - 100;
  const headingDensity = s.text === 0 ? 0 : s.headings / s.text;
  const inFigure = tag === 'figure' || hasAncestor(element, 'figure');
  if (s.images > 1 && paragraphs / s.images < 0.5 && !inFigure) return true;
  if (!isList && items > paragraphs) return true;
  if (s.inputs > Math.floor(paragraphs / 3)) return true;
  if (
    !isList &&
    headingDensity < 0.9 &&
    s.text < MIN_UNIT &&
    (s.images === 0 || s.images > 2) &&
    !inFigure
  ) {
    return true;
  }
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  return false;
}

/** A table of data (headers, a caption, or a grid of at least 3×3) rather than layout. */
function isDataTable(table: HtmlElement, s: Stats): boolean {
  if (getAttr(table, 'role') === 'presentation') return false;
  return s.headers || (s.rows >= 3 && s.cells >= 3) || (s.rows >= 10 && s.text > 0);
}

interface Tokens {
  readonly set: ReadonlySet<string>;
  readonly chrome: boolean;
}

function tokensOf(element: HtmlElement): Tokens | null {
  const classes = getAttr(element, 'class');
  const id = getAttr(element, 'id');
  if ((classes === null || classes === '') && (id === null || id === '')) return null;
  const set = new Set<string>();
  for (const value of [classes, id]) {
    if (value !== null) for (const token of splitTokens(value)) set.add(token);
  }
  const chrome = chromeTokenIn(classes ?? '') || chromeTokenIn(id ?? '');
  return { set, chrome };
}

function hasAny(tokens: Tokens, names: ReadonlySet<string>): boolean {
  for (const token of tokens.set) if (names.has(token)) return true;
  return false;
}

/** ±25 for the class attribute and again for the id, from whole tokens. */
function classWeight(element: HtmlElement): number {
  let weight = 0;
  for (const name of ['class', 'id']) {
    const value = getAttr(element, name);
    if (value === null || value === '') continue;
    const tokens = splitTokens(value);
    let negative = chromeTokenIn(value);
    let positive = false;
    for (const token of tokens) {
      if (NEGATIVE_TOKENS.has(token)) negative = true;
      if (POSITIVE_TOKENS.has(token)) positive = true;
    }
    if (negative) weight -= 25;
    if (positive) weight += 25;
  }
  return weight;
}

function baseScore(element: HtmlElement): number {
  let score = BASE_SCORES[element.tagName] ?? 0;
  const itemprop = getAttr(element, 'itemprop');
  if (itemprop !== null && /(?:^|\s)articleBody(?:\s|$)/i.test(itemprop)) score += 25;
  if (getAttr(element, 'role') === 'main') score += 10;
  return score + classWeight(element);
}

function linkDensity(s: Stats): number {
  return s.text === 0 ? 0 : Math.min(1, s.links / s.text);
}

function isAncestor(ancestor: Stats, of: Stats): boolean {
  for (let s = of.parent; s !== null; s = s.parent) if (s === ancestor) return true;
  return false;
}

function hasAncestor(element: HtmlElement, tag: string): boolean {
  for (let n = element.parentNode; n !== null && 'tagName' in n; n = n.parentNode) {
    if (n.tagName === tag) return true;
  }
  return false;
}

function elementChildren(element: HtmlElement): number {
  let count = 0;
  for (const child of element.childNodes) {
    if (isElement(child)) count++;
    else if (isText(child) && child.value.trim() !== '') return 2;
  }
  return count;
}

/**
 * The length of a text as rendered (a run of whitespace counts as one character, leading
 * and trailing whitespace as nothing) and its commas, in one pass.
 */
function measureText(value: string): { length: number; commas: number } {
  let length = 0;
  let commas = 0;
  let space = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c || c === 0xa0) {
      space = length > 0;
      continue;
    }
    if (space) {
      length++;
      space = false;
    }
    length++;
    if (
      c === 0x2c ||
      c === 0x60c ||
      c === 0xfe50 ||
      c === 0xfe10 ||
      c === 0xfe11 ||
      c === 0x2e41 ||
      c === 0x2e34 ||
      c === 0x2e32 ||
      c === 0xff0c ||
      c === 0x3001
    ) {
      commas++;
    }
  }
  return { length, commas };
}
