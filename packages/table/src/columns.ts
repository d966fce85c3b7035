import { capString } from '@storefront/core';
import { oneLine } from './cell-text.js';
import { MAX_COLUMN_NAME_CHARS } from './limits.js';
import type { TableGrid } from './table-grid.js';

/**
 * The header texts of each column, top to bottom: the non-empty text of each header row's
 * cell in that column on one line, a text equal to the one just above left out (a `rowspan` header
 * is named once). Multi-row headers thus give `Q1 Revenue`, `Q1 Cost`, …
 */
export function headerParts(grid: TableGrid): string[][] {
  const parts: string[][] = [];
  for (let x = 0; x < grid.width; x++) {
    const column: string[] = [];
    for (let r = 0; r < grid.headerRows; r++) {
      const text = oneLine(grid.rows[r]!.slots[x]?.text ?? '');
      if (text !== '' && text !== column[column.length - 1]) column.push(text);
    }
    parts.push(column);
  }
  return parts;
}

/** Characters of the names {@link columnNames} will build, before de-duplication suffixes. */
export function namesLength(parts: readonly (readonly string[])[]): number {
  let length = 0;
  for (let x = 0; x < parts.length; x++) {
    const column = parts[x]!;
    if (column.length === 0) {
      length += generatedName(x).length;
    } else {
      let joined = -1;
      for (const part of column) joined += part.length + 1;
      length += Math.min(joined, MAX_COLUMN_NAME_CHARS);
    }
  }
  return length;
}

/** True when a column name is cut at {@link MAX_COLUMN_NAME_CHARS}. */
export function cutsNames(parts: readonly (readonly string[])[]): boolean {
  for (const column of parts) {
    let joined = -1;
    for (const part of column) joined += part.length + 1;
    if (joined > MAX_COLUMN_NAME_CHARS) return true;
  }
  return false;
}

/**
 * Column names from header parts: parts joined by a space and cut at
 * {@link MAX_COLUMN_NAME_CHARS}; an empty header becomes
 * `column_<n>` (n counted from 1); a name already taken gets the first free `_2`, `_3`, …
 * suffix, left to right.
 */
export function columnNames(parts: readonly (readonly string[])[]): string[] {
  const used = new Set<string>();
  // Next suffix to try per base name, so ten thousand equal headers stay linear.
  const nextSuffix = new Map<string, number>();
  const names: string[] = [];
  for (let x = 0; x < parts.length; x++) {
    const column = parts[x]!;
    const base =
      column.length === 0 ? generatedName(x) : capString(column.join(' '), MAX_COLUMN_NAME_CHARS);
    let name = base;
    if (used.has(name)) {
      let suffix = nextSuffix.get(base) ?? 2;
      while (used.has(`${base}_${suffix}`)) suffix++;
      name = `${base}_${suffix}`;
      nextSuffix.set(base, suffix + 1);
    }
    used.add(name);
    names.push(name);
  }
  return names;
}

function generatedName(x: number): string {
  return `column_${x + 1}`;
}
