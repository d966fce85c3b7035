import type { PdfFormat } from './types.js';

/** The parts of a pdf.js text item the layout reads. */
export interface TextPiece {
  readonly str: string;
  /** The text matrix: `[a, b, c, d, x, y]`; `y` is the baseline. */
  readonly transform: readonly number[];
  readonly height: number;
  readonly hasEOL: boolean;
}

/** One line of a page: its text, baseline and font size. */
export interface Line {
  readonly text: string;
  readonly y: number;
  readonly size: number;
}

/** Characters that are neither text nor line structure: C0 and C1 controls but tab and line feed. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Group a page's text items into lines: an item ends its line when pdf.js marks the end
 * of a line (`hasEOL`), and a new line starts where the baseline moves by more than half
 * the font size. Empty items only carry the end-of-line mark. Whitespace inside a line is
 * collapsed; empty lines are dropped.
 */
export function linesOf(items: readonly TextPiece[]): Line[] {
  const lines: Line[] = [];
  let text = '';
  let y = 0;
  let size = 0;
  let open = false;
  const close = () => {
    const clean = text.replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
    if (open && clean !== '') lines.push({ text: clean.toWellFormed(), y, size });
    text = '';
    open = false;
  };
  for (const item of items) {
    if (item.str !== '') {
      const itemY = item.transform[5] ?? 0;
      const itemSize = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0);
      if (open && Math.abs(itemY - y) > Math.max(size, itemSize) / 2) close();
      if (!open) {
        open = true;
        y = itemY;
        size = itemSize;
      } else {
        size = Math.max(size, itemSize);
      }
      text += item.str;
    }
    if (item.hasEOL) close();
  }
  close();
  return lines;
}

/**
 * The font size most of the text is set in: the size carrying the most characters over
 * `lines`, rounded to half a point; ties go to the smaller size. 0 without lines.
 */
export function bodySize(lines: readonly Line[]): number {
  const weights = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.size * 2) / 2;
    weights.set(size, (weights.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of [...weights].sort(([a], [b]) => a - b)) {
    if (weight > bestWeight) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * A page's lines as text: lines joined with `\n`, and a blank line where the gap
 * between two baselines is more than 1.5 times the lower line's size (a paragraph
 * break) or where the text goes back up the page (a new column or block). In markdown,
 * a line set at least 1.5 times the body size is a `#` heading and at least 1.2 times a
 * `##` heading, each a block of its own, and markdown syntax in the text is escaped.
 */
export function renderPage(lines: readonly Line[], format: PdfFormat, body: number): string {
  const blocks: string[][] = [];
  let current: string[] = [];
  let previous: Line | null = null;
  const flush = () => {
    if (current.length > 0) blocks.push(current);
    current = [];
  };
  for (const line of lines) {
    const heading = format === 'markdown' ? headingLevel(line.size, body) : 0;
    if (previous !== null) {
      const gap = previous.y - line.y;
      if (heading > 0 || gap > line.size * 1.5 || gap < -line.size / 2) flush();
    }
    if (heading > 0) {
      blocks.push([`${'#'.repeat(heading)} ${escapeInline(line.text)}`]);
      previous = line;
      continue;
    }
    if (previous !== null && format === 'markdown' && headingLevel(previous.size, body) > 0) {
      flush();
    }
    current.push(format === 'markdown' ? escapeLine(line.text) : line.text);
    previous = line;
  }
  flush();
  return blocks.map((block) => block.join('\n')).join('\n\n');
}

function headingLevel(size: number, body: number): number {
  if (body <= 0) return 0;
  if (size >= body * 1.5) return 1;
  if (size >= body * 1.2) return 2;
  return 0;
}

/** Escape the characters that would start markdown inline syntax. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`);
}

/** Escape a line of running text: inline syntax, and a line start that would open a block. */
function escapeLine(text: string): string {
  const escaped = escapeInline(text);
  if (/^(#{1,6}(\s|$)|[-+=](\s|$)|\d{1,9}[.)](\s|$)|~~~)/.test(escaped)) {
    const match = /^(\d{1,9})([.)])/.exec(escaped);
    if (match !== null) return `${match[1]}\\${escaped.slice(match[1]?.length ?? 0)}`;
    return `\\${escaped}`;
  }
  return escaped;
}
