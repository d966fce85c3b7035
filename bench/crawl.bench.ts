import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { CheerioCrawler, Configuration, LogLevel, log } from '@crawlee/cheerio';
import { Bench } from 'tinybench';
import { perform } from '../apps/server/src/pipeline/work.js';
import { crawlRoute } from '../apps/server/src/registry/crawl/index.js';
import { inlineCompute } from '../apps/server/src/work/compute.js';
import { type Measured, machine, measured, printTable } from './lib/report.js';
import { createFetcher } from './lib/server-deps.js';

/** Article pages on the fixture site (more than a crawl reads, so both stop at the cap). */
const PAGES = 30;
/** Pages a crawl reads: `/buy/crawl`'s cap, and the peer's `maxRequestsPerCrawl`. */
const LIMIT = 10;
/** Requests in flight: our walk's fetches per round, and the peer's concurrency. */
const CONCURRENCY = 4;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The crawl-side package and its pinned version, as the table names it. */
const PEER = '@crawlee/cheerio 3.18.1';

/**
 * A loopback site as a crawl reads it: robots.txt disallowing `/private`, a start page
 * linking to the first articles, a private page and another origin, and {@link PAGES}
 * articles of about 3 kB of text each, every one linking to the next two, the start page
 * and a `/private` page.
 */
