import { utf8ByteLength } from '@storefront/core';
import { WordCounter } from '@storefront/html';
import type {
  Code,
  Heading,
  List,
  ListItem,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
} from 'mdast';
import {
  type CharClass,
  classify,
  codeFence,
  codeSpan,
  destination,
  encodeFirst,
  encodeLast,
  escapeText,
  linkTitle,
  OTHER,
  PUNCTUATION,
  WHITESPACE,
} from './escape.js';

/** What {@link mdastToMarkdown} returns. */
export interface Serialized {
  /** The markdown, with no trailing newline. */
  readonly markdown: string;
  /** True when the markdown stopped early to stay within the byte budget. */
  readonly truncated: boolean;
  /** Words in the content of the markdown written (text, alt text, code), not its syntax. */
  readonly wordCount: number;
}

/**
 * Serialize an mdast tree (as {@link toMdast} builds it) to GitHub-flavoured markdown in
 * one fixed style: ATX headings, `-` bullets (`+` for a list right after another), `1.`
 * numbers (`1)` likewise), `*` emphasis, `**` strong, `~~` strikethrough, backtick
 * fences, `***` rules, `\` hard breaks, tight lists, blocks separated by a blank line,
 * no trailing newline.
 *
 * Output is written leaf block by leaf block (a paragraph, heading, rule, table row or
 * code block), each line prefixed by its containers (`> `, list markers and indents).
 * With `maxBytes`, the first leaf that would not fit in that many UTF-8 bytes is cut
 * inside and writing stops: a paragraph at a space, a code block after its last whole
 * line that fits, with its fence closed, so the markdown stays valid and keeps as much
 * as fits. Other leaves (a heading, a rule, a table row) are left out whole, and every
 * open container is simply left.
 * Recursion follows the tree, whose list and blockquote nesting the builder caps.
 */
export function mdastToMarkdown(root: Root, maxBytes = Number.POSITIVE_INFINITY): Serialized {
  const writer = new Writer(maxBytes);
  writer.flow(root.children, false);
  return {
    markdown: writer.out,
    truncated: writer.full,
    wordCount: writer.words.total,
  };
}

/** An open container: the prefix of its first line (a list marker) and of the others. */
interface Prefix {
  first: string | null;
  readonly rest: string;
}

class Writer {
  out = '';
  /** Bytes of `out`. */
  private used = 0;
  /** The words of the leaves written: their words-only text, one leaf after another. */
  readonly words = new WordCounter();
  /** Set once a block did not fit: nothing more is written. */
  full = false;
  private readonly max: number;
  private readonly prefixes: Prefix[] = [];
  /** What separates the next leaf from the last one: nothing, a newline or a blank line. */
  private separator = '';

  constructor(max: number) {
    this.max = max;
  }

  /** Blocks of a container, separated by blank lines. */
  flow(children: readonly RootContent[], inItem: boolean): void {
    let previous: RootContent | undefined;
    let alternate = false;
    for (const node of children) {
      if (this.full) return;
      alternate = node.type === 'list' && listAlike(previous, node) ? !alternate : false;
      if (previous !== undefined) {
        // In a list item a list that can interrupt the paragraph before it follows it on
        // the next line, which keeps nested lists tight.
        const tight =
          inItem && previous.type === 'paragraph' && node.type === 'list' && canInterrupt(node);
        this.separator = tight ? '\n' : this.blankLine();
      }
      this.block(node, alternate);
      previous = node;
    }
  }

  private block(node: RootContent, alternate: boolean): void {
    switch (node.type) {
      case 'paragraph':
        // The block that does not fit is cut inside, so the cap keeps as much as fits.
        if (!this.leaf(paragraph(node), node)) this.partialParagraph(node);
        return;
      case 'heading':
        this.leaf(heading(node), node);
        return;
      case 'thematicBreak':
        this.leaf('***', node);
        return;
      case 'code':
        this.code(node);
        return;
      case 'blockquote':
        this.prefixes.push({ first: null, rest: '> ' });
        this.flow(node.children, false);
        this.prefixes.pop();
        return;
      case 'list':
        this.list(node, alternate);
        return;
      case 'table':
        this.table(node);
        return;
      default:
        // The builder makes no other block.
        return;
    }
  }

