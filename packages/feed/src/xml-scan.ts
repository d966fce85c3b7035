import { FEED_MAX_DEPTH, FEED_MAX_ELEMENTS, FEED_MAX_HTML_CHARS } from './limits.js';
import { CUT_MARK } from './text.js';

/** Local names of the root elements of the formats read: RSS 0.9x/2.0, RDF (RSS 0.90/1.0), Atom. */
const FEED_ROOTS: ReadonlySet<string> = new Set(['rss', 'RDF', 'feed']);

/** Local names of the elements that hold one item. */
const ITEM_NAMES: ReadonlySet<string> = new Set(['item', 'entry']);

/** What {@link scanXml} found. */
export type ScanResult =
  /**
   * A feed root starting at `start`, well-formed up to `end`: the part to parse. What
   * comes before the root (XML declaration, DOCTYPE, comments, processing instructions)
   * is not needed and is left out. Character data past {@link FEED_MAX_HTML_CHARS} in
   * one run is left out (`cuts`), and `close`, when present, is appended: a clipped body
   * that ends in the text of an item is closed there (see {@link scanXml}).
   */
  | {
      readonly kind: 'feed';
      readonly start: number;
      readonly end: number;
      /** Ranges of over-long character data left out, each replaced by `…` ({@link feedText}). */
      readonly cuts?: readonly (readonly [number, number])[];
      readonly close?: string;
    }
  /** Not XML, or XML whose root is not a feed: `unsupported_content_type`. */
  | { readonly kind: 'not-feed'; readonly message: string }
  /** A feed root, but the markup is broken: `parse_error`. */
  | { readonly kind: 'malformed'; readonly message: string };

/** A {@link ScanResult} that found a feed. */
export type FeedScan = Extract<ScanResult, { readonly kind: 'feed' }>;

/** Options of {@link scanXml}. */
export interface ScanOptions {
  /** Stop after this many items have closed: nothing after them is read. */
  readonly maxItems: number;
  /**
   * The body was cut (by the fetcher or at `FEED_MAX_BYTES`): a broken or unfinished tail
   * is expected, so the document is kept up to the last item that closed.
   */
  readonly clipped: boolean;
  /** The most start tags read; more are cut like a clipped body. Default {@link FEED_MAX_ELEMENTS}. */
  readonly maxElements?: number;
}

/**
 * One linear pass over the markup, before the XML parser sees it. fast-xml-parser does
 * not check well-formedness (it accepts mismatched and missing end tags), so this pass
 * checks the structure the items depend on: every start tag closed by a matching end tag
 * (XML 1.0 §3 "element type match"), one root element, no text outside it, terminated
 * comments, CDATA sections, processing instructions, DOCTYPE and attribute values, and
 * nesting at most {@link FEED_MAX_DEPTH} deep. Character data is not checked (a bare `&`
 * or an unknown entity is tolerated, as feed readers do).
 *
 * Before the root, any number of DOCTYPE declarations (an HTML one too, in any case),
 * comments, processing instructions, whitespace and U+FEFF (a BOM left by concatenated
 * files) are skipped: the root alone decides. Text before the root is not.
 *
 * It also decides what the body is: a body that is not markup, an HTML page (an `<html>`
 * root, or an HTML DOCTYPE before a root that is no feed), or XML with another root is
 * "not a feed"; and it finds where to stop: after the `maxItems`-th item,
 * so a 5 MiB feed is not parsed beyond what the result can hold, or at the
 * {@link FEED_MAX_ELEMENTS}-th element, where the document is cut like a clipped body
 * (kept up to the last item that closed, else the last element that closed).
 */