async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const bodies = new Map<string, { type: string; body: string }>();
  const server = http.createServer((req, res) => {
    const found = bodies.get((req.url ?? '/').split('?')[0] as string);
    res.writeHead(found === undefined ? 404 : 200, {
      'content-type': found?.type ?? 'text/plain',
    });
    res.end(found?.body ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const html = (title: string, body: string) => ({
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><title>${title}</title></head><body><header><nav><a href="/">Home</a> <a href="/private/account">Account</a></nav></header><main>${body}</main><footer><a href="https://elsewhere.example/">Elsewhere</a></footer></body></html>`,
  });
  const article = (i: number) => `/articles/${String(i).padStart(3, '0')}`;
  const paragraph = (i: number, p: number) =>
    `<p>Article ${i}, paragraph ${p}: the shop ships orders within two working days, and a return is free within thirty days of delivery for any item in its original packaging.</p>`;
  bodies.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' });
  bodies.set(
    '/',
    html(
      'Home',
      `<h1>Home</h1><p>Welcome.</p><ul>${[0, 1, 2].map((i) => `<li><a href="${article(i)}">Article ${i}</a></li>`).join('')}</ul>`,
    ),
  );
  for (let i = 0; i < PAGES; i++) {
    const next = [i + 1, i + 2].filter((n) => n < PAGES);
    bodies.set(
      article(i),
      html(
        `Article ${i}`,
        `<article><h1>Article ${i}</h1>${Array.from({ length: 20 }, (_, p) => paragraph(i, p)).join('')}<p>${next.map((n) => `<a href="${article(n)}">Article ${n}</a>`).join(' ')}</p></article>`,
      ),
    );
  }
  bodies.set('/private/account', html('Account', '<p>Private.</p>'));
  return {
    origin,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

interface Page {
  readonly url: string;
  readonly text: string;
}

/**
 * `/buy/crawl` next to {@link PEER}'s `CheerioCrawler` on one loopback site: our whole
 * walk (safe-fetch, robots.txt, the rounds, each page's text and the product, in
 * process, without the HTTP door or a receipt) against a crawler set up to do the same
 * job: same start URL, same-origin links, at most {@link LIMIT} requests, robots.txt
 * respected, `$('body').text()` per page, in-memory storage, logging off. A new crawler
 * per call, as each `/buy/crawl` call is a new crawl. Informative: no target.
 */
export async function crawlBenchmark(options: { time: number }): Promise<{ rows: Measured[] }> {
  const site = await startSite();
  const fetcher = createFetcher({ testOnlyAllow: new URL(site.origin).host });
  const params = { url: `${site.origin}/`, limit: LIMIT, format: 'text' as const };
  const services = {
    fetcher,
    compute: inlineCompute,
    publicBaseUrl: 'http://bench.test',
    clock: () => new Date(),
  };
  const call = { door: 'key', metered: false } as const;
  const ours = async (): Promise<Page[]> => {
    const outcome = await perform(crawlRoute, params, services, call);
    if (outcome.kind !== 'delivered' || !outcome.ok) throw new Error('crawl failed');
    const body = outcome.body as { data: { pages: { url: string; content: string }[] } };
    return body.data.pages.map((p) => ({ url: p.url, text: p.content }));
  };

  log.setLevel(LogLevel.OFF);
  // Per peer call: ms from its last page handled to `run()` resolving (the crawler's wind-down).
  const windDown: number[] = [];
  const theirs = async (): Promise<Page[]> => {
    const pages: Page[] = [];
    let lastPage = 0;
    const failed: string[] = [];
    // persistStorage false: the request queue, key-value store and statistics stay in
    // memory (no `storage/` directory), and a new Configuration gives each call its own.
    const config = new Configuration({ persistStorage: false, purgeOnStart: false });
    const crawler = new CheerioCrawler(
      {
        maxRequestsPerCrawl: LIMIT,
        respectRobotsTxtFile: true,
        minConcurrency: CONCURRENCY,
        maxConcurrency: CONCURRENCY,
        maxRequestRetries: 0,
        useSessionPool: false,
        statusMessageLoggingInterval: 3600,
        async requestHandler({ request, $, enqueueLinks }) {
          pages.push({ url: request.loadedUrl ?? request.url, text: $('body').text() });
          lastPage = performance.now();
          await enqueueLinks({ strategy: 'same-origin' });
        },
        failedRequestHandler({ request }) {
          failed.push(request.url);
        },
      },
      config,
    );
    await crawler.run([params.url]);
    windDown.push(performance.now() - lastPage);
    if (failed.length > 0) throw new Error(`${PEER} failed: ${failed.join(', ')}`);
    return pages;
  };

  // Both must read the same number of pages, all on the site and none under /private,
  // before their speed means anything.
  const ourPages = await ours();
  const theirPages = await theirs();
  for (const [side, pages] of [
    ['storefront', ourPages],
    [PEER, theirPages],
  ] as const) {
    const off = pages.filter(
      (p) => !p.url.startsWith(`${site.origin}/`) || p.url.includes('/private'),
    );
    if (pages.length !== LIMIT || off.length > 0) {
      throw new Error(
        `${side} read ${pages.length} pages, ${off.length} off-site or disallowed: ${off.map((p) => p.url).join(', ')}`,
      );
    }
  }
  const ourUrls = new Set(ourPages.map((p) => p.url));
  const shared = theirPages.filter((p) => ourUrls.has(p.url)).length;
  const chars = (pages: readonly Page[]) => pages.reduce((sum, p) => sum + p.text.length, 0);
  try {
    // A peer call takes seconds, so a handful of iterations, not tinybench's default 64.
    const bench = new Bench({
      time: options.time,
      warmupTime: 300,
      iterations: 6,
      warmupIterations: 1,
    });
    for (let round = 1; round <= 2; round++) {
      bench.add(`${PEER} CheerioCrawler #${round}`, async () => {
        await theirs();
      });
      bench.add(`storefront /buy/crawl walk #${round}`, async () => {
        await ours();
      });
    }
    await bench.run();
    const rows = measured(bench);
    printTable(
      `Crawl of one loopback site: robots.txt, ${LIMIT} of ${PAGES + 1} pages, text per page (${machine()}, ${cpus().length} cores)`,
      rows,
    );
    const stat = (prefix: string, key: 'meanMs' | 'p50Ms') => {
      const hits = rows.filter((r) => r.name.startsWith(prefix));
      return hits.reduce((sum, r) => sum + r[key], 0) / hits.length;
    };
    console.log(
      `storefront read ${ourPages.length} pages (${chars(ourPages)} text chars, none under the disallowed /private), ${PEER} ${theirPages.length} (${chars(theirPages)} chars of $('body').text(), none under /private); pages both read: ${shared} of ${LIMIT}. Per call: storefront mean ${stat('storefront', 'meanMs').toFixed(1)} ms / p50 ${stat('storefront', 'p50Ms').toFixed(1)} ms, ${PEER} mean ${stat('@crawlee', 'meanMs').toFixed(1)} ms / p50 ${stat('@crawlee', 'p50Ms').toFixed(1)} ms (${(stat('storefront', 'meanMs') / stat('@crawlee', 'meanMs')).toFixed(3)}x). Of each ${PEER} call, a median ${median(windDown).toFixed(0)} ms passed between its last page handled and run() resolving.`,
    );
    return { rows };
  } finally {
    await fetcher.close();
    await site.close();
  }
}