  private list(node: List, alternate: boolean): void {
    const start = node.start ?? 1;
    for (let i = 0; i < node.children.length; i++) {
      if (this.full) return;
      const item: ListItem = node.children[i]!;
      const marker = node.ordered ? `${start + i}${alternate ? ')' : '.'}` : alternate ? '+' : '-';
      if (i > 0) this.separator = '\n';
      const task = typeof item.checked === 'boolean' ? (item.checked ? '[x] ' : '[ ] ') : '';
      this.prefixes.push({ first: `${marker} ${task}`, rest: ' '.repeat(marker.length + 1) });
      this.flow(item.children, true);
      this.prefixes.pop();
    }
  }

  private table(node: Table): void {
    const align = node.align ?? [];
    const rows = node.children;
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r]!.children;
      let line = '|';
      for (const cell of cells)
        line += ` ${phrasing(cell.children, TABLE_CONTEXT, WHITESPACE, WHITESPACE)} |`;
      if (r === 0) {
        line += '\n|';
        for (let c = 0; c < cells.length; c++) {
          const a = align[c];
          line +=
            a === 'left'
              ? ' :-- |'
              : a === 'right'
                ? ' --: |'
                : a === 'center'
                  ? ' :-: |'
                  : ' --- |';
        }
      } else {
        this.separator = '\n';
      }
      // Rows are leaves of their own: a table that does not fit keeps its first rows.
      if (!this.leaf(line, rows[r]!)) return;
    }
  }

  private code(node: Code): void {
    const fence = codeFence(node.value);
    const open = `${fence}${node.lang ?? ''}\n`;
    if (this.leaf(`${open}${node.value}\n${fence}`, node) || !this.full) return;
    // Too long whole: keep the whole lines that fit, then close the fence.
    this.full = false;
    const lines = node.value.split('\n');
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.fits(`${open}${lines.slice(0, middle).join('\n')}\n${fence}`)) low = middle;
      else high = middle - 1;
    }
    if (low > 0) {
      const value = lines.slice(0, low).join('\n');
      this.leaf(`${open}${value}\n${fence}`, { type: 'code', value });
    }
    this.full = true;
  }

  /**
   * A paragraph too long to fit whole in what is left of the budget: keep its
   * longest prefix that fits, cut between inline nodes or, inside a text, at a space.
   * Found by bisection, so it costs a few serializations of at most the budget.
   */
  private partialParagraph(node: Paragraph): void {
    this.full = false;
    const children = node.children;
    const render = (count: number, cut: string | null): Paragraph => {
      const kept = children.slice(0, count);
      if (cut !== null) kept.push({ type: 'text', value: cut });
      // A break at the end would be a literal backslash.
      while (kept.length > 0 && kept[kept.length - 1]!.type === 'break') kept.pop();
      return { type: 'paragraph', children: kept };
    };
    const fits = (candidate: Paragraph) =>
      candidate.children.length > 0 && this.fits(paragraph(candidate));
    let low = 0;
    let high = children.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (fits(render(middle, null))) low = middle;
      else high = middle - 1;
    }
    let best = low > 0 ? render(low, null) : null;
    const next = children[low];
    if (next !== undefined && next.type === 'text') {
      // Cut inside the next text, at a space, keeping as many words as fit.
      const spaces: number[] = [];
      for (let i = next.value.indexOf(' '); i !== -1; i = next.value.indexOf(' ', i + 1))
        spaces.push(i);
      let lo = 0;
      let hi = spaces.length;
      while (lo < hi) {
        const middle = (lo + hi + 1) >>> 1;
        if (fits(render(low, next.value.slice(0, spaces[middle - 1]!)))) lo = middle;
        else hi = middle - 1;
      }
      if (lo > 0 && spaces[lo - 1]! > 0) best = render(low, next.value.slice(0, spaces[lo - 1]!));
    }
    if (best !== null) this.leaf(paragraph(best), best);
    this.full = true;
  }

  /** A newline, a blank line inside the open containers (`>` in a quote), a newline. */
  private blankLine(): string {
    let blank = '';
    for (const prefix of this.prefixes) blank += prefix.rest;
    return `\n${blank.trimEnd()}\n`;
  }

  /** The text of a leaf with the pending separator and every line prefixed. */
  private render(text: string): string {
    const prefixes = this.prefixes;
    let out = this.separator;
    if (prefixes.length === 0) return out + text;
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const line = text.slice(start, end);
      let prefix = '';
      for (const entry of prefixes) prefix += entry.first ?? entry.rest;
      out += (line === '' ? prefix.trimEnd() : prefix + line) + (end < text.length ? '\n' : '');
      for (const entry of prefixes) entry.first = null;
      start = end + 1;
    }
    return out;
  }

  private fits(text: string): boolean {
    const first = this.prefixes.map((prefix) => prefix.first);
    const rendered = this.render(text);
    this.prefixes.forEach((prefix, i) => {
      prefix.first = first[i]!;
    });
    return this.used + utf8ByteLength(rendered) <= this.max;
  }

  /** Write one leaf block; false (and nothing written) when it does not fit. */
  private leaf(text: string, node: Nodes): boolean {
    if (this.full) return false;
    const prefixes = this.prefixes;
    const first = prefixes.length === 0 ? null : prefixes.map((prefix) => prefix.first);
    const rendered = this.render(text);
    const size = utf8ByteLength(rendered);
    if (this.used + size > this.max) {
      if (first !== null) {
        prefixes.forEach((prefix, i) => {
          prefix.first = first[i]!;
        });
      }
      this.full = true;
      return false;
    }
    this.out += rendered;
    this.used += size;
    this.separator = '';
    this.words.separate();
    countContent(node, this.words);
    return true;
  }
}

