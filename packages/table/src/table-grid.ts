import { getAttr, type HtmlElement, isElement } from '@storefront/html';
import { cellText, oneLine } from './cell-text.js';
import { MAX_TABLE_CELLS } from './limits.js';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** One source `<td>`/`<th>`; every grid slot it covers holds the same object. */
export interface GridCell {
  readonly text: string;
}

/** One row of the grid: the cell in each slot (holes are undefined) and how many slots are covered. */
export interface GridRow {
  readonly slots: readonly (GridCell | undefined)[];
  readonly covered: number;
}

/** A table formed into a grid (HTML §4.9.12 "forming a table", with the limits below). */
export interface TableGrid {
  /** The first `<caption>`'s text, or null. */
  readonly caption: string | null;
  /** Rows in table order, header rows first. */
  readonly rows: readonly GridRow[];
  /** How many leading rows of {@link rows} are header rows. */
  readonly headerRows: number;
  /** The widest row. */
  readonly width: number;
  /** Grid cells used: rows times the width (at least 1 per row). */
  readonly cells: number;
  /** True when the cell cap left rows out. */
  readonly truncated: boolean;
}

interface RowGroup {
  readonly kind: 'thead' | 'tbody' | 'tfoot' | 'rows';
  readonly rows: readonly HtmlElement[];
}

interface Downward {
  readonly cell: GridCell;
  remaining: number;
}

const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

/**
 * Form the grid of one `<table>`: its row groups in order (`<tfoot>` last, as HTML's
 * table model places it), each cell copied into every slot its `colspan`/`rowspan`
 * covers. Header rows are the first `<thead>` that has rows (moved to the top), else the
 * first row. Cells are read lazily, rows are added one at a time, and the row that would
 * take the grid past `cellLimit` (at most {@link MAX_TABLE_CELLS}) ends the table, so a
 * `colspan=1000 rowspan=65534` cell costs no more than the cap.
 */
export function formTable(table: HtmlElement, cellLimit: number): TableGrid {
  const limit = Math.min(MAX_TABLE_CELLS, cellLimit);
  const { caption, groups } = rowGroups(table);
  const headerIndex = groups.findIndex((group) => group.kind === 'thead' && group.rows.length > 0);
  const ordered =
    headerIndex === -1
      ? groups
      : [groups[headerIndex]!, ...groups.filter((_, i) => i !== headerIndex)];

  const rows: GridRow[] = [];
  let headerRows = 0;
  let width = 0;
  let truncated = false;

  forming: for (let g = 0; g < ordered.length; g++) {
    const group = ordered[g]!;
    // Cells growing down from earlier rows of this group, by column.
    const downward: (Downward | undefined)[] = [];
    for (let r = 0; r < group.rows.length; r++) {
      const rowsLeft = group.rows.length - r;
      const maxWidth = Math.floor(limit / (rows.length + 1));
      const slots: (GridCell | undefined)[] = [];
      let covered = 0;
      for (let x = 0; x < downward.length; x++) {
        const pending = downward[x];
        if (pending === undefined) continue;
        slots[x] = pending.cell;
        covered++;
        if (--pending.remaining === 0) downward[x] = undefined;
      }
      let x = 0;
      for (const child of group.rows[r]!.childNodes) {
        if (!isCell(child)) continue;
        while (slots[x] !== undefined) x++;
        const colspan = clamp(
          parseNonNegativeInteger(getAttr(child, 'colspan')) ?? 1,
          1,
          MAX_COLSPAN,
        );
        const rowspan = Math.min(
          parseNonNegativeInteger(getAttr(child, 'rowspan')) ?? 1,
          MAX_ROWSPAN,
        );
        // rowspan=0 runs to the end of the row group; no span runs past it (browsers clamp
        // there too), so spans never invent rows the markup does not have.
        const span = rowspan === 0 ? rowsLeft : Math.min(rowspan, rowsLeft);
        if (x + colspan > maxWidth) {
          truncated = true;
          break forming;
        }
        let cell: GridCell | undefined;
        for (let k = x; k < x + colspan; k++) {
          // Overlapping cells (a table model error): the cell that claimed the slot first keeps it.
          if (slots[k] !== undefined) continue;
          cell ??= { text: cellText(child) };
          slots[k] = cell;
          covered++;
          if (span > 1) downward[k] = { cell, remaining: span - 1 };
        }
        x += colspan;
      }
      const nextWidth = Math.max(width, slots.length);
      if ((rows.length + 1) * Math.max(nextWidth, 1) > limit) {
        truncated = true;
        break forming;
      }
      rows.push({ slots, covered });
      width = nextWidth;
      if (g === 0 && headerIndex !== -1) headerRows++;
    }
  }
  // Without a `<thead>`, the first row names the columns (a row of `<th>` or not).
  if (headerIndex === -1) headerRows = rows.length > 0 ? 1 : 0;

  return {
    caption: caption === null ? null : oneLine(cellText(caption)) || null,
    rows,
    headerRows,
    width,
    cells: rows.length * Math.max(width, 1),
    truncated,
  };
}

function rowGroups(table: HtmlElement): { caption: HtmlElement | null; groups: RowGroup[] } {
  let caption: HtmlElement | null = null;
  const groups: RowGroup[] = [];
  const footers: RowGroup[] = [];
  let loose: HtmlElement[] | null = null;
  for (const child of table.childNodes) {
    if (!isElement(child) || child.namespaceURI !== HTML_NAMESPACE) continue;
    const tag = child.tagName;
    if (tag === 'tr') {
      // Rows directly in a table (possible in a DOM, not from the parser) form one group per run.
      if (loose === null) {
        loose = [];
        groups.push({ kind: 'rows', rows: loose });
      }
      loose.push(child);
      continue;
    }
    loose = null;
    if (tag === 'caption') {
      caption ??= child;
    } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      const rows = child.childNodes.filter(
        (node): node is HtmlElement =>
          isElement(node) && node.tagName === 'tr' && node.namespaceURI === HTML_NAMESPACE,
      );
      (tag === 'tfoot' ? footers : groups).push({ kind: tag, rows });
    }
  }
  return { caption, groups: [...groups, ...footers] };
}

function isCell(node: HtmlElement['childNodes'][number]): node is HtmlElement {
  return (
    isElement(node) &&
    (node.tagName === 'td' || node.tagName === 'th') &&
    node.namespaceURI === HTML_NAMESPACE
  );
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/**
 * HTML §2.3.4.2 "rules for parsing non-negative integers": leading ASCII whitespace, an
 * optional sign, then digits (anything after them is ignored). Null on error. Values are
 * capped at a billion so long digit strings cannot lose precision.
 */
export function parseNonNegativeInteger(raw: string | null): number | null {
  if (raw === null) return null;
  let i = 0;
  while (i < raw.length && isAsciiWhitespace(raw.charCodeAt(i))) i++;
  let negative = false;
  if (raw[i] === '-') {
    negative = true;
    i++;
  } else if (raw[i] === '+') {
    i++;
  }
  const start = i;
  let value = 0;
  while (i < raw.length) {
    const code = raw.charCodeAt(i);
    if (code < 0x30 || code > 0x39) break;
    if (value < 1e9) value = value * 10 + (code - 0x30);
    i++;
  }
  if (i === start) return null;
  if (negative && value !== 0) return null;
  return Math.min(value, 1e9);
}

function isAsciiWhitespace(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20;
}
