import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildPdf, CHALLENGE_PAGE_HTML } from '@storefront/test-utils';
import { REGISTRY } from '../src/registry/index.js';
import type { AnyRoute } from '../src/registry/types.js';

const PAGES = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/pages');

/** A fixture page's bytes and content type from `fixtures/pages/<name>`. */
export function fixturePage(name: string): { body: Buffer; contentType: string } {
  const meta = JSON.parse(readFileSync(join(PAGES, name, 'document.json'), 'utf8')) as {
    contentType: string;
  };
  return { body: readFileSync(join(PAGES, name, 'page.html')), contentType: meta.contentType };
}

export const FEED_XML = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Fixture feed</title><link>http://example.test/</link>
<item><title>First &amp; foremost</title><link>http://example.test/1</link>
<pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate><description><![CDATA[<p>Hello <b>world</b></p>]]></description></item>
<item><title>Second</title><link>http://example.test/2</link><pubDate>Wed, 11 Jun 2025 04:00:00 +0200</pubDate>
<description>Plain summary</description></item>
</channel></rss>`;

export const DATA_JSON = JSON.stringify({
  id: 7,
  name: 'Widget',
  price: 12.5,
  tags: ['a', 'b'],
  stock: { count: 3, warehouse: 'north' },
});

export const ROBOTS_TXT = `User-agent: GPTBot
Disallow: /

User-agent: *
Allow: /
Sitemap: /sitemap.xml
`;

/** A page for the SEO audit: most checks pass, a few fail in known ways. */
export const SEO_HTML = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Fixture espresso guide – Example Site</title>
<meta name="description" content="How to pull a balanced espresso shot: grind size, dose, yield and time, with a table of starting points.">
<link rel="canonical" href="http://example.test/guide">
<meta property="og:title" content="Fixture espresso guide">
<meta property="og:type" content="article">
<meta property="og:image" content="http://example.test/guide.jpg">
<meta name="twitter:card" content="summary">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Fixture espresso guide"}</script>
</head><body>
<h1>Espresso guide</h1>
<h2>Grind</h2><h4>Burrs</h4>
<img src="/img/grinder.jpg" alt="A grinder"><img src="/img/shot.jpg">
<p><a href="/product">Our machine</a> <a href="/wiki">Background</a> <a href="https://other.example/">Elsewhere</a></p>
</body></html>`;

/** A two-page PDF with metadata and an outline, the same bytes every run. */
export const REPORT_PDF = Buffer.from(
  buildPdf({
    pages: [
      {
        lines: [
          { text: 'Fixture Report', y: 720, size: 24, bold: true },
          { text: 'Espresso extraction, measured.', y: 690 },
          { text: 'Method', y: 650, size: 16, bold: true },
          { text: 'Eighteen grams in, thirty-six out.', y: 625 },
        ],
      },
      {
        lines: [
          { text: 'Results', y: 720, size: 16, bold: true },
          { text: 'All shots ran in 28 s.', y: 695 },
        ],
      },
    ],
    info: { Title: 'Fixture Report', Author: 'Fixture Lab', CreationDate: 'D:20250601120000Z' },
    outline: [
      { title: 'Method', page: 0 },
      { title: 'Results', page: 1 },
    ],
  }),
);

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function send(
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };
}

/** A soft 404: the site's chrome around an error heading, served with 200. */
export const SOFT_404_HTML = `<!doctype html><html><head><title>Page not found – Fixture News</title></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/wiki">Wiki</a></nav></header>
<main><h1>Oops! That page can’t be found.</h1><p>It looks like nothing was found at this location. Maybe try a search?</p></main>
<footer><p>© Fixture News</p></footer></body></html>`;

/** A sign-in wall: a password form under a sign-in heading. */
export const LOGIN_HTML = `<!doctype html><html><head><title>Sign in – Fixture News</title></head><body>
<main><h1>Sign in to continue</h1><form action="/session" method="post">
<label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label>
<button>Sign in</button></form><p><a href="/reset">Forgot your password?</a></p></main></body></html>`;

/** The loopback site every route test reads: real pages over real HTTP. */
export interface Site {
  readonly port: number;
  /** The `SAFE_FETCH_ALLOW` entries: this site and a closed port next to it. */
  readonly allow: string;
  /** A URL on this site. */
  url(path: string): string;
  /** A URL on a loopback port nothing listens on (connection refused). */
  readonly deadUrl: string;
  /** Replace the body of `/changing` (for change proofs). */
  setChanging(text: string): void;
  /** Requests per path. */
  readonly hits: Map<string, number>;
  /** A second loopback site with sitemaps, a feed and linked pages (map, crawl). */
  readonly shop: Shop;
  /** A URL on {@link shop} (so that a site is the `ExampleSite` of the routes' examples). */
  shopUrl(path: string): string;
  close(): Promise<void>;
}

/** The shop site: its own origin, robots.txt and sitemaps. */
export interface Shop {
  readonly port: number;
  url(path: string): string;
  /** Requests per path. */
  readonly hits: Map<string, number>;
}

