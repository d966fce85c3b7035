import { sha256Hex } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../src/diff-text.js';
import { diffText } from '../src/index.js';
import { internLines, normalizeText, splitLines } from '../src/lines.js';
import { DELETE, editScript, INSERT } from '../src/myers.js';
import { applyHunks } from './apply-hunks.js';

const document = makeDocument('', { url: 'https://a.example/' });

/** Texts made of few distinct lines, so diffs have real structure. */
const LINES_TEXT = fc
  .array(fc.constantFrom('a', 'b', 'c', '', 'd e', '@@ x', '\\ y', '+z', '-w'), { maxLength: 30 })
  .chain((lines) =>
    fc
      .constantFrom('\n', '\r\n', '\r')
      .chain((eol) =>
        fc.boolean().map((final) => lines.join(eol) + (final && lines.length > 0 ? eol : '')),
      ),
  );
const ANY_TEXT = fc.oneof(LINES_TEXT, fc.string({ unit: 'binary', maxLength: 60 }));

describe('diffText properties', () => {
  it('is total over any previous and current text', () => {
    fc.assert(
      fc.property(ANY_TEXT, ANY_TEXT, (prevText, text) => {
        const result = diffText({ document, text, prevText });
        if (!result.ok) {
          expect(result.error).toBe('invalid_params');
          expect(prevText.isWellFormed()).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(ANY_TEXT, ANY_TEXT, (prevText, text) => {
        expect(diffText({ document, text, prevText })).toStrictEqual(
          diffText({ document, text, prevText }),
        );
      }),
    );
  });

  it('reports changed exactly when the normalised texts differ, by hash or by text', () => {
    fc.assert(
      fc.property(LINES_TEXT, LINES_TEXT, (prevText, text) => {
        const byText = diffText({ document, text, prevText });
        const byHash = diffText({ document, text, prevHash: sha256Hex(normalizeText(prevText)) });
        const differ = normalizeText(prevText) !== normalizeText(text);
        expect(byText.data?.changed).toBe(differ);
        expect(byHash.data?.changed).toBe(differ);
        expect(byHash.ok && byText.ok && byHash.text).toBe(byText.ok && byText.text);
      }),
    );
  });

  it('gives hunks that turn the previous text into the current one', () => {
    fc.assert(
      fc.property(LINES_TEXT, LINES_TEXT, fc.integer({ min: 0, max: 4 }), (prev, text, context) => {
        const previous = normalizeText(prev);
        const current = normalizeText(text);
        const diff = lineDiff(previous, current, context);
        expect(diff.truncated).toBe(false);
        expect(applyHunks(previous, diff.hunks)).toBe(current);
        const plus = diff.hunks.filter((l) => l.startsWith('+')).length;
        const minus = diff.hunks.filter((l) => l.startsWith('-')).length;
        expect([plus, minus]).toStrictEqual([diff.added, diff.removed]);
        expect(diff.hunks.length === 0).toBe(previous === current);
      }),
      { numRuns: 1000 },
    );
  });

  it('finds a shortest edit script, and a correct one beyond the bounds', () => {
    const SEQ = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 25 });
    fc.assert(
      fc.property(SEQ, SEQ, (x, y) => {
        const a = Int32Array.from(x);
        const b = Int32Array.from(y);
        for (const script of [
          editScript(a, b),
          editScript(a, b, { maxEditDistance: 2, maxWork: 10 }),
        ]) {
          // Replaying the script reproduces b from a.
          const out: number[] = [];
          let i = 0;
          let j = 0;
          for (const op of script.ops) {
            if (op === INSERT) out.push(b[j++] as number);
            else if (op === DELETE) i++;
            else {
              expect(a[i]).toBe(b[j]);
              out.push(a[i++] as number);
              j++;
            }
          }
          expect([i, j]).toStrictEqual([a.length, b.length]);
          expect(out).toStrictEqual(y);
          if (script.exact) {
            const edits = script.ops.filter((op) => op !== 0).length;
            expect(edits).toBe(a.length + b.length - 2 * lcs(x, y));
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('interns an unterminated last line apart from the same line terminated', () => {
    const { a, b } = internLines(splitLines('a'), splitLines('a\n'));
    expect(a[0]).not.toBe(b[0]);
  });
});

function lcs(x: readonly number[], y: readonly number[]): number {
  const table = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      row[j] =
        x[i - 1] === y[j - 1]
          ? (above[j - 1] as number) + 1
          : Math.max(above[j] as number, row[j - 1] as number);
    }
  }
  return (table[x.length] as number[])[y.length] as number;
}
