import { CUT_MARK } from '@storefront/core';
import { hostilePage, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_BYTES, MARKDOWN_MAX_TITLE_CHARS, toMarkdown } from '../src/index.js';

describe('caps on a hostile page', () => {
  it('cuts the title with the mark and keeps the result bounded', () => {
    const result = toMarkdown(makeDocument(hostilePage()));
    if (!result.ok) throw new Error(result.error);
    const { title } = result.data;
    expect(title?.length).toBeLessThanOrEqual(MARKDOWN_MAX_TITLE_CHARS);
    expect(title?.endsWith(CUT_MARK)).toBe(true);
    expect(title?.isWellFormed()).toBe(true);
    expect(result.data.truncated).toBe(true);
    // README, Limits: the markdown twice (text and data) plus the title, 6 bytes a character at most.
    const bound = 2 * 6 * MARKDOWN_MAX_BYTES + 6 * MARKDOWN_MAX_TITLE_CHARS + 64 * 1024;
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(bound);
  });
});
