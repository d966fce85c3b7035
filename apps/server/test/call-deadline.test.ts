import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher } from '@storefront/safe-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputeLimitError, callDeadline } from '../src/work/limits.js';
import { ProductPool } from '../src/work/pool.js';
import { pageInput, productTask, silentLogger, testApp } from './helpers.js';
import { ADMIN_TOKEN, buy, prepaidKey } from './keys.js';

/** The markdown route's product, as the pool runs it. */
const MARKDOWN = productTask('markdown');

/**
 * The call budget of these tests. Small, so that a test of the bound stays short; the
 * product threads' own deadline is long (30 s), so only the call's budget can stop a
 * page in time.
 */
const BUDGET_MS = 1500;
/**
 * How late an answer may come after the budget: terminating a thread, the ledger, the
 * answer, and a busy 2-core machine. Well below the 30 s a product thread would run,
 * and below the 5 s a fetch would run, were the deadlines not one.
 */
const MARGIN_MS = 2500;

/**
 * Pages that cost parse5 and the products seconds each (generated, never committed),
 * under the parse's cap of 150,000 elements; and one over it, refused before parsing.
 */
const PAGES: Readonly<Record<string, () => string>> = {
  '95,000 elements of eight attributes': () => '<div a b c d e f g h>'.repeat(95_000),
  'one element of 60,000 attributes': () =>
    `<div ${Array.from({ length: 60_000 }, (_, i) => `a${i}`).join(' ')}>x`,
  '33,000 nested table cells': () => '<table><tr><td>'.repeat(33_000),
  'a million unclosed <div>s': () => '<div>'.repeat(1_000_000),
};

/** How a page over the parse's element cap is refused. */
const OVER_CAP = 'The page has more than 150,000 elements.';

/** A fetched 200 HTML document at `url` with no body yet. */
function documentAt(url: string) {
  return {
    requestedUrl: url,
    url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    contentType: 'text/html; charset=utf-8',
    bytes: new Uint8Array(0),
    truncated: false,
    redirects: [],
    fetchedAt: '2026-03-14T12:00:00.000Z',
  };
}

/** One call of every route that reads an HTML page, for a page at `url`. */
function htmlCalls(url: string): [string, Record<string, string>][] {
  return [
    ['/buy/fetch', { url, format: 'markdown', links: '1', extract: 'title,price' }],
    ['/buy/extract', { url, schema: 'name,sku' }],
    ['/buy/markdown', { url }],
    ['/buy/metadata', { url }],
    ['/buy/links', { url }],
    ['/buy/table', { url }],
    ['/buy/diff', { url, prevText: 'before' }],
    ['/buy/notarize', { url }],
  ];
}

