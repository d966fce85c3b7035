import { CUT_MARK } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  DIFF_MAX_HUNK_LINE_CHARS,
  DIFF_MAX_HUNK_LINES,
  DIFF_MAX_PREV_TEXT_CHARS,
  diffText,
} from '../src/index.js';

/** Characters of string content the caps allow (README, Limits), plus 4 KiB of fixed text. */
const WORST_CASE_CHARS = DIFF_MAX_HUNK_LINES * DIFF_MAX_HUNK_LINE_CHARS + 4096;

describe('caps on a hostile page', () => {
  // Every line of the page is 200,000 characters long and changed.
  const line = (tag: string) => `${tag}${'A😀'.repeat(66_667)}`;
  const previous = line('old ');
  const current = Array.from({ length: 20 }, (_, i) => line(`new ${i} `)).join('\n');
  const document = makeDocument(current, {
    url: 'https://a.example/p',
    contentType: 'text/plain',
  });

  it('cuts each hunk line with the mark and says the hunks are truncated', () => {
    expect(previous.length).toBeLessThan(DIFF_MAX_PREV_TEXT_CHARS);
    const result = diffText({ document, text: current, prevText: previous });
    if (!result.ok) throw new Error(result.error);
    const diff = result.data.diff!;
    expect(diff.added).toBe(20);
    expect(diff.truncated).toBe(true);
    for (const hunk of diff.hunks) {
      expect(hunk.length).toBeLessThanOrEqual(DIFF_MAX_HUNK_LINE_CHARS);
      expect(hunk.isWellFormed()).toBe(true);
    }
    expect(diff.hunks[1]?.startsWith('-old ')).toBe(true);
    expect(diff.hunks[1]?.endsWith(CUT_MARK)).toBe(true);
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(500_000);
  });

  it('leaves short lines alone', () => {
    const result = diffText({ document, text: 'a\nb\n', prevText: 'a\nc\n' });
    if (!result.ok) throw new Error(result.error);
    expect(result.data.diff).toMatchObject({
      hunks: ['@@ -1,2 +1,2 @@', ' a', '-c', '+b'],
      truncated: false,
    });
  });
});
