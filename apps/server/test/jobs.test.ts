import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyManifest, verifyReceipt } from '@storefront/attest';
import { type CrawlSite, startCrawlSite } from '@storefront/test-utils';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  type JsonAnswer,
  tempDir,
  uniqueSchema,
} from './helpers.js';
import { type Claim, rederive } from './x402/offer-receipt-checks.js';

// Crawl jobs end to end on a real server with its job workers (on PostgreSQL, or on the
// embedded database served to graphile-worker through its socket): the key door's
// reservation, pages with their receipts, the manifest, cancellation, webhooks.

const ADMIN_TOKEN = 'jobs-test-admin-token-0123456789';
/** The catalog price of `/buy/markdown` (USDC atomic units), a job page's price in markdown. */
const MARKDOWN_PRICE = 5000;
/** The catalog price of `/buy/fetch` (text). */
const TEXT_PRICE = 3000;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-jobs-');
let site: CrawlSite;
let slow: CrawlSite;
/** A site one of whose pages is a bot challenge. */
let guarded: CrawlSite;
/** A site whose sitemap answers only when the test says so. */
let late: CrawlSite;
let releaseSitemap: () => void;
let server: RunningServer;
let base: string;
let hook: Receiver;
let polite: PoliteSite;

interface Job {
  jobId: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  charged: number;
  reservation: { source: string; reserved: number; charged: number; released: number };
  manifest?: Record<string, unknown>;
  webhook?: { delivered: number; pending: number; failed: number; lastError: string | null };
}

async function liveKey(credits: number): Promise<{ key: string; keyId: string }> {
  const minted = await fetchJson(`${base}/api/dev/keys?live=true`, { method: 'POST' });
  const { key, keyId } = minted.body as { key: string; keyId: string };
  const added = await fetchJson(`${base}/admin/keys/${keyId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits }),
  });
  expect(added.status).toBe(200);
  return { key, keyId };
}

async function balance(key: string): Promise<number> {
  const answer = await fetchJson(`${base}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return (answer.body as { credits: number }).credits;
}

function createJob(key: string | null, body: unknown): Promise<JsonAnswer> {
  return fetchJson(`${base}/jobs/crawl`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify(body),
  });
}

async function readJob(key: string, id: string): Promise<Job> {
  const answer = await fetchJson(`${base}/jobs/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(answer.status).toBe(200);
  return answer.body as unknown as Job;
}

/** Poll the job until `done` says so (the job's own status is the event waited for). */
async function until(key: string, id: string, done: (job: Job) => boolean): Promise<Job> {
  for (;;) {
    const job = await readJob(key, id);
    if (done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ended = (job: Job) => !['queued', 'running'].includes(job.status);

/**
 * Every page of a job, read `per` at a time through the cursor; `claims`, when given,
 * gets the provenance claim beside each page, in the same order.
 */
async function allPages(
  key: string,
  id: string,
  per: number,
  claims?: (Claim | null)[],
): Promise<unknown[]> {
  const pages: unknown[] = [];
  let after: string | null = '0';
  let reads = 0;
  while (after !== null) {
    const answer = await fetchJson(`${base}/jobs/${id}/pages?after=${after}&limit=${per}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(answer.status).toBe(200);
    const body = answer.body as {
      pages: unknown[];
      provenance: (Claim | null)[];
      next: string | null;
    };
    expect(body.provenance).toHaveLength(body.pages.length);
    pages.push(...body.pages);
    claims?.push(...body.provenance);
    after = body.next;
    reads += 1;
    if (reads > 1000) throw new Error('the cursor never ended');
  }
  return pages;
}

