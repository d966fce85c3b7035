import { Tokenizer } from 'htmlparser2';
import { getAttr } from './dom.js';
import type { HtmlDocumentNode, HtmlElement, HtmlNode, HtmlParent, HtmlText } from './types.js';

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** Elements the tree builder notes as it creates them (what `load` needs besides the tree). */
export interface Created {
  /** `<article>`, `<main>` and `role="main"` elements. */
  readonly holders: HtmlElement[];
  /** HTML `<title>` elements. */
  readonly titles: HtmlElement[];
  /** `<base>` elements with an `href`. */
  readonly bases: HtmlElement[];
  /** Whether an SVG or MathML `<title>` was created (it can hold elements). */
  foreignTitle: boolean;
}

/** Elements that go to `<head>` while no body content has been seen (HTML §13.2.6.4.4). */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
]);

/** Void elements (HTML §13.1.2): they never have children, so they never stay open. */
const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * HTML's special elements (HTML §13.2.4.2): an end tag does not close an element across
 * one of them, and list items stop their search at them.
 */
const SPECIAL: ReadonlySet<string> = new Set([
  'address',
  'applet',
  'area',
  'article',
  'aside',
  'base',
  'basefont',
  'bgsound',
  'blockquote',
  'body',
  'br',
  'button',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dir',
  'div',
  'dl',
  'dt',
  'embed',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'iframe',
  'img',
  'input',
  'keygen',
  'li',
  'link',
  'listing',
  'main',
  'marquee',
  'menu',
  'meta',
  'nav',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'p',
  'param',
  'plaintext',
  'pre',
  'script',
  'search',
  'section',
  'select',
  'source',
  'style',
  'summary',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'track',
  'ul',
  'wbr',
  'xmp',
]);

/** Elements an element "in scope" is not looked for past (HTML §13.2.4.2). */
const SCOPE: ReadonlySet<string> = new Set([
  'applet',
  'caption',
  'html',
  'table',
  'td',
  'th',
  'marquee',
  'object',
  'template',
]);
const BUTTON_SCOPE: ReadonlySet<string> = new Set([...SCOPE, 'button']);
const TABLE_SCOPE: ReadonlySet<string> = new Set(['html', 'table', 'template']);
const LIST_ITEM_SCOPE: ReadonlySet<string> = new Set([...SCOPE, 'ol', 'ul']);

/** The scope an end tag looks for its element in, where it is not the default one. */
const END_TAG_SCOPES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['p', BUTTON_SCOPE],
  ['li', LIST_ITEM_SCOPE],
  ...['table', 'tbody', 'thead', 'tfoot', 'tr'].map((tag) => [tag, TABLE_SCOPE] as const),
]);

/** Start tags that close an open `<p>` in button scope first (HTML §13.2.6.4.7). */
const CLOSES_P: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'search',
  'section',
  'summary',
  'ul',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'listing',
  'form',
  'table',
  'hr',
  'xmp',
  'plaintext',
  'li',
  'dd',
  'dt',
]);

/** Table structure: what is inserted while one of them is the current node is fostered. */
const TABLE_STRUCTURE: ReadonlySet<string> = new Set(['table', 'tbody', 'tfoot', 'thead', 'tr']);

/** What a table's structure holds itself (HTML §13.2.6.4.9, "in table"). */
const IN_TABLE: ReadonlySet<string> = new Set([
  'caption',
  'colgroup',
  'col',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'td',
  'th',
  'table',
  'script',
  'style',
  'template',
  'form',
]);

/** Public identifiers of the DTDs that make a quirks-mode page (HTML §13.2.6.4.1, abridged). */
const QUIRKS_PUBLIC_ID =
  /^(?:-\/\/(?:IETF|Netscape|Microsoft|SoftQuad|Sun Microsystems|WebTechs|Metrius|O'Reilly|Spyglass|AdvaSoft|AS|W3O)\/\/|-\/\/W3C\/\/DTD (?:HTML (?:2|3|4\.0 (?:Frameset|Transitional))|W3 HTML|HTML Experimental)|HTML$)/i;

const TABLE_SECTIONS: ReadonlySet<string> = new Set(['tbody', 'thead', 'tfoot']);

/** Start tags of a table's parts, which end the open parts they cannot be inside. */
const TABLE_PARTS: ReadonlySet<string> = new Set([
  'caption',
  'colgroup',
  'col',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
]);

/** SVG attribute names in their camel case (HTML §13.2.6.5, "adjust SVG attributes"). */
const SVG_ATTRIBUTES: ReadonlyMap<string, string> = new Map(
  [
    'attributeName',
    'attributeType',
    'baseFrequency',
    'baseProfile',
    'calcMode',
    'clipPathUnits',
    'diffuseConstant',
    'edgeMode',
    'filterUnits',
    'glyphRef',
    'gradientTransform',
    'gradientUnits',
    'kernelMatrix',
    'kernelUnitLength',
    'keyPoints',
    'keySplines',
    'keyTimes',
    'lengthAdjust',
    'limitingConeAngle',
    'markerHeight',
    'markerUnits',
    'markerWidth',
    'maskContentUnits',
    'maskUnits',
    'numOctaves',
    'pathLength',
    'patternContentUnits',
    'patternTransform',
    'patternUnits',
    'pointsAtX',
    'pointsAtY',
    'pointsAtZ',
    'preserveAlpha',
    'preserveAspectRatio',
    'primitiveUnits',
    'refX',
    'refY',
    'repeatCount',
    'repeatDur',
    'requiredExtensions',
    'requiredFeatures',
    'specularConstant',
    'specularExponent',
    'spreadMethod',
    'startOffset',
    'stdDeviation',
    'stitchTiles',
    'surfaceScale',
    'systemLanguage',
    'tableValues',
    'targetX',
    'targetY',
    'textLength',
    'viewBox',
    'viewTarget',
    'xChannelSelector',
    'yChannelSelector',
    'zoomAndPan',
  ].map((name) => [name.toLowerCase(), name]),
);

/** Elements whose text the tokenizer reads raw. */
const RAW_TEXT: ReadonlySet<string> = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

/** Elements that put a marker on the active formatting elements. */
const MARKERS: ReadonlySet<string> = new Set([
  'applet',
  'caption',
  'marquee',
  'object',
  'td',
  'th',
  'template',
]);

/**
 * Start tags inserted without opening the closed formatting elements again first: blocks,
 * list items, table structure, and what belongs to the head.
 */
const OPENS_WITHOUT_FORMATTING: ReadonlySet<string> = new Set([
  ...CLOSES_P,
  'caption',
  'col',
  'colgroup',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'template',
  'script',
  'style',
  'noscript',
  'base',
  'link',
  'meta',
  'title',
  'frameset',
]);

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Start tags that end the current node when it is one of the listed (htmlparser2's rule). */
const CLOSES_CURRENT: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['option', ['option']],
      ['optgroup', ['optgroup', 'option']],
      ['rt', ['rt', 'rp']],
      ['rp', ['rt', 'rp']],
      ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
        (tag) =>
          [
            tag,
            ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'],
          ] as const,
      ),
    ] as const
  ).map(([tag, closes]) => [tag, new Set<string>(closes)]),
);

