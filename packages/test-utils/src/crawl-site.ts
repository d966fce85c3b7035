import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback site for crawl tests and benchmarks: the server's crawl-job tests and
// bench/jobs.bench.ts crawl the same pages, so their numbers describe the same work.

/** Options of {@link startCrawlSite}. */
export interface CrawlSiteOptions {
  /** Pages `/p/0` … `/p/<pages-1>`; page i links to pages 2i+1 and 2i+2 (a binary tree). */
  readonly pages: number;
  /** How long each page takes to answer (ms); default 0. */
  readonly delayMs?: number;
  /** robots.txt's body; default allows everything. */
  readonly robots?: string;
  /** Serve `/sitemap.xml` listing these page numbers. */
  readonly sitemap?: readonly number[];
  /** `/sitemap.xml` answers only once this settles (a sitemap slower than the pages). */
  readonly holdSitemap?: Promise<unknown>;
  /**
   * Pages served as a bot challenge instead (200, `cf-mitigated: challenge`, an
   * interstitial that links nowhere): what a crawler must not deliver as content.
   */
  readonly challenges?: readonly number[];
}

/** The interstitial {@link CrawlSiteOptions.challenges} pages are served as. */
export const CHALLENGE_PAGE_HTML = `<!doctype html><html lang="en"><head><title>Just a moment...</title></head>
<body><h1>Checking your browser before accessing the site</h1><form id="challenge-form" method="POST"></form>
<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`;

/** A loopback site of linked pages for crawl jobs, counting what was asked of it. */
export interface CrawlSite {
  readonly origin: string;
  /** `127.0.0.1:<port>`, for `SAFE_FETCH_ALLOW`. */
  readonly allow: string;
  /** Requests per path. */
  readonly hits: Map<string, number>;
  /** Requests in flight now, and the most at once. */
  readonly inFlight: { now: number; max: number };
  close(): Promise<void>;
}

/** The HTML of page `i`: a title, a paragraph of its own, and links to its two children. */
export function crawlPageHtml(i: number, pages: number): string {
  const links = [2 * i + 1, 2 * i + 2]
    .filter((n) => n < pages)
    .map((n) => `<li><a href="/p/${n}">Page ${n}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title></head>
<body><main><h1>Page ${i}</h1>
<p>This is page number ${i} of the crawl fixture. It has a paragraph of text long enough to be
read as the page's content, and it says ${i} twice: ${i}.</p>
<ul>${links}</ul></main></body></html>`;
}

/**
 * Start the site on a free loopback port: `/p/0` … `/p/<pages-1>` as a binary tree of
 * links (each page 300-400 B of HTML, see {@link crawlPageHtml}), `/robots.txt`, and
 * `/sitemap.xml` when asked; any other path is 404. `delayMs` holds back every answer, as
 * a remote site's round trip would; `hits` and `inFlight` tell a test how the crawler
 * behaved (each page fetched once; fetches at once under a per-host cap).
 */
export async function startCrawlSite(options: CrawlSiteOptions): Promise<CrawlSite> {
  const hits = new Map<string, number>();
  const inFlight = { now: 0, max: 0 };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    inFlight.now += 1;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    const answer = () => {
      inFlight.now -= 1;
      if (res.destroyed) return;
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(options.robots ?? 'User-agent: *\nAllow: /\n');
        return;
      }
      if (path === '/sitemap.xml' && options.sitemap !== undefined) {
        const origin = `http://${req.headers.host}`;
        const urls = options.sitemap.map((n) => `<url><loc>${origin}/p/${n}</loc></url>`).join('');
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        );
        return;
      }
      const match = /^\/p\/(\d+)$/.exec(path);
      const i = match === null ? -1 : Number(match[1]);
      if (i < 0 || i >= options.pages) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Not found</title><p>No such page.</p>');
        return;
      }
      if (options.challenges?.includes(i) === true) {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cf-mitigated': 'challenge',
        });
        res.end(CHALLENGE_PAGE_HTML);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(crawlPageHtml(i, options.pages));
    };
    const held = path === '/sitemap.xml' ? options.holdSitemap : undefined;
    const answerNow = held === undefined ? answer : () => void held.finally(answer);
    if (options.delayMs) setTimeout(answerNow, options.delayMs);
    else answerNow();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    allow: `127.0.0.1:${port}`,
    hits,
    inFlight,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