/**
 * Whether a list can interrupt a paragraph (CommonMark §5.3): not when it, or a list
 * opening its first item on the same line, is ordered and does not start at 1.
 */
function canInterrupt(list: List): boolean {
  let node: Nodes | undefined = list;
  while (node !== undefined && node.type === 'list') {
    if (node.ordered && (node.start ?? 1) !== 1) return false;
    node = node.children[0]?.children[0];
  }
  return true;
}

function listAlike(previous: RootContent | undefined, list: List): boolean {
  return previous?.type === 'list' && Boolean(previous.ordered) === Boolean(list.ordered);
}

function paragraph(node: Paragraph): string {
  return phrasing(node.children, PARAGRAPH_CONTEXT, WHITESPACE, WHITESPACE);
}

function heading(node: Heading): string {
  let content = phrasing(node.children, BLOCK_CONTEXT, WHITESPACE, WHITESPACE);
  // A final `#` run would read as the closing sequence.
  if (content.endsWith('#')) content = `${content.slice(0, -1)}\\#`;
  return `${'#'.repeat(node.depth)} ${content}`;
}

/**
 * Count the words-only text of a leaf: text, inline code, code and image alt text, with
 * cells and images set apart by spaces so words never run together across them.
 */
function countContent(node: Nodes, words: WordCounter): void {
  if (node.type === 'code') {
    words.add(node.value);
    return;
  }
  const stack: Nodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    switch (current.type) {
      case 'text':
      case 'inlineCode':
        words.add(current.value);
        continue;
      case 'image':
        words.separate();
        words.add(current.alt ?? '');
        words.separate();
        continue;
      case 'break':
      case 'tableCell':
        words.separate();
        break;
    }
    if ('children' in current) {
      const children = current.children as Nodes[];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
}

// ---- Phrasing ----------------------------------------------------------------------

interface PhrasingContext {
  /** Text at the start of the content starts a line (paragraphs). */
  readonly lineStart: boolean;
  /** In a GFM table cell. */
  readonly table: boolean;
}

const PARAGRAPH_CONTEXT: PhrasingContext = { lineStart: true, table: false };
const BLOCK_CONTEXT: PhrasingContext = { lineStart: false, table: false };
const TABLE_CONTEXT: PhrasingContext = { lineStart: false, table: true };

const TEXT = 0;
const MARKER = 1;
const RAW = 2;
const BREAK = 3;
const LINK_OPEN = 4;

/**
 * One piece of a phrasing block: escaped text (whose edge characters may still be
 * encoded), an emphasis/strong/strikethrough marker, or finished syntax (links, images,
 * code spans, breaks) that starts and ends with punctuation or a line ending.
 */
interface Token {
  readonly kind: typeof TEXT | typeof MARKER | typeof RAW | typeof BREAK | typeof LINK_OPEN;
  value: string;
  /** Markers: whether this one opens. */
  readonly open: boolean;
}

/**
 * Serialize phrasing content. The nodes become tokens; then every run of `*` or `~`
 * markers is checked against CommonMark's flanking rules (§6.2; GFM strikethrough uses
 * the same) and, where the characters around a run would stop it from opening or
 * closing, the character at fault (always a text character) is written as a numeric
 * character reference, which counts as punctuation: `a*.b*` becomes `&#x61;*.b*`, as
 * mdast-util-to-markdown does. `before` and `after` are the classes of the characters
 * just outside the content (line edges, cell pipes).
 */
function phrasing(
  nodes: readonly PhrasingContent[],
  context: PhrasingContext,
  before: CharClass,
  after: CharClass,
): string {
  const tokens: Token[] = [];
  tokenize(nodes, context, tokens, context.lineStart);
  fixFlanking(tokens, before, after);
  let out = '';
  for (const token of tokens) out += token.value;
  return out;
}

function tokenize(
  nodes: readonly PhrasingContent[],
  context: PhrasingContext,
  tokens: Token[],
  lineStart: boolean,
): boolean {
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    switch (node.type) {
      case 'text': {
        const value = escapeText(node.value, {
          lineStart,
          table: context.table,
          beforeLink: nodes[i + 1]?.type === 'link',
        });
        tokens.push({ kind: TEXT, value, open: false });
        break;
      }
      case 'emphasis':
      case 'strong':
      case 'delete': {
        const marker = node.type === 'emphasis' ? '*' : node.type === 'strong' ? '**' : '~~';
        tokens.push({ kind: MARKER, value: marker, open: true });
        tokenize(node.children, context, tokens, false);
        tokens.push({ kind: MARKER, value: marker, open: false });
        break;
      }
      case 'link': {
        tokens.push({ kind: LINK_OPEN, value: '[', open: false });
        tokenize(node.children, context, tokens, false);
        const title = node.title ? ` ${linkTitle(node.title, context.table)}` : '';
        tokens.push({
          kind: RAW,
          value: `](${destination(node.url, context.table)}${title})`,
          open: false,
        });
        break;
      }
      case 'image': {
        const alt = escapeText(node.alt ?? '', {
          lineStart: false,
          table: context.table,
          beforeLink: false,
        });
        const title = node.title ? ` ${linkTitle(node.title, context.table)}` : '';
        tokens.push({
          kind: RAW,
          value: `![${alt}](${destination(node.url, context.table)}${title})`,
          open: false,
        });
        break;
      }
      case 'inlineCode':
        tokens.push({ kind: RAW, value: codeSpan(node.value, context.table), open: false });
        break;
      case 'break':
        tokens.push({ kind: BREAK, value: '\\\n', open: false });
        lineStart = true;
        continue;
      default:
        // Not built (html, references, footnotes): nothing to write.
        continue;
    }
    lineStart = false;
  }
  return lineStart;
}