describe('crawl jobs through the key door', () => {
  beforeAll(async () => {
    site = await startCrawlSite({ pages: 31, sitemap: [30] });
    slow = await startCrawlSite({ pages: 200, delayMs: 150 });
    guarded = await startCrawlSite({ pages: 7, challenges: [2] });
    late = await startCrawlSite({
      pages: 5,
      sitemap: [4],
      holdSitemap: new Promise<void>((resolve) => {
        releaseSitemap = resolve;
      }),
    });
    hook = new Receiver();
    const hookAllow = await hook.listen();
    polite = await startPoliteSite();
    await createSchema(schema);
    server = await startServer(
      loadConfig(
        {
          NODE_ENV: 'test',
          PORT: '0',
          DATA_DIR: dataDir,
          ADMIN_TOKEN,
          LOG_LEVEL: 'silent',
          SAFE_FETCH_ALLOW: `${site.allow},${slow.allow},${guarded.allow},${late.allow},${hookAllow},${polite.allow}`,
          FACILITATOR_URL: 'http://127.0.0.1:9/',
          ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
          JOB_CONCURRENCY: '4',
        },
        dataDir,
      ),
      {
        logger: pino({ level: 'silent' }),
        ...(DATABASE_URL === null ? {} : { schema }),
        webhookRetryMs: [20, 20, 20],
      },
    );
    base = server.url;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await site?.close();
    await slow?.close();
    await guarded?.close();
    releaseSitemap?.();
    await late?.close();
    hook?.server.close();
    polite?.server.close();
    await dropSchema(schema);
  });

  it('reserves limit × page price, charges each delivered page once, and gives back the rest', async () => {
    const { key, keyId } = await liveKey(1000);
    const created = await createJob(key, { url: `${site.origin}/p/0`, limit: 40 });
    expect(created.status).toBe(202);
    const body = created.body as {
      jobId: string;
      statusUrl: string;
      pagesUrl: string;
      pagePrice: number;
    };
    expect(body.statusUrl).toBe(`${base}/jobs/${body.jobId}`);
    expect(body.pagesUrl).toBe(`${base}/jobs/${body.jobId}/pages`);
    // The catalog's price of /buy/markdown, per page: 40 pages reserve 40 × its credits.
    expect(body.pagePrice).toBe(MARKDOWN_PRICE);
    const credits = MARKDOWN_PRICE / 1000;
    expect(await balance(key)).toBe(1000 - 40 * credits);

    const job = await until(key, body.jobId, ended);
    expect(job.status).toBe('completed');
    // 31 pages exist; all are reached (30 also through the sitemap).
    expect(job.total).toBe(31);
    expect(job.completed).toBe(31);
    expect(job.failed).toBe(0);
    expect(job.reservation).toEqual({
      source: 'credits',
      reserved: 40 * credits,
      charged: 31 * credits,
      released: 9 * credits,
    });
    expect(job.charged).toBe(31 * MARKDOWN_PRICE);
    expect(await balance(key)).toBe(1000 - 31 * credits);

    // The books: one charged ledger row per page, tied to the job.
    const ledger = await fetchJson(`${base}/admin/ledger?keyId=${keyId}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const rows = (ledger.body as { entries: { route: string; charged: boolean }[] }).entries;
    expect(rows.filter((row) => row.route === 'markdown' && row.charged)).toHaveLength(31);

    // Each page is the single-page product's answer for its bytes, with its own receipt.
    const claims: (Claim | null)[] = [];
    const pages = (await allPages(key, body.jobId, 7, claims)) as Record<string, unknown>[];
    expect(pages).toHaveLength(31);
    expect(new Set(pages.map((page) => page.url)).size).toBe(31);
    const single = await fetchJson(
      `${base}/buy/markdown?url=${encodeURIComponent(`${site.origin}/p/5`)}`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    const fromJob = pages.find((page) => page.url === `${site.origin}/p/5`) as Record<
      string,
      unknown
    >;
    expect(fromJob.text).toBe((single.body as Record<string, unknown>).text);
    expect(fromJob.data).toEqual((single.body as Record<string, unknown>).data);
    for (const page of pages) {
      expect(verifyReceipt(page, server.signer.address, { route: 'markdown' }).valid).toBe(true);
    }
    // Each page carries the provenance claim its single-page call would: re-derived with
    // another RFC 8785 implementation from the page and its URL alone, and the method the
    // single-page answer's claim names.
    const singleClaim = JSON.parse(
      Buffer.from(single.headers.get('response-provenance') as string, 'base64').toString(),
    ) as Claim;
    pages.forEach((page, i) => {
      const claim = claims[i] as Claim;
      expect(claim).toMatchObject({
        fixedPointVersion: 'GVP-FixedPoint/2',
        resultCarriage: 'body',
        method: singleClaim.method,
      });
      const inputs = { url: page.url };
      expect(rederive('/buy/markdown', inputs, page, claim)).toBe(claim.responseHash);
    });
    const claimed = claims[3] as Claim;
    const page3 = pages[3] as Record<string, unknown>;
    const edited3 = { ...page3, text: `${String(page3.text).slice(0, -1)}#` };
    expect(rederive('/buy/markdown', { url: page3.url }, edited3, claimed)).not.toBe(
      claimed.responseHash,
    );

    // The manifest verifies the whole crawl as one, and refuses an edited page.
    const verified = verifyManifest(job.manifest, pages, server.signer.address);
    expect(verified.problems).toEqual([]);
    expect(verified.valid).toBe(true);
    const edited = pages.map((page, i) =>
      i === 3 ? { ...page, text: `${String(page.text)}!` } : page,
    );
    expect(verifyManifest(job.manifest, edited, server.signer.address).valid).toBe(false);
    expect(verifyManifest(job.manifest, pages.slice(1), server.signer.address).valid).toBe(false);
  }, 60_000);

  it('never delivers or charges a challenge page as a page of the crawl, and follows none of its links', async () => {
    const { key } = await liveKey(1000);
    const created = await createJob(key, { url: `${guarded.origin}/p/0`, limit: 10 });
    expect(created.status).toBe(202);
    const { jobId } = created.body as { jobId: string };
    const job = await until(key, jobId, ended);
    const credits = MARKDOWN_PRICE / 1000;
    // Pages 0, 1, 3 and 4 are content; page 2 is the challenge, so 5 and 6 are never reached.
    expect([job.status, job.total, job.completed, job.failed]).toEqual(['completed', 5, 4, 1]);
    expect(job.reservation).toMatchObject({ charged: 4 * credits, released: 6 * credits });
    expect(await balance(key)).toBe(1000 - 4 * credits);
    expect(guarded.hits.get('/p/5')).toBeUndefined();
    const pages = (await allPages(key, jobId, 10)) as Record<string, unknown>[];
    const challenge = pages.find((page) => page.url === `${guarded.origin}/p/2`);
    expect(challenge).toMatchObject({
      ok: false,
      error: 'not_content',
      page: { verdict: 'challenge' },
    });
    expect(challenge?.attestation).toBeUndefined();
    for (const page of pages.filter((p) => p.ok === true)) {
      expect(page.page).toMatchObject({ verdict: 'content' });
      expect(verifyReceipt(page, server.signer.address, { route: 'markdown' }).valid).toBe(true);
    }
  }, 60_000);

  it('answers each page in part with maxChars: its place in the whole signed, the job checked whole', async () => {
    const { key } = await liveKey(1000);
    const created = await createJob(key, {
      url: `${site.origin}/p/0`,
      limit: 3,
      format: 'text',
      maxChars: 12,
    });
    expect(created.status).toBe(202);
    const job = await until(key, (created.body as unknown as Job).jobId, ended);
    expect([job.status, job.completed]).toEqual(['completed', 3]);
    const pages = (await allPages(key, job.jobId, 10)) as Record<string, unknown>[];
    for (const page of pages) {
      const slice = page.slice as { offset: number; length: number; total: number; next: unknown };
      expect(slice).toMatchObject({ offset: 0, length: 12 });
      expect(slice.next).toBe(slice.total > 12 ? 12 : null);
      expect(Array.from(page.text as string)).toHaveLength(12);
      const verification = verifyReceipt(page, server.signer.address, { route: 'fetch' });
      expect(verification.problems).toStrictEqual([]);
      expect(verification.covered).toContain('slice');
    }
    const bad = await createJob(key, { url: `${site.origin}/p/0`, maxChars: 0 });
    expect(bad.status).toBe(400);
  }, 60_000);

  it('honours the limit, the depth and the path filters', async () => {
    const { key } = await liveKey(1000);
    const limited = await createJob(key, { url: `${site.origin}/p/0`, limit: 5, format: 'text' });
    const a = await until(key, (limited.body as unknown as Job).jobId, ended);
    expect([a.total, a.completed]).toEqual([5, 5]);

    const shallow = await createJob(key, { url: `${site.origin}/p/0`, maxDepth: 1 });
    const b = await until(key, (shallow.body as unknown as Job).jobId, ended);
    // The start, its two children, and page 30 from the sitemap (one hop).
    expect(b.total).toBe(4);

    const filtered = await createJob(key, {
      url: `${site.origin}/p/0`,
      excludePaths: ['/p/2', '/p/1*'],
    });
    const c = await until(key, (filtered.body as unknown as Job).jobId, ended);
    const pages = (await allPages(key, c.jobId, 50)) as { url: string }[];
    // /p/1 and /p/2 are excluded, so only the start and the sitemap's /p/30 remain.
    expect(pages.map((page) => new URL(page.url).pathname).sort()).toEqual(['/p/0', '/p/30']);

    const included = await createJob(key, {
      url: `${site.origin}/p/0`,
      includePaths: ['/p/[0-6]'],
    });
    const d = await until(key, (included.body as unknown as Job).jobId, ended);
    expect(d.total).toBe(7);
  }, 60_000);

  it('crawls the start page while the sitemap is read, and ends only once its URLs are in', async () => {
    const { key } = await liveKey(1000);
    const created = await createJob(key, {
      url: `${late.origin}/p/0`,
      maxDepth: 1,
      format: 'text',
    });
    const id = (created.body as unknown as Job).jobId;
    // The start page and its two children are made while the sitemap is held back, and
    // the job, which has nothing else queued, keeps running.
    const before = await until(key, id, (job) => job.completed === 3 || ended(job));
    expect(before.status).toBe('running');
    releaseSitemap();
    const job = await until(key, id, ended);
    expect([job.status, job.total, job.completed]).toEqual(['completed', 4, 4]);
    const pages = (await allPages(key, id, 50)) as { url: string }[];
    const paths = pages.map((page) => new URL(page.url).pathname);
    expect([paths[0], ...paths.slice(1, 3).sort(), paths[3]]).toEqual([
      '/p/0',
      '/p/1',
      '/p/2',
      '/p/4',
    ]);
    // One robots.txt and one sitemap read; robots.txt shared by the seed and the start page.
    expect([late.hits.get('/robots.txt'), late.hits.get('/sitemap.xml')]).toEqual([1, 1]);
  }, 60_000);

  it('shows the per-page price in /catalog, OpenAPI and the MCP description, from the catalog', async () => {
    const perPage = [
      { format: 'markdown', route: 'markdown', amount: String(MARKDOWN_PRICE), price: '$0.005' },
      { format: 'text', route: 'fetch', amount: String(TEXT_PRICE), price: '$0.003' },
    ];
    const catalog = (await fetchJson(`${base}/catalog`)).body as {
      jobs: { crawl: { pagePrices: unknown } };
    };
    expect(catalog.jobs.crawl.pagePrices).toEqual(perPage);
    const openapi = (await fetchJson(`${base}/openapi.json`)).body as {
      paths: Record<string, { post?: { 'x-payment-info'?: Record<string, unknown> } }>;
    };
    const info = openapi.paths['/jobs/crawl']?.post?.['x-payment-info'];
    expect(info).toMatchObject({ pricingMode: 'upto', perPage });
    const mcp = (await fetchJson(`${base}/.well-known/mcp.json`)).body as {
      jobs: { pagePrices: unknown; note: string };
    };
    expect(mcp.jobs.pagePrices).toEqual(perPage);
    // The same sentence is the MCP server's `instructions`.
    expect(mcp.jobs.note).toContain('markdown $0.005 a page, text $0.003 a page');
  });

  it('refuses a bad body with 400 before any charge, and shows a job to its key only', async () => {
    const { key } = await liveKey(100);
    for (const body of [
      { url: 'ftp://x/' },
      { url: `${site.origin}/p/0`, limit: 0 },
      { url: `${site.origin}/p/0`, limit: 10_001 },
      { url: `${site.origin}/p/0`, format: 'pdf' },
      { url: `${site.origin}/p/0`, colour: 'red' },
      { url: `${site.origin}/p/0`, includePaths: 'x' },
      { limit: 3 },
    ]) {
      const answer = await createJob(key, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as { error: string }).error).toBe('invalid_params');
    }
    const broken = await fetchJson(`${base}/jobs/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"url": ',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(JSON.stringify(broken.body)).not.toMatch(/ at .*\.(ts|js):\d+/);
    expect(await balance(key)).toBe(100);

    const poor = await createJob(key, { url: `${site.origin}/p/0`, limit: 21 });
    expect(poor.status).toBe(402);
    expect(await balance(key)).toBe(100);

    const created = await createJob(key, { url: `${site.origin}/p/0`, limit: 2 });
    const id = (created.body as unknown as Job).jobId;
    const other = await liveKey(10);
    for (const headers of [{ authorization: `Bearer ${other.key}` }, {}] as Record<
      string,
      string
    >[]) {
      const answer = await fetchJson(`${base}/jobs/${id}`, { headers });
      expect(answer.status).toBe(404);
      const pages = await fetchJson(`${base}/jobs/${id}/pages`, { headers });
      expect(pages.status).toBe(404);
      const cancel = await fetchJson(`${base}/jobs/${id}`, { method: 'DELETE', headers });
      expect(cancel.status).toBe(404);
    }
    await until(key, id, ended);
  }, 60_000);

  it('cancels: nothing more is charged and the rest is given back', async () => {
    const { key } = await liveKey(2000);
    const created = await createJob(key, { url: `${slow.origin}/p/0`, limit: 150, format: 'text' });
    const id = (created.body as unknown as Job).jobId;
    await until(key, id, (job) => job.completed >= 3);
    const cancelled = await fetchJson(`${base}/jobs/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(cancelled.status).toBe(200);
    const job = cancelled.body as unknown as Job;
    expect(job.status).toBe('cancelled');
    // Tasks still running when it was cancelled commit nothing afterwards.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = await readJob(key, id);
    expect(later.completed).toBe(job.completed);
    const credits = TEXT_PRICE / 1000;
    expect(later.reservation.charged).toBe(job.completed * credits);
    expect(later.reservation.released).toBe((150 - job.completed) * credits);
    expect(await balance(key)).toBe(2000 - job.completed * credits);
    const pages = await allPages(key, id, 200);
    expect(pages).toHaveLength(job.completed);
    expect(verifyManifest(later.manifest, pages, server.signer.address).valid).toBe(true);
  }, 60_000);

  it('obeys robots.txt and spaces its fetches by the crawl-delay', async () => {
    const { key } = await liveKey(1000);
    const created = await createJob(key, { url: `${polite.origin}/p/0`, format: 'text' });
    const job = await until(key, (created.body as unknown as Job).jobId, ended);
    const pages = (await allPages(key, job.jobId, 50)) as { url: string }[];
    // /p/2 is disallowed: never fetched, never a page, and its links never seen.
    expect(pages.map((page) => new URL(page.url).pathname).sort()).toEqual(['/p/0', '/p/1']);
    expect(polite.times.has('/p/2')).toBe(false);
    expect(job.total).toBe(2);
    // Crawl-delay: 1 (s) between the page fetches, whatever the concurrency.
    const at = ['/p/0', '/p/1'].map((path) => polite.times.get(path) as number);
    expect(Math.abs((at[1] as number) - (at[0] as number))).toBeGreaterThanOrEqual(950);
  }, 60_000);

  it('delivers Standard Webhooks events in order, page events before completed, retrying failures', async () => {
    const { key } = await liveKey(1000);
    hook.failuresLeft = 2;
    const created = await createJob(key, {
      url: `${site.origin}/p/0`,
      limit: 6,
      format: 'text',
      webhook: { url: `${hook.url}/hook` },
    });
    expect(created.status).toBe(202);
    const { jobId, webhookSecret } = created.body as { jobId: string; webhookSecret: string };
    expect(webhookSecret).toMatch(/^whsec_/);
    hook.secret = webhookSecret;
    const job = await until(key, jobId, (j) => ended(j) && j.webhook?.pending === 0);
    expect(job.webhook).toMatchObject({ delivered: 7, pending: 0, failed: 0 });
    const mine = hook.received.filter((event) => event.data.jobId === jobId);
    // Every event verified against the job's secret; retries carry the same webhook-id.
    expect(mine.map((event) => event.type)).toEqual([
      ...Array(6).fill('job.page'),
      'job.completed',
    ]);
    expect(new Set(mine.map((event) => event.id)).size).toBe(7);
    expect(mine.slice(0, 6).map((event) => event.data.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(hook.attempts.get(mine[0]?.id as string)).toBe(3);
  }, 60_000);

  it('sends webhooks through the SSRF guard, and shows failures on the job', async () => {
    const { key } = await liveKey(1000);
    const created = await createJob(key, {
      url: `${site.origin}/p/0`,
      limit: 2,
      format: 'text',
      webhook: { url: 'http://127.0.0.1:9/hook', events: ['completed'] },
    });
    const { jobId } = created.body as { jobId: string };
    const job = await until(key, jobId, (j) => ended(j) && (j.webhook?.failed ?? 0) > 0);
    expect(job.webhook).toMatchObject({ delivered: 0, pending: 0, failed: 1 });
    expect(job.webhook?.lastError).toMatch(/^blocked_ssrf/);
  }, 60_000);
});

/** A webhook receiver: verifies each delivery with the job's secret, failing the first few. */
class Receiver {
  readonly server = http.createServer((req, res) => this.#handle(req, res));
  readonly received: { id: string; type: string; data: Record<string, unknown> }[] = [];
  readonly attempts = new Map<string, number>();
  failuresLeft = 0;
  secret = '';
  url = '';

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return `127.0.0.1:${port}`;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      this.attempts.set(id, (this.attempts.get(id) ?? 0) + 1);
      if (this.failuresLeft > 0) {
        this.failuresLeft -= 1;
        res.writeHead(503).end();
        return;
      }
      const event = new Webhook(this.secret).verify(raw, req.headers as Record<string, string>) as {
        type: string;
        data: Record<string, unknown>;
      };
      this.received.push({ id, ...event });
      res.writeHead(204).end();
    });
  }
}

/** A site whose robots.txt disallows /p/2 and asks for a second between fetches; it notes when each path was fetched. */
interface PoliteSite {
  readonly server: http.Server;
  readonly origin: string;
  readonly allow: string;
  readonly times: Map<string, number>;
}

async function startPoliteSite(): Promise<PoliteSite> {
  const times = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /p/2\nCrawl-delay: 1\n');
      return;
    }
    times.set(path, performance.now());
    const match = /^\/p\/(\d)$/.exec(path);
    if (match === null) {
      res.writeHead(404).end();
      return;
    }
    const links = Number(match[1]) === 0 ? '<a href="/p/1">one</a> <a href="/p/2">two</a>' : '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>Polite ${match[1]}</title><main><p>Page ${match[1]} of a polite site.</p>${links}</main>`,
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, allow: `127.0.0.1:${port}`, times };
}