export function scanXml(text: string, options: ScanOptions): ScanResult {
  const length = text.length;
  let i = skipOutside(text, 0);
  if (i >= length || text[i] !== '<') return { kind: 'not-feed', message: notMarkup(text, i) };

  const stack: string[] = [];
  let rootSeen = false;
  let rootClosed = false;
  let rootStart = 0;
  let htmlDoctype = false;
  let itemsClosed = 0;
  let lastItemEnd = -1;
  let lastCleanEnd = -1;
  let elements = 0;
  const itemsWanted = Math.max(1, options.maxItems);
  const maxElements = options.maxElements ?? FEED_MAX_ELEMENTS;

  const cut = (): number => (lastItemEnd >= 0 ? lastItemEnd : lastCleanEnd);
  const cuts: (readonly [number, number])[] = [];
  /** Leave out what a run of character data has past the cap; the cut is marked. */
  const capRun = (from: number, to: number): void => {
    if (to - from > FEED_MAX_HTML_CHARS)
      cuts.push([wholeEnd(text, from + FEED_MAX_HTML_CHARS), to]);
  };
  const feed = (end: number): FeedScan => {
    const before = cuts.filter(([from]) => from < end);
    return { kind: 'feed', start: rootStart, end, ...(before.length > 0 ? { cuts: before } : {}) };
  };
  /**
   * The body ends inside character data (`text`, cut at `at`) or a CDATA section
   * (`cdata`). A clipped body cut there inside an item keeps the item: the document is
   * closed at the cut, which is marked with `…` (U+2026), so the field it fell in is
   * read and capped like any other and shows the cut. Otherwise `message`.
   */
  const endsInText = (at: number, message: string, cut: 'text' | 'cdata'): ScanResult => {
    const item = stack.findIndex((name, depth) => depth >= 1 && depth <= 2 && isItem(name));
    if (!options.clipped || item === -1) return malformed(message);
    const tags = stack
      .map((name) => `</${name}>`)
      .reverse()
      .join('');
    // A run cut at the cap already ends with the mark.
    const capped = cuts.at(-1)?.[1] === at;
    return {
      ...feed(capped || cut === 'cdata' ? at : wholeEnd(text, at)),
      close: `${capped ? '' : CUT_MARK}${cut === 'cdata' ? ']]>' : ''}${tags}`,
    };
  };
  const malformed = (message: string): ScanResult => {
    // Before any root, an HTML DOCTYPE says what the body is better than the breakage.
    if (!rootSeen && htmlDoctype) return { kind: 'not-feed', message: HTML_DOCTYPE };
    if (options.clipped && rootSeen && cut() > 0) return feed(cut());
    return { kind: 'malformed', message };
  };

  while (i < length) {
    const lt = text.indexOf('<', i);
    const textEnd = lt === -1 ? length : lt;
    if (stack.length > 0) capRun(i, textEnd);
    if (stack.length === 0 && textEnd > i && skipOutside(text, i) < textEnd) {
      return malformed(
        rootClosed
          ? 'there is text after the root element'
          : 'there is text before the root element',
      );
    }
    if (lt === -1) break;
    i = lt;
    const next = text[i + 1];

    if (next === '?') {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return malformed('a processing instruction (`<?`) is not terminated');
      i = end + 2;
      continue;
    }
    if (next === '!') {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) return malformed('a comment (`<!--`) is not terminated');
        i = end + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        if (stack.length === 0) return malformed('a CDATA section is outside the root element');
        const end = text.indexOf(']]>', i + 9);
        capRun(i + 9, end === -1 ? length : end);
        if (end === -1) {
          return endsInText(length, 'a CDATA section (`<![CDATA[`) is not terminated', 'cdata');
        }
        i = end + 3;
        continue;
      }
      if (text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE') {
        // Only the prolog may hold one. HTML writes the keyword in any case, and pages
        // generated as HTML sometimes carry a feed: the root decides, so any DOCTYPE
        // before it is skipped, and an HTML one is remembered for the error message.
        if (rootSeen) return malformed('a DOCTYPE declaration is out of place');
        const name = readName(text, skipSpace(text, i + 9));
        if (name.toLowerCase() === 'html') htmlDoctype = true;
        const end = doctypeEnd(text, i + 9);
        if (end === -1) return malformed('the DOCTYPE declaration is not terminated');
        i = end + 1;
        continue;
      }
      return malformed('a `<!` starts neither a comment, a CDATA section nor the DOCTYPE');
    }

    if (next === '/') {
      const name = readName(text, i + 2);
      const close = skipSpace(text, i + 2 + name.length);
      if (name === '' || text[close] !== '>') return malformed('an end tag is malformed');
      const open = stack.pop();
      if (open === undefined) return malformed(`the end tag \`</${clip(name)}>\` closes nothing`);
      if (open !== name) {
        return malformed(`the end tag \`</${clip(name)}>\` does not match \`<${clip(open)}>\``);
      }
      i = close + 1;
      lastCleanEnd = i;
      if (stack.length === 0) rootClosed = true;
      if (isItem(name) && stack.length <= 2) {
        itemsClosed++;
        lastItemEnd = i;
        if (itemsClosed >= itemsWanted) return feed(i);
      }
      continue;
    }

    const name = readName(text, i + 1);
    if (name === '' || !isNameStart(name.charCodeAt(0))) {
      return malformed('a `<` starts no tag (write it as `&lt;`)');
    }
    if (!rootSeen) {
      const local = localName(name);
      if (!FEED_ROOTS.has(local)) {
        return { kind: 'not-feed', message: htmlDoctype ? HTML_DOCTYPE : notFeedRoot(name) };
      }
      rootStart = i;
    } else if (rootClosed) {
      return malformed('there is a second root element');
    }
    if (++elements > maxElements) {
      if (cut() > 0) return feed(cut());
      return { kind: 'malformed', message: `there are more than ${maxElements} elements` };
    }
    const end = tagEnd(text, i + 1 + name.length);
    if (end === -1) return malformed(`the start tag \`<${clip(name)}\` is not terminated`);
    rootSeen = true;
    i = end + 1;
    if (text[end - 1] === '/') {
      lastCleanEnd = i;
      if (stack.length === 0) rootClosed = true;
      if (isItem(name) && stack.length <= 2) {
        itemsClosed++;
        lastItemEnd = i;
        if (itemsClosed >= itemsWanted) return feed(i);
      }
      continue;
    }
    stack.push(name);
    if (stack.length > FEED_MAX_DEPTH) {
      return malformed(`elements are nested deeper than ${FEED_MAX_DEPTH} levels`);
    }
  }

  if (!rootSeen) return malformed('there is no root element');
  const open = stack[stack.length - 1];
  if (open !== undefined) {
    return endsInText(
      length,
      `the document ends inside \`<${clip(open)}>\` (it is truncated)`,
      'text',
    );
  }
  return feed(length);
}

