import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyReceipt } from '@storefront/attest';
import { canonicalize, type ErrorCode, httpStatusOf } from '@storefront/core';
import { createFetcher, type FetchInit, type SafeFetchResult } from '@storefront/safe-fetch';
import { Ajv, type ValidateFunction } from 'ajv';
import { pino } from 'pino';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { readParams } from '../src/pipeline/params.js';
import { perform, runsOnThread } from '../src/pipeline/work.js';
import { REGISTRY } from '../src/registry/index.js';
import type { AnyRoute, ChargeRule, JsonSchema } from '../src/registry/types.js';
import { type RunningServer, startServer } from '../src/server.js';
import { inlineCompute } from '../src/work/compute.js';
import { ProductPool } from '../src/work/pool.js';
import { DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { type AuditNet, startAuditNet } from './hosts.js';
import {
  ADMIN_TOKEN,
  buy,
  creditsOf,
  enterpriseKey,
  type KeyState,
  type LedgerRow,
  newRows,
  prepaidKey,
  type RouteApp,
  routeApp,
  stateOf,
  type TestKey,
} from './keys.js';
import { type Site, startSite } from './site.js';

type Query = Readonly<Record<string, string>>;
type Body = Record<string, unknown>;

/** The charge rule of each route as the spec's "Errors" table gives it. */
const SPEC_RULES: Readonly<Record<string, ChargeRule>> = {
  fetch: 'per-attempt',
  extract: 'per-attempt',
  links: 'per-attempt',
  diff: 'per-attempt',
  feed: 'per-attempt',
  metadata: 'free-on-failure',
  notarize: 'free-on-failure',
  robots: 'free-on-failure',
  headers: 'free-on-failure',
  markdown: 'before-charging',
  table: 'before-charging',
  validate: 'before-charging',
  availability: 'always-delivered',
  // Issue 19 routes (docs/decisions.md, "Charge rules of /buy/map and /buy/crawl" and the
  // charge rules of /buy/seo and /buy/pdf).
  map: 'free-on-failure',
  crawl: 'free-on-failure',
  seo: 'free-on-failure',
  pdf: 'free-on-failure',
  dns: 'free-on-failure',
  tls: 'free-on-failure',
};

/** Routes whose spec response says "no other fields are allowed". */
const SPEC_CLOSED: ReadonlySet<string> = new Set([
  'fetch',
  'extract',
  'markdown',
  'metadata',
  'links',
  'diff',
  'notarize',
  'feed',
  // Issue 19 routes: closed by choice (docs/decisions.md).
  'map',
  'crawl',
]);

/** Per-route inputs against the fixture site. */
interface RouteCase {
  /** Params of a call that succeeds. */
  readonly success: Query;
  /** The param naming the target (url, or domain for robots). */
  readonly target: string;
  /** Calls whose upstream fails so that the product fails (or reports the host down). */
  readonly failures: readonly Failure[];
  /** Params naming a target refused before any connection. */
  readonly blocked: Query;
  /** Route-specific checks of a successful body (spec response shape). */
  readonly shape: (body: Body) => void;
}

/** An upstream failure: the params, and the answer's url, error code and status. */
interface Failure {
  readonly query: Query;
  readonly url: string;
  /** The `error` code; for availability (`ok:true`), `data.reason`. */
  readonly error: string;
  readonly status: number | null;
}

/** A page answering HTTP 404. */
function missing(query: Query): Failure {
  return { query, url: query.url as string, error: 'upstream_http_error', status: 404 };
}

/** A 200 answer of a type the product cannot read (an image). */
function notOfType(query: Query): Failure {
  return { query, url: query.url as string, error: 'unsupported_content_type', status: 200 };
}

/** A port nothing listens on. */
function refused(query: Query): Failure {
  return { query, url: query.url as string, error: 'connection_refused', status: null };
}

const BLOCKED_URL = 'http://127.0.0.1:1/';

function sha256(text: string): string {
  return `0x${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function dataOf(body: Body): Body {
  expect(body.data).toBeTypeOf('object');
  return body.data as Body;
}

function casesFor(site: Site): Readonly<Record<string, RouteCase>> {
  const origin = `http://127.0.0.1:${site.port}`;
  const deadOrigin = new URL(site.deadUrl).origin;
  const canonicalText = (body: Body) => expect(body.text).toBe(canonicalize(dataOf(body)));
  const shop = (path: string) => site.shop.url(path);
  return {
    fetch: {
      success: { url: site.url('/product') },
      target: 'url',
      failures: [missing({ url: site.url('/missing') })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        expect(body.url).toBe(site.url('/product'));
        expect(body.status).toBe(200);
        expect(body.title).toBeTypeOf('string');
        expect(body.text).toContain('Brevello Duo Pro');
        expect(body.contentType).toBe('text/html; charset=utf-8');
        expect(body.bytes).toBeGreaterThan(0);
        expect(body.truncated).toBe(false);
        for (const absent of ['format', 'links', 'extract', 'description', 'wordCount', 'data']) {
          expect(body).not.toHaveProperty(absent);
        }
      },
    },
    extract: {
      success: { url: site.url('/product'), schema: 'name,sku' },
      target: 'url',
      failures: [missing({ url: site.url('/missing'), schema: 'name' })],
      blocked: { url: BLOCKED_URL, schema: 'name' },
      shape(body) {
        expect(body.extract).toStrictEqual({
          name: 'Brevello Duo Pro Dual Boiler Espresso Machine',
          sku: expect.any(String),
        });
        expect(body.schema).toStrictEqual({ name: 'string', sku: 'string' });
        // The signed text is the canonical JSON of the record and the page text.
        const signed = JSON.parse(body.text as string) as Body;
        expect(signed.extract).toStrictEqual(body.extract);
        expect(signed.text).toContain('Brevello Duo Pro');
        expect(body.text).toBe(canonicalize({ extract: body.extract, text: signed.text }));
        expect(body.delivered).toBe('key');
        expect(body.kind).toBe('html');
        expect(body.redirects).toStrictEqual([]);
        expect(body.fetchedAt).toBeTypeOf('string');
      },
    },
    markdown: {
      success: { url: site.url('/wiki') },
      target: 'url',
      failures: [missing({ url: site.url('/missing') })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        const data = dataOf(body);
        expect(body.text).toBe(data.markdown);
        expect(data.markdown).toMatch(/^#|\n#/);
        expect(data.truncated).toBe(false);
        expect(data.redirects).toStrictEqual([]);
        expect(data.wordCount).toBeGreaterThan(0);
      },
    },
    metadata: {
      success: { url: site.url('/product') },
      target: 'url',
      failures: [missing({ url: site.url('/missing') })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        const jsonLd = data.jsonLd as Body[];
        expect(jsonLd.map((block) => block['@type'])).toContain('Product');
        expect((data.counts as Body).jsonLd).toBe(jsonLd.length);
      },
    },
    links: {
      success: { url: site.url('/product') },
      target: 'url',
      failures: [missing({ url: site.url('/missing') })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        const data = dataOf(body);
        expect(body.contentType).toBe('text/html; charset=utf-8');
        expect(data.pageOrigin).toBe(origin);
        const links = data.links as Body[];
        expect(data.total).toBe(links.length);
        expect((data.internalCount as number) + (data.externalCount as number)).toBe(data.total);
        // One row per link: anchor text, a tab, the URL.
        const rows = (body.text as string).split('\n');
        expect(rows).toHaveLength(links.length);
        for (const row of rows) expect(row).toMatch(/^[^\t\n]*\t\S+$/);
      },
    },
    robots: {
      success: { domain: site.url('/product') },
      target: 'domain',
      failures: [
        {
          query: { domain: deadOrigin },
          url: deadOrigin,
          error: 'connection_refused',
          status: null,
        },
      ],
      blocked: { domain: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        // `url` is the audited origin; `status` the robots.txt status.
        expect(body.url).toBe(origin);
        expect(body.status).toBe(200);
        expect(data.origin).toBe(origin);
        expect(data.evaluatedPath).toBe('/');
        const summary = data.summary as Body;
        expect(summary.blockedAgents).toContain('GPTBot');
        expect(summary.hasRobotsTxt).toBe(true);
        expect(summary.hasLlmsTxt).toBe(true);
        expect(summary.hasAiTxt).toBe(false);
      },
    },
    diff: {
      success: { url: site.url('/changing'), prevText: 'Version zero.' },
      target: 'url',
      failures: [missing({ url: site.url('/missing'), prevText: 'x' })],
      blocked: { url: BLOCKED_URL, prevText: 'x' },
      shape(body) {
        expect(body.changed).toBe(true);
        expect(body.comparedBy).toBe('text');
        expect(body.fromHash).toBe(sha256('Version zero.'));
        expect(body.toHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(body.diff).toMatchObject({ truncated: false });
      },
    },
    notarize: {
      success: { url: site.url('/product') },
      target: 'url',
      failures: [missing({ url: site.url('/missing') })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        const data = dataOf(body);
        expect(data.source).toBe(site.url('/product'));
        expect(data.sourceKind).toBe('url');
        expect(data.algorithm).toBe('sha256');
        expect(data.witnessedAt).toBe(body.fetchedAt);
        expect(body.text).toContain(data.contentHash as string);
      },
    },
    headers: {
      success: { url: site.url('/news') },
      target: 'url',
      failures: [refused({ url: site.deadUrl })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        expect(data.serverBanner).toBe('fixture/1.0');
        const checks = data.checks as Body[];
        const hsts = checks.find((check) => check.header === 'strict-transport-security');
        expect(hsts).toMatchObject({ present: true });
      },
    },
    table: {
      success: { url: site.url('/wiki') },
      target: 'url',
      failures: [
        {
          query: { url: site.url('/news') },
          url: site.url('/news'),
          error: 'not_found',
          status: 200,
        },
        // An index past the last table: content that does not exist, 404 and free.
        {
          query: { url: site.url('/wiki'), table: '99' },
          url: site.url('/wiki'),
          error: 'not_found',
          status: 200,
        },
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        expect(data.tableCount).toBe(8);
        expect(data.returned).toBe(8);
        expect(data.tables).toHaveLength(8);
      },
    },
    feed: {
      success: { url: site.url('/feed.xml') },
      target: 'url',
      failures: [
        missing({ url: site.url('/missing') }),
        notOfType({ url: site.url('/image.png') }),
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        expect(body.contentType).toBe('application/rss+xml; charset=utf-8');
        expect(data).toMatchObject({ feedTitle: 'Fixture feed', kind: 'rss', count: 2 });
        expect((data.items as Body[])[0]).toMatchObject({
          title: 'First & foremost',
          link: 'http://example.test/1',
          published: '2025-06-10T04:00:00.000Z',
          summary: 'Hello world',
        });
      },
    },
    availability: {
      success: { url: site.url('/product') },
      target: 'url',
      failures: [
        {
          query: { url: site.deadUrl },
          url: site.deadUrl,
          error: 'connection-refused',
          status: null,
        },
        {
          query: { url: site.url('/missing') },
          url: site.url('/missing'),
          error: '4xx-client-error',
          status: 404,
        },
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        const data = dataOf(body);
        expect(data).toMatchObject({
          up: true,
          reachable: true,
          httpStatus: 200,
          responseClass: '2xx-success',
          reason: 'ok',
        });
        // The signed text is the verdict without the telemetry field.
        const signed = JSON.parse(body.text as string) as Body;
        expect(signed).not.toHaveProperty('responseMs');
        const { responseMs: _telemetry, ...verdict } = data;
        expect(body.text).toBe(canonicalize(verdict));
      },
    },
    map: {
      success: { url: shop('/') },
      target: 'url',
      failures: [refused({ url: site.deadUrl })],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        expect(body).toMatchObject({ url: shop('/'), status: 200 });
        const data = dataOf(body);
        expect(data.urls).toStrictEqual([
          { url: shop('/'), lastmod: null },
          { url: shop('/guide'), lastmod: '2025-12-24' },
          { url: shop('/news/spring'), lastmod: '2026-03-10T04:00:00.000Z' },
          { url: shop('/private/secret'), lastmod: null },
          { url: shop('/products/kettle'), lastmod: '2026-03-01T10:00:00+00:00' },
          { url: shop('/products/teapot'), lastmod: null },
        ]);
        const sources = data.sources as Body[];
        expect(sources.map((source) => [source.url, source.kind, source.error])).toStrictEqual([
          [shop('/robots.txt'), 'robots.txt', null],
          [shop('/'), 'page', null],
          [shop('/sitemap_index.xml'), 'sitemap-index', null],
          [shop('/feed.rss'), 'feed', null],
          [shop('/sitemap-products.xml.gz'), 'urlset', null],
          [shop('/sitemap-pages.xml'), 'urlset', null],
        ]);
        // The partner link, the stray urlset entry and the CDN sitemap are another site's.
        expect(data.cut).toStrictEqual({
          beyondLimit: 0,
          beyondCollect: 0,
          offSite: 3,
          unreadSources: 0,
        });
        expect(data.stop).toBe('done');
      },
    },
    crawl: {
      success: { url: shop('/') },
      target: 'url',
      failures: [
        refused({ url: site.deadUrl }),
        // robots.txt disallows the start page: nothing is read, nothing charged.
        {
          query: { url: shop('/private/secret') },
          url: shop('/private/secret'),
          error: 'robots_disallowed',
          status: null,
        },
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        expect(body).toMatchObject({ url: shop('/'), status: 200 });
        const data = dataOf(body);
        const pages = data.pages as Body[];
        // Breadth-first, same-site, robots.txt obeyed: /private/secret is never read.
        expect(pages.map((page) => page.url)).toStrictEqual([
          shop('/'),
          shop('/guide'),
          shop('/products/kettle'),
          shop('/api'),
          shop('/products/teapot'),
        ]);
        expect(data.skipped).toStrictEqual([{ url: shop('/private/secret'), reason: 'robots' }]);
        expect(pages[0]).toMatchObject({ title: 'Shop home', status: 200 });
        expect(pages[0]?.links).toContain('https://elsewhere.example/partner');
        // One row per page: its hash (of the page without it) and its url.
        expect(body.text).toBe(
          pages
            .map((page) => {
              const { hash, ...rest } = page;
              expect(hash).toBe(sha256(canonicalize(rest as never)));
              return `${hash}\t${page.url}`;
            })
            .join('\n'),
        );
        expect(site.shop.hits.get('/private/secret') ?? 0).toBe(0);
      },
    },
    dns: {
      success: { domain: 'good.example.com' },
      target: 'domain',
      failures: [
        {
          query: { domain: 'missing.example.org' },
          url: 'dns:missing.example.org',
          error: 'dns_failure',
          status: null,
        },
        {
          query: { domain: 'https://slow.example.org/' },
          url: 'dns:slow.example.org',
          error: 'timeout',
          status: null,
        },
      ],
      // Local and internal names are never asked about, as the fetcher never contacts them.
      blocked: { domain: 'db.internal' },
      shape(body) {
        canonicalText(body);
        expect(body.url).toBe('dns:good.example.com');
        expect(body).not.toHaveProperty('status');
        const data = dataOf(body);
        expect(data).toMatchObject({
          domain: 'good.example.com',
          grade: 'A',
          rubric: 'dns-rubric/1',
          dnssec: { authenticated: true },
          queries: 11,
        });
        expect(data.spf).toMatchObject({ valid: true, lookups: 2, lookupLimitExceeded: false });
        expect((data.records as Body).MX).toStrictEqual([
          { preference: 10, exchange: 'mx1.good.example.com' },
          { preference: 20, exchange: 'mx2.good.example.com' },
        ]);
      },
    },
    tls: {
      success: { domain: 'good.tls.example.com' },
      target: 'domain',
      failures: [
        {
          query: { domain: 'broken.tls.example.com' },
          url: 'https://broken.tls.example.com',
          error: 'tls_error',
          status: null,
        },
        {
          query: { domain: 'https://missing.tls.example.com/path' },
          url: 'https://missing.tls.example.com',
          error: 'dns_failure',
          status: null,
        },
      ],
      // The stub resolver answers 10.0.0.1: refused at connect time, never contacted.
      blocked: { domain: 'private.example.com' },
      shape(body) {
        canonicalText(body);
        expect(body.url).toBe('https://good.tls.example.com');
        const data = dataOf(body);
        // The test CA is no public root: the chain does not verify, so the grade is F.
        expect(data).toMatchObject({
          domain: 'good.tls.example.com',
          nameMatches: true,
          trusted: false,
          trustError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
          protocol: 'TLSv1.3',
          ocspStapled: false,
          grade: 'F',
          rubric: 'tls-rubric/1',
        });
        expect(data.hsts).toMatchObject({ present: true, maxAge: 63072000, status: 200 });
        expect((data.chain as Body[]).map((cert) => cert.subject)).toStrictEqual([
          'CN=good.tls.example.com',
          'CN=Storefront Test Intermediate CA',
        ]);
      },
    },
    validate: {
      success: { url: site.url('/data.json'), schema: 'id:integer,name,price:number' },
      target: 'url',
      failures: [
        notOfType({ url: site.url('/image.png'), schema: 'id:integer' }),
        missing({ url: site.url('/missing'), schema: 'id:integer' }),
        // A pointer that selects nothing: 404, as on every route.
        {
          query: { url: site.url('/data.json'), schema: 'id:integer', pointer: '/nowhere' },
          url: site.url('/data.json'),
          error: 'not_found',
          status: 200,
        },
      ],
      blocked: { url: BLOCKED_URL, schema: 'id:integer' },
      shape(body) {
        canonicalText(body);
        expect(dataOf(body)).toMatchObject({
          valid: true,
          errorCount: 0,
          errors: [],
          schemaForm: 'compact',
          pointer: '',
        });
      },
    },
    seo: {
      success: { url: site.url('/seo') },
      target: 'url',
      failures: [
        missing({ url: site.url('/missing') }),
        notOfType({ url: site.url('/image.png') }),
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        expect(data.rubric).toBe('seo-rubric/1');
        const checks = data.checks as Body[];
        const verdicts = Object.fromEntries(checks.map((check) => [check.id, check.pass]));
        expect(verdicts).toMatchObject({
          title: true,
          description: true,
          h1: true,
          'heading-order': false,
          'image-alt': false,
          'structured-data': true,
          'mixed-content': false,
          links: true,
        });
        const robots = checks.find((check) => check.id === 'indexable') as Body;
        expect(robots).toMatchObject({ pass: true, value: 'X-Robots-Tag: max-snippet: 160' });
        expect(data.counts).toMatchObject({ internalLinks: 2, externalLinks: 1, images: 2 });
        expect((data.findings as Body[]).map((finding) => finding.id)).toStrictEqual(
          checks.filter((check) => !check.pass).map((check) => check.id),
        );
      },
    },
    pdf: {
      success: { url: site.url('/report.pdf') },
      target: 'url',
      failures: [
        missing({ url: site.url('/missing') }),
        notOfType({ url: site.url('/scanned.pdf') }),
        notOfType({ url: site.url('/encrypted.pdf') }),
        notOfType({ url: site.url('/image.png') }),
        // A page past the last one: content that does not exist, 404 and free.
        {
          query: { url: site.url('/report.pdf'), pages: '3' },
          url: site.url('/report.pdf'),
          error: 'not_found',
          status: 200,
        },
      ],
      blocked: { url: BLOCKED_URL },
      shape(body) {
        canonicalText(body);
        const data = dataOf(body);
        expect(body.contentType).toBe('application/pdf');
        expect(data).toMatchObject({ format: 'text', pageCount: 2, truncated: false });
        expect(data.metadata).toMatchObject({
          title: 'Fixture Report',
          author: 'Fixture Lab',
          created: '2025-06-01T12:00:00.000Z',
        });
        expect(data.outline).toStrictEqual([
          { title: 'Method', page: 1, items: [] },
          { title: 'Results', page: 2, items: [] },
        ]);
        const pages = data.pages as Body[];
        expect(pages.map((page) => page.page)).toStrictEqual([1, 2]);
        expect(pages[0]?.text).toBe(
          'Fixture Report\n\nEspresso extraction, measured.\n\nMethod\n\nEighteen grams in, thirty-six out.',
        );
      },
    },
  };
}

// ---------------------------------------------------------------------------------
// Response schemas.

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': (value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
};

const ajv = new Ajv({ strict: false, allErrors: true });
for (const [name, validate] of Object.entries(FORMATS)) {
  ajv.addFormat(name, { type: 'string', validate });
}
const validators = new Map<string, ValidateFunction>();

function validatorOf(route: AnyRoute): ValidateFunction {
  let validate = validators.get(route.name);
  if (validate === undefined) {
    validate = ajv.compile(route.response);
    validators.set(route.name, validate);
  }
  return validate;
}

function expectValid(route: AnyRoute, body: unknown): void {
  const validate = validatorOf(route);
  const valid = validate(body);
  expect(valid ? [] : validate.errors).toStrictEqual([]);
}

/** Every `format` keyword used anywhere in a schema. */
function formatsIn(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) formatsIn(item, found);
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'format' && typeof value === 'string') found.add(value);
      else formatsIn(value, found);
    }
  }
  return found;
}

