import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyAvailability } from '@storefront/availability';
import { canonicalize, type FetchedDocument, type ProductResult } from '@storefront/core';
import {
  type FetchOutcome,
  finishCrawl,
  finishMap,
  startCrawl,
  startMap,
  stepCrawl,
  stepMap,
  type WalkPlan,
} from '@storefront/crawl';
import { diffText } from '@storefront/diff';
import { extract } from '@storefront/extract';
import { parseFeed } from '@storefront/feed';
import { inspectHeaders } from '@storefront/headers';
import { extractLinks } from '@storefront/links';
import { toMarkdown } from '@storefront/markdown';
import { extractMetadata } from '@storefront/metadata';
import { notarize } from '@storefront/notarize';
import { extractPdf } from '@storefront/pdf';
import { auditRobots } from '@storefront/robots';
import { auditSeo } from '@storefront/seo';
import { extractTables } from '@storefront/table';
import { buildPdf, makeDocument } from '@storefront/test-utils';
import { extractText } from '@storefront/text';
import { validateDocument } from '@storefront/validate';
import { createSigner } from '../src/index.js';
import { signV1, TEST_PRIVATE_KEY } from './helpers.js';

/**
 * Real product results, shaped as the service answers each route (apps/server's
 * registry), and signed with the test key. The service's own answers are checked the
 * same way in apps/server/test/verify-fields.test.ts.
 */

type Body = Record<string, unknown>;

const PAGES = join(import.meta.dirname, '../../../fixtures/pages');
const FETCHED_AT = '2026-03-04T05:06:07.000Z';
const signer = createSigner(TEST_PRIVATE_KEY);

function page(name: string, url: string): FetchedDocument {
  return makeDocument(readFileSync(join(PAGES, name, 'page.html')), {
    url,
    fetchedAt: FETCHED_AT,
    headers: { 'strict-transport-security': 'max-age=63072000', server: 'fixture/1.0' },
  });
}

