import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@storefront/core';
import { extract } from '@storefront/extract';
import { extractLinks } from '@storefront/links';
import { toMarkdown } from '@storefront/markdown';
import { extractMetadata } from '@storefront/metadata';
import { extractTables } from '@storefront/table';
import { makeDocument, stableJson } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { extractText } from '../src/index.js';

// Every HTML product over the shared corpus of realistic pages (fixtures/pages): each
// page gives a result, the same result from a fresh parse, and the summary pinned in
// corpus.expected.json (reviewed like any golden file).
const pagesDir = fileURLToPath(new URL('../../../fixtures/pages/', import.meta.url));
const pages = readdirSync(pagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => entry.name)
  .sort();

function load(name: string) {
  const document = JSON.parse(readFileSync(`${pagesDir}${name}/document.json`, 'utf8'));
  return makeDocument(new Uint8Array(readFileSync(`${pagesDir}${name}/page.html`)), document);
}

const FIELDS = 'title:string,price:number,author:string,publishedAt:string,brand:string';

function summarise(name: string) {
  const doc = load(name);
  const text = extractText(doc, { extract: '1' });
  const markdown = toMarkdown(doc);
  const metadata = extractMetadata(doc);
  const record = extract(doc, { schema: FIELDS });
  const links = extractLinks(doc);
  const tables = extractTables(doc);
  const hash = (result: { ok: boolean; text?: string; error?: string }) =>
    result.ok ? sha256Hex(result.text ?? '') : `error:${result.error}`;
  return {
    title: text.ok ? (text.data.title ?? null) : null,
    wordCount: text.ok ? text.data.wordCount : null,
    description: text.ok ? text.data.description : null,
    record: record.ok ? record.data.extract : null,
    jsonLd: metadata.ok ? metadata.data.counts.jsonLd : null,
    openGraph: metadata.ok ? metadata.data.counts.openGraph : null,
    links: links.ok ? links.data.total : null,
    tables: tables.ok ? tables.data.tableCount : 0,
    text: hash(text),
    markdown: hash(markdown),
    metadata: hash(metadata),
    extract: hash(record),
    linksText: hash(links),
    tablesText: hash(tables),
  };
}

test('the corpus has at least 25 pages, each with its SOURCE.md', () => {
  expect(pages.length).toBeGreaterThanOrEqual(25);
  for (const name of pages)
    expect(readFileSync(`${pagesDir}${name}/SOURCE.md`, 'utf8')).not.toBe('');
});

test('every product reads every corpus page, and a fresh parse gives the same bytes', async () => {
  const summaries: Record<string, ReturnType<typeof summarise>> = {};
  for (const name of pages) {
    const first = summarise(name);
    expect(summarise(name)).toEqual(first);
    // Content pages have words; every product but table answers ok on HTML.
    expect(first.text.startsWith('error:'), `${name}: text`).toBe(false);
    expect(first.markdown.startsWith('error:'), `${name}: markdown`).toBe(false);
    expect(first.metadata.startsWith('error:'), `${name}: metadata`).toBe(false);
    summaries[name] = first;
  }
  await expect(`${stableJson(summaries)}\n`).toMatchFileSnapshot('./corpus.expected.json');
});

test('the typed record reads the product page as a buyer expects', () => {
  const result = extract(load('product-page'), { schema: FIELDS });
  if (!result.ok) throw new Error(result.error);
  expect(result.data.extract.price).toBe(1299);
  expect(typeof result.data.extract.title).toBe('string');
});
