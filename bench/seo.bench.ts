import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { loadHtml } from '@storefront/html';
import { auditSeo } from '@storefront/seo';
import { makeDocument } from '@storefront/test-utils';
import { Bench } from 'tinybench';
import { type Measured, machine, measured, printTable } from './lib/report.js';

const PAGES = join(import.meta.dirname, '../fixtures/pages');

/**
 * On-page SEO audit: `auditSeo` (the `/buy/seo` product: parse, one walk, metadata,
 * links, thirteen rules, canonical text) on the corpus pages, next to the parse alone
 * (`loadHtml`), which every HTML product pays. Time only: no library a user would pick
 * audits a page without a browser (Lighthouse's SEO category runs in Chrome). Each run
 * gets a fresh document, since the parse is cached on the document object.
 */
export async function seoBenchmark(options: { time: number }): Promise<Measured[]> {
  const bench = new Bench({ time: options.time, warmupTime: 300 });
  for (const name of ['product-page', 'wiki-article', 'news-article']) {
    const bytes = new Uint8Array(readFileSync(join(PAGES, name, 'page.html')));
    const doc = () => makeDocument(bytes, { url: `https://pages.example/${name}` });
    const check = auditSeo(doc());
    if (!check.ok) throw new Error(`${name}: ${check.error}`);
    bench.add(`parse only, loadHtml (${name}, ${bytes.length} bytes)`, () => {
      loadHtml(doc());
    });
    bench.add(`storefront auditSeo (${name}, grade ${check.data.grade})`, () => {
      auditSeo(doc());
    });
  }
  await bench.run();
  const rows = measured(bench);
  printTable(`On-page SEO audit, bytes to result (${machine()}, ${cpus().length} cores)`, rows);
  return rows;
}
