/**
 * A small website on 127.0.0.1 for trying every /buy route locally: realistic pages
 * from fixtures/pages plus a feed, a JSON document and the three crawler-policy files.
 * Storefront refuses loopback targets unless told otherwise, so start it with the
 * SAFE_FETCH_ALLOW value this prints.
 * Usage: node --conditions=@storefront/source --import tsx scripts/demo-site.ts
 *        (DEMO_PORT overrides the port, default 4010)
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildPdf } from '../packages/test-utils/src/pdf.js';

const root = resolve(import.meta.dirname, '..');
const host = '127.0.0.1';
const port = portFrom(process.env.DEMO_PORT);
const origin = `http://${host}:${port}`;

function portFrom(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 4010;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > 65535) {
    process.stderr.write(`DEMO_PORT must be a port number from 1 to 65535, got \`${raw}\`\n`);
    process.exit(2);
  }
  return value;
}

/** A fixture page's bytes and the content type it is served with. */
function page(name: string): { body: Buffer; contentType: string } {
  const dir = join(root, 'fixtures/pages', name);
  const meta = JSON.parse(readFileSync(join(dir, 'document.json'), 'utf8')) as {
    contentType: string;
  };
  return { body: readFileSync(join(dir, 'page.html')), contentType: meta.contentType };
}

const FEED_XML = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Brewhaus Direct: new arrivals</title>
  <link>${origin}/</link>
  <description>Machines and grinders added to the shop this month.</description>
  <atom:link href="${origin}/feed.xml" rel="self" type="application/rss+xml"/>
  <item>
    <title>Brevello Duo Pro dual boiler is back in stock</title>
    <link>${origin}/product</link>
    <guid>${origin}/product#restock-2025-06</guid>
    <pubDate>Tue, 10 Jun 2025 08:00:00 GMT</pubDate>
    <description><![CDATA[<p>The <b>Duo Pro</b> returns at $1,299 with free shipping.</p>]]></description>
  </item>
  <item>
    <title>Council approves the river district tram line</title>
    <link>${origin}/news</link>
    <guid>${origin}/news</guid>
    <pubDate>Fri, 14 Mar 2025 18:30:00 GMT</pubDate>
    <description>Our delivery vans will use the new depot from 2027.</description>
  </item>
  <item>
    <title>Portlow, the town behind our roastery</title>
    <link>${origin}/wiki</link>
    <guid>${origin}/wiki</guid>
    <pubDate>Mon, 03 Feb 2025 09:15:00 +0100</pubDate>
    <description>Population tables, wards and history.</description>
  </item>
</channel>
</rss>
`;

const DATA_JSON = `${JSON.stringify(
  {
    sku: 'BRV-DB920-SS',
    name: 'Brevello Duo Pro Dual Boiler Espresso Machine',
    brand: 'Brevello',
    price: 1299,
    currency: 'USD',
    inStock: true,
    stock: { count: 14, warehouse: 'Portlow North' },
    tags: ['espresso', 'dual-boiler', 'pid'],
    url: `${origin}/product`,
  },
  null,
  2,
)}\n`;

const ROBOTS_TXT = `# Demo shop: search engines welcome, model training is not.
User-agent: GPTBot
User-agent: CCBot
User-agent: Google-Extended
Disallow: /

User-agent: ClaudeBot
Disallow: /wiki

User-agent: *
Disallow: /checkout/
Allow: /

Sitemap: ${origin}/sitemap.xml
`;

const LLMS_TXT = `# Brewhaus Direct (demo)

> A demo coffee-equipment shop served locally for trying Storefront.

## Pages

- [Product](${origin}/product): the Brevello Duo Pro espresso machine
- [News](${origin}/news): local news with a strict set of security headers
- [Wiki](${origin}/wiki): an encyclopedia article with tables
- [Feed](${origin}/feed.xml): new arrivals as RSS
`;

const AI_TXT = `# Spawning AI
# Prevent datasets from using the following file types

User-Agent: *
Disallow: *.jpg
Disallow: *.png
Disallow: *.mp3
Allow: *.html
Allow: *.txt
`;

/** The sitemap index robots.txt names, and the gzipped urlset it lists (`/buy/map`). */
const SITEMAP_INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${origin}/sitemap-pages.xml.gz</loc><lastmod>2026-03-02</lastmod></sitemap>
</sitemapindex>
`;

