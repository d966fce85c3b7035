import { fc, test } from '@fast-check/vitest';
import { utf8ByteLength } from '@storefront/core';
import { loadHtml } from '@storefront/html';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import { describe, expect } from 'vitest';
import { MARKDOWN_MAX_BYTES, toMarkdown } from '../src/index.js';
import { mdastToMarkdown } from '../src/mdast-to-markdown.js';
import { toMdast } from '../src/to-mdast.js';
import { adversarialHtml, adversarialText, escapeHtml } from './support/arbitraries.js';
import { articlePage } from './support/article.js';
import { normalize, parseMarkdown } from './support/oracle.js';

/** More runs with MARKDOWN_FUZZ_RUNS=5000 for a deep search. */
const RUNS = Number(process.env.MARKDOWN_FUZZ_RUNS ?? 300);
const SLOW = 120_000;

/**
 * The round-trip oracle: build the mdast of `body`, write it, parse the markdown back
 * with mdast-util-from-markdown + micromark-extension-gfm + mdast-util-gfm, and compare
 * both trees in the normal form of `normalize` (test/support/oracle.ts).
 */
function roundTrip(body: string | Uint8Array, contentType = 'text/html; charset=utf-8'): void {
  const loaded = loadHtml(makeDocument(body, { contentType }));
  if (!loaded.ok) return;
  const built = toMdast(loaded.page);
  const { markdown } = mdastToMarkdown(built);
  const expected = normalize(built, { autolinks: true });
  const actual = normalize(parseMarkdown(markdown), { autolinks: false });
  expect(actual, `markdown:\n${markdown}`).toStrictEqual(expected);
}

describe('round-trip oracle', () => {
  test.prop([htmlArbitrary], { numRuns: RUNS })(
    'holds for arbitrary HTML',
    (html) => {
      roundTrip(html);
    },
    SLOW,
  );

  test.prop([adversarialHtml], { numRuns: RUNS })(
    'holds for adversarial text in every construct',
    (html) => {
      roundTrip(html);
    },
    SLOW,
  );

  test.prop([fc.array(adversarialText, { maxLength: 12 })], { numRuns: RUNS })(
    'holds for adversarial text/plain pages',
    (lines) => {
      roundTrip(lines.join('\n'), 'text/plain; charset=utf-8');
    },
    SLOW,
  );

  test.prop([fc.array(adversarialText, { minLength: 1, maxLength: 6 })], { numRuns: RUNS })(
    'holds for adversarial text alone in a paragraph, a heading and a cell',
    (texts) => {
      const text = texts.map(escapeHtml).join('');
      roundTrip(`<p>${text}</p><h2>${text}</h2><table><tr><td>${text}</td><td>x</td></tr></table>`);
    },
    SLOW,
  );

  test.prop([fc.integer({ min: 1, max: 1_000 })], { numRuns: 20 })(
    'holds for generated article pages',
    (seed) => {
      roundTrip(articlePage(seed, 8_000));
    },
    SLOW,
  );
});

describe('product invariants', () => {
  test.prop([bytesArbitrary, contentTypeArbitrary], { numRuns: RUNS })(
    'is total: any bytes under any content type give a result, never a throw',
    (bytes, contentType) => {
      const result = toMarkdown(makeDocument(bytes, { contentType }));
      if (result.ok) {
        expect(result.text).toBe(result.data.markdown);
        expect(Number.isInteger(result.data.wordCount) && result.data.wordCount >= 0).toBe(true);
        expect(result.data.bytes).toBe(bytes.length);
      } else {
        expect(['unsupported_content_type', 'parse_error']).toContain(result.error);
      }
    },
  );

  test.prop([htmlArbitrary], { numRuns: RUNS })(
    'is deterministic: the same bytes twice, in fresh documents, give identical text',
    (html) => {
      const first = toMarkdown(makeDocument(html));
      const second = toMarkdown(makeDocument(html));
      expect(second).toStrictEqual(first);
    },
  );

  test.prop([fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 150_000, max: 320_000 })], {
    numRuns: 12,
  })(
    'respects the cap: truncated exactly when the whole markdown is longer, keeping as much as fits',
    (seed, size) => {
      const html = articlePage(seed, size);
      const result = toMarkdown(makeDocument(html));
      if (!result.ok) throw new Error(result.error);
      const loaded = loadHtml(makeDocument(html));
      if (!loaded.ok) throw new Error(loaded.error);
      const whole = mdastToMarkdown(toMdast(loaded.page)).markdown;
      const length = utf8ByteLength(result.text);
      expect(length).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
      expect(result.data.truncated).toBe(utf8ByteLength(whole) > MARKDOWN_MAX_BYTES);
      if (result.data.truncated) {
        // A prefix of the whole markdown, cut where a block or line ends, between inline
        // nodes or at a space; a code block cut inside gets its closing fence line added.
        const kept = whole.startsWith(result.text)
          ? result.text
          : result.text.slice(0, result.text.lastIndexOf('\n'));
        expect(whole.startsWith(kept)).toBe(true);
        expect((result.text.match(/^ *```/gm) ?? []).length % 2).toBe(0);
      } else {
        expect(result.text).toBe(whole);
      }
    },
    SLOW,
  );
});
