import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stableJson } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import { extractPdf } from '../src/index.js';
import { CASES } from './cases.js';

const DIR = new URL('./fixtures', import.meta.url).pathname;

describe('golden results', () => {
  test('every fixture folder belongs to a case', () => {
    const folders = existsSync(DIR) ? readdirSync(DIR) : [];
    for (const folder of folders) expect(Object.keys(CASES)).toContain(folder);
  });

  for (const [name, { doc, options }] of Object.entries(CASES)) {
    test(name, async () => {
      const folder = join(DIR, name);
      mkdirSync(folder, { recursive: true });
      const { text, ...rest } = (await extractPdf(doc(), options)) as { text?: string };
      const textFile = join(folder, 'expected.txt');
      if (text !== undefined) await expect(text).toMatchFileSnapshot(textFile);
      else expect(existsSync(textFile)).toBe(false);
      await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
    });
  }
});
