import { isBoilerplate } from './boilerplate.js';
import { collapseSpaces, isElement, isText, walk } from './dom.js';
import type { HtmlElement, HtmlNode } from './types.js';

/** Elements that start and end a block of text. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'plaintext',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
  'xmp',
]);

/** Blocks that sit one per line (list items, table rows, definitions) rather than as paragraphs. */
const LINE_TAGS: ReadonlySet<string> = new Set([
  'li',
  'dt',
  'dd',
  'tr',
  'caption',
  'summary',
  'legend',
]);

const CELL_TAGS: ReadonlySet<string> = new Set(['td', 'th']);

/** Options of {@link readableText}. */
export interface ReadableTextOptions {
  /** Leave boilerplate out (default true): {@link isBoilerplate}, unless `leaves` is given. */
  readonly filter?: boolean;
  /** Which elements below `root` to leave out, subtree and all (a content selection's). */
  readonly leaves?: (element: HtmlElement) => boolean;
}

/**
 * The readable text under `root`: boilerplate left out, whitespace collapsed as a browser
 * renders it, one paragraph per block separated by a blank line, list items and table
 * rows one per line (cells separated by a tab), `<br>` as a line break, and `<pre>`
 * kept verbatim. Deterministic and iterative.
 *
 * @example
 *   readableText(contentRoot(page)) // 'Title\n\nFirst paragraph.\n\n- item' ...
 */
export function readableText(root: HtmlNode, options: ReadableTextOptions = {}): string {
  const leaves =
    options.leaves ?? ((options.filter ?? true) ? isBoilerplate : (_: HtmlElement) => false);
  const out: string[] = [];
  // The inline text of the current block, and whether the last block was a line item.
  let line = '';
  let lastKind: 'none' | 'para' | 'line' = 'none';
  let preDepth = 0;
  let pendingKind: 'para' | 'line' = 'para';

  const flush = () => {
    const text = preDepth > 0 ? line.replace(/^\n+|\s+$/g, '') : collapseLine(line);
    line = '';
    if (text === '') return;
    const kind = pendingKind;
    if (lastKind !== 'none') out.push(kind === 'line' && lastKind === 'line' ? '\n' : '\n\n');
    out.push(text);
    lastKind = kind;
  };

  walk(root, {
    enter(node) {
      if (isText(node)) {
        line += node.value;
        return;
      }
      if (!isElement(node)) return 'skip';
      if (node !== root && leaves(node)) return 'skip';
      const tag = node.tagName;
      if (tag === 'br') {
        line += '\u2028';
        return;
      }
      if (CELL_TAGS.has(tag)) {
        if (line.trim() !== '') line += '\u2029';
        return;
      }
      if (BLOCK_TAGS.has(tag)) {
        flush();
        pendingKind = LINE_TAGS.has(tag) ? 'line' : 'para';
        if (tag === 'pre' || tag === 'listing' || tag === 'xmp' || tag === 'plaintext') preDepth++;
      }
    },
    leave(node) {
      if (!isElement(node)) return;
      const tag = node.tagName;
      if (BLOCK_TAGS.has(tag)) {
        flush();
        if (tag === 'pre' || tag === 'listing' || tag === 'xmp' || tag === 'plaintext') preDepth--;
        // After a list or table closes, the next block starts a new paragraph.
        if (!LINE_TAGS.has(tag) && lastKind === 'line') lastKind = 'para';
        pendingKind = 'para';
      }
    },
  });
  flush();
  return out
    .join('')
    .replace(/\u2028/g, '\n')
    .replace(/\u2029/g, '\t');
}

function collapseLine(text: string): string {
  // Collapse ASCII whitespace; keep our line-break and cell markers, trimming around them.
  // Block ends are trimmed of every kind of space (a lone &nbsp; is an empty block);
  // `trim()` also drops markers at the ends, since U+2028 and U+2029 are line terminators.
  const collapsed = collapseSpaces(text);
  if (collapsed.indexOf('\u2028') === -1 && collapsed.indexOf('\u2029') === -1)
    return collapsed.trim();
  return collapsed.replace(AROUND_MARKERS, '$1').trim();
}

