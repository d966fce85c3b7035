import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher } from '@storefront/safe-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ProductPool } from '../src/work/pool.js';
import { testApp } from './helpers.js';
import { ADMIN_TOKEN, buy, creditsOf, ledgerOf, prepaidKey } from './keys.js';
import { fixturePage } from './site.js';

/** The pages the loopback site serves, by path. */
const PAGES: Record<string, string | Buffer> = {
  '/divs': `<!doctype html><html><body>${'<div>'.repeat(1_000_000)}x</body></html>`,
  '/bold': `<!doctype html><html><body>${'<b>'.repeat(2_000_000)}x</body></html>`,
  '/cells': `<!doctype html><table><tr>${'<td>cell</td>'.repeat(200_000)}</tr></table>`,
  '/article': fixturePage('news-article').body,
  '/long-article': longArticle(2_000_000),
  '/data': dataTable(5_000, 9),
};

/** An article of about `bytes`: headings, paragraphs with links and emphasis, lists. */
function longArticle(bytes: number): string {
  const parts = ['<!doctype html><html><head><title>A long read</title></head><body><article>'];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const section =
      (i % 20 === 0 ? `<h2>Part ${i / 20 + 1}</h2>` : '') +
      `<p>Paragraph ${i} of the report, with <a href="/notes/${i}">a note</a>, some <em>emphasis</em> and ` +
      `${'plain words that carry the story along, '.repeat(6)}and a <strong>closing line</strong>.</p>` +
      (i % 10 === 5 ? '<ul><li>one point</li><li>another point</li></ul>' : '');
    parts.push(section);
    size += section.length;
  }
  parts.push('</article></body></html>');
  return parts.join('\n');
}

/** A data table of `rows` × `columns` number cells under a header row. */
function dataTable(rows: number, columns: number): string {
  const head = Array.from({ length: columns }, (_, c) => `<th>Column ${c + 1}</th>`).join('');
  const body: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells = Array.from({ length: columns }, (_, c) => `<td>${r * columns + c}</td>`);
    body.push(`<tr>${cells.join('')}</tr>`);
  }
  return `<!doctype html><html><head><title>Readings</title></head><body><table><thead><tr>${head}</tr></thead><tbody>${body.join('\n')}</tbody></table></body></html>`;
}

describe('memory per call: pages past the element cap and large real pages', () => {
  let upstream: http.Server;
  let base: string;
  let pool: ProductPool;
  let t: Awaited<ReturnType<typeof testApp>>;
  let fetcher: ReturnType<typeof createFetcher>;
  const faults: string[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const page = PAGES[req.url ?? ''];
      if (page === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    fetcher = createFetcher({ testOnlyAllow: `127.0.0.1:${port}` });
    // The service's own heap bound per thread; time is not what these tests are about.
    const { heapMb } = loadConfig({}, '/').products;
    pool = new ProductPool({
      threads: 1,
      deadlineMs: 120_000,
      heapMb,
      logger: {
        warn: (_details, message) => faults.push(message),
        error: (_details, message) => faults.push(message),
      },
    });
    t = await testApp(
      { fetcher, compute: pool.compute },
      { adminToken: ADMIN_TOKEN, callDeadlineMs: 120_000 },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
    await pool?.close();
    await fetcher?.close();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  it.each([
    ['/divs', '/buy/markdown'],
    ['/bold', '/buy/fetch'],
    ['/cells', '/buy/table'],
    ['/divs', '/buy/links'],
  ])(
    'refuses %s on %s as 503 page_too_complex before parsing it, charges nothing, and serves the next call',
    async (path, route) => {
      const key = await prepaidKey(t.app, 100);
      const res = await buy(t.app, route, { url: `${base}${path}` }, key.key);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        ok: false,
        url: `${base}${path}`,
        error: 'page_too_complex',
        message: 'The page has more than 150,000 elements.',
      });
      expect(await creditsOf(t.app, key.keyId)).toBe(100);
      const rows = await ledgerOf(t.app, key.keyId);
      expect(rows.map((row) => [row.charged, row.error])).toStrictEqual([
        [false, 'page_too_complex'],
      ]);
      // The same thread answers the next call: it was never stopped at its heap bound.
      const after = await buy(t.app, '/buy/markdown', { url: `${base}/article` }, key.key);
      expect(after.status).toBe(200);
      expect(after.body.ok).toBe(true);
      expect(faults).toStrictEqual([]);
    },
    120_000,
  );

  it('serves a 2 MB article and a 5,000-row table within the default heap bound', async () => {
    const key = await prepaidKey(t.app, 1000);
    const stoppedBefore = faults.length;
    for (const route of ['/buy/markdown', '/buy/fetch', '/buy/links']) {
      const res = await buy(t.app, route, { url: `${base}/long-article` }, key.key);
      expect([route, res.status, res.body.ok]).toStrictEqual([route, 200, true]);
    }
    const table = await buy(t.app, '/buy/table', { url: `${base}/data` }, key.key);
    expect(table.status).toBe(200);
    expect(table.body.data).toMatchObject({ tableCount: 1, returned: 1 });
    const [only] = table.body.data.tables as { rowCount: number; columns: string[] }[];
    expect(only?.rowCount).toBe(5_000);
    expect(only?.columns).toHaveLength(9);
    const markdown = await buy(t.app, '/buy/markdown', { url: `${base}/data` }, key.key);
    expect(markdown.status).toBe(200);
    expect(markdown.body.ok).toBe(true);
    expect(faults.length).toBe(stoppedBefore);
  }, 120_000);
});