const SITEMAP_PAGES = gzipSync(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${origin}/product</loc><lastmod>2026-03-01</lastmod></url>
  <url><loc>${origin}/news</loc><lastmod>2026-02-27T08:30:00+00:00</lastmod></url>
  <url><loc>${origin}/wiki</loc></url>
</urlset>
`);

const SECURITY_HEADERS = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
};

/** A two-page report as a PDF, written by the same builder the tests use. */
const REPORT_PDF = Buffer.from(
  buildPdf({
    pages: [
      {
        lines: [
          { text: 'Brewhaus Direct: Espresso Buying Guide', y: 720, size: 22, bold: true },
          { text: 'What to look for in a home espresso machine.', y: 692 },
          { text: 'Boilers', y: 652, size: 15, bold: true },
          { text: 'A dual boiler brews and steams at once;', y: 628 },
          { text: 'a heat exchanger is cheaper but needs a cooling flush.', y: 614 },
        ],
      },
      {
        lines: [
          { text: 'Grinders', y: 720, size: 15, bold: true },
          { text: 'Budget as much for the grinder as for the machine.', y: 696 },
        ],
      },
    ],
    info: {
      Title: 'Espresso Buying Guide',
      Author: 'Brewhaus Direct',
      Producer: 'Storefront demo site',
      CreationDate: "D:20250601090000+02'00'",
    },
    outline: [
      { title: 'Boilers', page: 0 },
      { title: 'Grinders', page: 1 },
    ],
  }),
);

interface Resource {
  readonly what: string;
  readonly handle: (res: http.ServerResponse) => void;
}

function serve(
  what: string,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Resource {
  return {
    what,
    handle(res) {
      res.writeHead(200, { 'content-type': contentType, ...headers });
      res.end(body);
    },
  };
}

/** `/changing` tells a different story on every request: a stock count that runs down. */
let changingServed = 0;
function changingPage(): string {
  changingServed += 1;
  const left = Math.max(0, 12 - changingServed);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Duo Pro stock level</title></head>
<body><main>
<h1>Brevello Duo Pro: stock level</h1>
<p>Units left in the Portlow North warehouse: ${left}.</p>
<p>This page has been served ${changingServed} time${changingServed === 1 ? '' : 's'}.</p>
</main></body></html>
`;
}

const product = page('product-page');
const news = page('news-article');
const wiki = page('wiki-article');

const resources: Record<string, Resource> = {
  '/product': serve(
    'product page: JSON-LD Product, microdata, breadcrumbs',
    product.contentType,
    product.body,
  ),
  '/news': serve(
    'news article, served with strict security headers',
    news.contentType,
    news.body,
    SECURITY_HEADERS,
  ),
  '/wiki': serve('encyclopedia article with eight tables', wiki.contentType, wiki.body),
  '/changing': {
    what: 'a page whose text changes on every request',
    handle(res) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(changingPage());
    },
  },
  '/feed.xml': serve('RSS feed with three items', 'application/rss+xml; charset=utf-8', FEED_XML),
  '/guide.pdf': serve('a two-page PDF with metadata and an outline', 'application/pdf', REPORT_PDF),
  '/data.json': serve('a JSON product record', 'application/json; charset=utf-8', DATA_JSON),
  '/robots.txt': serve('blocks GPTBot, CCBot and Google-Extended', 'text/plain', ROBOTS_TXT),
  '/llms.txt': serve('llms.txt index of the site', 'text/markdown; charset=utf-8', LLMS_TXT),
  '/ai.txt': serve('Spawning ai.txt: no images or audio for datasets', 'text/plain', AI_TXT),
  '/sitemap.xml': serve('sitemap index naming a gzipped urlset', 'application/xml', SITEMAP_INDEX),
  '/sitemap-pages.xml.gz': serve('gzipped urlset with lastmod', 'application/gzip', SITEMAP_PAGES),
};

/**
 * A bot-protection interstitial served in place of a page, with its vendor's header, for
 * trying page verdicts (`/buy/markdown?url=…/challenge` answers `not_content`). Not on
 * the index: the site's own pages are what a map or a crawl of it finds.
 */
const INTERSTITIAL: Resource = {
  what: 'a bot challenge served in place of the page (answered not_content)',
  handle(res) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cf-mitigated': 'challenge' });
    res.end(`<!doctype html><html lang="en"><head><title>Just a moment...</title></head><body>
<h1>Checking your browser before accessing the site</h1><form id="challenge-form" action="/?__cf_chl_f_tk=demo" method="POST"></form>
<noscript>Enable JavaScript and cookies to continue</noscript>
<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=demo"></script></body></html>
`);
  },
};

function indexPage(): string {
  const items = Object.entries(resources)
    .map(([path, { what }]) => `<li><a href="${path}">${path}</a>: ${what}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Storefront demo site</title></head>
<body><main><h1>Storefront demo site</h1><ul>
${items}
</ul></main></body></html>
`;
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0] as string;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
    res.end('method not allowed\n');
    return;
  }
  if (path === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(indexPage());
    return;
  }
  const resource = path === '/challenge' ? INTERSTITIAL : resources[path];
  if (resource === undefined) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Not found</h1></body></html>\n');
    return;
  }
  resource.handle(res);
});

server.on('error', (error: NodeJS.ErrnoException) => {
  const reason =
    error.code === 'EADDRINUSE' ? `port ${port} is in use; set DEMO_PORT` : error.message;
  process.stderr.write(`demo site: cannot listen on ${origin}: ${reason}\n`);
  process.exit(1);
});

server.listen(port, host, () => {
  const width = Math.max(...Object.keys(resources).map((path) => path.length));
  const lines = [
    `Demo site running at ${origin}/`,
    '',
    ...Object.entries(resources).map(
      ([path, { what }]) => `  ${origin}${path.padEnd(width)}  ${what}`,
    ),
    '',
    'Storefront only fetches loopback addresses it is told to; start it with:',
    `  SAFE_FETCH_ALLOW=${host}:${port}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