/**
 * Routes whose signed text states the time of the read (diff: the change claim's
 * `fetchedAt`; notarize: `witnessedAt`, equal to `fetchedAt`).
 */
const TIMED_TEXT: ReadonlySet<string> = new Set(['diff', 'notarize']);

/** The text with the body's `fetchedAt` replaced by a placeholder. */
function untimed(body: Body): string {
  expect(body.fetchedAt).toBeTypeOf('string');
  return (body.text as string).split(body.fetchedAt as string).join('<time>');
}

/** A copy without the fields that record when the call happened. */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value === null || typeof value !== 'object') return value;
  const out: Body = {};
  for (const [key, inner] of Object.entries(value)) {
    if (['attestation', 'fetchedAt', 'witnessedAt', 'responseMs'].includes(key)) continue;
    out[key] = timeless(inner);
  }
  return out;
}

// ---------------------------------------------------------------------------------

/**
 * A host that resets the connection on `/robots.txt` but serves `/llms.txt`: it answers,
 * yet its robots.txt is unreachable (RFC 9309 §2.3.1.4), so there is no robots.txt status.
 */
async function startResettingRobotsHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') {
      req.socket.destroy();
      return;
    }
    if (req.url === '/llms.txt') {
      res.writeHead(200, { 'content-type': 'text/markdown' });
      res.end('# Half site\n\n> Answers, except for robots.txt.\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

let site: Site;
let net: AuditNet;
let resetting: Awaited<ReturnType<typeof startResettingRobotsHost>>;
let t: RouteApp;
let cases: Readonly<Record<string, RouteCase>>;
/** Unmetered: success and determinism calls. */
let enterprise: TestKey;
/** Prepaid credits: every call whose charge is checked. */
let prepaid: TestKey;

beforeAll(async () => {
  site = await startSite();
  resetting = await startResettingRobotsHost();
  net = await startAuditNet();
  t = await routeApp(site, [new URL(resetting.origin).host], { probes: net.probes });
  cases = casesFor(site);
  enterprise = await enterpriseKey(t.app);
  prepaid = await prepaidKey(t.app, 100_000);
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await site?.close();
  await resetting?.close();
  await net?.close();
});

/**
 * The case of `route`; a route without one (added beyond the spec's, before its own
 * failure cases are written) is held to its example call: it succeeds, and its `url`
 * refused before any connection is never charged.
 */
function caseOf(route: AnyRoute): RouteCase {
  const found = cases[route.name];
  if (found !== undefined) return found;
  const success = route.example.call(site);
  return {
    success,
    target: 'url',
    failures: [],
    blocked: { ...success, url: BLOCKED_URL },
    shape: () => {},
  };
}

function creditsFor(amount: number): number {
  return Math.max(1, amount / 1000);
}

/** The one ledger row a call wrote for `route`. */
async function oneRow(key: TestKey, before: KeyState, route: string): Promise<LedgerRow> {
  const rows = await newRows(t.app, key.keyId, before);
  expect(rows.map((row) => row.route)).toStrictEqual([route]);
  return rows[0] as LedgerRow;
}

function expectReceipt(body: Body): void {
  const attestation = body.attestation as Body;
  expect(attestation).toBeTypeOf('object');
  expect(attestation.address).toBe(t.signerAddress);
  expect(sha256(body.text as string)).toBe(attestation.contentHash);
  const verification = verifyReceipt(body, t.signerAddress);
  expect(verification.problems).toStrictEqual([]);
  expect(verification.valid).toBe(true);
  expect(verification.checks.envelope).toBe(true);
}

function expectOkFalse(res: Response, status: number): Body {
  expect(res.status).toBe(status);
  const body = res.body as Body;
  expect(body.ok).toBe(false);
  expect(body.error).toBeTypeOf('string');
  expect(body.message).toBeTypeOf('string');
  expect(body).not.toHaveProperty('attestation');
  return body;
}

describe('the route table', () => {
  it("has a case for every route the spec names, and the spec's charge rule on each", () => {
    const names = REGISTRY.map((route) => route.name);
    for (const name of Object.keys(cases)) expect(names).toContain(name);
    for (const [name, rule] of Object.entries(SPEC_RULES)) {
      expect(cases).toHaveProperty(name);
      const route = REGISTRY.find((entry) => entry.name === name);
      expect([name, route?.chargeRule]).toStrictEqual([name, rule]);
    }
  });

  it('closes exactly the responses the spec closes', () => {
    for (const route of REGISTRY.filter((entry) => Object.hasOwn(SPEC_RULES, entry.name))) {
      expect([route.name, route.closedResponse]).toStrictEqual([
        route.name,
        SPEC_CLOSED.has(route.name),
      ]);
      expect(route.response.additionalProperties).toBe(!route.closedResponse);
    }
  });

  it('answers every route the same from product threads as inline, byte for byte', async () => {
    const fetcher = createFetcher({ testOnlyAllow: site.allow });
    const pool = new ProductPool({
      threads: 2,
      deadlineMs: 30_000,
      heapMb: 512,
      logger: pino({ level: 'silent' }),
    });
    try {
      // Each URL is fetched once; both runs get a fresh copy of the same answer.
      const fetched = new Map<string, Promise<SafeFetchResult>>();
      const once = {
        fetch(url: string, init?: FetchInit) {
          const key = `${url} ${JSON.stringify(init ?? null)}`;
          if (!fetched.has(key)) fetched.set(key, fetcher.fetch(url, init));
          return (fetched.get(key) as Promise<SafeFetchResult>).then((result) =>
            result.ok ? { ...result, doc: { ...result.doc } } : result,
          );
        },
        close: () => Promise.resolve(),
      };
      const clock = () => new Date('2026-03-14T12:00:00.000Z');
      const computes = REGISTRY.filter(runsOnThread);
      expect(computes.length).toBeGreaterThan(8);
      for (const route of computes) {
        const read = readParams(route, caseOf(route).success);
        if (!read.ok) throw new Error(`${route.path}: ${JSON.stringify(read.details)}`);
        const services = { fetcher: once, publicBaseUrl: t.publicBaseUrl, clock };
        const call = { door: 'key', metered: true } as const;
        const inline = await perform(
          route,
          read.params,
          { ...services, compute: inlineCompute },
          call,
        );
        const threaded = await perform(
          route,
          read.params,
          { ...services, compute: pool.compute },
          call,
        );
        expect([route.path, threaded]).toStrictEqual([route.path, inline]);
        expect([route.path, inline.kind]).toStrictEqual([route.path, 'delivered']);
      }
    } finally {
      await pool.close();
      await fetcher.close();
    }
  });

  it('uses only response formats the validator checks', () => {
    for (const route of REGISTRY) {
      for (const format of formatsIn(route.response))
        expect(Object.keys(FORMATS)).toContain(format);
    }
  });
});

for (const route of REGISTRY) {
  describe(route.path, () => {
    it('succeeds through the key door with a verified receipt and one charged ledger row', async () => {
      const c = caseOf(route);
      const before = await stateOf(t.app, enterprise.keyId);
      const res = await buy(t.app, route.path, c.success, enterprise.key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as Body;
      expect(body.ok).toBe(true);
      expectValid(route, body);
      expectReceipt(body);
      c.shape(body);
      if (route.name === 'extract') expect(body.metered).toBe(false);

      const row = await oneRow(enterprise, before, route.name);
      expect(row).toMatchObject({
        charged: true,
        outcome: 'delivered',
        source: 'unmetered',
        error: null,
        receiptNonce: (body.attestation as Body).nonce,
        // Every success case uses the route's cheapest params.
        price: route.prices[0]?.amount,
      });
      if ('status' in body) expect(row.upstreamStatus).toBe(body.status);
      expect(res.headers['storefront-charge']).toBe('unmetered;credits=0');
    });

    it('charges a prepaid key exactly its price in credits', async () => {
      const c = caseOf(route);
      const price = route.prices[0]?.amount as number;
      const before = await stateOf(t.app, prepaid.keyId);
      const res = await buy(t.app, route.path, c.success, prepaid.key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.ok).toBe(true);
      expectReceipt(res.body as Body);
      if (route.name === 'extract') expect(res.body.metered).toBe(true);
      const credits = creditsFor(price);
      expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits - credits);
      const row = await oneRow(prepaid, before, route.name);
      expect(row).toMatchObject({
        charged: true,
        outcome: 'delivered',
        source: 'credits',
        units: credits,
        price,
      });
      expect(res.headers['storefront-charge']).toBe(`credits;credits=${credits}`);
    });

    if (route.closedResponse) {
      it('publishes a closed response schema that its answers meet exactly', async () => {
        const c = caseOf(route);
        expect(route.response.additionalProperties).toBe(false);
        const ok = await buy(t.app, route.path, c.success, enterprise.key);
        expectValid(route, ok.body);
        expect(validatorOf(route)({ ...ok.body, unlisted: 1 })).toBe(false);
        if (c.failures.length === 0) return;
        const failure = await buy(
          t.app,
          route.path,
          (c.failures[0] as Failure).query,
          enterprise.key,
        );
        expect(failure.body.ok).toBe(false);
        expectValid(route, failure.body);
        expect(validatorOf(route)({ ...failure.body, unlisted: 1 })).toBe(false);
      });
    }

    it('applies the spec charge rule to an upstream failure', async () => {
      const c = caseOf(route);
      const price = route.prices[0]?.amount as number;
      for (const failure of c.failures) {
        const before = await stateOf(t.app, prepaid.keyId);
        const res = await buy(t.app, route.path, failure.query, prepaid.key);
        const credits = await creditsOf(t.app, prepaid.keyId);
        const row = await oneRow(prepaid, before, route.name);
        const rule = route.chargeRule;
        const label = `${route.path} ${JSON.stringify(failure.query)}: ${JSON.stringify(res.body)}`;
        expect(res.body.url, label).toBe(failure.url);
        expect(res.body.status ?? null, label).toBe(failure.status);
        expect(row.upstreamStatus).toBe(failure.status);
        if (rule === 'always-delivered') {
          expect(res.status, label).toBe(200);
          expect(res.body.ok, label).toBe(true);
          expect(res.body.data).toMatchObject({ up: false, reason: failure.error });
          expectValid(route, res.body);
          expectReceipt(res.body as Body);
          expect(credits).toBe(before.credits - creditsFor(price));
          expect(row).toMatchObject({
            charged: true,
            outcome: 'delivered',
            error: null,
            receiptNonce: res.body.attestation.nonce,
          });
          continue;
        }
        // The code's one status: an upstream or product code is 503 before charging and
        // 200 elsewhere; a code with a status of its own (`not_found`) has it everywhere.
        const status = httpStatusOf(failure.error as ErrorCode, rule === 'before-charging');
        const body = expectOkFalse(res, status);
        expect(body.error, label).toBe(failure.error);
        expectValid(route, body);
        expect(row.error).toBe(failure.error);
        if (status !== 200) {
          expect(credits, label).toBe(before.credits);
          expect(row).toMatchObject({
            charged: false,
            outcome: 'undeliverable',
            receiptNonce: null,
          });
        } else if (rule === 'per-attempt') {
          expect(credits, label).toBe(before.credits - creditsFor(price));
          expect(row).toMatchObject({ charged: true, outcome: 'delivered', receiptNonce: null });
          expect(res.headers['storefront-charge']).toBe(`credits;credits=${creditsFor(price)}`);
        } else {
          expect(credits, label).toBe(before.credits);
          expect(row).toMatchObject({
            charged: false,
            outcome: rule === 'before-charging' ? 'undeliverable' : 'delivered_free',
            receiptNonce: null,
          });
          if (rule === 'free-on-failure') expect(res.headers['storefront-charge']).toBe('none');
        }
      }
    });

    it('never charges for a blocked target', async () => {
      const c = caseOf(route);
      const before = await stateOf(t.app, prepaid.keyId);
      const res = await buy(t.app, route.path, c.blocked, prepaid.key);
      const body = expectOkFalse(res, route.chargeRule === 'before-charging' ? 503 : 200);
      expect(body.error).toBe('blocked_ssrf');
      expectValid(route, body);
      expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits);
      const row = await oneRow(prepaid, before, route.name);
      expect(row).toMatchObject({ charged: false, error: 'blocked_ssrf' });
      expect(row.outcome).toBe(
        route.chargeRule === 'before-charging' ? 'undeliverable' : 'delivered_free',
      );
      if (res.status === 200) expect(res.headers['storefront-charge']).toBe('none');
    });

    it('answers 400 invalid_params for missing, over-long, unknown and repeated params, charging nothing', async () => {
      const c = caseOf(route);
      const properties = (route.params.properties ?? {}) as Record<string, JsonSchema>;
      const required = (route.params.required ?? []) as string[];
      const attempts: { query: Record<string, string | string[]>; param: string }[] = [];
      for (const name of required) {
        const { [name]: _dropped, ...rest } = c.success;
        attempts.push({ query: rest, param: name });
      }
      for (const [name, schema] of Object.entries(properties)) {
        const max = schema.maxLength;
        // Longer values than this do not fit in a request line the HTTP server accepts.
        if (typeof max !== 'number' || max > 4096) continue;
        attempts.push({ query: { ...c.success, [name]: tooLong(name, max + 1) }, param: name });
      }
      expect(attempts.some((a) => a.param === c.target)).toBe(true);
      attempts.push({ query: { ...c.success, bogus: '1' }, param: 'bogus' });
      const target = c.success[c.target] ?? (c.failures[0] as Failure).query[c.target] ?? '';
      attempts.push({ query: { ...c.success, [c.target]: [target, target] }, param: c.target });

      const before = await stateOf(t.app, prepaid.keyId);
      for (const attempt of attempts) {
        for (const key of [prepaid.key, null]) {
          const res = await buy(t.app, route.path, attempt.query, key);
          const label = `${JSON.stringify(attempt.query).slice(0, 200)} → ${JSON.stringify(res.body).slice(0, 400)}`;
          expect(res.status, label).toBe(400);
          expect(res.body).toMatchObject({ ok: false, error: 'invalid_params' });
          const details = res.body.details as { param: string; message: string }[];
          expect(
            details.map((d) => d.param),
            label,
          ).toContain(attempt.param);
        }
      }
      const after = await stateOf(t.app, prepaid.keyId);
      expect(after.credits).toBe(before.credits);
      expect(after.ledger).toStrictEqual(before.ledger);
    });

    it('gives the same text and data for the same call', async () => {
      const c = caseOf(route);
      const first = await buy(t.app, route.path, c.success, enterprise.key);
      const second = await buy(t.app, route.path, c.success, enterprise.key);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      if (TIMED_TEXT.has(route.name)) {
        // The signed statement names its time; every other byte is the same.
        expect(untimed(second.body)).toBe(untimed(first.body));
        expect(first.body.text).toContain(first.body.fetchedAt);
      } else {
        expect(second.body.text).toBe(first.body.text);
      }
      expect(timeless({ ...second.body, text: null })).toStrictEqual(
        timeless({ ...first.body, text: null }),
      );
      expect(second.body.attestation.nonce).not.toBe(first.body.attestation.nonce);
    });
  });
}

function tooLong(name: string, length: number): string {
  const prefix = name === 'url' || name === 'domain' ? 'http://127.0.0.1/' : '';
  return prefix + 'a'.repeat(length - prefix.length);
}

describe('/buy/fetch price tiers', () => {
  const tiers: readonly [Query, string, number][] = [
    [{}, 'fetch', 3000],
    [{ format: 'markdown' }, 'plus', 6000],
    [{ links: '1' }, 'plus', 6000],
    [{ format: 'markdown', links: '1' }, 'plus', 6000],
    // `extract=1` adds a description and a word count, not a record: fetch's price.
    [{ extract: '1' }, 'fetch', 3000],
    [{ extract: '1', links: '1' }, 'plus', 6000],
    [{ extract: '1', format: 'markdown' }, 'plus', 6000],
    [{ extract: 'title,price' }, 'pro', 12000],
    [{ format: 'markdown', extract: 'title' }, 'pro', 12000],
    [{ links: '1', extract: 'title,author' }, 'pro', 12000],
  ];

  it.each(tiers)('%j is tier %s at %i', async (extra, tier, amount) => {
    const query = { url: site.url('/product'), ...extra };
    const challenge = await buy(t.app, '/buy/fetch', query, null);
    expect(challenge.status).toBe(402);
    expect(challenge.body.accepts).toHaveLength(1);
    expect(challenge.body.accepts[0]).toMatchObject({
      amount: String(amount),
      maxAmountRequired: String(amount),
      extra: { tier },
    });

    const before = await stateOf(t.app, prepaid.keyId);
    const res = await buy(t.app, '/buy/fetch', query, prepaid.key);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits - amount / 1000);
    const row = await oneRow(prepaid, before, 'fetch');
    expect(row).toMatchObject({ price: amount, units: amount / 1000, charged: true });

    const fetchRoute = REGISTRY.find((route) => route.name === 'fetch') as AnyRoute;
    expectValid(fetchRoute, res.body);
    expect(res.body.format).toBe(extra.format === 'markdown' ? 'markdown' : undefined);
    expect(Array.isArray(res.body.links)).toBe(extra.links === '1');
    expect(typeof res.body.wordCount === 'number').toBe(extra.extract === '1');
    expect(typeof res.body.description === 'string').toBe(extra.extract === '1');
    expect(res.body.extract !== undefined).toBe(
      extra.extract !== undefined && extra.extract !== '1',
    );
    if (res.body.extract !== undefined) {
      // The receipt covers the record: the signed text carries it.
      expect((JSON.parse(res.body.text) as Body).extract).toStrictEqual(res.body.extract);
    }
  });
});

