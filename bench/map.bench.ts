import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { gzipSync } from 'node:zlib';
import Sitemapper from 'sitemapper';
import { Bench } from 'tinybench';
import { perform } from '../apps/server/src/pipeline/work.js';
import { mapRoute } from '../apps/server/src/registry/map/index.js';
import { inlineCompute } from '../apps/server/src/work/compute.js';
import { type Measured, machine, measured, printTable } from './lib/report.js';
import { createFetcher } from './lib/server-deps.js';

/** URLs in each of the two urlsets. */
const PER_URLSET = 2000;

/**
 * A loopback site as a map reads it: robots.txt naming a sitemap index, which names a
 * gzipped urlset (served as `application/gzip`, no `Content-Encoding`) and a plain one,
 * each of {@link PER_URLSET} URLs with `lastmod`, and a start page of 50 links.
 */
async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const bodies = new Map<string, { type: string; body: string | Buffer }>();
  const server = http.createServer((req, res) => {
    const found = bodies.get((req.url ?? '/').split('?')[0] as string);
    res.writeHead(found === undefined ? 404 : 200, {
      'content-type': found?.type ?? 'text/plain',
    });
    res.end(found?.body ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urlset = (prefix: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
      { length: PER_URLSET },
      (_, i) =>
        `<url><loc>${origin}/${prefix}/${String(i).padStart(5, '0')}</loc><lastmod>2026-0${1 + (i % 9)}-1${i % 10}</lastmod></url>`,
    ).join('\n')}\n</urlset>\n`;
  bodies.set('/robots.txt', {
    type: 'text/plain',
    body: `User-agent: *\nDisallow: /cart\nSitemap: ${origin}/sitemap_index.xml\n`,
  });
  bodies.set('/sitemap_index.xml', {
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/products.xml.gz</loc></sitemap><sitemap><loc>${origin}/pages.xml</loc></sitemap></sitemapindex>\n`,
  });
  bodies.set('/products.xml.gz', { type: 'application/gzip', body: gzipSync(urlset('products')) });
  bodies.set('/pages.xml', { type: 'application/xml', body: urlset('pages') });
  bodies.set('/', {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><title>Home</title>${Array.from({ length: 50 }, (_, i) => `<a href="/pages/${String(i).padStart(5, '0')}">p${i}</a>`).join(' ')}`,
  });
  return {
    origin,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

/**
 * `/buy/map` next to `sitemapper` 4.1.6 on one loopback site: our whole walk (safe-fetch,
 * the rounds, the steps and the product, in process, without the HTTP door or a receipt)
 * against sitemapper's `fetch()` of the sitemap index. Ours reads robots.txt and the
 * start page too (5 fetches to sitemapper's 3). Informative: no target.
 */
export async function mapBenchmark(options: { time: number }): Promise<{ rows: Measured[] }> {
  const site = await startSite();
  const fetcher = createFetcher({ testOnlyAllow: new URL(site.origin).host });
  const params = { url: `${site.origin}/`, limit: 5000 };
  const services = {
    fetcher,
    compute: inlineCompute,
    publicBaseUrl: 'http://bench.test',
    clock: () => new Date(),
  };
  const call = { door: 'key', metered: false } as const;
  const ours = async () => {
    const outcome = await perform(mapRoute, params, services, call);
    if (outcome.kind !== 'delivered' || !outcome.ok) throw new Error('map failed');
    return outcome.body as { data: { urls: { url: string }[] } };
  };
  const mapper = new Sitemapper({
    url: `${site.origin}/sitemap_index.xml`,
    timeout: 5000,
    concurrency: 4,
  });
  const theirs = async () => {
    const result = await mapper.fetch();
    if (result.errors.length > 0) throw new Error(`sitemapper: ${JSON.stringify(result.errors)}`);
    return result.sites as string[];
  };

  // Both must find the same sitemap URLs before their speed means anything.
  const ourUrls = new Set((await ours()).data.urls.map((u) => u.url));
  const theirUrls = await theirs();
  const missing = theirUrls.filter((url) => !ourUrls.has(url));
  try {
    const bench = new Bench({ time: options.time, warmupTime: 300 });
    for (let round = 1; round <= 2; round++) {
      bench.add(`sitemapper 4.1.6 fetch() #${round}`, async () => {
        await theirs();
      });
      bench.add(`storefront /buy/map walk #${round}`, async () => {
        await ours();
      });
    }
    await bench.run();
    const rows = measured(bench);
    printTable(
      `Site map of one loopback site: index → gzipped + plain urlset, ${2 * PER_URLSET} URLs (${machine()}, ${cpus().length} cores)`,
      rows,
    );
    const mean = (prefix: string) => {
      const hits = rows.filter((r) => r.name.startsWith(prefix));
      return hits.reduce((sum, r) => sum + r.meanMs, 0) / hits.length;
    };
    console.log(
      `storefront lists ${ourUrls.size} URLs (sitemaps plus start page, sorted, lastmod kept; 5 fetches), sitemapper ${theirUrls.length} (sitemaps only; 3 fetches); sitemapper URLs missing from ours: ${missing.length}. Mean per call: storefront ${mean('storefront').toFixed(1)} ms, sitemapper ${mean('sitemapper').toFixed(1)} ms (${(mean('storefront') / mean('sitemapper')).toFixed(2)}x).`,
    );
    return { rows };
  } finally {
    await fetcher.close();
    await site.close();
  }
}