describe('one deadline per call, from its arrival', () => {
  let upstream: http.Server;
  let base: string;
  let pool: ProductPool;
  let fetcher: ReturnType<typeof createFetcher>;
  let t: Awaited<ReturnType<typeof testApp>>;
  const bodies = new Map<string, Buffer>();

  beforeAll(async () => {
    const names = Object.keys(PAGES);
    names.forEach((name, i) => {
      bodies.set(`/page-${i}`, Buffer.from((PAGES[name] as () => string)()));
    });
    upstream = http.createServer((req, res) => {
      if (req.url === '/drip') {
        // One byte every 100 ms, for ever: only a deadline ends this fetch.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const body = bodies.get(req.url ?? '');
      res.writeHead(body === undefined ? 404 : 200, {
        'content-type': 'text/html; charset=utf-8',
      });
      res.end(body ?? 'not found');
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    fetcher = createFetcher({ testOnlyAllow: `127.0.0.1:${port}` });
    pool = new ProductPool({
      threads: 2,
      deadlineMs: 30_000,
      heapMb: 1024,
      logger: silentLogger,
    });
    t = await testApp(
      { fetcher, compute: pool.compute },
      { callDeadlineMs: BUDGET_MS, adminToken: ADMIN_TOKEN },
    );
    // Both threads loaded before the clock of any call starts.
    await pool.ready();
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
    await pool?.close();
    await fetcher?.close();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  it.each(Object.keys(PAGES).map((name, i) => [name, i] as const))(
    'every HTML route ends %s within the call budget, never with a 500',
    async (_name, i) => {
      const key = await prepaidKey(t.app, 100_000);
      const calls = htmlCalls(`${base}/page-${i}`);
      const answers = await Promise.all(
        calls.map(async ([path, query]) => {
          const started = performance.now();
          const res = await buy(t.app, path, query, key.key);
          return { path, res, elapsed: performance.now() - started };
        }),
      );
      for (const { path, res, elapsed } of answers) {
        // Every call ends by the one deadline: a product's answer, the product given up
        // (page_too_complex), or the fetch given up (timeout); never a 500.
        const what = `${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        expect(elapsed, what).toBeLessThan(BUDGET_MS + MARGIN_MS);
        if (res.status === 404) {
          // A product that finished in time on a page without a table says so.
          expect([path, res.body.error], what).toStrictEqual(['/buy/table', 'not_found']);
          continue;
        }
        expect([200, 503], what).toContain(res.status);
        if (res.body.error === 'timeout') {
          // On a busy machine eight 5-10 MB pages can take the budget to arrive: the
          // fetch had what was left of it, not its own 5 s.
          const [, ms] = /within (\d+) ms/.exec(res.body.message) ?? [];
          expect(Number(ms), what).toBeLessThanOrEqual(BUDGET_MS);
          continue;
        }
        if (res.status === 503) {
          // The call's budget is what stopped it, not the product threads' 30 s; or the
          // page was refused before parsing.
          expect(res.body, what).toMatchObject({ ok: false, error: 'page_too_complex' });
          expect(
            ["The page could not be processed within the call's 1.5 s budget", OVER_CAP],
            what,
          ).toContain(res.body.message);
        }
      }
    },
    60_000,
  );

  it('gives the fetch what is left of the budget, not its own 5 s', async () => {
    const key = await prepaidKey(t.app, 1000);
    const started = performance.now();
    const res = await buy(t.app, '/buy/markdown', { url: `${base}/drip` }, key.key);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(BUDGET_MS + MARGIN_MS);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, error: 'timeout' });
    // The fetch's deadline was the call's remaining budget.
    const [, ms] = /within (\d+) ms/.exec(res.body.message) ?? [];
    expect(Number(ms)).toBeGreaterThan(0);
    expect(Number(ms)).toBeLessThanOrEqual(BUDGET_MS);
  });
});

describe('walking routes and the call deadline', () => {
  let upstream: http.Server;
  let base: string;
  let pool: ProductPool;
  let fetcher: ReturnType<typeof createFetcher>;
  let t: Awaited<ReturnType<typeof testApp>>;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      if (req.url === '/drip') {
        // One byte every 100 ms, for ever: only a deadline ends this fetch.
        res.writeHead(200, { 'content-type': 'application/xml' });
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const bodies: Record<string, string> = {
        '/robots.txt': `User-agent: *\nAllow: /\nSitemap: ${base}/drip\n`,
        '/home': '<title>Home</title><p>Hello.</p><a href="/drip">slow</a>',
      };
      const body = bodies[req.url ?? ''];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html' });
      res.end(body ?? 'not found');
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    fetcher = createFetcher({ testOnlyAllow: `127.0.0.1:${port}` });
    pool = new ProductPool({ threads: 2, deadlineMs: 30_000, heapMb: 512, logger: silentLogger });
    t = await testApp(
      { fetcher, compute: pool.compute },
      { callDeadlineMs: BUDGET_MS, adminToken: ADMIN_TOKEN },
    );
    await pool.ready();
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
    await pool?.close();
    await fetcher?.close();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  it('ends a walk whose source never finishes before the budget, and delivers what it read', async () => {
    const key = await prepaidKey(t.app, 1000);
    for (const path of ['/buy/map', '/buy/crawl']) {
      const started = performance.now();
      const res = await buy(t.app, path, { url: `${base}/home` }, key.key);
      const elapsed = performance.now() - started;
      const what = `${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      // The walk's fetches end before its reserve, so the product still runs in time.
      expect(elapsed, what).toBeLessThan(BUDGET_MS + MARGIN_MS);
      expect(res.status, what).toBe(200);
      expect(res.body.ok, what).toBe(true);
      if (path === '/buy/map') {
        const drip = res.body.data.sources.find((s: { url: string }) => s.url === `${base}/drip`);
        expect(drip, what).toMatchObject({ kind: 'sitemap', error: 'timeout' });
        expect(res.body.data.urls.map((u: { url: string }) => u.url)).toContain(`${base}/home`);
      } else {
        expect(res.body.data.pages.map((p: { url: string }) => p.url)).toStrictEqual([
          `${base}/home`,
        ]);
        expect(res.body.data.skipped).toStrictEqual([{ url: `${base}/drip`, reason: 'timeout' }]);
      }
    }
  }, 30_000);
});

describe('ProductPool and a call deadline', () => {
  // Under the parse's element cap, and about a second of parse5's time.
  const HOSTILE = `<!doctype html><html><body>${'<div a b c d e f g h>'.repeat(95_000)}x</body></html>`;
  const page = (html: string) => ({
    ...documentAt('http://pages.test/'),
    bytes: new TextEncoder().encode(html),
  });
  const doc = page(HOSTILE);
  let pool: ProductPool;
  beforeAll(async () => {
    pool = new ProductPool({ threads: 1, deadlineMs: 60_000, heapMb: 1024, logger: silentLogger });
    await pool.ready();
  }, 30_000);
  afterAll(async () => {
    await pool?.close();
  });

  it("stops a running task at its call's deadline, and a queued one too", async () => {
    const started = pool.stats.started;
    const deadline = callDeadline(300);
    const input = pageInput(doc, { url: doc.url });
    // Both outcomes are caught at once: the two end at the same moment.
    const outcome = (task: Promise<unknown>) =>
      task.then(
        () => null,
        (e: unknown) => e,
      );
    const running = outcome(pool.compute(MARKDOWN, input, undefined, deadline));
    // Queued behind it on the only thread: its call's budget ends while it waits.
    const queued = outcome(pool.compute(MARKDOWN, input, undefined, deadline));
    for (const error of await Promise.all([running, queued])) {
      expect(error).toBeInstanceOf(ComputeLimitError);
      expect(error).toMatchObject({
        limit: 'deadline',
        message: "The page could not be processed within the call's 0.3 s budget",
      });
    }
    // The queued task never reached a thread.
    expect(pool.stats.started).toBe(started + 1);
  }, 30_000);

  it('refuses a task whose call has no time left', async () => {
    const spent = callDeadline(100, performance.now() - 200);
    await expect(
      pool.compute(MARKDOWN, pageInput(doc, {}), undefined, spent),
    ).rejects.toBeInstanceOf(ComputeLimitError);
  });
});
