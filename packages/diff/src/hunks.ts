import type { SplitText } from './lines.js';
import { DELETE, INSERT, KEEP } from './myers.js';

/** The marker GNU diff prints after a line that has no final newline. */
export const NO_NEWLINE_MARKER = '\\ No newline at end of file';

/** Unified hunks from an edit script, cut at a line budget. */
export interface Hunks {
  readonly lines: string[];
  readonly truncated: boolean;
}

/**
 * Format an edit script as unified-diff hunks (GNU diff's `-U context` format): a
 * `@@ -start,count +start,count @@` header (`,1` omitted; an empty side counts from
 * the line before), then ` `, `-` and `+` lines, with `\ No newline at end of file`
 * after an unterminated last line. Changes closer than `2 * context` unchanged
 * lines share a hunk. At most `budget` strings are produced; a hunk that does not fit
 * is cut after whole lines and its header counts only what is shown.
 */
export function formatHunks(
  ops: Uint8Array,
  old: SplitText,
  current: SplitText,
  context: number,
  budget: number,
): Hunks {
  const out: string[] = [];
  let i = 0; // old line index at op position p
  let j = 0; // new line index at op position p
  let p = 0;
  const oldIndex = new Int32Array(ops.length + 1);
  const newIndex = new Int32Array(ops.length + 1);
  for (let q = 0; q < ops.length; q++) {
    oldIndex[q] = i;
    newIndex[q] = j;
    if (ops[q] !== INSERT) i++;
    if (ops[q] !== DELETE) j++;
  }
  oldIndex[ops.length] = i;
  newIndex[ops.length] = j;

  while (p < ops.length) {
    let change = p;
    while (change < ops.length && ops[change] === KEEP) change++;
    if (change === ops.length) break;
    const start = Math.max(p, change - context);
    // Extend over every change followed within 2 * context unchanged lines by another.
    let end = change;
    for (;;) {
      while (end < ops.length && ops[end] !== KEEP) end++;
      let next = end;
      while (next < ops.length && ops[next] === KEEP) next++;
      if (next < ops.length && next - end <= 2 * context) {
        end = next;
        continue;
      }
      end = Math.min(end + context, ops.length);
      break;
    }

    // Take whole lines while they fit; a cut hunk must still show a change.
    const room = budget - out.length - 1;
    const shown: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let changes = 0;
    let cut = false;
    for (let q = start; q < end; q++) {
      const op = ops[q] as number;
      const line = bodyLine(op, oldIndex[q] as number, newIndex[q] as number, old, current);
      if (shown.length + line.length > room) {
        cut = true;
        break;
      }
      shown.push(...line);
      if (op !== INSERT) oldCount++;
      if (op !== DELETE) newCount++;
      if (op !== KEEP) changes++;
    }
    if (changes === 0) return { lines: out, truncated: true };
    out.push(
      `@@ -${range(oldIndex[start] as number, oldCount)} +${range(newIndex[start] as number, newCount)} @@`,
      ...shown,
    );
    if (cut) return { lines: out, truncated: true };
    p = end;
  }
  return { lines: out, truncated: false };
}

/** The strings one op prints: its line, plus the marker after an unterminated last line. */
function bodyLine(
  op: number,
  i: number,
  j: number,
  old: SplitText,
  current: SplitText,
): readonly string[] {
  const fromOld = op !== INSERT;
  const text = fromOld ? old : current;
  const index = fromOld ? i : j;
  const prefix = op === KEEP ? ' ' : op === DELETE ? '-' : '+';
  const line = `${prefix}${text.lines[index] as string}`;
  const last = index === text.lines.length - 1 && !text.finalNewline;
  return last ? [line, NO_NEWLINE_MARKER] : [line];
}

/** GNU's range: `start,count`, `,1` omitted, an empty range numbered from the line before. */
function range(start0: number, count: number): string {
  if (count === 0) return `${start0},0`;
  if (count === 1) return `${start0 + 1}`;
  return `${start0 + 1},${count}`;
}