/**
 * `at`, moved back so that the text before it ends with whole characters: before a
 * character or entity reference a cut would leave unfinished (`&#6` of `&#65;`), or
 * the first half of a surrogate pair.
 */
function wholeEnd(text: string, at: number): number {
  const amp = text.lastIndexOf('&', at - 1);
  if (amp !== -1 && at - amp <= 12 && /^&#?[0-9A-Za-z]*$/.test(text.slice(amp, at))) return amp;
  const last = text.charCodeAt(at - 1);
  return last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}

/** The text to parse: the scanned part, with its cuts marked and its close appended. */
export function feedText(text: string, scan: FeedScan): string {
  const parts: string[] = [];
  let at = scan.start;
  for (const [from, to] of scan.cuts ?? []) {
    parts.push(text.slice(at, from), CUT_MARK);
    at = to;
  }
  parts.push(text.slice(at, Math.max(at, scan.end)), scan.close ?? '');
  return parts.join('');
}

const HTML_DOCTYPE = 'The body is an HTML page (`<!DOCTYPE html>`), not a feed.';

/**
 * Skip what may stand outside the root besides markup: XML whitespace and U+FEFF (a byte
 * order mark left in the middle by concatenated or included files).
 */
function skipOutside(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0xfeff) {
      break;
    }
  }
  return i;
}

/** XML 1.0 §2.3 `S`: space, tab, carriage return, line feed. */
function skipSpace(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
  }
  return i;
}

/** The name starting at `from`: everything up to whitespace or a delimiter. */
function readName(text: string, from: number): string {
  let i = from;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code <= 0x20 ||
      code === 0x2f /* / */ ||
      code === 0x3e /* > */ ||
      code === 0x3c /* < */ ||
      code === 0x3d /* = */ ||
      code === 0x22 /* " */ ||
      code === 0x27 /* ' */
    ) {
      break;
    }
  }
  return text.slice(from, i);
}

/** XML 1.0 §2.3 `NameStartChar`, simplified: a letter, `_`, `:` or any non-ASCII character. */
function isNameStart(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x3a ||
    code >= 0x80
  );
}

/** The `>` that ends a start tag whose attributes start at `from`, skipping quoted values. */
function tagEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x3e) return i;
    if (code === 0x22 || code === 0x27) {
      const close = text.indexOf(text[i] as string, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (code === 0x3c) {
      return -1;
    }
  }
  return -1;
}

/** The `>` that ends a DOCTYPE, skipping quoted literals, the internal subset and its comments. */
function doctypeEnd(text: string, from: number): number {
  let subset = false;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (subset && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close === -1) return -1;
      i = close + 2;
    } else if (char === '[') {
      subset = true;
    } else if (char === ']') {
      subset = false;
    } else if (char === '>' && !subset) {
      return i;
    }
  }
  return -1;
}

function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}

function isItem(name: string): boolean {
  return ITEM_NAMES.has(localName(name));
}

function clip(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

function notMarkup(text: string, at: number): string {
  const first = text[at];
  if (first === '{' || first === '[') return 'The body is JSON, not an RSS or Atom feed.';
  return 'The body is not XML (it does not start with `<`), so it is not a feed.';
}

function notFeedRoot(name: string): string {
  if (localName(name).toLowerCase() === 'html') {
    return 'The body is an HTML page (root element `<html>`), not a feed.';
  }
  return `The root element is \`<${clip(name)}>\`, not \`<rss>\`, \`<rdf:RDF>\` or an Atom \`<feed>\`.`;
}
