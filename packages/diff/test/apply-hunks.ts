/** A line and whether it ends with `\n`. */
interface Token {
  readonly text: string;
  readonly eol: boolean;
}

function tokens(text: string): Token[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return lines.map((line, i) => ({ text: line, eol: i < lines.length - 1 || finalNewline }));
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/;
const MARKER = '\\ No newline at end of file';

/**
 * Apply unified hunks to a text the way `patch` does, checking every context and removed
 * line against the old text and every header count against the body. Throws on any
 * mismatch.
 */
export function applyHunks(previous: string, hunks: readonly string[]): string {
  const old = tokens(previous);
  const out: Token[] = [];
  let cursor = 0;
  let i = 0;
  while (i < hunks.length) {
    const match = HEADER.exec(hunks[i] as string);
    if (match === null) throw new Error(`Expected a hunk header, got ${hunks[i]}`);
    const oldCount = match[2] === undefined ? 1 : Number(match[2]);
    const newCount = match[4] === undefined ? 1 : Number(match[4]);
    const start = oldCount === 0 ? Number(match[1]) : Number(match[1]) - 1;
    if (start < cursor) throw new Error(`Hunk at ${start} overlaps the previous one`);
    while (cursor < start) out.push(old[cursor++] as Token);
    let seenOld = 0;
    let seenNew = 0;
    i++;
    while (i < hunks.length && !(hunks[i] as string).startsWith('@@')) {
      const line = hunks[i] as string;
      const eol = hunks[i + 1] !== MARKER;
      const text = line.slice(1);
      const kind = line[0];
      if (kind === ' ' || kind === '-') {
        const expected = old[cursor];
        if (expected === undefined || expected.text !== text || expected.eol !== eol) {
          throw new Error(`Line ${cursor + 1} does not match: ${JSON.stringify(line)}`);
        }
        cursor++;
        seenOld++;
      }
      if (kind === ' ' || kind === '+') {
        out.push({ text, eol });
        seenNew++;
      }
      if (kind !== ' ' && kind !== '-' && kind !== '+') throw new Error(`Bad line ${line}`);
      i += eol ? 1 : 2;
    }
    if (seenOld !== oldCount || seenNew !== newCount) {
      throw new Error(`Header ${match[0]} does not match its body (${seenOld}, ${seenNew})`);
    }
  }
  while (cursor < old.length) out.push(old[cursor++] as Token);
  return out.map((token) => token.text + (token.eol ? '\n' : '')).join('');
}
