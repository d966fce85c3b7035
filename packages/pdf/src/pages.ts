import { PDF_MAX_PAGES, PDF_MAX_PAGES_PARAM_CHARS } from './limits.js';

/** A parsed `pages` selection: 1-based inclusive ranges in the order given. */
export type PageRanges = readonly (readonly [from: number, to: number])[];

/**
 * Parse a page selection: numbers and ranges separated by commas (`1-3,7`), 1-based,
 * each range ascending. Returns the ranges, or a sentence saying what is wrong. A
 * selection naming more than {@link PDF_MAX_PAGES} pages is refused.
 */
export function parsePages(value: string): PageRanges | string {
  if (value.length > PDF_MAX_PAGES_PARAM_CHARS) {
    return `Expected at most ${PDF_MAX_PAGES_PARAM_CHARS} characters`;
  }
  const ranges: [number, number][] = [];
  let count = 0;
  for (const part of value.split(',')) {
    const match = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(part);
    if (match === null) {
      return `Expected page numbers and ranges such as \`1-3,7\`, got \`${part.trim().slice(0, 20)}\``;
    }
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1) return 'Page numbers start at 1';
    if (to < from) return `Expected an ascending range, got \`${from}-${to}\``;
    count += to - from + 1;
    if (count > PDF_MAX_PAGES) return `Expected at most ${PDF_MAX_PAGES} pages in one call`;
    ranges.push([from, to]);
  }
  return ranges;
}

/** The page numbers a selection names, in order, each once. */
export function selectedPages(ranges: PageRanges): number[] {
  const seen = new Set<number>();
  const pages: number[] = [];
  for (const [from, to] of ranges) {
    for (let page = from; page <= to; page++) {
      if (!seen.has(page)) {
        seen.add(page);
        pages.push(page);
      }
    }
  }
  return pages;
}