/** Formatting elements (HTML §13.2.4.3), closed by their end tag wherever they are open. */
const FORMATTING: ReadonlySet<string> = new Set([
  'a',
  'b',
  'big',
  'code',
  'em',
  'font',
  'i',
  'nobr',
  's',
  'small',
  'strike',
  'strong',
  'tt',
  'u',
]);

/** Elements whose first newline right after the start tag is dropped (HTML §13.2.6.4.7). */
const LEADING_NEWLINE: ReadonlySet<string> = new Set(['pre', 'textarea', 'listing']);

/** SVG and MathML elements whose children are HTML again (HTML integration points). */
const SVG_HTML_POINTS: ReadonlySet<string> = new Set(['foreignObject', 'desc', 'title']);
const MATHML_HTML_POINTS: ReadonlySet<string> = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
]);

/** SVG element names in their camel case (HTML §13.2.6.5). */
const SVG_TAG_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'altGlyph',
    'altGlyphDef',
    'altGlyphItem',
    'animateColor',
    'animateMotion',
    'animateTransform',
    'clipPath',
    'feBlend',
    'feColorMatrix',
    'feComponentTransfer',
    'feComposite',
    'feConvolveMatrix',
    'feDiffuseLighting',
    'feDisplacementMap',
    'feDistantLight',
    'feDropShadow',
    'feFlood',
    'feFuncA',
    'feFuncB',
    'feFuncG',
    'feFuncR',
    'feGaussianBlur',
    'feImage',
    'feMerge',
    'feMergeNode',
    'feMorphology',
    'feOffset',
    'fePointLight',
    'feSpecularLighting',
    'feSpotLight',
    'feTile',
    'feTurbulence',
    'foreignObject',
    'glyphRef',
    'linearGradient',
    'radialGradient',
    'textPath',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * The deepest an element can be opened (Blink's `kMaximumHTMLParserDOMTreeDepth`): an
 * element that would open deeper ends the current node first, so it opens beside it, as
 * in Chrome. Every search of the open elements is then bounded, and a page of a
 * hundred thousand unclosed elements costs linear time.
 */
export const MAX_TREE_DEPTH = 512;

/**
 * The most active formatting elements kept after the last marker (real pages keep a
 * handful open; HTML sets no bound, its "Noah's Ark" clause only drops a fourth alike).
 */
const MAX_ACTIVE_FORMATTING = 64;

/** What a tag name is, as bits, read with one lookup per start tag ({@link flagsOf}). */
const VOID = 1;
const CLOSES_A_P = 2;
const NO_RECONSTRUCT = 4;
const TABLE_PART = 8;
const FORMATTING_ELEMENT = 16;
const MARKER = 32;
const KEEPS_FIRST_NEWLINE = 64;
const CLOSES_CURRENT_RULE = 128;

const TAG_FLAGS: ReadonlyMap<string, number> = (() => {
  const flags = new Map<string, number>();
  const add = (names: Iterable<string>, bit: number) => {
    for (const name of names) flags.set(name, (flags.get(name) ?? 0) | bit);
  };
  add(VOID_ELEMENTS, VOID);
  add(CLOSES_P, CLOSES_A_P);
  add(OPENS_WITHOUT_FORMATTING, NO_RECONSTRUCT);
  add(TABLE_PARTS, TABLE_PART);
  add(FORMATTING, FORMATTING_ELEMENT);
  add(MARKERS, MARKER);
  add(LEADING_NEWLINE, KEEPS_FIRST_NEWLINE);
  add(CLOSES_CURRENT.keys(), CLOSES_CURRENT_RULE);
  return flags;
})();

function flagsOf(name: string): number {
  return TAG_FLAGS.get(name) ?? 0;
}

/**
 * Tag and attribute names a page is likely to use, each read from the source as one
 * shared string rather than a new lower-cased copy per tag ({@link TreeBuilder}'s
 * `#name`): no string is made for them, and every later lookup of the name (in this
 * builder's tables, the products' switches and `getAttr`) compares a string V8 has
 * already hashed and interned.
 */
const COMMON_NAMES: readonly string[] = [
  ...TAG_FLAGS.keys(),
  ...HEAD_ELEMENTS,
  ...SPECIAL,
  ...SCOPE,
  ...IN_TABLE,
  ...RAW_TEXT,
  ...HEADINGS,
  // Elements not in a table above.
  ...['a', 'abbr', 'audio', 'bdi', 'bdo', 'canvas', 'cite', 'data', 'del', 'dfn', 'head'],
  ...['ins', 'kbd', 'label', 'mark', 'meter', 'output', 'picture', 'progress', 'q', 'rp'],
  ...['rt', 'ruby', 'samp', 'slot', 'span', 'sub', 'sup', 'time', 'var', 'video', 'svg'],
  ...['math', 'path', 'g', 'use', 'symbol', 'defs', 'circle', 'rect', 'line', 'polygon'],
  ...['polyline', 'ellipse', 'stop', 'lineargradient', 'clippath', 'mask', 'option'],
  ...['optgroup', 'datalist', 'dialog', 'search', 'hgroup', 'figure', 'figcaption'],
  // Attributes.
  ...['id', 'class', 'style', 'href', 'src', 'srcset', 'sizes', 'alt', 'title', 'rel'],
  ...['type', 'name', 'content', 'property', 'charset', 'http-equiv', 'lang', 'dir'],
  ...['role', 'hidden', 'tabindex', 'target', 'width', 'height', 'loading', 'decoding'],
  ...['value', 'action', 'method', 'for', 'placeholder', 'disabled', 'checked', 'async'],
  ...['defer', 'crossorigin', 'integrity', 'media', 'colspan', 'rowspan', 'scope'],
  ...['headers', 'align', 'valign', 'border', 'cellpadding', 'cellspacing', 'datetime'],
  ...['itemprop', 'itemscope', 'itemtype', 'popover', 'layout', 'xmlns', 'viewbox'],
  ...['fill', 'stroke', 'd', 'aria-hidden', 'aria-label', 'aria-labelledby'],
  ...['aria-describedby', 'aria-expanded', 'aria-controls', 'aria-current', 'data-src'],
  ...['onclick', 'onload', 'nonce', 'referrerpolicy', 'autocomplete', 'translate'],
  ...['download', 'cite', 'start', 'reversed', 'open', 'label', 'poster', 'controls'],
  ...['frameborder', 'allowfullscreen', 'allow', 'sandbox', 'accept', 'span'],
];

/** The common names by a hash of their characters ({@link nameHash}). */
const NAMES_BY_HASH: ReadonlyMap<number, string> = (() => {
  const names = new Map<number, string>();
  for (const name of COMMON_NAMES) {
    const hash = nameHash(name, 0, name.length);
    // A name whose hash another name holds is read the slow way.
    if (!names.has(hash)) names.set(hash, name);
  }
  return names;
})();

/** A hash of `text[start, end)` with ASCII letters lower-cased. */
function nameHash(text: string, start: number, end: number): number {
  let hash = end - start;
  for (let i = start; i < end; i++) {
    let code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) code += 32;
    hash = (Math.imul(hash, 31) + code) | 0;
  }
  return hash;
}

