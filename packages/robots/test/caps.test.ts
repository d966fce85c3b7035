import { CUT_MARK } from '@storefront/core';
import { schemaCheck } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  AI_CRAWLERS,
  AI_TXT_MAX_LISTED_FILE_TYPES,
  auditRobots,
  LLMS_TXT_MAX_BYTES,
  ROBOTS_MAX_CONTENT_TYPE_CHARS,
  ROBOTS_MAX_FIELD_CHARS,
  ROBOTS_MAX_SITEMAPS,
  resultSchema,
} from '../src/index.js';

/**
 * Characters of string content the caps allow (README, Limits): per file 200 agents, per
 * ai.txt 2 × 200 file types, 100 llms.txt sections, a title and a summary, 100 sitemaps
 * (twice: parsed and summary), a verdict rule per crawler, URLs and content types, plus
 * 64 KiB of fixed text.
 */
const WORST_CASE_CHARS =
  ROBOTS_MAX_FIELD_CHARS *
    (2 * 200 +
      2 * AI_TXT_MAX_LISTED_FILE_TYPES +
      100 +
      2 +
      ROBOTS_MAX_SITEMAPS +
      AI_CRAWLERS.length +
      6) +
  3 * ROBOTS_MAX_CONTENT_TYPE_CHARS +
  65_536;

const huge = 'A😀'.repeat(40_000);
const encode = (text: string) => new TextEncoder().encode(text);

function hostileInput() {
  const robots = [
    `User-agent: GPTBot-${'x'.repeat(10_000)}`,
    'User-agent: GPTBot',
    // A rule of 2,031 characters that matches `/`: its citation passes the cap.
    `Disallow: /${'*'.repeat(2030)}`,
    `Sitemap: https://example.com/${'s'.repeat(10_000)}.xml`,
  ].join('\n');
  const llms = [`# ${huge}`, '', `> ${huge}`, '', '## Docs', '- [a](https://example.com/a)'].join(
    '\n',
  );
  const ai = ['User-agent: *', ...Array.from({ length: 400 }, (_, i) => `Disallow: /*.e${i}`)].join(
    '\n',
  );
  const doc = (body: string) => ({
    ok: true as const,
    doc: { status: 200, bytes: encode(body), contentType: `text/plain; ${'q'.repeat(1000)}` },
  });
  return { origin: 'example.com', robotsTxt: doc(robots), llmsTxt: doc(llms), aiTxt: doc(ai) };
}

describe('caps on hostile files', () => {
  const result = auditRobots(hostileInput());
  if (!result.ok) throw new Error(result.error);
  const { data } = result;

  it('cuts echoed strings with the mark, and says so', () => {
    const llms = data.policies['llms.txt'].parsed!;
    // The llms.txt parser keeps 1,000 characters of the title and summary.
    for (const value of [llms.title, llms.summary]) {
      expect(value?.length).toBeLessThanOrEqual(1000);
      expect(value?.endsWith(CUT_MARK)).toBe(true);
      expect(value?.isWellFormed()).toBe(true);
    }
    const agents = data.policies['robots.txt'].parsed!.agents;
    expect(agents.some((agent) => agent.endsWith(CUT_MARK))).toBe(true);
    // Sitemap URLs over 2,048 characters are left out by the parser.
    expect(data.summary.sitemaps).toStrictEqual([]);
    expect(data.policies['robots.txt'].fetch.contentType?.length).toBe(
      ROBOTS_MAX_CONTENT_TYPE_CHARS,
    );
    const gpt = data.verdicts.find((verdict) => verdict.agent === 'GPTBot');
    expect(gpt?.rule?.endsWith(CUT_MARK)).toBe(true);
    expect(data.policies['ai.txt'].parsed?.blockedFileTypes).toHaveLength(
      AI_TXT_MAX_LISTED_FILE_TYPES,
    );
    expect(data.truncatedFields).toBe(true);
  });

  it('still fits the published result schema, cut fields and all', () => {
    expect(schemaCheck(resultSchema)(data)).toStrictEqual([]);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(LLMS_TXT_MAX_BYTES * 2);
  });
});