/** Encode text edge characters until every marker run can open and close as intended. */
function fixFlanking(tokens: Token[], before: CharClass, after: CharClass): void {
  // Maximal runs of markers of one character, as [start, end) token ranges.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    if (token.kind !== MARKER) {
      i++;
      continue;
    }
    const char = token.value.charCodeAt(0);
    let end = i + 1;
    while (
      end < tokens.length &&
      tokens[end]!.kind === MARKER &&
      tokens[end]!.value.charCodeAt(0) === char
    ) {
      end++;
    }
    starts.push(i);
    ends.push(end);
    i = end;
  }
  // A worklist: a fix changes one text token, which can only affect the runs on either
  // side of it. Each fix turns a letter or space into a reference, so this ends, in
  // time linear in the tokens.
  const queue: number[] = [];
  for (let r = starts.length - 1; r >= 0; r--) queue.push(r);
  while (queue.length > 0) {
    const r = queue.pop()!;
    const start = starts[r]!;
    const end = ends[r]!;
    let opens = false;
    let closes = false;
    for (let i = start; i < end; i++) {
      if (tokens[i]!.open) opens = true;
      else closes = true;
    }
    const previous = start > 0 ? tokens[start - 1]! : null;
    const next = end < tokens.length ? tokens[end]! : null;
    const p =
      previous === null ? before : classify(previous.value.charCodeAt(previous.value.length - 1));
    const n = next === null ? after : classify(next.value.charCodeAt(0));
    // Left-flanking (can open): next is not whitespace, and next is not punctuation
    // unless previous is whitespace or punctuation. Right-flanking mirrors it.
    let fixNext: boolean;
    if (opens && n === WHITESPACE) fixNext = true;
    else if (closes && p === WHITESPACE) fixNext = false;
    else if (opens && n === PUNCTUATION && p === OTHER) fixNext = false;
    else if (closes && p === PUNCTUATION && n === OTHER) fixNext = true;
    else continue;
    const fix = fixNext ? next : previous;
    if (fix === null || fix.kind !== TEXT || fix.value === '') continue;
    fix.value = fixNext ? encodeFirst(fix.value) : encodeLast(fix.value);
    // Check this run again, and the run on the far side of the changed text.
    queue.push(r);
    if (fixNext && r + 1 < starts.length && starts[r + 1] === end + 1) queue.push(r + 1);
    if (!fixNext && r > 0 && ends[r - 1] === start - 1) queue.push(r - 1);
  }
}
