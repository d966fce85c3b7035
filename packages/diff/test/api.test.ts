import { StorefrontError, sha256Hex } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../src/diff-text.js';
import * as api from '../src/index.js';
import {
  checkDiffParams,
  DIFF_MAX_HUNK_LINES,
  DIFF_MAX_PREV_TEXT_CHARS,
  type DiffErrorCode,
  type DiffInput,
  diffText,
} from '../src/index.js';
import { internLines, splitLines } from '../src/lines.js';
import { editScript } from '../src/myers.js';
import { applyHunks } from './apply-hunks.js';

const document = makeDocument('<p>x</p>', { url: 'https://a.example/p' });

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'DIFF_CLAIM_VERSION',
      'DIFF_CONTEXT_LINES',
      'DIFF_MAX_EDIT_DISTANCE',
      'DIFF_MAX_HUNK_LINES',
      'DIFF_MAX_HUNK_LINE_CHARS',
      'DIFF_MAX_PREV_HASH_CHARS',
      'DIFF_MAX_PREV_TEXT_CHARS',
      'DIFF_MAX_WORK',
      'checkDiffParams',
      'diffText',
      'receiptRule',
      'resultSchema',
    ]);
    expect(DIFF_MAX_HUNK_LINES).toBe(400);
  });
});

describe('error codes', () => {
  it.each<[DiffErrorCode, DiffInput]>([
    ['invalid_params', { document }],
    ['invalid_params', { document, prevHash: 'abc' }],
    ['invalid_params', { document, prevText: 'x'.repeat(DIFF_MAX_PREV_TEXT_CHARS + 1) }],
    ['invalid_params', { document, prevText: '\udfff' }],
    ['invalid_params', { document, prevText: 'a', prevHash: sha256Hex('b') }],
    ['invalid_url', { document: makeDocument('x', { url: 'mailto:a@b.example' }), prevText: '' }],
    ['upstream_http_error', { document: makeDocument('x', { status: 404 }), prevText: '' }],
  ])('reports %s', (code, input) => {
    expect(diffText(input)).toMatchObject({ ok: false, error: code });
  });

  it('throws on misuse only', () => {
    expect(() => diffText({ document, prevText: '' }, { context: -1 })).toThrow(StorefrontError);
    expect(() => diffText({ document, prevText: '' }, { context: 1.5 })).toThrow(/`context`/);
    expect(() => diffText(null as unknown as DiffInput)).toThrow(StorefrontError);
    expect(() => diffText({ document: { ...document, fetchedAt: 'now' }, prevText: '' })).toThrow(
      /fetchedAt/,
    );
  });
});

describe('checkDiffParams', () => {
  it('wants prevHash or prevText, and a prevHash that matches prevText', () => {
    expect(checkDiffParams({})).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(checkDiffParams({ prevHash: sha256Hex('a') })).toStrictEqual({
      ok: true,
      comparedBy: 'hash',
    });
    expect(checkDiffParams({ prevText: 'a' })).toStrictEqual({ ok: true, comparedBy: 'text' });
    expect(checkDiffParams({ prevText: 'a', prevHash: sha256Hex('a') })).toStrictEqual({
      ok: true,
      comparedBy: 'text',
    });
    expect(checkDiffParams({ prevText: 'a\r\n', prevHash: sha256Hex('a\n') }).ok).toBe(true);
    expect(checkDiffParams({ prevText: 'a', prevHash: sha256Hex('b') })).toMatchObject({
      ok: false,
      details: [{ param: 'prevHash' }],
    });
  });

  it('refuses malformed values and formats', () => {
    for (const params of [
      { prevHash: `${sha256Hex('a')}0` },
      { prevHash: 'x'.repeat(66) },
      { prevHash: 7 },
      { prevText: 'x'.repeat(DIFF_MAX_PREV_TEXT_CHARS + 1) },
      { prevText: 'a', format: 'html' },
    ]) {
      expect(checkDiffParams(params).ok, JSON.stringify(params).slice(0, 60)).toBe(false);
    }
  });
});

describe('change claims', () => {
  it('chain: each claim’s toHash is the next claim’s fromHash', () => {
    const versions = ['v1\n', 'v2\n', 'v2\n', 'v3\n'];
    let prevHash: string = sha256Hex(versions[0] as string);
    const claims: string[] = [];
    for (const [i, text] of versions.slice(1).entries()) {
      const at = `2026-01-0${i + 1}T00:00:00.000Z`;
      const result = diffText({ document: { ...document, fetchedAt: at }, text, prevHash });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.data.fromHash).toBe(prevHash);
      claims.push(result.text);
      prevHash = result.data.toHash;
    }
    expect(claims.map((claim) => claim.split('\n')[2])).toStrictEqual([
      'changed:true',
      'changed:false',
      'changed:true',
    ]);
  });

  it('compares the decoded body when no text is given', () => {
    const page = makeDocument('a\r\nb\r\n', { contentType: 'text/plain' });
    expect(diffText({ document: page, prevText: 'a\nb\n' }).data).toMatchObject({ changed: false });
  });
});

describe('bounded diff', () => {
  it('falls back to a coarse but correct diff beyond the bounds', () => {
    const old = splitLines('a\nb\nc\nd\ne\n');
    const now = splitLines('a\nx\nc\ny\ne\n');
    const { a, b } = internLines(old, now);
    const exact = editScript(a, b);
    const coarse = editScript(a, b, { maxEditDistance: 1, maxWork: 1_000 });
    expect(exact.exact).toBe(true);
    expect(coarse.exact).toBe(false);
    expect([...exact.ops]).toStrictEqual([0, 1, 2, 0, 1, 2, 0]);
    expect([...coarse.ops]).toStrictEqual([0, 1, 1, 1, 2, 2, 2, 0]);
  });

  it('diffs a 262144-character, many-line input within its work bound', () => {
    const previous = Array.from({ length: 131_071 }, (_, i) => String(i % 7)).join('\n');
    const current = Array.from({ length: 131_071 }, (_, i) => String((i * 3) % 7)).join('\n');
    expect(previous.length).toBeLessThanOrEqual(DIFF_MAX_PREV_TEXT_CHARS);
    // The work bound, not the clock, is what keeps it fast: it cuts the search short.
    const diff = lineDiff(previous, current);
    expect(diff.truncated).toBe(true);
    expect(diff.hunks).toHaveLength(DIFF_MAX_HUNK_LINES);
  });

  it('keeps whole lines when cutting hunks, so the shown hunks still apply', () => {
    const previous = `${Array.from({ length: 600 }, (_, i) => `r${i}`).join('\n')}\n`;
    const current = `${Array.from({ length: 600 }, (_, i) => (i % 3 ? `r${i}` : `R${i}`)).join('\n')}\n`;
    const diff = lineDiff(previous, current);
    expect(diff.truncated).toBe(true);
    expect(diff.hunks.length).toBeLessThanOrEqual(DIFF_MAX_HUNK_LINES);
    expect(() => applyHunks(previous, diff.hunks)).not.toThrow();
  });
});