/** `text[start, end)` lower-cased (ASCII letters only, as HTML's tokenizer does). */
function lowerName(text: string, start: number, end: number): string {
  const known = NAMES_BY_HASH.get(nameHash(text, start, end));
  if (known !== undefined && known.length === end - start) {
    let same = true;
    for (let i = 0; i < known.length; i++) {
      let code = text.charCodeAt(start + i);
      if (code >= 65 && code <= 90) code += 32;
      if (code !== known.charCodeAt(i)) {
        same = false;
        break;
      }
    }
    if (same) return known;
  }
  return asciiLower(text.slice(start, end));
}

/** ASCII letters lower-cased; other characters as they are (HTML §13.2.5.8). */
function asciiLower(name: string): string {
  return /[A-Z]/.test(name) ? name.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : name;
}

type Mode = 'initial' | 'in-head' | 'after-head' | 'in-body';

const ASCII_WHITESPACE_ONLY = /^[\t\n\f\r ]*$/;
const NOSCRIPT_END_TAG = '</noscript';
const NOSCRIPT_END = /<\/noscript/gi;
const LEADING_WHITESPACE = /^[\t\n\f\r ]*/;

type Attr = { name: string; value: string };

/**
 * The child list of every element until its first child arrives, and the attribute list
 * of every element without attributes: one shared empty array, never written to (the
 * builder gives an element its own list when it needs one). An array that grows by
 * `push` from empty reserves room for 16 entries, and most elements hold one or two
 * children or attributes, or none; the tree is what the garbage collector copies while
 * a page is read (docs/decisions.md, "Reading a page in pieces, and a lighter tree").
 */
const NONE: never[] = [];

/** Append `node` to `parent`'s children; the parent gets its own list with its first child. */
function pushChild(parent: HtmlParent, node: HtmlNode): void {
  const children = parent.childNodes as HtmlNode[];
  if (children === NONE) (parent as { childNodes: HtmlNode[] }).childNodes = [node];
  else children.push(node);
  (node as { parentNode: HtmlParent | null }).parentNode = parent;
}

/**
 * The tree of an HTML document in parse5's default tree shape (the shape every product
 * reads), built from htmlparser2's tokenizer as HTML's tree construction builds it
 * (docs/decisions.md, "Which HTML parser"): one `<html>` with a `<head>` and a `<body>`,
 * always; head elements before the body in the head; content after `</body>` in the
 * body; a second `<html>` or `<body>` adding its attributes; a second `<form>` inside a
 * form ignored; the end tags HTML implies, found in their scopes; end tags that do not
 * cross a special element; `</p>` and `</br>` alone; the active formatting elements
 * opened again after a block or a misnested end tag closed them; text and inline
 * elements fostered out of a table's structure; implied table sections, rows and column
 * groups; quirks mode from the doctype; SVG and MathML namespaces and their camel-case
 * names; `<template>` content; `<noscript>` as raw text (scripting on, as a browser);
 * the first newline of `<pre>`, `<textarea>` and `<listing>` dropped; CR LF as LF, U+0000
 * dropped from text; the first of two attributes of one name. The tokenizer reads
 * character references, comments and raw text. Not kept: the adoption agency's moving
 * of blocks out of a misnested formatting element (it is closed at its end tag), and
 * framesets. No element opens deeper than {@link MAX_TREE_DEPTH}; the open elements are
 * a stack that grows at its end, so parsing costs linear time.
 */
export function buildTree(input: string | readonly string[], created: Created): HtmlDocumentNode {
  const source = new Source(typeof input === 'string' ? [input] : input);
  const builder = new TreeBuilder(source, created);
  // A `<noscript>`'s raw text ends at the first `</noscript`, which the tokenizer does
  // not know: the builder stops it there, and a new one reads on from that point.
  for (let from = 0; ; ) {
    const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, builder);
    builder.readFrom(tokenizer, from);
    const { chunks, starts } = source;
    let k = source.chunkAt(from);
    if (k < chunks.length) {
      const first = chunks[k] as string;
      tokenizer.write(from === starts[k] ? first : first.slice(from - (starts[k] as number)));
      for (k++; k < chunks.length && builder.resumeAt() === null; k++) {
        tokenizer.write(chunks[k] as string);
      }
    }
    const next = builder.resumeAt();
    if (next === null) {
      tokenizer.end();
      break;
    }
    from = next;
  }
  return builder.finish();
}

/**
 * The text of a page in pieces, as decoded ({@link decodeChunks} in `@storefront/core`):
 * the tokenizer reads the pieces in turn, and a tag, comment or text that spans two of
 * them is read across. CR LF and lone CR are LF (HTML §13.2.3.5), also across pieces.
 */
class Source {
  readonly chunks: readonly string[];
  /** Where each piece starts in the whole text. */
  readonly starts: readonly number[];
  readonly length: number;
  /** The piece the last lookup found: reads go forward, so it is nearly always the next. */
  #hint = 0;

  constructor(input: readonly string[]) {
    const chunks: string[] = [];
    const starts: number[] = [];
    let length = 0;
    let afterCr = false;
    for (let chunk of input) {
      if (afterCr && chunk.charCodeAt(0) === 0x0a) chunk = chunk.slice(1);
      afterCr = false;
      if (chunk === '') continue;
      afterCr = chunk.charCodeAt(chunk.length - 1) === 0x0d;
      if (chunk.includes('\r')) chunk = chunk.replace(/\r\n?/g, '\n');
      chunks.push(chunk);
      starts.push(length);
      length += chunk.length;
    }
    this.chunks = chunks;
    this.starts = starts;
    this.length = length;
  }

  /** The piece holding the character at `at` (the number of pieces at the end). */
  chunkAt(at: number): number {
    const { chunks, starts } = this;
    let k = this.#hint;
    if (k >= chunks.length || (starts[k] as number) > at) k = 0;
    while (k < chunks.length && at >= (starts[k] as number) + (chunks[k] as string).length) k++;
    this.#hint = k < chunks.length ? k : 0;
    return k;
  }

  /** The text from `start` to `end`. */
  slice(start: number, end: number): string {
    const k = this.chunkAt(start);
    const chunk = this.chunks[k];
    if (chunk === undefined) return '';
    const at = this.starts[k] as number;
    if (end <= at + chunk.length) return chunk.slice(start - at, end - at);
    let text = chunk.slice(start - at);
    for (let j = k + 1; j < this.chunks.length && (this.starts[j] as number) < end; j++) {
      text += (this.chunks[j] as string).slice(0, end - (this.starts[j] as number));
    }
    return text;
  }

  /** The name from `start` to `end`, lower-cased ({@link lowerName}). */
  name(start: number, end: number): string {
    const k = this.chunkAt(start);
    const chunk = this.chunks[k];
    if (chunk === undefined) return '';
    const at = this.starts[k] as number;
    if (end <= at + chunk.length) return lowerName(chunk, start - at, end - at);
    const text = this.slice(start, end);
    return lowerName(text, 0, text.length);
  }

