import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toMarkdown } from '@storefront/markdown';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import { extractText } from '../src/index.js';

// The main content of every page of the shared corpus (fixtures/pages), pinned as
// reviewable text in main-content/<page>.txt, and the hard cases of selection checked
// by what must and must not be in it, in the text and in the markdown alike.
const pagesDir = fileURLToPath(new URL('../../../fixtures/pages/', import.meta.url));
const pages = readdirSync(pagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => entry.name)
  .sort();

function load(name: string) {
  const document = JSON.parse(readFileSync(`${pagesDir}${name}/document.json`, 'utf8'));
  return makeDocument(new Uint8Array(readFileSync(`${pagesDir}${name}/page.html`)), document);
}

function textOf(name: string): string {
  const result = extractText(load(name));
  if (!result.ok) throw new Error(`${name}: ${result.error}`);
  return result.text ?? '';
}

function markdownOf(name: string): string {
  const result = toMarkdown(load(name));
  if (!result.ok) throw new Error(`${name}: ${result.error}`);
  return result.text ?? '';
}

/** Pages with no text outside scripts and templates (an app shell): empty is right. */
const NO_TEXT = new Set(['spa-shell']);

describe('main content of the corpus pages', () => {
  test.each(pages)('%s', async (name) => {
    const text = textOf(name);
    expect(text.trim() === '', `${name}: empty main content`).toBe(NO_TEXT.has(name));
    expect(textOf(name)).toBe(text);
    await expect(`${text}\n`).toMatchFileSnapshot(`./main-content/${name}.txt`);
  });
});

const HARD_CASES: Record<string, { must: string[]; mustNot: string[] }> = {
  'hard-layout-classes': {
    must: [
      'Harbour board backs new breakwater',
      'The harbour board voted on Tuesday',
      'at its next meeting.',
    ],
    mustNot: ['Most read', 'Related stories', 'Ferry timetable', 'Share', 'Coast Post'],
  },
  'hard-stub-landmarks': {
    must: ['What the seed library taught us', 'Mill Lane Gold', 'volunteers for the Saturday'],
    mustNot: ['Tags:'],
  },
  'hard-no-landmarks': {
    must: [
      'Weir Street bridge reopens after repairs',
      'eleven weeks after a lorry',
      'cameras at both ends.',
    ],
    mustNot: ['riverside_rob', 'Comments', 'Summer fete', 'May 2026', 'Archive'],
  },
};

describe('hard cases of main-content selection', () => {
  for (const [name, { must, mustNot }] of Object.entries(HARD_CASES)) {
    test(`${name}: the story, and none of the chrome, in text and markdown`, () => {
      for (const content of [textOf(name), markdownOf(name)]) {
        for (const snippet of must) expect(content).toContain(snippet);
        for (const snippet of mustNot) expect(content).not.toContain(snippet);
      }
    });
  }
});