/**
 * The shop's pages: robots.txt names a sitemap index (and disallows `/private`); the
 * index names a gzipped urlset, a plain one with `lastmod`, and a sitemap on another
 * host; the home page announces an RSS feed and links pages, one of them disallowed and
 * one on another host.
 */
function shopRoutes(origin: string): Record<string, Route> {
  const page = (title: string, body: string) =>
    send(
      200,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`,
    );
  const urlset = (entries: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
  return {
    '/robots.txt': send(
      200,
      'text/plain',
      `User-agent: *\nDisallow: /private\nSitemap: ${origin}/sitemap_index.xml\n`,
    ),
    '/sitemap_index.xml': send(
      200,
      'application/xml',
      `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${origin}/sitemap-products.xml.gz</loc><lastmod>2026-03-01</lastmod></sitemap>
<sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap>
<sitemap><loc>https://cdn.elsewhere.example/sitemap.xml</loc></sitemap>
</sitemapindex>`,
    ),
    '/sitemap-products.xml.gz': send(
      200,
      'application/gzip',
      gzipSync(
        urlset(
          `<url><loc>${origin}/products/kettle</loc><lastmod>2026-03-01T10:00:00+00:00</lastmod></url>` +
            `<url><loc>${origin}/products/teapot</loc></url>` +
            '<url><loc>https://elsewhere.example/stray</loc></url>',
        ),
      ),
    ),
    '/sitemap-pages.xml': send(
      200,
      'application/xml',
      urlset(
        `<url><loc>${origin}/guide</loc><lastmod>2025-12-24</lastmod></url><url><loc>${origin}/</loc></url>`,
      ),
    ),
    '/feed.rss': send(
      200,
      'application/rss+xml',
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Shop news</title>
<item><title>Spring</title><link>${origin}/news/spring</link><pubDate>Tue, 10 Mar 2026 04:00:00 GMT</pubDate></item>
</channel></rss>`,
    ),
    '/': send(
      200,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><title>Shop home</title>
<link rel="alternate" type="application/rss+xml" href="/feed.rss"></head><body><main>
<h1>Kettles and teapots</h1><p>Read the <a href="/guide">buying guide</a>, see the <a href="/products/kettle">kettle</a>,
or our <a href="https://elsewhere.example/partner">partner</a>. Staff: <a href="/private/secret">admin</a>.</p>
</main></body></html>`,
    ),
    '/guide': page(
      'Buying guide',
      '<h1>Guide</h1><p>Start with the <a href="/api">API notes</a>. Back <a href="/">home</a>.</p>',
    ),
    '/api': page('API notes', '<h2>API</h2><p>Calls and answers.</p>'),
    '/products/kettle': page(
      'Kettle',
      '<p>A kettle. See also the <a href="/products/teapot">teapot</a>.</p>',
    ),
    '/products/teapot': page('Teapot', '<p>A teapot.</p>'),
    '/news/spring': page('Spring', '<p>Spring news.</p>'),
    '/private/secret': page('Secret', '<p>Staff only.</p>'),
  };
}

/** Serve `routes` on 127.0.0.1 (404 elsewhere), counting hits per path. */
async function serve(
  routes: (origin: string) => Record<string, Route>,
  hits: Map<string, number>,
): Promise<{ port: number; close(): Promise<void> }> {
  let table: Record<string, Route> = {};
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = table[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    route(req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  table = routes(`http://127.0.0.1:${port}`);
  return {
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

/** `/long`: sixty paragraphs of about 500 characters each, some with emoji. */
const LONG_ARTICLE_HTML = `<!doctype html><html><head><title>The long read</title></head><body><main><article><h1>The long read</h1>${Array.from(
  { length: 60 },
  (_, i) =>
    `<p>Paragraph ${i + 1} 📜 of the long read. ${'The harbour pilots logged every ship that crossed the bar, its draught and its cargo, and the tide it came in on. '.repeat(4)}</p>`,
).join('')}</article></main></body></html>`;

/** Start the fixture site on 127.0.0.1 with an ephemeral port. */
export async function startSite(registry: readonly AnyRoute[] = REGISTRY): Promise<Site> {
  const product = fixturePage('product-page');
  const wiki = fixturePage('wiki-article');
  const news = fixturePage('news-article');
  let changing =
    '<html><head><title>Changing</title></head><body><main><p>Version one.</p></main></body></html>';
  const hits = new Map<string, number>();
  const routes: Record<string, Route> = {
    '/product': send(200, product.contentType, product.body),
    '/wiki': send(200, wiki.contentType, wiki.body),
    '/news': send(200, news.contentType, news.body, {
      'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
      server: 'fixture/1.0',
    }),
    // The head at once, then a body that never ends (until the site closes).
    '/stalled': (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'x-frame-options': 'SAMEORIGIN',
        server: 'stalling/1.0',
      });
      res.write('<!doctype html><html><head><title>Slow</title></head><body><p>first chunk');
    },
    // An article whose text passes an MCP tool's default budget, with characters
    // outside the BMP, so that parts are cut on code points.
    '/long': send(200, 'text/html; charset=utf-8', LONG_ARTICLE_HTML),
    '/changing': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(changing);
    },
    '/seo': send(200, 'text/html; charset=utf-8', SEO_HTML, { 'x-robots-tag': 'max-snippet: 160' }),
    '/report.pdf': send(200, 'application/pdf', REPORT_PDF),
    '/scanned.pdf': send(
      200,
      'application/pdf',
      Buffer.from(buildPdf({ pages: [{ image: true }] })),
    ),
    '/encrypted.pdf': send(
      200,
      'application/pdf',
      Buffer.from(buildPdf({ pages: [{ lines: [{ text: 'Secret', y: 700 }] }], encrypted: true })),
    ),
    // A PDF to a client that asks for one, else an HTML page about it.
    '/negotiated': (req, res) => {
      if ((req.headers.accept ?? '').includes('application/pdf')) {
        send(200, 'application/pdf', REPORT_PDF)(req, res);
      } else {
        send(
          200,
          'text/html',
          '<html><body><a href="/report.pdf">Report</a></body></html>',
        )(req, res);
      }
    },
    '/feed.xml': send(200, 'application/rss+xml; charset=utf-8', FEED_XML),
    '/data.json': send(200, 'application/json', DATA_JSON),
    '/image.png': send(
      200,
      'image/png',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    ),
    '/robots.txt': send(200, 'text/plain', ROBOTS_TXT),
    '/llms.txt': send(
      200,
      'text/markdown',
      '# Fixture site\n\n> A site for tests.\n\n- [Product](/product)\n',
    ),
    '/missing': send(404, 'text/html', '<html><body><h1>Not found</h1></body></html>'),
    '/broken': send(500, 'text/html', '<html><body><h1>Server error</h1></body></html>'),
    // Pages served in the content's place (page verdicts): a bot challenge answered 200
    // with its vendor's header, a soft 404, and a sign-in wall reached by redirect.
    '/challenge': send(200, 'text/html; charset=utf-8', CHALLENGE_PAGE_HTML, {
      'cf-mitigated': 'challenge',
    }),
    '/gone': send(200, 'text/html; charset=utf-8', SOFT_404_HTML),
    '/members/story': (_req, res) => {
      res.writeHead(302, { location: '/login?next=%2Fmembers%2Fstory' });
      res.end();
    },
    '/login': send(200, 'text/html; charset=utf-8', LOGIN_HTML),
    '/loop': (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    },
    '/moved': (_req, res) => {
      res.writeHead(301, { location: '/product' });
      res.end();
    },
    // A feed whose second item's title is 6 MiB of character references: past the
    // feed's 5 MiB cap, so the body is cut inside that title.
    '/huge-title-feed.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      res.end(
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>' +
          '<item><title>Before</title><link>http://example.test/1</link></item>' +
          `<item><link>http://example.test/2</link><title>${'&#65;'.repeat(1_300_000)}</title></item>` +
          '<item><title>After</title></item></channel></rss>',
      );
    },
    // A complete HTTP answer whose gzip stream stops after its header: nothing decodes.
    '/truncated-gzip': send(200, product.contentType, gzipSync(product.body).subarray(0, 16), {
      'content-encoding': 'gzip',
    }),
    // A redirect to wherever `to` says (a private address, a non-http URL, …).
    '/redirect': (req, res) => {
      const to = new URL(req.url ?? '/', 'http://site.test').searchParams.get('to') ?? '/';
      res.writeHead(302, { location: to });
      res.end();
    },
  };
  // Every route's own example pages (a route folder's `example.pages`).
  for (const route of registry) {
    for (const [path, page] of Object.entries(route.example.pages ?? {})) {
      routes[path] ??= send(200, page.contentType, page.body);
    }
  }
  // Every route's own example pages (a route folder's `example.pages`).
  for (const route of registry) {
    for (const [path, page] of Object.entries(route.example.pages ?? {})) {
      routes[path] ??= send(200, page.contentType, page.body);
    }
  }
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    route(req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const deadPort = await closedPort();
  const shopHits = new Map<string, number>();
  const shop = await serve(shopRoutes, shopHits);
  return {
    port,
    allow: `127.0.0.1:${port},127.0.0.1:${deadPort},127.0.0.1:${shop.port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    deadUrl: `http://127.0.0.1:${deadPort}/`,
    setChanging(text) {
      changing = text;
    },
    hits,
    shop: {
      port: shop.port,
      url: (path) => `http://127.0.0.1:${shop.port}${path}`,
      hits: shopHits,
    },
    shopUrl: (path) => `http://127.0.0.1:${shop.port}${path}`,
    async close() {
      await shop.close();
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

/** A loopback port that was free a moment ago (nothing listens on it). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}