const AROUND_MARKERS = / ?([\u2028\u2029]) ?/g;

const SOLO =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

// Character classes of the word counter.
const SEPARATOR = 1;
const LETTER = 2;
const JOINER = 3;
const ALONE = 4;

// Classes of the Basic Multilingual Plane, filled on first sight (0 = not yet known).
const BMP_CLASSES = new Uint8Array(0x10000);

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    const known = BMP_CLASSES[codePoint]!;
    if (known !== 0) return known;
  }
  const char = String.fromCodePoint(codePoint);
  const found =
    codePoint === 0x27 || codePoint === 0x2019 || codePoint === 0x2e || codePoint === 0x2d
      ? JOINER
      : SOLO.test(char)
        ? ALONE
        : WORD_CHAR.test(char)
          ? LETTER
          : SEPARATOR;
  if (codePoint < 0x10000) BMP_CLASSES[codePoint] = found;
  return found;
}

/**
 * Count words the same way everywhere: runs of letters, digits and marks, where a single
 * apostrophe, dot or hyphen between two such characters joins them (`don't`, `3.14`,
 * `e-mail`); each character of scripts written without spaces (Han, kana, Thai, Lao,
 * Khmer, Myanmar) is one word on its own. One pass over the text.
 */
export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.add(text);
  return counter.total;
}

/**
 * {@link countWords} over text that comes in pieces: the count of the pieces added is
 * the count of their concatenation (a word may run across two pieces), without making
 * that string. `separate()` stands for a space between pieces.
 *
 * @example
 *   const counter = new WordCounter();
 *   counter.add("don'");
 *   counter.add('t stop');
 *   counter.count; // 2
 */
export class WordCounter {
  /** Words counted so far. */
  count = 0;
  #inWord = false;
  #joined = false;
  /** A high surrogate that ended the last piece, waiting for its low half. */
  #high = -1;

  add(text: string): void {
    if (text === '') return;
    if (this.#high === -1) {
      this.#scan(text, 0, false);
      return;
    }
    // The high surrogate the last piece ended with: one character with this piece's
    // first when that is its low half, else a character of its own.
    const low = text.charCodeAt(0);
    if (low >= 0xdc00 && low <= 0xdfff) {
      const pair = String.fromCharCode(this.#high, low);
      this.#high = -1;
      this.#scan(pair, 0, true);
      this.#scan(text, 1, false);
    } else {
      this.#flush();
      this.#scan(text, 0, false);
    }
  }

  /** A separator between pieces, as a space would be. */
  separate(): void {
    this.#flush();
    this.#inWord = false;
    this.#joined = false;
  }

  /** The count once every piece is in (a lone high surrogate at the end counts as itself). */
  get total(): number {
    this.#flush();
    return this.count;
  }

  #flush(): void {
    if (this.#high === -1) return;
    const high = String.fromCharCode(this.#high);
    this.#high = -1;
    this.#scan(high, 0, true);
  }

  /** Count `text` from `from`; unless `last`, a final high surrogate waits for the next piece. */
  #scan(text: string, from: number, last: boolean): void {
    let count = this.count;
    let inWord = this.#inWord;
    let joined = this.#joined;
    const length = text.length;
    for (let i = from; i < length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff) {
        if (i + 1 < length) {
          const low = text.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            i++;
          }
        } else if (!last) {
          this.#high = code;
          break;
        }
      }
      switch (classOf(code)) {
        case LETTER:
          if (!inWord) count++;
          inWord = true;
          joined = false;
          break;
        case JOINER:
          // One joiner inside a word may continue it; a second in a row ends it.
          if (inWord && !joined) joined = true;
          else {
            inWord = false;
            joined = false;
          }
          break;
        case ALONE:
          count++;
          inWord = false;
          joined = false;
          break;
        default:
          inWord = false;
          joined = false;
      }
    }
    this.count = count;
    this.#inWord = inWord;
    this.#joined = joined;
  }
}