describe('response shapes', () => {
  it('/buy/notarize inline: the text differs between calls only in the witnessedAt line', async () => {
    const query = { content: 'A statement to notarize.\n' };
    const first = await buy(t.app, '/buy/notarize', query, enterprise.key);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await buy(t.app, '/buy/notarize', query, enterprise.key);
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expectReceipt(res.body as Body);
      expect(res.body.url).toBe('inline:content');
      expect(res.body.data).toMatchObject({
        contentHash: sha256(query.content),
        byteLength: Buffer.byteLength(query.content),
        sourceKind: 'inline',
        source: 'inline:content',
      });
      expect(res.body.data.witnessedAt).toBe(res.body.fetchedAt);
      expect(res.body.text).toContain(res.body.data.witnessedAt);
    }
    const a = (first.body.text as string).split('\n');
    const b = (second.body.text as string).split('\n');
    expect(b).toHaveLength(a.length);
    const differing = a.flatMap((line, i) => (line === b[i] ? [] : [i]));
    expect(differing).toHaveLength(1);
    const index = differing[0] as number;
    expect(a[index]).toContain(first.body.data.witnessedAt);
    expect(b[index]).toContain(second.body.data.witnessedAt);
    expect(untimed(second.body)).toBe(untimed(first.body));
    expect(timeless({ ...second.body, text: null })).toStrictEqual(
      timeless({ ...first.body, text: null }),
    );
  });

  it('/buy/notarize rejects both url and content, and neither', async () => {
    const before = await stateOf(t.app, prepaid.keyId);
    for (const query of [{ url: site.url('/product'), content: 'x' }, {}]) {
      const res = await buy(t.app, '/buy/notarize', query, prepaid.key);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_params');
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect(await stateOf(t.app, prepaid.keyId)).toStrictEqual(before);
  });

  it('/buy/diff rejects neither prevHash nor prevText, and a prevHash that is not prevText’s', async () => {
    const before = await stateOf(t.app, prepaid.keyId);
    const url = site.url('/changing');
    for (const query of [{ url }, { url, prevText: 'one', prevHash: sha256('two') }]) {
      const res = await buy(t.app, '/buy/diff', query, prepaid.key);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_params');
      expect(res.body.details.map((d: { param: string }) => d.param)).toContain('prevHash');
    }
    expect(await stateOf(t.app, prepaid.keyId)).toStrictEqual(before);
  });

  it('/buy/diff says changed false for the same page and true after it changes', async () => {
    const url = site.url('/changing');
    try {
      const current = await buy(t.app, '/buy/fetch', { url }, enterprise.key);
      const text = current.body.text as string;
      const byText = await buy(t.app, '/buy/diff', { url, prevText: text }, enterprise.key);
      expect(byText.body).toMatchObject({ ok: true, changed: false, comparedBy: 'text' });
      expect(byText.body.fromHash).toBe(sha256(text));
      expect(byText.body.toHash).toBe(sha256(text));
      expect(byText.body.diff).toMatchObject({ added: 0, removed: 0, hunks: [] });
      const byHash = await buy(t.app, '/buy/diff', { url, prevHash: sha256(text) }, enterprise.key);
      expect(byHash.body).toMatchObject({ ok: true, changed: false, comparedBy: 'hash' });
      expect(byHash.body).not.toHaveProperty('diff');

      site.setChanging(
        '<html><head><title>Changing</title></head><body><main><p>Version two.</p></main></body></html>',
      );
      const changedText = await buy(t.app, '/buy/diff', { url, prevText: text }, enterprise.key);
      expect(changedText.body).toMatchObject({ ok: true, changed: true, comparedBy: 'text' });
      expect(changedText.body.toHash).not.toBe(sha256(text));
      expect(changedText.body.diff.added).toBeGreaterThan(0);
      expect(changedText.body.diff.removed).toBeGreaterThan(0);
      expect(changedText.body.diff.hunks.join('\n')).toContain('Version two.');
      expectReceipt(changedText.body as Body);
      const changedHash = await buy(
        t.app,
        '/buy/diff',
        { url, prevHash: sha256(text) },
        enterprise.key,
      );
      expect(changedHash.body).toMatchObject({ ok: true, changed: true, fromHash: sha256(text) });
      expect(changedHash.body.toHash).toBe(changedText.body.toHash);
    } finally {
      site.setChanging(
        '<html><head><title>Changing</title></head><body><main><p>Version one.</p></main></body></html>',
      );
    }
  });

  it('/buy/availability reports a refused host and an HTTP 404 as ok:true, up:false', async () => {
    const down = await buy(t.app, '/buy/availability', { url: site.deadUrl }, enterprise.key);
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ ok: true, url: site.deadUrl, status: null });
    expect(down.body.data).toMatchObject({
      up: false,
      reachable: false,
      httpStatus: null,
      responseClass: 'none',
      reason: 'connection-refused',
    });
    const missing = await buy(
      t.app,
      '/buy/availability',
      { url: site.url('/missing') },
      enterprise.key,
    );
    expect(missing.body).toMatchObject({ ok: true, status: 404 });
    expect(missing.body.data).toMatchObject({
      up: false,
      reachable: true,
      httpStatus: 404,
      responseClass: '4xx-client-error',
    });
  });

  it('/buy/availability refuses a redirect to a private or invalid target: not up, not charged', async () => {
    const targets: readonly (readonly [string, string])[] = [
      ['http://10.0.0.1/', 'blocked_ssrf'],
      ['http://169.254.169.254/latest/meta-data/', 'blocked_ssrf'],
      ['http://[::1]:9/', 'blocked_ssrf'],
      ['http://192.168.1.1/admin', 'blocked_ssrf'],
      ['ftp://files.example.com/', 'invalid_url'],
      ['file:///etc/passwd', 'invalid_url'],
      ['http://user:secret@example.com/', 'invalid_url'],
    ];
    for (const [to, error] of targets) {
      const url = site.url(`/redirect?to=${encodeURIComponent(to)}`);
      const before = await stateOf(t.app, prepaid.keyId);
      const res = await buy(t.app, '/buy/availability', { url }, prepaid.key);
      const body = expectOkFalse(res, 200);
      expect(body.error, to).toBe(error);
      expect(body).not.toHaveProperty('data');
      expect(body.message).toMatch(/^The URL a redirect led to cannot be probed/);
      expect(res.headers['storefront-charge']).toBe('none');
      expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits);
      const row = await oneRow(prepaid, before, 'availability');
      expect(row).toMatchObject({ charged: false, error, outcome: 'delivered_free' });
    }
  });

  it('/buy/feed keeps an item whose title is megabytes of references, capped and marked', async () => {
    const res = await buy(
      t.app,
      '/buy/feed',
      { url: site.url('/huge-title-feed.xml') },
      enterprise.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const data = dataOf(res.body);
    const items = data.items as { title: string; link: string }[];
    expect(data.count).toBe(2);
    expect(items[0]?.title).toBe('Before');
    expect(items[1]?.link).toBe('http://example.test/2');
    expect(items[1]?.title).toBe(`${'A'.repeat(499)}\u2026`);
    expectReceipt(res.body);
  }, 30_000);

  it('answers a page whose gzip body is cut short as protocol_error, never as an empty page', async () => {
    const url = site.url('/truncated-gzip');
    const fetched = await buy(t.app, '/buy/fetch', { url }, enterprise.key);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ ok: false, error: 'protocol_error', url, status: 200 });
    expect(fetched.body.message).toMatch(/cut short/);
    expect(fetched.body).not.toHaveProperty('text');
    // A route that charges only delivered results charges nothing for it.
    const before = await stateOf(t.app, prepaid.keyId);
    const metadata = await buy(t.app, '/buy/metadata', { url }, prepaid.key);
    expect(metadata.body).toMatchObject({ ok: false, error: 'protocol_error' });
    expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits);
    expect(await oneRow(prepaid, before, 'metadata')).toMatchObject({ charged: false });
  });

  it('/buy/headers audits the head of a page whose body never ends, without waiting for it', async () => {
    // Reading the body would end at the 5 s fetch deadline as a `timeout` failure.
    const res = await buy(t.app, '/buy/headers', { url: site.url('/stalled') }, enterprise.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, url: site.url('/stalled'), status: 200 });
    expect(res.body.data.serverBanner).toBe('stalling/1.0');
    const framing = (res.body.data.checks as Body[]).find(
      (check) => check.header === 'x-frame-options',
    );
    expect(framing).toMatchObject({ present: true, value: 'SAMEORIGIN' });
    expectReceipt(res.body as Body);
  });

  it('/buy/pdf says why it cannot read an encrypted, a scanned or a non-PDF body, free', async () => {
    const pdf = REGISTRY.find((route) => route.name === 'pdf') as AnyRoute;
    const cases: readonly [string, string, string][] = [
      ['/encrypted.pdf', 'encrypted', 'unsupported_content_type'],
      ['/scanned.pdf', 'no_text', 'unsupported_content_type'],
      ['/product', 'not_pdf', 'unsupported_content_type'],
    ];
    for (const [path, reason, error] of cases) {
      const before = await stateOf(t.app, prepaid.keyId);
      const res = await buy(t.app, '/buy/pdf', { url: site.url(path) }, prepaid.key);
      const body = expectOkFalse(res, 200);
      expect(body).toMatchObject({ url: site.url(path), status: 200, reason, error });
      expectValid(pdf, body);
      expect(await creditsOf(t.app, prepaid.keyId)).toBe(before.credits);
      expect(res.headers['storefront-charge']).toBe('none');
    }
  });

  it('/buy/pdf asks for a PDF, so a server that negotiates sends one', async () => {
    const res = await buy(t.app, '/buy/pdf', { url: site.url('/negotiated') }, enterprise.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, contentType: 'application/pdf' });
    const direct = await buy(t.app, '/buy/pdf', { url: site.url('/report.pdf') }, enterprise.key);
    expect(res.body.text).toBe(direct.body.text);
    expectReceipt(res.body as Body);
  });

  it('/buy/pdf writes markdown of the selected pages, in the order asked', async () => {
    const res = await buy(
      t.app,
      '/buy/pdf',
      { url: site.url('/report.pdf'), format: 'markdown', pages: '2,1' },
      enterprise.key,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectReceipt(res.body as Body);
    const data = res.body.data as Body;
    expect(data).toMatchObject({ format: 'markdown', pageCount: 2 });
    const pages = data.pages as Body[];
    expect(pages.map((page) => page.page)).toStrictEqual([2, 1]);
    expect(pages[0]?.text).toBe('## Results\n\nAll shots ran in 28 s.');
    expect(pages[1]?.text).toMatch(
      /^# Fixture Report\n\nEspresso extraction, measured\.\n\n## Method\n/,
    );
    expect(res.body.text).toBe(canonicalize(data));
  });

  it('/buy/pdf refuses a bad format or page selection with 400, before any fetch', async () => {
    const before = await stateOf(t.app, prepaid.keyId);
    const hits = site.hits.get('/report.pdf') ?? 0;
    const url = site.url('/report.pdf');
    for (const [query, param] of [
      [{ url, format: 'html' }, 'format'],
      [{ url, pages: '0' }, 'pages'],
      [{ url, pages: '3-1' }, 'pages'],
      [{ url, pages: 'first' }, 'pages'],
      [{ url, pages: '1-200' }, 'pages'],
    ] as const) {
      const res = await buy(t.app, '/buy/pdf', query, prepaid.key);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('invalid_params');
      expect(res.body.details.map((d: { param: string }) => d.param)).toContain(param);
    }
    expect(site.hits.get('/report.pdf') ?? 0).toBe(hits);
    expect(await stateOf(t.app, prepaid.keyId)).toStrictEqual(before);
  });

  it('/buy/robots on a host whose robots.txt is unreachable still meets the response schema', async () => {
    const robots = REGISTRY.find((route) => route.name === 'robots') as AnyRoute;
    const res = await buy(t.app, '/buy/robots', { domain: resetting.origin }, enterprise.key);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.url).toBe(resetting.origin);
    // Every crawler is blocked when robots.txt is unreachable (RFC 9309 §2.3.1.4).
    expect(res.body.data.summary).toMatchObject({
      allowed: 0,
      hasRobotsTxt: false,
      hasLlmsTxt: true,
    });
    expectReceipt(res.body as Body);
    // `status` is the robots.txt status: an integer, or absent when there is none.
    if ('status' in res.body)
      expect(res.body.status, 'robots.txt status').toEqual(expect.any(Number));
    expectValid(robots, res.body);
  });
});