  /** Where the first `</noscript` (any case) at or after `from` starts; the length if none. */
  noscriptEnd(from: number): number {
    const { chunks, starts } = this;
    const width = NOSCRIPT_END_TAG.length;
    for (let k = this.chunkAt(from); k < chunks.length; k++) {
      const chunk = chunks[k] as string;
      const at = starts[k] as number;
      NOSCRIPT_END.lastIndex = Math.max(0, from - at);
      const found = NOSCRIPT_END.exec(chunk);
      if (found !== null) return at + found.index;
      // An end tag that starts in this piece and ends in a later one.
      if (k + 1 < chunks.length) {
        const tailStart = Math.max(chunk.length - width + 1, from - at, 0);
        let window = chunk.slice(tailStart);
        for (let j = k + 1; j < chunks.length && window.length < 2 * width; j++) {
          window += (chunks[j] as string).slice(0, width);
        }
        NOSCRIPT_END.lastIndex = 0;
        const across = NOSCRIPT_END.exec(window);
        if (across !== null && across.index < chunk.length - tailStart) {
          return at + tailStart + across.index;
        }
      }
    }
    return this.length;
  }
}

class TreeBuilder {
  readonly #source: Source;
  readonly #created: Created;
  readonly document: HtmlDocumentNode;
  #html: HtmlElement | null = null;
  #head: HtmlElement | null = null;
  #body: HtmlElement | null = null;
  #mode: Mode = 'initial';
  /** Open elements below the base (`<head>` or `<body>`), innermost last. */
  readonly #stack: HtmlElement[] = [];
  /** Where children go: the innermost open element, or the base. */
  #current: HtmlParent;
  /** Open `<form>` elements. */
  #forms = 0;
  /**
   * Open HTML `<p>` elements: most start tags close an open `<p>`, and with none open
   * there is no need to search the stack for one.
   */
  #paragraphs = 0;
  /** Elements opened by the page's start tags, and formatting elements opened again. */
  #opened = 0;
  #reopened = 0;
  /**
   * The active formatting elements (HTML §13.2.4.3), null a marker (a table cell, a
   * caption, a template, an object): those a block or an end tag closed are opened
   * again before the next text or inline element, as a browser does.
   */
  readonly #active: (HtmlElement | null)[] = [];
  /** The start tag being read: its name, its attributes (null: the tag is ignored). */
  #tagName = '';
  #attrs: Attr[] | null = null;
  /**
   * The attributes of the start tag being read: the first `#attrCount` entries of one
   * reused list, copied to their element's own list of that length.
   */
  readonly #scratch: Attr[] = [];
  #attrCount = 0;
  #attribName = '';
  #attribValue = '';
  /** The element whose first newline is dropped, until anything follows its start tag. */
  #newlineAfter: HtmlElement | null = null;
  /** The tokenizer reading, and where in the source its input starts. */
  #tokenizer: Tokenizer | null = null;
  #offset = 0;
  /** Where the next tokenizer starts, once a `<noscript>`'s raw text has been read. */
  #resume: number | null = null;
  /** The text node last appended, while nothing has been appended after it. */
  #lastText: HtmlText | null = null;

  constructor(source: Source, created: Created) {
    this.#source = source;
    this.#created = created;
    this.document = {
      nodeName: '#document',
      // Until a doctype says otherwise (HTML §13.2.6.4.1, "initial").
      mode: 'quirks' as HtmlDocumentNode['mode'],
      childNodes: [],
    };
    this.#current = this.document;
  }

  /** Read the events of `tokenizer`, whose input starts at `base` in the source. */
  readFrom(tokenizer: Tokenizer, base: number): void {
    this.#tokenizer = tokenizer;
    this.#offset = base;
    this.#resume = null;
  }

  /** Where reading goes on after a `<noscript>`, or null when the tokenizer read to the end. */
  resumeAt(): number | null {
    return this.#resume;
  }