const product = page('product-page', 'https://shop.example/espresso');
const wiki = page('wiki-article', 'https://wiki.example/Espresso');
const feedDoc = makeDocument(
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture feed</title>
<item><title>First</title><link>https://blog.example/1</link><pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate><description>Hello</description></item>
</channel></rss>`,
  {
    url: 'https://blog.example/feed.xml',
    contentType: 'application/rss+xml',
    fetchedAt: FETCHED_AT,
  },
);
const jsonDoc = makeDocument('{"id":7,"name":"Widget","price":12.5}', {
  url: 'https://api.example/item',
  contentType: 'application/json',
  fetchedAt: FETCHED_AT,
});

function okOf<D>(result: ProductResult<D>): { text: string; data: D } {
  if (!result.ok) throw new Error(`fixture product failed: ${result.error}`);
  return result;
}

type Meta = { url: string; status: number | null; fetchedAt: string };

/** An answer before its receipt, and the envelope the receipt signs (even when the body omits a field). */
interface Unsigned {
  readonly body: Body;
  readonly meta: Meta;
}

function signed(body: Body, meta: Meta): Unsigned {
  return { body, meta };
}

/** `{ok, url, status, text, [contentType], fetchedAt, data}`: the shape of the document routes. */
function documentAnswer(doc: FetchedDocument, result: ProductResult<unknown>, contentType = false) {
  const { text, data } = okOf(result);
  const body = {
    ok: true,
    url: doc.url,
    status: doc.status,
    text,
    ...(contentType ? { contentType: doc.contentType } : {}),
    fetchedAt: doc.fetchedAt,
    data,
  };
  return signed(body, { url: doc.url, status: doc.status, fetchedAt: doc.fetchedAt });
}

function fetchAnswer(options: Parameters<typeof extractText>[1]) {
  const { text, data } = okOf(extractText(product, options));
  const body = {
    ok: true,
    url: product.url,
    status: product.status,
    ...(data.title === undefined ? {} : { title: data.title }),
    text,
    ...(data.format === undefined ? {} : { format: data.format }),
    ...(data.description === undefined ? {} : { description: data.description }),
    ...(data.wordCount === undefined ? {} : { wordCount: data.wordCount }),
    ...(data.extract === undefined ? {} : { extract: data.extract }),
    ...(data.links === undefined ? {} : { links: data.links }),
    contentType: data.contentType,
    bytes: data.bytes,
    truncated: data.truncated,
  };
  // `/buy/fetch` has no `fetchedAt` field; the receipt still signs the time of the read.
  return signed(body, { url: product.url, status: product.status, fetchedAt: product.fetchedAt });
}

function extractAnswer() {
  const { text, data } = okOf(extract(product, { schema: 'name,price:number,sku' }));
  const body = {
    ok: true,
    url: product.url,
    status: product.status,
    extract: data.extract,
    schema: data.schema,
    ...(data.coerced.length > 0 ? { coerced: data.coerced } : {}),
    title: data.title,
    text,
    bytes: product.bytes.length,
    contentType: product.contentType,
    truncated: false,
    redirects: [],
    fetchedAt: product.fetchedAt,
    metered: true,
    delivered: 'key',
    kind: 'html',
  };
  return signed(body, { url: product.url, status: product.status, fetchedAt: product.fetchedAt });
}

function diffAnswer() {
  const current = okOf(extractText(wiki)).text;
  const { text, data } = okOf(
    diffText({ document: wiki, text: current, prevText: `${current}\nAn older line.` }),
  );
  const body = {
    ok: true,
    url: wiki.url,
    status: wiki.status,
    changed: data.changed,
    fromHash: data.fromHash,
    toHash: data.toHash,
    comparedBy: data.comparedBy,
    ...(data.diff === undefined ? {} : { diff: data.diff }),
    text,
    bytes: data.bytes,
    contentType: data.contentType,
    fetchedAt: wiki.fetchedAt,
  };
  return signed(body, { url: wiki.url, status: wiki.status, fetchedAt: wiki.fetchedAt });
}

function notarizeAnswer(inline: boolean) {
  const options = { baseUrl: 'https://storefront.example' };
  const result = inline
    ? notarize({ content: 'Hello, notary.', witnessedAt: FETCHED_AT }, options)
    : notarize({ document: product, text: okOf(extractText(product)).text }, options);
  const { text, data } = okOf(result);
  const url = inline ? 'inline:content' : product.url;
  const body = { ok: true, url, status: 200, text, fetchedAt: FETCHED_AT, data };
  return signed(body, { url, status: 200, fetchedAt: FETCHED_AT });
}

function robotsAnswer() {
  const origin = 'https://shop.example';
  const file = (path: string, body: string, contentType = 'text/plain') => ({
    ok: true as const,
    doc: makeDocument(body, { url: `${origin}${path}`, contentType, fetchedAt: FETCHED_AT }),
  });
  const { text, data } = okOf(
    auditRobots({
      origin,
      robotsTxt: file(
        '/robots.txt',
        'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
      ),
      llmsTxt: file('/llms.txt', '# Shop\n', 'text/markdown'),
      aiTxt: file('/ai.txt', 'not here', 'text/html'),
    }),
  );
  const body = { ok: true, url: origin, status: 200, text, fetchedAt: FETCHED_AT, data };
  return signed(body, { url: origin, status: 200, fetchedAt: FETCHED_AT });
}

function availabilityAnswer() {
  const { text, data } = okOf(
    classifyAvailability({ ok: true, doc: product, timing: { headersMs: 42 } }),
  );
  const body = { ok: true, url: product.url, status: 200, text, fetchedAt: FETCHED_AT, data };
  return signed(body, { url: product.url, status: 200, fetchedAt: FETCHED_AT });
}

function signalAnswer() {
  const data = {
    sample: true,
    series: 'storefront-demo/usd-index',
    points: [{ t: '2026-01-01T00:00:00.000Z', value: 100.4 }],
    signal: 'up',
  };
  const url = 'https://storefront.example/buy/signal';
  const body = {
    ok: true,
    sample: true,
    url,
    status: 200,
    text: canonicalize(data),
    fetchedAt: FETCHED_AT,
    data,
  };
  return signed(body, { url, status: 200, fetchedAt: FETCHED_AT });
}

const SITE: Readonly<Record<string, string>> = {
  'https://shop.example/robots.txt':
    'User-agent: *\nDisallow: /cart\nSitemap: https://shop.example/sitemap.xml\n',
  'https://shop.example/':
    '<title>Shop</title><a href="/espresso">Espresso</a> <a href="/cart">Cart</a>',
  'https://shop.example/espresso': '<title>Espresso</title><p>A fine machine.</p>',
  'https://shop.example/sitemap.xml':
    '<urlset><url><loc>https://shop.example/espresso</loc><lastmod>2026-01-02</lastmod></url></urlset>',
};

/** Walk an in-memory site as the service's pipeline does: each round fetched, handed back in order. */
function walked<S>(plan: WalkPlan<S>, step: (state: S, outcomes: FetchOutcome[]) => WalkPlan<S>) {
  let next = plan;
  while (next.fetch.length > 0) {
    next = step(
      next.state,
      next.fetch.map((url) => {
        const body = SITE[url];
        return {
          ok: true,
          doc: makeDocument(body ?? 'not found', {
            url,
            status: body === undefined ? 404 : 200,
            contentType: url.endsWith('.xml') ? 'application/xml' : 'text/html',
            fetchedAt: FETCHED_AT,
          }),
        };
      }),
    );
  }
  return next.state;
}

/** `{ok, url, status, text, fetchedAt, data}` of a walking route (map, crawl). */
function walkAnswer(result: ProductResult<unknown>): Unsigned {
  const { text, data } = okOf(result);
  const { url, status } = (result as unknown as { extra: { url: string; status: number } }).extra;
  const body = { ok: true, url, status, text, fetchedAt: FETCHED_AT, data };
  return signed(body, { url, status, fetchedAt: FETCHED_AT });
}

const pdfDoc = makeDocument(
  buildPdf({
    pages: [
      {
        lines: [
          { text: 'Receipts', y: 700, size: 18 },
          { text: 'Signed text.', y: 680 },
        ],
      },
    ],
    info: { Title: 'Receipts' },
    outline: [{ title: 'Receipts', page: 0 }],
  }),
  {
    url: 'https://files.example/receipts.pdf',
    contentType: 'application/pdf',
    fetchedAt: FETCHED_AT,
  },
);

/**
 * One real, signed result per route shape, keyed `<route>` or `<route> <variant>`. With
 * `scheme: 1` the receipts are in the old `storefront-attest/1` format (no route line),
 * as the service issued them before scheme 2.
 */
export async function routeResults(scheme: 1 | 2 = 2): Promise<Record<string, Body>> {
  answered ??= answers();
  const unsigned = await answered;
  return Object.fromEntries(
    Object.entries(unsigned).map(([name, { body, meta }]) => {
      const text = body.text as string;
      const route = name.split(' ')[0] as string;
      const attestation = scheme === 2 ? signer.sign(text, { route, ...meta }) : signV1(text, meta);
      return [name, { ...body, attestation }];
    }),
  );
}

let answered: Promise<Record<string, Unsigned>> | undefined;

async function answers(): Promise<Record<string, Unsigned>> {
  return {
    signal: signalAnswer(),
    fetch: fetchAnswer({}),
    'fetch extract=1': fetchAnswer({ extract: '1', links: true }),
    'fetch extract=<fields>': fetchAnswer({ extract: 'title,price,sku' }),
    extract: extractAnswer(),
    markdown: documentAnswer(wiki, toMarkdown(wiki)),
    metadata: documentAnswer(product, extractMetadata(product)),
    links: documentAnswer(product, extractLinks(product), true),
    robots: robotsAnswer(),
    diff: diffAnswer(),
    'notarize url': notarizeAnswer(false),
    'notarize inline': notarizeAnswer(true),
    headers: documentAnswer(product, inspectHeaders(product)),
    table: documentAnswer(wiki, extractTables(wiki)),
    feed: documentAnswer(feedDoc, parseFeed(feedDoc), true),
    availability: availabilityAnswer(),
    validate: documentAnswer(jsonDoc, validateDocument(jsonDoc, { schema: 'id:integer,name' })),
    map: walkAnswer(finishMap(walked(startMap('https://shop.example/'), stepMap), 'done')),
    crawl: walkAnswer(
      finishCrawl(
        walked(startCrawl('https://shop.example/', { userAgent: 'Storefront/1' }), stepCrawl),
        'done',
      ),
    ),
    seo: documentAnswer(product, auditSeo(product)),
    pdf: documentAnswer(pdfDoc, await extractPdf(pdfDoc), true),
  };
}
