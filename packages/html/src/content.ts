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
 * Select a page's main content by scoring its blocks, the way a reader mode does, in one
 * iterative walk over the shared tree (no recursion, so a deep page cannot
 * exhaust the stack):
 *
 * 1. **Measure, score and judge.** Every element gets its text length, link-text
 *    length, comma count and counts of paragraphs, images, list items, form controls and
 *    embeds.
 *    Every paragraph-like unit of text (a `<p>`, `<pre>`, `<td>`, `<h2>`–`<h6>`, a block
 *    with no block inside it, or a run of inline text between blocks) of at least 25
 *    characters scores `1 + commas + min(length / 100, 3)`, added in full to its parent,
 *    half to its grandparent and a third of its level to the three above. A container
 *    starts from a base for its tag (`div` +5, `article` and `main` +10, `itemprop=
 *    articleBody` +25, lists and headings below zero) and a class/id weight of ±25 per
 *    attribute from whole tokens (`content`, `article`, `post`… up; `sidebar`,
 *    `comment`, `share`… down). Its final score is multiplied by one minus its link
 *    density. As an element closes, with its measures complete, the cleaning below is
 *    judged for it, and the text that a read from above would keep is summed, so no
 *    candidate root needs a walk of its own.
 * 2. **Pick and clean** (no walk). The best container wins (the first in document order on
 *    a tie); when three other candidates score within a quarter of it, their common
 *    ancestor wins instead; a parent that scores higher is climbed to. Siblings that score
 *    at least a fifth of the winner, or are paragraphs of real prose, join it. Below the
 *    root, elements are left out when they are chrome by tag or role (`nav`, `aside`, site
 *    `header`/`footer`, `role=navigation`…), hidden, non-content (`script`, `form`
 *    controls…), comments, short bylines, or link-dense and thin lists and blocks (related
 *    stories, share bars, tag clouds). A class/id token such as `sidebar` only leaves an
 *    element out when its own text is weak: an element with 400+ characters of prose at low
 *    link density stays whatever its class says.
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

/**
 * What the selection keeps of an element after the walk: kept small, as a page has tens
 * of thousands of elements (the counts only needed while an element is open in the walk
 * are in its {@link Counts}).
 */
interface Stats {
  /** Characters of text (whitespace runs count as one), chrome excluded. */
  text: number;
  /** Characters of that text inside links (`#` links count 0.3). */
  links: number;
  /** Content score; NaN until the element is a candidate. */
  score: number;
  /** Characters of text in the element's own text children. */
  own: number;
  /** Characters of text a read from above keeps, fully and lightly cleaned (shouldLeave). */
  keptFull: number;
  keptLight: number;
  /** The same with captions left out too (see {@link CAPTION_SHARE}). */
  keptFullBare: number;
  keptLightBare: number;
  /** Characters of link text (`<a>` elements) among what a full cleaning keeps, with and without captions. */
  linksFull: number;
  linksFullBare: number;
  /** `<p>` elements below. */
  paragraphs: number;
  /** Characters of text inside captions (`figcaption`, a `caption` class/id token). */
  captions: number;
  /** Whether this element is a caption. */
  caption: boolean;
  /** Captions below (the outermost ones only). */
  captionCount: number;
  /** Whether this element is, or sits inside, a comment section (see {@link COMMENT_TOKENS}). */
  comment: boolean;
  parent: Stats | null;
  element: HtmlElement;
  /** The element's place in document order (of start tags). */
  order: number;
}

/**
 * The counts of an element open in the walk, added to its parent's when it closes. One
 * object per depth, reused by every element at that depth.
 */