  /** The source between two of the current tokenizer's indexes. */
  #slice(start: number, end: number): string {
    const offset = this.#offset;
    return this.#source.slice(offset + start, offset + end);
  }

  /** A tag or attribute name between two of the current tokenizer's indexes, lower-cased. */
  #name(start: number, end: number): string {
    const offset = this.#offset;
    return this.#source.name(offset + start, offset + end);
  }

  finish(): HtmlDocumentNode {
    if (this.#body === null) this.#enterBody(null);
    return this.document;
  }

  // The tokenizer's callbacks.

  onopentagname(start: number, end: number): void {
    this.#newlineAfter = null;
    let name = this.#name(start, end);
    if (this.isInForeignContext()) name = SVG_TAG_NAMES.get(name) ?? name;
    else if (name === 'image') name = 'img';
    this.#tagName = name;
    // A second form inside a form is ignored, attributes and all (HTML §13.2.6.4.7).
    if (name === 'form' && this.#forms > 0) this.#attrs = null;
    else {
      this.#attrs = this.#scratch;
      this.#attrCount = 0;
    }
  }

  onattribname(start: number, end: number): void {
    this.#attribName = this.#name(start, end);
  }

  onattribdata(start: number, end: number): void {
    this.#attribValue += this.#slice(start, end);
  }

  onattribentity(codePoint: number): void {
    this.#attribValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    const attrs = this.#attrs;
    const name = this.#attribName;
    if (attrs !== null) {
      const count = this.#attrCount;
      for (let i = 0; i < count; i++) {
        if ((attrs[i] as Attr).name === name) {
          this.#attribValue = '';
          return;
        }
      }
      attrs[count] = { name, value: this.#attribValue };
      this.#attrCount = count + 1;
    }
    this.#attribValue = '';
  }

  onopentagend(end: number): void {
    this.#open(end);
  }

  onselfclosingtag(end: number): void {
    const foreign = this.isInForeignContext();
    const element = this.#open(end);
    // In SVG and MathML `/>` closes the element; in HTML it means nothing.
    if (foreign && element !== null && this.#stack[this.#stack.length - 1] === element) {
      this.#pop();
    }
  }

  onclosetag(start: number, end: number): void {
    this.#newlineAfter = null;
    const name = this.#name(start, end);
    if (name === 'html' || name === 'body') return;
    if (name === 'head') {
      if (this.#mode === 'in-head') {
        this.#stack.length = 0;
        this.#paragraphs = 0;
        this.#mode = 'after-head';
        this.#current = this.#ensureHtml();
      }
      return;
    }
    if (VOID_ELEMENTS.has(name)) {
      // `</br>` is a `<br>`; any other void end tag is ignored.
      if (name === 'br') {
        this.#tagName = 'br';
        this.#attrs = [];
        this.#open(end);
      }
      return;
    }
    const stack = this.#stack;
    if (FORMATTING.has(name) && this.#mode === 'in-body' && this.#adopt(name)) return;
    const at = this.#endTagTarget(name);
    if (at >= 0) {
      while (stack.length > at) this.#pop();
      if (this.#mode === 'after-head' && stack.length === 0) this.#current = this.#ensureHtml();
      return;
    }
    // `</p>` without an open `<p>` is an empty `<p>`.
    if (name === 'p' && this.#mode === 'in-body') {
      this.#tagName = 'p';
      this.#attrs = [];
      const p = this.#open(end);
      if (p !== null && stack[stack.length - 1] === p) this.#pop();
    }
  }

  ontext(start: number, end: number): void {
    this.#text(this.#slice(start, end));
  }

  ontextentity(codePoint: number): void {
    this.#text(String.fromCodePoint(codePoint));
  }

  oncomment(start: number, end: number, offset: number): void {
    this.#comment(this.#slice(start, end - offset));
  }

  oncdata(start: number, end: number, offset: number): void {
    const value = this.#slice(start, end - offset);
    // CDATA is text in SVG and MathML, a comment in HTML.
    if (this.isInForeignContext()) this.#text(value);
    else this.#comment(`[CDATA[${value}]]`);
  }

  ondeclaration(start: number, end: number): void {
    if (this.#html !== null) return;
    const declaration = this.#slice(start, end);
    const name = /^doctype\s+([^\s>]+)/i.exec(declaration)?.[1] ?? '';
    // The quirks the tree shows (HTML §13.2.6.4.1): a doctype other than `html`, or one
    // naming a DTD of the HTML 4 era and before, makes a quirks-mode page.
    const ids = /\bpublic\s*(?:"([^"]*)"|'([^']*)')\s*(?:"[^"]*"|'[^']*')?/i.exec(declaration);
    const publicId = ids?.[1] ?? ids?.[2] ?? '';
    const systemId =
      ids !== null && /(?:"[^"]*"|'[^']*')\s*(?:"[^"]*"|'[^']*')\s*$/.test(declaration);
    const legacy =
      QUIRKS_PUBLIC_ID.test(publicId) ||
      (!systemId && /^-\/\/W3C\/\/DTD HTML 4\.01 (Frameset|Transitional)\/\//i.test(publicId));
    this.document.mode = (
      name.toLowerCase() === 'html' && !legacy ? 'no-quirks' : 'quirks'
    ) as HtmlDocumentNode['mode'];
    this.#append(this.document, {
      nodeName: '#documentType',
      name: name.toLowerCase(),
      publicId: '',
      systemId: '',
      parentNode: null,
    } as unknown as HtmlNode);
  }

  onprocessinginstruction(start: number, end: number): void {
    // HTML has no processing instructions: `<?…>` is a comment.
    this.#comment(this.#slice(start, end));
  }

  onend(): void {}

  /** True inside SVG or MathML, outside their HTML integration points. */
  isInForeignContext(): boolean {
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) return false;
    const ns = top.namespaceURI;
    if (ns === SVG_NS) return !SVG_HTML_POINTS.has(top.tagName);
    if (ns === MATHML_NS) return !MATHML_HTML_POINTS.has(top.tagName);
    return false;
  }

  // The tree.

  /** Insert the start tag just read; returns the element, or null when the tag changed none. */
  #open(end: number): HtmlElement | null {
    const name = this.#tagName;
    const read = this.#attrs;
    this.#tagName = '';
    this.#attrs = null;
    const count = this.#attrCount;
    this.#attrCount = 0;
    const attrs = read === null ? null : count === 0 ? NONE : read.slice(0, count);
    if (attrs === null || this.#resume !== null) return null;
    if (name === 'html') {
      if (this.#html === null) {
        const html = this.#element('html', HTML_NS, attrs);
        this.#html = html;
        this.#append(this.document, html);
        if (this.#mode === 'initial') this.#current = html;
      } else this.#merge(this.#html, attrs);
      return null;
    }
    if (this.#mode !== 'in-body') {
      if (name === 'head') {
        if (this.#head === null && this.#mode === 'initial') {
          const head = this.#element('head', HTML_NS, attrs);
          this.#head = head;
          this.#append(this.#ensureHtml(), head);
          this.#mode = 'in-head';
          this.#current = head;
        }
        return null;
      }
      if (name === 'body') {
        this.#enterBody(attrs);
        return null;
      }
      if (HEAD_ELEMENTS.has(name) && this.#stack.length === 0) {
        // Before the body (after `</head>` too), head elements go to the head.
        this.#current = this.#ensureHead();
        if (this.#mode === 'initial') this.#mode = 'in-head';
      } else if (this.#mode !== 'in-head' || this.#stack.length === 0) {
        this.#enterBody(null);
      }
    } else if (name === 'body') {
      this.#merge(this.#body as HtmlElement, attrs);
      return null;
    } else if (name === 'head') {
      return null;
    }
    const flags = flagsOf(name);
    // A table part, or a frame, with no table open is ignored (HTML §13.2.6.4.7, in body).
    if (
      ((flags & TABLE_PART) !== 0 || name === 'frame') &&
      !this.#inTable() &&
      this.#namespaceFor(name) === HTML_NS
    ) {
      return null;
    }
    this.#closeImplied(name, flags);
    if (this.#mode === 'in-body' && (flags & NO_RECONSTRUCT) === 0) this.#reconstruct();
    this.#openImpliedTableParts(name);
    // `<html>` and `<body>` (or `<head>`) are the first two levels.
    if (this.#stack.length >= MAX_TREE_DEPTH - 2 && (flags & VOID) === 0) this.#pop();
    const namespace = this.#namespaceFor(name);
    if (namespace === SVG_NS) {
      for (const attr of attrs) attr.name = SVG_ATTRIBUTES.get(attr.name) ?? attr.name;
    } else if (namespace === MATHML_NS) {
      for (const attr of attrs) if (attr.name === 'definitionurl') attr.name = 'definitionURL';
    }
    const element = this.#element(name, namespace, attrs);
    this.#opened++;
    // A hidden input is a table's own; anything else out of place in one is fostered.
    const hidden = name === 'input' && getAttr(element, 'type')?.toLowerCase() === 'hidden';
    const table = hidden ? null : this.#fosterTable(name);
    if (table !== null) this.#fosterBefore(table, element);
    else this.#append(this.#current, element);
    if ((flags & VOID) !== 0) {
      if (this.#mode === 'after-head' && this.#stack.length === 0) {
        this.#current = this.#ensureHtml();
      }
      return element;
    }
    this.#stack.push(element);
    this.#current = element;
    if (name === 'form') this.#forms += 1;
    else if (name === 'p' && element.namespaceURI === HTML_NS) this.#paragraphs += 1;
    if (element.namespaceURI === HTML_NS && this.#mode === 'in-body') {
      if ((flags & FORMATTING_ELEMENT) !== 0) this.#pushActive(element);
      else if ((flags & MARKER) !== 0) this.#active.push(null);
    }
    if (element.namespaceURI === HTML_NS) {
      if (name === 'noscript') {
        this.#readNoscript(this.#offset + end + 1);
      } else if ((flags & KEEPS_FIRST_NEWLINE) !== 0) this.#newlineAfter = element;
    }
    return element;
  }

  /** Whether a `<table>` (or a `<template>`, whose content may be a table's) is open. */
  #inTable(): boolean {
    const stack = this.#stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      if (element.namespaceURI !== HTML_NS) continue;
      if (element.tagName === 'table' || element.tagName === 'template') return true;
    }
    return false;
  }

  /** Close what a start tag of `name` implies is over (HTML §13.2.6.4.7, in body). */
  #closeImplied(name: string, flags: number): void {
    if ((flags & (CLOSES_A_P | TABLE_PART | CLOSES_CURRENT_RULE)) === 0 && name !== 'a') return;
    const stack = this.#stack;
    if (name === 'li' || name === 'dd' || name === 'dt') {
      // The list item open nearest, unless a special element other than address, div
      // and p comes first.
      for (let i = stack.length - 1; i >= 0; i--) {
        const tag = (stack[i] as HtmlElement).tagName;
        if (name === 'li' ? tag === 'li' : tag === 'dd' || tag === 'dt') {
          while (stack.length > i) this.#pop();
          break;
        }
        if (SPECIAL.has(tag) && tag !== 'address' && tag !== 'div' && tag !== 'p') break;
      }
    }
    // A quirks-mode page (no `<!doctype html>`) keeps a table inside an open `<p>`.
    if ((flags & CLOSES_A_P) !== 0 && !(name === 'table' && this.document.mode === 'quirks')) {
      const at = this.#inScope('p', BUTTON_SCOPE);
      if (at >= 0) while (stack.length > at) this.#pop();
      if (HEADINGS.has(name)) {
        const top = stack[stack.length - 1];
        if (top !== undefined && HEADINGS.has(top.tagName)) this.#pop();
      }
      return;
    }
    if (name === 'a') {
      // A second `<a>` while one is active ends it as `</a>` would (HTML §13.2.6.4.7).
      const entry = this.#activeIndex('a');
      if (entry >= 0) {
        const first = this.#active[entry] as HtmlElement;
        this.#adopt('a');
        const still = this.#active.lastIndexOf(first);
        if (still >= 0) this.#active.splice(still, 1);
        const open = stack.lastIndexOf(first);
        if (open >= 0) {
          stack.splice(open, 1);
          this.#current =
            stack.length > 0 ? (stack[stack.length - 1] as HtmlElement) : this.#base();
        }
      }
      return;
    }
    if ((flags & TABLE_PART) !== 0) {
      const top = stack[stack.length - 1];
      // A column in an open column group stays in it.
      if (name === 'col' && top !== undefined && top.tagName === 'colgroup') return;
      // A row ends the open row, a cell the open cell; a section, caption or column ends
      // the open rows and cells (whatever is still open inside them ends too).
      for (let i = stack.length - 1; i >= 0; i--) {
        const element = stack[i] as HtmlElement;
        const tag = element.tagName;
        if (element.namespaceURI !== HTML_NS) continue;
        if (tag === 'html' || tag === 'template') return;
        const here =
          name === 'td' || name === 'th'
            ? tag === 'td' || tag === 'th'
            : name === 'tr'
              ? tag === 'tr'
              : false;
        if (here) {
          while (stack.length > i) this.#pop();
          return;
        }
        const stop =
          name === 'td' || name === 'th'
            ? tag === 'tr' || TABLE_SECTIONS.has(tag) || tag === 'table'
            : name === 'tr'
              ? TABLE_SECTIONS.has(tag) || tag === 'table'
              : tag === 'table';
        if (stop) {
          while (stack.length > i + 1) this.#pop();
          return;
        }
      }
      return;
    }
    const closes = CLOSES_CURRENT.get(name);
    if (closes !== undefined) {
      while (stack.length > 0 && closes.has((stack[stack.length - 1] as HtmlElement).tagName)) {
        this.#pop();
      }
    }
  }

  /**
   * The table parts a row, a cell or a column implies (HTML §13.2.6.4.9–13): a `<tr>`
   * straight in a `<table>` opens a `<tbody>` first, a cell a `<tr>` (and the
   * `<tbody>`), a `<col>` a `<colgroup>`.
   */
  #openImpliedTableParts(name: string): void {
    if (name !== 'tr' && name !== 'td' && name !== 'th' && name !== 'col') return;
    const current = this.#current as HtmlElement;
    if (current.namespaceURI !== HTML_NS) return;
    const at = current.tagName;
    if (name === 'col') {
      if (at === 'table') this.#openImplied('colgroup');
      return;
    }
    if (at === 'table') this.#openImplied('tbody');
    if (name !== 'tr' && TABLE_SECTIONS.has((this.#current as HtmlElement).tagName)) {
      this.#openImplied('tr');
    }
  }

  #openImplied(tagName: string): void {
    if (this.#stack.length >= MAX_TREE_DEPTH - 2) this.#pop();
    const element = this.#element(tagName, HTML_NS, []);
    this.#append(this.#current, element);
    this.#stack.push(element);
    this.#current = element;
  }

  /** Where on the stack an HTML element `name` is open in `scope`, or -1. */
  #inScope(name: string, scope: ReadonlySet<string>): number {
    if (name === 'p' && this.#paragraphs === 0) return -1;
    const stack = this.#stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      if (element.namespaceURI !== HTML_NS) {
        if (SVG_HTML_POINTS.has(element.tagName) || MATHML_HTML_POINTS.has(element.tagName)) {
          return -1;
        }
        continue;
      }
      if (element.tagName === name) return i;
      if (scope.has(element.tagName)) return -1;
    }
    return -1;
  }

  /**
   * Where on the stack the element an end tag `name` closes is, or -1 when the tag is
   * ignored (HTML §13.2.6.4.7): a special element only when open in scope; a formatting
   * element wherever it is open; any other the nearest one, unless a special element
   * comes first. In SVG and MathML, the nearest of that name.
   */
  #endTagTarget(name: string): number {
    const stack = this.#stack;
    const svgName = SVG_TAG_NAMES.get(name);
    // In SVG and MathML an end tag closes the nearest foreign element of its name, if
    // one is open above the nearest HTML element (HTML §13.2.6.5); else HTML's rules.
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      if (element.namespaceURI === HTML_NS) break;
      if (element.tagName === name || element.tagName === svgName) return i;
    }
    if (SPECIAL.has(name)) return this.#inScope(name, END_TAG_SCOPES.get(name) ?? SCOPE);
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      const tag = element.tagName;
      if (tag === name || (svgName !== undefined && tag === svgName)) return i;
      if (element.namespaceURI !== HTML_NS) continue;
      if (FORMATTING.has(name) ? SCOPE.has(tag) : SPECIAL.has(tag)) return -1;
    }
    return -1;
  }

  #pop(): void {
    const stack = this.#stack;
    const popped = stack.pop();
    if (popped !== undefined) {
      if (popped.tagName === 'form') this.#forms -= 1;
      else if (popped.tagName === 'p' && popped.namespaceURI === HTML_NS) this.#paragraphs -= 1;
      else if (MARKERS.has(popped.tagName) && popped.namespaceURI === HTML_NS) {
        // Formatting opened inside a cell, a caption or a template ends with it.
        const marker = this.#active.lastIndexOf(null);
        if (marker >= 0) this.#active.length = marker;
      }
    }
    this.#current = stack.length > 0 ? (stack[stack.length - 1] as HtmlElement) : this.#base();
    this.#lastText = null;
  }

  #base(): HtmlParent {
    if (this.#mode === 'in-body') return this.#body as HtmlElement;
    if (this.#mode === 'in-head') return this.#head as HtmlElement;
    return this.#ensureHtml();
  }

  #text(data: string): void {
    if (this.#resume !== null || data === '') return;
    let text = data;
    if (text.includes('\0')) {
      // U+0000: dropped from text, U+FFFD in raw text (HTML §13.2.5).
      const raw = RAW_TEXT.has((this.#current as HtmlElement).tagName);
      text = text.replaceAll('\0', raw ? '\uFFFD' : '');
      if (text === '') return;
    }
    if (this.#newlineAfter !== null) {
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      this.#newlineAfter = null;
      if (text === '') return;
    }
    if (this.#mode !== 'in-body' && this.#stack.length === 0) {
      if (ASCII_WHITESPACE_ONLY.test(text)) {
        // Before `<head>` whitespace is dropped; in and after it, kept where it is.
        if (this.#mode !== 'initial') this.#insertText(text);
        return;
      }
      const leading = LEADING_WHITESPACE.exec(text)?.[0] ?? '';
      if (leading !== '' && this.#mode === 'in-head') this.#insertText(leading);
      this.#enterBody(null);
      text = text.slice(leading.length);
    }
    if (this.#mode === 'in-body') this.#reconstruct();
    this.#insertText(text);
  }

  /**
   * HTML's adoption agency algorithm (HTML §13.2.6.4.7) for an end tag, or a second
   * `<a>`, of the formatting element `subject`: the element closes where the tag is, and
   * a block opened inside it moves out of it, the formatting carried into the block by a
   * copy. Returns false when the tag is to be read as any other end tag.
   */
  #adopt(subject: string): boolean {
    const stack = this.#stack;
    const active = this.#active;
    const top = stack[stack.length - 1];
    if (top !== undefined && top.tagName === subject && top.namespaceURI === HTML_NS) {
      // The usual case, `<a>…</a>`: the current node is the last active formatting
      // element, so no block sits inside it and the algorithm only closes it.
      if (active[active.length - 1] === top) {
        active.pop();
        this.#pop();
        return true;
      }
      if (!active.includes(top)) {
        this.#pop();
        return true;
      }
    }
    for (let outer = 0; outer < 8; outer++) {
      const entry = this.#activeIndex(subject);
      if (entry < 0) return false;
      const formatting = active[entry] as HtmlElement;
      const at = stack.lastIndexOf(formatting);
      if (at < 0) {
        active.splice(entry, 1);
        return true;
      }
      const inScope = this.#inScope(subject, SCOPE);
      if (inScope < 0 || stack[inScope] !== formatting) return true;
      let furthest = -1;
      for (let i = at + 1; i < stack.length; i++) {
        const element = stack[i] as HtmlElement;
        if (element.namespaceURI === HTML_NS && SPECIAL.has(element.tagName)) {
          furthest = i;
          break;
        }
      }
      if (furthest < 0) {
        while (stack.length > at) this.#pop();
        const still = active.lastIndexOf(formatting);
        if (still >= 0) active.splice(still, 1);
        return true;
      }
      const furthestBlock = stack[furthest] as HtmlElement;
      const commonAncestor = at > 0 ? (stack[at - 1] as HtmlElement) : this.#base();
      // Where the copy of the formatting element goes in the active list: after this.
      let bookmark: HtmlElement | null = formatting;
      let lastNode: HtmlElement = furthestBlock;
      let index = furthest;
      for (let inner = 1; ; inner++) {
        index--;
        const node = stack[index] as HtmlElement;
        if (node === formatting) break;
        let place = active.lastIndexOf(node);
        if (inner > 3 && place >= 0) {
          active.splice(place, 1);
          place = -1;
        }
        if (place < 0) {
          stack.splice(index, 1);
          continue;
        }
        const copy = this.#copy(node);
        active[place] = copy;
        stack[index] = copy;
        if (lastNode === furthestBlock) bookmark = copy;
        this.#detach(lastNode);
        this.#append(copy, lastNode);
        lastNode = copy;
      }
      this.#detach(lastNode);
      const table = this.#fosterTableAt(commonAncestor);
      if (table !== null) this.#fosterBefore(table, lastNode);
      else this.#append(commonAncestor, lastNode);
      const copy = this.#copy(formatting);
      const moved = contentOf(furthestBlock).childNodes as HtmlNode[];
      const children = moved.splice(0, moved.length);
      for (const child of children) pushChild(copy, child);
      this.#append(furthestBlock, copy);
      // The copy takes the formatting element's place among the active ones.
      const old = active.lastIndexOf(formatting);
      if (old >= 0) active.splice(old, 1);
      const after = bookmark === formatting ? old - 1 : active.lastIndexOf(bookmark);
      active.splice(Math.max(0, after + 1), 0, copy);
      stack.splice(stack.lastIndexOf(formatting), 1);
      stack.splice(stack.lastIndexOf(furthestBlock) + 1, 0, copy);
      this.#current = stack[stack.length - 1] as HtmlElement;
      this.#lastText = null;
    }
    return true;
  }

  /** A new element with the name and attributes of `element`. */
  #copy(element: HtmlElement): HtmlElement {
    this.#reopened++;
    return this.#element(
      element.tagName,
      HTML_NS,
      element.attrs.length === 0
        ? NONE
        : element.attrs.map((attr) => ({ name: attr.name, value: attr.value })),
    );
  }

  /** Take `node` out of its parent's children. */
  #detach(node: HtmlNode): void {
    const parent = (node as { parentNode: HtmlParent | null }).parentNode;
    if (parent === null || parent === undefined) return;
    const siblings = parent.childNodes as HtmlNode[];
    const at = siblings.lastIndexOf(node);
    if (at >= 0) siblings.splice(at, 1);
    (node as { parentNode: HtmlParent | null }).parentNode = null;
    this.#lastText = null;
  }

  /** Where the active formatting element `name` is, after the last marker; -1 if none. */
  #activeIndex(name: string): number {
    const active = this.#active;
    for (let i = active.length - 1; i >= 0; i--) {
      const entry = active[i];
      if (entry === null || entry === undefined) return -1;
      if (entry.tagName === name) return i;
    }
    return -1;
  }

  /** Add a formatting element to the active ones, at most three alike after the last marker. */
  #pushActive(element: HtmlElement): void {
    const active = this.#active;
    let alike = 0;
    let earliest = -1;
    for (let i = active.length - 1; i >= 0; i--) {
      const entry = active[i];
      if (entry === null || entry === undefined) break;
      if (entry.tagName === element.tagName && sameAttrs(entry, element)) {
        alike++;
        earliest = i;
      }
    }
    if (alike >= 3) active.splice(earliest, 1);
    active.push(element);
    // Past the most any page keeps open, the oldest is forgotten: every search of the
    // list, and what one text can open again, stays bounded.
    const marker = active.lastIndexOf(null);
    if (active.length - marker - 1 > MAX_ACTIVE_FORMATTING) active.splice(marker + 1, 1);
  }

  /**
   * Open again, inside the current node, the active formatting elements that something
   * closed (HTML §13.2.4.3, "reconstruct the active formatting elements").
   */
  #reconstruct(): void {
    const active = this.#active;
    const last = active[active.length - 1];
    if (last === undefined || last === null || this.#isOpen(last)) return;
    // Elements opened again never outnumber the page's own: a page cannot make the
    // tree grow faster than its markup.
    if (this.#reopened > this.#opened) return;
    let i = active.length - 1;
    while (i > 0) {
      const before = active[i - 1];
      if (before === null || before === undefined || this.#isOpen(before)) break;
      i--;
    }
    for (; i < active.length; i++) {
      const old = active[i] as HtmlElement;
      if (this.#stack.length >= MAX_TREE_DEPTH - 2) this.#pop();
      const again = this.#element(
        old.tagName,
        HTML_NS,
        old.attrs.map((attr) => ({ name: attr.name, value: attr.value })),
      );
      const table = this.#fosterTable(again.tagName);
      if (table !== null) this.#fosterBefore(table, again);
      else this.#append(this.#current, again);
      this.#stack.push(again);
      this.#current = again;
      active[i] = again;
      this.#reopened++;
    }
  }

  #isOpen(element: HtmlElement): boolean {
    return this.#stack.lastIndexOf(element) >= 0;
  }

  /**
   * The table an element `tagName` (null: text that is not all whitespace) is inserted
   * before, when the current node is a table's structure, not a cell or a caption: HTML's
   * "foster parenting" (HTML §13.2.6.1). Null otherwise.
   */
  #fosterTable(tagName: string | null): HtmlElement | null {
    if (this.#mode !== 'in-body' || (tagName !== null && IN_TABLE.has(tagName))) return null;
    return this.#fosterTableAt(this.#current);
  }

  /** The table a node inserted into `target` is fostered before, when `target` is table structure. */
  #fosterTableAt(target: HtmlParent): HtmlElement | null {
    const element = target as HtmlElement;
    if (element.namespaceURI !== HTML_NS || !TABLE_STRUCTURE.has(element.tagName)) return null;
    const stack = this.#stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const open = stack[i] as HtmlElement;
      if (open.tagName === 'table' && open.namespaceURI === HTML_NS) {
        return open.parentNode === null ? null : open;
      }
    }
    return null;
  }

  /** Insert `node` right before `table`, which it is fostered out of. */
  #fosterBefore(table: HtmlElement, node: HtmlNode): void {
    const parent = table.parentNode as HtmlParent;
    const siblings = parent.childNodes as HtmlNode[];
    siblings.splice(siblings.lastIndexOf(table), 0, node);
    (node as { parentNode: HtmlParent | null }).parentNode = parent;
    this.#lastText = null;
  }

  #insertText(data: string): void {
    if (
      TABLE_STRUCTURE.has((this.#current as HtmlElement).tagName) &&
      !ASCII_WHITESPACE_ONLY.test(data)
    ) {
      const table = this.#fosterTable(null);
      if (table !== null) {
        const parent = table.parentNode as HtmlParent;
        const siblings = parent.childNodes as HtmlNode[];
        const before = siblings[siblings.lastIndexOf(table) - 1];
        if (before !== undefined && before.nodeName === '#text') (before as HtmlText).value += data;
        else {
          const node = { nodeName: '#text', value: data, parentNode: null } as unknown as HtmlText;
          this.#fosterBefore(table, node);
        }
        return;
      }
    }
    const last = this.#lastText;
    const parent = contentOf(this.#current);
    if (last !== null && last.parentNode === parent) {
      last.value += data;
      return;
    }
    const node = { nodeName: '#text', value: data, parentNode: null } as unknown as HtmlText;
    this.#append(this.#current, node);
    this.#lastText = node;
  }

  #comment(data: string): void {
    this.#newlineAfter = null;
    if (this.#resume !== null) return;
    const node = { nodeName: '#comment', data, parentNode: null } as unknown as HtmlNode;
    this.#append(this.#current, node);
  }

  /**
   * Read a `<noscript>` opened at `start` as raw text, as a browser with scripting on:
   * up to the first `</noscript`, where the next tokenizer starts ({@link buildTree}).
   */
  #readNoscript(start: number): void {
    const end = this.#source.noscriptEnd(start);
    if (end > start) this.#insertText(this.#source.slice(start, end));
    this.#resume = end;
    this.#tokenizer?.pause();
  }

  #append(parent: HtmlParent, node: HtmlNode): void {
    pushChild(contentOf(parent), node);
    this.#lastText = null;
  }

  #element(tagName: string, namespaceURI: string, attrs: Attr[]): HtmlElement {
    const element = {
      nodeName: tagName,
      tagName,
      attrs,
      namespaceURI,
      childNodes: NONE,
      parentNode: null,
    } as unknown as HtmlElement;
    if (tagName === 'template' && namespaceURI === HTML_NS) {
      (element as unknown as { content: HtmlParent }).content = {
        nodeName: '#document-fragment',
        childNodes: NONE,
      } as unknown as HtmlParent;
    }
    this.#note(element);
    return element;
  }

  #note(element: HtmlElement): void {
    const created = this.#created;
    const tag = element.tagName;
    if (tag === 'article' || tag === 'main') created.holders.push(element);
    else if (tag === 'base') {
      if (getAttr(element, 'href') !== null) created.bases.push(element);
    } else if (tag === 'title') {
      if (element.namespaceURI === HTML_NS) created.titles.push(element);
      else created.foreignTitle = true;
    } else if (element.attrs.length > 0 && getAttr(element, 'role') === 'main') {
      created.holders.push(element);
    }
  }

  /** A second `<html>` or `<body>` tag: its attributes the first lacks are added to it. */
  #merge(target: HtmlElement, attrs: readonly Attr[]): void {
    for (const attr of attrs) {
      if (getAttr(target, attr.name) === null) {
        if (target.attrs === NONE) (target as { attrs: Attr[] }).attrs = [];
        (target.attrs as Attr[]).push(attr);
      }
    }
    const holders = this.#created.holders;
    if (getAttr(target, 'role') === 'main' && !holders.includes(target)) holders.push(target);
  }

  #namespaceFor(tagName: string): string {
    const parent = this.#stack[this.#stack.length - 1];
    const ns = parent?.namespaceURI ?? HTML_NS;
    const integration =
      (ns === SVG_NS && SVG_HTML_POINTS.has((parent as HtmlElement).tagName)) ||
      (ns === MATHML_NS && MATHML_HTML_POINTS.has((parent as HtmlElement).tagName));
    if (ns === HTML_NS || integration) {
      if (tagName === 'svg') return SVG_NS;
      if (tagName === 'math') return MATHML_NS;
      return HTML_NS;
    }
    return ns;
  }

  #ensureHtml(): HtmlElement {
    if (this.#html === null) {
      const html = this.#element('html', HTML_NS, []);
      this.#html = html;
      this.#append(this.document, html);
    }
    return this.#html;
  }

  #ensureHead(): HtmlElement {
    if (this.#head === null) {
      const head = this.#element('head', HTML_NS, []);
      this.#head = head;
      this.#append(this.#ensureHtml(), head);
    }
    return this.#head;
  }

  #enterBody(attrs: Attr[] | null): void {
    this.#ensureHead();
    // Whatever is still open in the head ends with it.
    this.#stack.length = 0;
    this.#paragraphs = 0;
    this.#forms = 0;
    if (this.#body === null) {
      const body = this.#element('body', HTML_NS, attrs ?? NONE);
      this.#body = body;
      this.#append(this.#ensureHtml(), body);
    } else if (attrs !== null) this.#merge(this.#body, attrs);
    this.#mode = 'in-body';
    this.#current = this.#body;
  }
}

/** Where a node's children go: a `<template>`'s content, any other parent itself. */
function contentOf(parent: HtmlParent): HtmlParent {
  return parent.nodeName === 'template' && 'content' in parent
    ? (parent as unknown as { content: HtmlParent }).content
    : parent;
}

function sameAttrs(a: HtmlElement, b: HtmlElement): boolean {
  if (a.attrs.length !== b.attrs.length) return false;
  return a.attrs.every((attr) => getAttr(b, attr.name) === attr.value);
}