describe('the spec limits over the real listener', () => {
  const schema = uniqueSchema();
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: tempDir('storefront-routes-'),
      LOG_LEVEL: 'silent',
      SAFE_FETCH_ALLOW: site.allow,
      ADMIN_TOKEN,
      ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
    };
    server = await startServer(loadConfig(env), { schema, logger: pino({ level: 'silent' }) });
    const minted = await fetch(`${server.url}/api/dev/keys?live=true`, { method: 'POST' });
    const body = (await minted.json()) as { key: string; keyId: string };
    const tier = await fetch(`${server.url}/admin/keys/${body.keyId}/tier`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'enterprise' }),
    });
    expect(tier.status).toBe(200);
    key = body.key;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await dropSchema(schema);
  });

  async function get(path: string, query: Query): Promise<{ status: number; body: Body }> {
    const res = await fetch(`${server.url}${path}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Body) : {} };
  }

  it('accepts the longest params the spec allows, and answers 400 one character beyond', async () => {
    // notarize `content` at its limit (262144) is notarized.
    const content = 'a'.repeat(262_144);
    const notarized = await get('/buy/notarize', { content });
    expect(notarized.status, 'notarize content of 262144 characters').toBe(200);
    expect(notarized.body.data).toMatchObject({
      byteLength: 262_144,
      contentHash: sha256(content),
    });
    // Every param longer than a default request line holds, one character over its limit.
    for (const route of REGISTRY) {
      const c = caseOf(route);
      const properties = (route.params.properties ?? {}) as Record<string, JsonSchema>;
      for (const [name, schema] of Object.entries(properties)) {
        const max = schema.maxLength;
        if (typeof max !== 'number' || max <= 4096) continue;
        const res = await get(route.path, { ...c.success, [name]: 'a'.repeat(max + 1) });
        expect(res.status, `${route.path} ${name} of ${max + 1} characters`).toBe(400);
        expect(res.body.error).toBe('invalid_params');
        expect((res.body.details as { param: string }[]).map((d) => d.param)).toContain(name);
      }
    }
  });
});