interface Counts {
  stats: Stats;
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
  /** Inline text run since the last block child: length and commas. */
  run: number;
  runCommas: number;
  /** Whether a `<figure>` is this element or holds it. */
  inFigure: boolean;
  /** What the walk asks of the element's tag ({@link TAG_BITS}). */
  kind: number;
  /**
   * The last kept heading among the children, while nothing kept with text follows it
   * (see {@link TAIL_HEADING}); the link lists after it; the characters of text after it
   * that were left out or are such lists.
   */
  tailHeading: Stats | null;
  tailLists: Stats[] | null;
  tailGone: number;
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
/** Blocks a light cleaning leaves out when their class/id weighs against them. */
const LIGHTLY_CLEANED: ReadonlySet<string> = new Set(['div', 'section', 'ul', 'ol', 'table']);

// What the measuring walk asks of a tag, as bits: one lookup per element, not one per set.
const BLOCK = 1;
const RUN_HOLDER = 2;
const SECTION = 4;
const HEADING = 8;
const SCORED_LEAF = 16;
const TAG_BITS: ReadonlyMap<string, number> = (() => {
  const bits = new Map<string, number>();
  for (const [tags, bit] of [
    [BLOCK_TAGS, BLOCK],
    [RUN_HOLDERS, RUN_HOLDER],
    [SECTIONING, SECTION],
    [HEADINGS, HEADING],
    [SCORED_LEAVES, SCORED_LEAF],
  ] as const) {
    for (const tag of tags) bits.set(tag, (bits.get(tag) ?? 0) | bit);
  }
  return bits;
})();

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
/** Tokens of a picture's caption or its credit line ("Photo: …", "… / Getty Images"). */
const CAPTION_TOKENS: ReadonlySet<string> = new Set(['caption', 'credit', 'credits', 'copyright']);
/**
 * Tokens of a byline, an author box or a date line: left out unless it is
 * {@link STRONG_TEXT} long.
 */
const BYLINE_TOKENS: ReadonlySet<string> = new Set(['byline', 'author', 'dateline', 'date']);
/** Tokens of an article's lead (standfirst): read with the story, see {@link withLead}. */
const LEAD_TOKENS: ReadonlySet<string> = new Set([
  'lead',
  'intro',
  'standfirst',
  'summary',
  'excerpt',
  'abstract',
  'deck',
  'dek',
  'subtitle',
  'subheadline',
  'subhead',
  'teaser',
]);

const MIN_UNIT = 25;
/** Content shorter than this (characters) is retried with lighter cleaning and wider roots. */
const MIN_CONTENT = 500;
/** Captions are left out when their text is at most this share of the root's... */
const CAPTION_SHARE = 0.15;
/**
 * ...or at most this share when there are fewer of them than {@link CAPTIONS_PER_PARAGRAPH}
 * per paragraph (a how-to or a slideshow has a picture and its caption for each step).
 */
const CAPTION_SHARE_FEW = 0.3;
const CAPTIONS_PER_PARAGRAPH = 0.5;
/** A paragraph this short (characters)... */
const LINK_LINE = 200;
/** ...with at least this share of link text is a "read also" line, not the story's prose. */
const LINK_LINE_DENSITY = 0.5;
/** A lead is at most this long (characters) and at most this many levels above the root. */
const LEAD_TEXT = 1000;
const LEAD_LEVELS = 3;
/** Leads tried, nearest first, before the story is read without one. */
const LEADS_TRIED = 8;
/** Below MIN_CONTENT, fully cleaned content with this many characters outside links is kept. */
const SHORT_STORY = 150;
/** A heading this short (characters) ending its parent over left-out blocks goes with them. */
const TAIL_HEADING = 100;
/** A list with at least this share of link text is a list of links. */
const LINK_LIST_DENSITY = 0.8;
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
  // What the cleaning leaves out is judged once per element, in the measuring walk.
  const leftFull = new Set<HtmlElement>();
  const leftLight = new Set<HtmlElement>();
  const leads: Stats[] = [];
  measure(body, { stats, dropped, candidates, landmarks, leftFull, leftLight, leads });

  // Attempts in order: the scored root fully cleaned, then lightly cleaned (comments and
  // weak chrome-token elements only), then the landmark, then the body, both lightly
  // cleaned. The first with at least MIN_CONTENT characters wins: a short page is read
  // whole rather than cut down to a fragment.
  let best: { selection: ContentSelection; kept: number } | null = null;
  const top = pickTop(body, candidates);
  const keep = top?.element ?? null;
  // Characters outside links that the last attempt kept.
  let lastProse = 0;
  const attempt = (
    root: HtmlElement,
    base: ReadonlySet<HtmlElement>,
    full: boolean,
    method: ContentSelection['method'],
  ): boolean => {
    const left = full ? leftFull : leftLight;
    // Captions describe a story's pictures, not the story: left out of a story (five
    // paragraphs or more) unless they are a good part of its text (a how-to whose steps
    // are captions, a slideshow). A short document keeps its figures' captions.
    const rs = stats.get(root);
    const bare =
      rs !== undefined &&
      rs.paragraphs >= 5 &&
      (rs.captions <= rs.text * CAPTION_SHARE ||
        (rs.captions <= rs.text * CAPTION_SHARE_FEW &&
          rs.captionCount < rs.paragraphs * CAPTIONS_PER_PARAGRAPH));
    const isLeft = (e: HtmlElement) => left.has(e) || (bare && stats.get(e)?.caption === true);
    const { kept, links } = keptBelow(root, stats, base, isLeft, full, bare, keep);
    if (best === null || kept > best.kept) {
      // The best-scoring block is the content whatever its class says: never left out.
      const leaves = (e: HtmlElement) => e !== root && (base.has(e) || (e !== keep && isLeft(e)));
      best = { selection: { root, leaves, method }, kept };
    }
    lastProse = kept - links;
    return kept >= MIN_CONTENT;
  };
  // The scored root and what it leaves out whatever the cleaning (chrome, other siblings).
  let scored: { root: HtmlElement; base: ReadonlySet<HtmlElement> } | null = null;
  if (top !== null) {
    const { root, siblings } = wholeStructure(withSiblings(top, stats));
    const base = new Set(dropped);
    scored = { root, base };
    if (siblings !== null) {
      for (const child of root.childNodes) {
        if (isElement(child) && !siblings.has(child)) base.add(child);
      }
    }
    if (attempt(root, base, true, 'scored')) return withLead(best!.selection, stats, leads, body);
    const prose = lastProse;
    if (attempt(root, base, false, 'scored')) return withLead(best!.selection, stats, leads, body);
    // A short story is still a story: with enough prose outside links in the fully
    // cleaned root, the root is kept rather than widened to a landmark or the body
    // (which would bring the teasers around the story).
    if (prose >= SHORT_STORY) return withLead(best!.selection, stats, leads, body);
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
  // Not even a paragraph unit is left once the class/id rules have cleaned (a whole
  // article marked `sponsored`, say), yet the scored root holds text: it is read with only
  // the chrome (tags, roles, hidden elements) left out, as a reader mode retries without
  // its class-based removals.
  const most = Math.max(scoredOrLandmark?.kept ?? 0, whole?.kept ?? 0);
  if (scored !== null && most < MIN_UNIT && chromeFreeText(scored, stats) >= MIN_CONTENT) {
    const { root, base } = scored;
    return { root, leaves: (e) => e !== root && base.has(e), method: 'scored' };
  }
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

/** What {@link measure} fills. */
interface Measures {
  readonly stats: Map<HtmlElement, Stats>;
  /** Chrome, left out whatever the root. */
  readonly dropped: Set<HtmlElement>;
  readonly candidates: Stats[];
  readonly landmarks: Stats[];
  /** Elements a full (light) cleaning leaves out ({@link shouldLeave}). */
  readonly leftFull: Set<HtmlElement>;
  readonly leftLight: Set<HtmlElement>;
  /** Elements whose class/id names a lead ({@link LEAD_TOKENS}), in document order. */
  readonly leads: Stats[];
}

/**
 * The one walk: measure every element, drop chrome, score paragraph units into
 * candidates, and judge what the cleaning of any root would leave out.
 */
function measure(body: HtmlElement, into: Measures): void {
  const { stats, dropped, candidates, landmarks, leftFull, leftLight, leads } = into;
  let order = 0;
  // The open elements' counts: open[0 .. depth - 1], reused from one element to the next.
  const open: Counts[] = [];
  let depth = 0;
  let linkDepth = 0;
  let linkWeight = 1;
  const linkWeights: number[] = [];
  let sectionDepth = 0;
  let headingDepth = 0;
  let figureDepth = 0;
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
  const flushRun = (c: Counts) => {
    if (c.run >= MIN_UNIT && (c.kind & RUN_HOLDER) !== 0) {
      addScore(c.stats, 1 + c.runCommas + Math.min(Math.floor(c.run / 100), 3));
    }
    c.run = 0;
    c.runCommas = 0;
  };

  walk(body, {
    enter(node) {
      if (isText(node)) {
        if (depth === 0) return;
        const top = open[depth - 1]!;
        const s = top.stats;
        measureText(node.value);
        const length = measuredLength;
        const commas = measuredCommas;
        if (length > 0) {
          breaks = 0;
          top.tailHeading = null;
        }
        s.text += length;
        s.own += length;
        s.keptFull += length;
        s.keptLight += length;
        s.keptFullBare += length;
        s.keptLightBare += length;
        top.commas += commas;
        top.run += length;
        top.runCommas += commas;
        if (linkDepth > 0) s.links += length * linkWeight;
        if (headingDepth > 0) {
          top.headings += length;
          if (linkDepth > 0) top.headingLinks += length;
        }
        return;
      }
      if (!isElement(node)) return 'skip';
      const tag = node.tagName;
      const parent = depth > 0 ? open[depth - 1]! : null;
      if (tag === 'br') {
        if (++breaks === 2 && parent !== null && (parent.kind & RUN_HOLDER) !== 0) {
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
      const classBits = tokenFlagsOf(node, 'class');
      // Hidden by a utility class, shown only on demand as a popover, or an AMP element laid
      // out as `nodisplay` (a hover card's links, a screen-reader label, an appeal shown to
      // some readers only, a lightbox): never measured, so it cannot push its parent's link
      // density up, and left out.
      if (
        node !== body &&
        ((classBits & HIDDEN) !== 0 ||
          (node.attrs.length > 0 &&
            (getAttr(node, 'popover') !== null || getAttr(node, 'layout') === 'nodisplay')))
      ) {
        dropped.add(node);
        return 'skip';
      }
      const bits = classBits | tokenFlagsOf(node, 'id');
      const kind = TAG_BITS.get(tag) ?? 0;
      const s: Stats = {
        text: 0,
        links: 0,
        score: Number.NaN,
        own: 0,
        keptFull: 0,
        keptLight: 0,
        keptFullBare: 0,
        keptLightBare: 0,
        linksFull: 0,
        linksFullBare: 0,
        paragraphs: 0,
        captions: 0,
        captionCount: 0,
        caption: (tag === 'figcaption' && !attributesQuote(node)) || (bits & CAPTION) !== 0,
        comment: parent?.stats.comment === true || (bits & (COMMENT | POSITIVE)) === COMMENT,
        parent: parent === null ? null : parent.stats,
        element: node,
        order: order++,
      };
      stats.set(node, s);
      if ((bits & LEAD) !== 0) leads.push(s);
      if (tag === 'main' || tag === 'article' || getAttr(node, 'role') === 'main')
        landmarks.push(s);
      if (parent !== null && (kind & BLOCK) !== 0) {
        // A block starts: the inline run of the parent so far is a paragraph of its own.
        parent.hasBlock = true;
        flushRun(parent);
      }
      let c = open[depth];
      if (c === undefined) {
        c = { stats: s } as Counts;
        open[depth] = c;
      }
      depth++;
      c.stats = s;
      c.commas = 0;
      c.paragraphs = tag === 'p' ? 1 : 0;
      c.images = tag === 'img' ? 1 : 0;
      c.items = tag === 'li' ? 1 : 0;
      c.inputs = 0;
      c.embeds = 0;
      c.headings = 0;
      c.headingLinks = 0;
      c.rows = tag === 'tr' ? 1 : 0;
      c.headers = tag === 'th' || tag === 'caption' || tag === 'thead';
      c.cells = 0;
      c.hasBlock = false;
      c.run = 0;
      c.runCommas = 0;
      c.inFigure = figureDepth > 0 || tag === 'figure';
      c.kind = kind;
      c.tailHeading = null;
      c.tailLists = null;
      c.tailGone = 0;
      if (tag === 'a') {
        linkWeights.push(linkWeight);
        const href = getAttr(node, 'href');
        linkWeight = href?.startsWith('#') ? 0.3 : 1;
        linkDepth++;
      }
      if ((kind & SECTION) !== 0) sectionDepth++;
      if ((kind & HEADING) !== 0) headingDepth++;
      if (tag === 'figure') figureDepth++;
    },
    leave(node) {
      if (depth === 0 || !isElement(node)) return;
      const c = open[depth - 1]!;
      const s = c.stats;
      if (s.element !== node) return;
      depth--;
      const tag = node.tagName;
      const kind = c.kind;
      if (tag === 'a') {
        linkDepth--;
        linkWeight = linkWeights.pop() ?? 1;
      }
      if ((kind & SECTION) !== 0) sectionDepth--;
      if ((kind & HEADING) !== 0) headingDepth--;
      if (tag === 'figure') figureDepth--;
      if (!c.hasBlock && (kind & SCORED_LEAF) !== 0) {
        // A paragraph: its whole text scores into its ancestors.
        if (s.text >= MIN_UNIT) {
          addScore(s.parent, 1 + c.commas + Math.min(Math.floor(s.text / 100), 3));
        }
      } else if (c.hasBlock) {
        flushRun(c);
      }
      const parent = depth > 0 ? open[depth - 1]! : null;
      if (parent !== null) {
        const p = parent.stats;
        p.text += s.text;
        p.links += s.links;
        p.captions += s.caption ? s.text : s.captions;
        p.captionCount += s.caption ? 1 : s.captionCount;
        parent.commas += c.commas;
        parent.paragraphs += c.paragraphs;
        parent.images += c.images;
        parent.items += c.items;
        parent.inputs += c.inputs;
        parent.embeds += c.embeds;
        parent.headings += c.headings;
        parent.headingLinks += c.headingLinks;
        parent.rows += c.rows;
        parent.headers ||= c.headers;
        // A row's width is its own cells; above it, the widest row's.
        if (p.element.tagName === 'tr') {
          if (tag === 'td' || tag === 'th') parent.cells++;
        } else {
          parent.cells = Math.max(parent.cells, c.cells);
        }
        // An inline element holding blocks (a `<span>` around a `<main>`) is a block too.
        if ((kind & BLOCK) !== 0 || c.hasBlock) parent.hasBlock = true;
        else {
          // Inline: its text continues the parent's run.
          parent.run += s.text;
          parent.runCommas += c.commas;
        }
      }
      s.paragraphs = c.paragraphs;
      // A link's text is link text wherever it is kept (see keptBelow).
      if (tag === 'a') {
        s.linksFull += s.text;
        s.linksFullBare += s.text;
      }
      // A heading whose section below it was left out ("More on this", "Read also" over
      // related links) or is a list of links ends its parent: it heads nothing of the
      // content, and goes with that list in a full cleaning. What went must be a block of
      // text, not a section title's "[edit]" link.
      if (c.tailHeading !== null && c.tailGone >= MIN_UNIT && c.tailGone >= c.tailHeading.text) {
        dropTail(s, c.tailHeading, leftFull);
        if (c.tailLists !== null) for (const t of c.tailLists) dropTail(s, t, leftFull);
      }
      // The measures are complete: judge the element for the cleaning (see keptBelow).
      const light = shouldLeave(node, s, c, false);
      const full = shouldLeave(node, s, c, true);
      if (light) leftLight.add(node);
      if (full) leftFull.add(node);
      if (parent !== null) {
        if (!full && (kind & HEADING) !== 0 && s.keptFull > 0 && s.text <= TAIL_HEADING) {
          parent.tailHeading = s;
          parent.tailLists = null;
          parent.tailGone = 0;
        } else if (parent.tailHeading !== null) {
          if (full) parent.tailGone += s.text;
          else if (isLinkList(tag, s)) {
            if (parent.tailLists === null) parent.tailLists = [];
            parent.tailLists.push(s);
            parent.tailGone += s.text;
          } else if (s.keptFull > 0) parent.tailHeading = null;
        }
        const p = parent.stats;
        if (!light) {
          p.keptLight += s.keptLight;
          if (!s.caption) p.keptLightBare += s.keptLightBare;
        }
        if (!full) {
          p.keptFull += s.keptFull;
          p.linksFull += s.linksFull;
          if (!s.caption) {
            p.keptFullBare += s.keptFullBare;
            p.linksFullBare += s.linksFullBare;
          }
        }
      }
    },
  });
}

/** Whether an element's parent is a quote or figure (a `<footer>` there names who is quoted). */
function inQuote(element: HtmlElement): boolean {
  const parent = element.parentNode;
  return parent !== null && 'tagName' in parent && QUOTES.has(parent.tagName);
}

/** A list whose text is nearly all link text (related stories, tags). */
function isLinkList(tag: string, s: Stats): boolean {
  return (tag === 'ul' || tag === 'ol') && s.text > 0 && s.links >= s.text * LINK_LIST_DENSITY;
}

/** Leave a child out of a full cleaning after its parent's sums have counted it. */
function dropTail(parent: Stats, child: Stats, leftFull: Set<HtmlElement>): void {
  leftFull.add(child.element);
  parent.keptFull -= child.keptFull;
  parent.linksFull -= child.linksFull;
  if (!child.caption) {
    parent.keptFullBare -= child.keptFullBare;
    parent.linksFullBare -= child.linksFullBare;
  }
}

/**
 * The root's text with only the chrome and the root's other children left out (what the
 * measuring walk counted in `text`, which never includes chrome).
 */
function chromeFreeText(
  scored: { root: HtmlElement; base: ReadonlySet<HtmlElement> },
  stats: Map<HtmlElement, Stats>,
): number {
  let text = stats.get(scored.root)?.own ?? 0;
  for (const child of scored.root.childNodes) {
    if (isElement(child) && !scored.base.has(child)) text += stats.get(child)?.text ?? 0;
  }
  return text;
}

/**
 * The story read with its lead (standfirst): the last element before the root whose
 * class/id names a lead ({@link LEAD_TOKENS}), when it is prose (at least a paragraph
 * unit, at most {@link LEAD_TEXT} characters, low link density, not a caption or a
 * comment) and shares an ancestor with the root at most {@link LEAD_LEVELS} levels above
 * it. That ancestor becomes the root; everything below it but the path to the lead and
 * the path to the old root is left out, so only the lead is added.
 */
function withLead(
  selection: ContentSelection,
  stats: Map<HtmlElement, Stats>,
  leads: readonly Stats[],
  body: HtmlElement,
): ContentSelection {
  const root = selection.root as HtmlElement;
  const rs = stats.get(root);
  if (rs === undefined || leads.length === 0) return selection;
  let lead: Stats | null = null;
  let top: Stats | null = null;
  // The nearest lead before the root that qualifies, among the last LEADS_TRIED: each try
  // climbs ancestors, so a page of thousands of `teaser`s costs no more than a few.
  let last = leads.length - 1;
  while (last >= 0 && (leads[last] as Stats).order >= rs.order) last--;
  for (let i = last; i >= 0 && i > last - LEADS_TRIED; i--) {
    const l = leads[i] as Stats;
    if (isAncestor(l, rs) || !isLead(l)) continue;
    let a = rs.parent;
    let up = 1;
    while (a !== null && up <= LEAD_LEVELS && !isAncestor(a, l)) {
      a = a.parent;
      up++;
    }
    if (a === null || up > LEAD_LEVELS || a.element === body) continue;
    lead = l;
    top = a;
    break;
  }
  if (lead === null || top === null) return selection;
  // The elements from the new root down to the lead and to the old root, and their
  // siblings, which are left out.
  const through = new Set<HtmlElement>();
  const off = new Set<HtmlElement>();
  for (const from of [rs, lead]) {
    for (let n: Stats | null = from; n !== null && n !== top; n = n.parent) {
      through.add(n.element);
      for (const c of n.parent?.element.childNodes ?? []) if (isElement(c)) off.add(c);
    }
  }
  for (const e of through) off.delete(e);
  const leaves = selection.leaves;
  const newRoot = top.element;
  return {
    root: newRoot,
    leaves: (e) => e !== newRoot && (off.has(e) || (!through.has(e) && leaves(e))),
    method: selection.method,
  };
}

/** A lead is prose: a paragraph unit or more, not a link list, a caption or a comment. */
function isLead(s: Stats): boolean {
  if (s.text < MIN_UNIT || s.text > LEAD_TEXT || s.comment) return false;
  if (linkDensity(s) > STRONG_LINK_DENSITY) return false;
  for (let a: Stats | null = s; a !== null; a = a.parent) {
    const tag = a.element.tagName;
    if (a.caption || tag === 'figure' || tag === 'figcaption') return false;
  }
  return true;
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
  // Readers' comments are never the main content while anything else scored: a long
  // comment would otherwise win over a shorter article.
  let top: Stats | null = null;
  let topComment: Stats | null = null;
  for (const c of candidates) {
    c.score *= 1 - linkDensity(c);
    if (c.comment) {
      if (topComment === null || c.score > topComment.score) topComment = c;
    } else if (top === null || c.score > top.score) {
      top = c;
    }
  }
  if (top === null || !(top.score > 0)) top = topComment ?? top;
  if (top === null || top.element === body) return top;
  const best = top.score;

  // Several candidates nearly as good: the content is spread over them (a thread, a
  // page of sections), so take the closest ancestor holding three of them.
  const close = candidates.filter(
    (c) => c !== top && c.comment === top!.comment && c.score >= top!.score * 0.75,
  );
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
 * The characters a read from `root` keeps: its own text, and that of each child that is
 * not in `base` and not left out by the cleaning, with what that child keeps below it.
 * The cleaning is judged per element during the measuring walk ({@link shouldLeave}), so
 * no root needs a walk of its own.
 */
function keptBelow(
  root: HtmlElement,
  stats: Map<HtmlElement, Stats>,
  base: ReadonlySet<HtmlElement>,
  isLeft: (element: HtmlElement) => boolean,
  full: boolean,
  bare: boolean,
  keep: HtmlElement | null,
): { kept: number; links: number } {
  const s = stats.get(root);
  if (s === undefined) return { kept: 0, links: 0 };
  const keptOf = (c: Stats) =>
    full ? (bare ? c.keptFullBare : c.keptFull) : bare ? c.keptLightBare : c.keptLight;
  const linksOf = (c: Stats) => (full ? (bare ? c.linksFullBare : c.linksFull) : 0);
  let kept = s.own;
  let links = 0;
  for (const child of root.childNodes) {
    if (!isElement(child) || base.has(child) || isLeft(child)) continue;
    const c = stats.get(child);
    if (c !== undefined) {
      kept += keptOf(c);
      links += linksOf(c);
    }
  }
  // The best block, left out by its class, is read all the same when nothing above it is.
  const k = keep === null || keep === root ? undefined : stats.get(keep);
  if (k !== undefined && isLeft(keep as HtmlElement)) {
    let reached = false;
    for (let a = k.parent; a !== null; a = a.parent) {
      if (a.element === root) {
        reached = true;
        break;
      }
      if (isLeft(a.element)) break;
      if (a.parent?.element === root && base.has(a.element)) break;
    }
    if (reached) {
      kept += keptOf(k);
      links += linksOf(k);
    }
  }
  return { kept, links };
}

function shouldLeave(element: HtmlElement, s: Stats, c: Counts, full: boolean): boolean {
  const tag = element.tagName;
  const classFlags = tokenFlagsOf(element, 'class');
  const idFlags = tokenFlagsOf(element, 'id');
  const tokens = classFlags | idFlags;
  if ((tokens & COMMENT) !== 0 && (tokens & POSITIVE) === 0) return true;
  if ((tokens & BYLINE) !== 0 && s.text < STRONG_TEXT) return true;
  const density = linkDensity(s);
  const strong = s.text - s.links >= STRONG_TEXT && density <= STRONG_LINK_DENSITY;
  if (!strong && (tokens & CHROME) !== 0) return true;
  const weight = weightOf(classFlags) + weightOf(idFlags);
  // Even a light cleaning leaves out weak blocks whose class says what they are not
  // (`most-popular`, `trending`, `teaser`…): a short story or a paywall stub read from a
  // wider root would otherwise bring them along.
  if (!full && weight < 0 && !strong && LIGHTLY_CLEANED.has(tag)) return true;
  if (!full) return false;
  // A `<footer>` inside an article or section (a site footer is chrome) is that section's
  // small print: its tags, categories, "posted in…" line and share links.
  if (tag === 'footer' && !strong && !inQuote(element)) return true;
  // A short paragraph that is mostly a link ("Read more: …", "See also: …" over another
  // story's headline) points away from the story; it is not its prose.
  if (
    tag === 'p' &&
    s.text >= MIN_UNIT &&
    s.text <= LINK_LINE &&
    s.links >= s.text * LINK_LINE_DENSITY
  ) {
    return true;
  }
  if (!CLEANED.has(tag)) return false;
  if (tag === 'table' && isDataTable(element, s, c)) return false;
  if (weight < 0 && !strong) return true;
  if (c.commas >= 10) return false;
  // A wrapper that is mostly an unlinked heading (a section title with an "edit" link)
  // is a heading; a teaser's headline is a link, and a list's title over linked
  // headlines ("Keep reading") is not the heading of anything on the page.
  const plainHeading = c.headings - c.headingLinks;
  if (plainHeading > 0 && plainHeading * 2 >= s.text - s.links && c.headingLinks <= plainHeading) {
    return false;
  }
  const isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
  const paragraphs = c.paragraphs;
  const items = c.items - 100;
  const headingDensity = s.text === 0 ? 0 : c.headings / s.text;
  const inFigure = c.inFigure;
  if (c.images > 1 && paragraphs / c.images < 0.5 && !inFigure) return true;
  if (!isList && items > paragraphs) return true;
  if (c.inputs > Math.floor(paragraphs / 3)) return true;
  if (
    !isList &&
    headingDensity < 0.9 &&
    s.text < MIN_UNIT &&
    (c.images === 0 || c.images > 2) &&
    !inFigure
  ) {
    return true;
  }
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  return false;
}

/** A table of data (headers, a caption, or a grid of at least 3×3) rather than layout. */
function isDataTable(table: HtmlElement, s: Stats, c: Counts): boolean {
  if (getAttr(table, 'role') === 'presentation') return false;
  return c.headers || (c.rows >= 3 && c.cells >= 3) || (c.rows >= 10 && s.text > 0);
}

// What the whole tokens of a class or id value say, as bits.
const CHROME = 1;
const NEGATIVE = 2;
const POSITIVE = 4;
const COMMENT = 8;
const BYLINE = 16;
const CAPTION = 32;
/** Hidden by a CSS utility class (see {@link HIDDEN_CLASSES}); only read from `class`. */
const HIDDEN = 64;
/** A lead's token ({@link LEAD_TOKENS}). */
const LEAD = 128;

/**
 * Class names of the common CSS utilities that hide an element from view (`display:none`
 * or clipped to nothing): whole names only, so a responsive `hidden-xs` or `d-none
 * d-md-block`, shown on some screens, is not hidden.
 */
const HIDDEN_CLASSES: ReadonlySet<string> = new Set([
  'hidden',
  'is-hidden',
  'u-hidden',
  'd-none',
  'visually-hidden',
  'visuallyhidden',
  'sr-only',
  'screen-reader-text',
  'hide',
  'invisible',
]);

/** Whether a class value names a hiding utility (and no display utility that shows it again). */
function hidesByClass(value: string): boolean {
  let hidden = false;
  for (const name of value.toLowerCase().split(/[\t\n\f\r ]+/)) {
    if (HIDDEN_CLASSES.has(name)) hidden = true;
    // A display utility for some breakpoint shows what `d-none` hides elsewhere; one for
    // print (`d-print-block`) shows it on paper only.
    else if (
      /^d-[a-z]+-(?:block|flex|inline|inline-block|grid|table)$/.test(name) &&
      !name.startsWith('d-print-')
    ) {
      return false;
    }
  }
  return hidden;
}

// Class and id values repeat across a page and across pages: their bits are worked out
// once per value. The cache only saves time; the bits of a value never change.
const tokenBits = new Map<string, number>();
const TOKEN_CACHE_MAX = 4096;

/** The token bits of an element's `class` or `id` (0 when absent or empty). */
function tokenFlagsOf(element: HtmlElement, name: 'class' | 'id'): number {
  if (element.attrs.length === 0) return 0;
  const value = getAttr(element, name);
  if (value === null || value === '') return 0;
  let bits = tokenBits.get(value);
  if (bits === undefined) {
    bits = chromeTokenIn(value) ? CHROME : 0;
    for (const token of splitTokens(value)) {
      if (NEGATIVE_TOKENS.has(token)) bits |= NEGATIVE;
      if (POSITIVE_TOKENS.has(token)) bits |= POSITIVE;
      if (COMMENT_TOKENS.has(token)) bits |= COMMENT;
      if (BYLINE_TOKENS.has(token)) bits |= BYLINE;
      if (CAPTION_TOKENS.has(token)) bits |= CAPTION;
      if (LEAD_TOKENS.has(token)) bits |= LEAD;
    }
    if (hidesByClass(value)) bits |= HIDDEN;
    if (tokenBits.size >= TOKEN_CACHE_MAX) tokenBits.clear();
    tokenBits.set(value, bits);
  }
  return bits;
}

/** ±25 for one attribute's tokens: down for chrome or negative ones, up for positive ones. */
function weightOf(bits: number): number {
  return ((bits & (CHROME | NEGATIVE)) !== 0 ? -25 : 0) + ((bits & POSITIVE) !== 0 ? 25 : 0);
}

/** ±25 for the class attribute and again for the id, from whole tokens. */
function classWeight(element: HtmlElement): number {
  return weightOf(tokenFlagsOf(element, 'class')) + weightOf(tokenFlagsOf(element, 'id'));
}

/** A `figcaption` beside a `blockquote` names who is quoted: it is not a picture's caption. */
function attributesQuote(figcaption: HtmlElement): boolean {
  const figure = figcaption.parentNode;
  if (figure === null || !('tagName' in figure)) return false;
  for (const child of figure.childNodes) {
    if (isElement(child) && child.tagName === 'blockquote') return true;
  }
  return false;
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

function elementChildren(element: HtmlElement): number {
  let count = 0;
  for (const child of element.childNodes) {
    if (isElement(child)) count++;
    else if (isText(child) && child.value.trim() !== '') return 2;
  }
  return count;
}

// What measureText found last (two numbers, so a text node costs no allocation).
let measuredLength = 0;
let measuredCommas = 0;

/**
 * The length of a text as rendered (a run of whitespace counts as one character, leading
 * and trailing whitespace as nothing) and its commas, in one pass: into
 * `measuredLength` and `measuredCommas`.
 */
function measureText(value: string): void {
  let length = 0;
  let commas = 0;
  let space = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Most characters are letters: one comparison tells them from the spaces.
    const isSpace =
      c <= 0x20 ? c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c : c === 0xa0;
    if (isSpace) {
      space = length > 0;
      continue;
    }
    if (space) {
      length++;
      space = false;
    }
    length++;
    if (c === 0x2c || (c >= 0x60c && isWideComma(c))) commas++;
  }
  measuredLength = length;
  measuredCommas = commas;
}

/** Commas of other scripts and widths (Arabic, CJK, small and full-width forms). */
function isWideComma(c: number): boolean {
  return (
    c === 0x60c ||
    c === 0xfe50 ||
    c === 0xfe10 ||
    c === 0xfe11 ||
    c === 0x2e41 ||
    c === 0x2e34 ||
    c === 0x2e32 ||
    c === 0xff0c ||
    c === 0x3001
  );
}
