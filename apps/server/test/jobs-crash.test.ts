import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verifyManifest } from '@storefront/attest';
import { type CrawlSite, startCrawlSite } from '@storefront/test-utils';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { queueSchemaOf } from '../src/jobs/queue.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  tempDir,
  uniqueSchema,
} from './helpers.js';

// Two HTTP instances and two worker processes on one PostgreSQL: a 2,000-page crawl
// survives `kill -9` of a worker mid-crawl, and every page is delivered once, charged
// once, with one receipt and one webhook event (after de-duplication by webhook-id).

const ROOT = join(import.meta.dirname, '../src');
const ADMIN_TOKEN = 'jobs-crash-admin-token-0123456789';
const SIGNER = `0x${'5'.repeat(64)}`;
const PAGES = 2000;
const TEXT_CREDITS = 3;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-jobs-crash-');
const children = new Set<ChildProcess>();
let site: CrawlSite;
let db: Database;

interface Proc {
  readonly child: ChildProcess;
  /** What it printed as `running at <url>` (HTTP instances) or `running` (workers). */
  readonly ready: string;
}

/** Events the receiver accepted: each delivery verified, retries included. */
const deliveries: { id: string; type: string; data: Record<string, unknown> }[] = [];
let secret = '';
const receiver = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => {
    raw += chunk;
  });
  req.on('end', () => {
    const event = new Webhook(secret).verify(raw, req.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    deliveries.push({ id: String(req.headers['webhook-id']), ...event });
    res.writeHead(204).end();
  });
});

async function spawnProcess(entry: string, env: Record<string, string>): Promise<Proc> {
  const url = new URL(DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', join(ROOT, entry)],
    {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.href,
        JOB_QUEUE_SCHEMA: queueSchemaOf(schema),
        ADMIN_TOKEN,
        SIGNER_PRIVATE_KEY: SIGNER,
        FACILITATOR_URL: 'http://127.0.0.1:9/',
        PRODUCT_THREADS: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)|(worker \S+ running)/.exec(output);
      if (match) resolve((match[1] ?? match[2]) as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
  return { child, ready };
}

describe.runIf(DATABASE_URL !== null)('a crawl job survives kill -9 of a worker', () => {
  let instances: Proc[] = [];
  let workers: Proc[] = [];

  beforeAll(async () => {
    site = await startCrawlSite({ pages: PAGES, delayMs: 5 });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const hookPort = (receiver.address() as AddressInfo).port;
    await createSchema(schema);
    db = await openDatabase({
      url: DATABASE_URL as string,
      dataDir: null,
      schema,
      maxConnections: 2,
    });
    const allow = { SAFE_FETCH_ALLOW: `${site.allow},127.0.0.1:${hookPort}` };
    // The HTTP instances run no workers: all the crawling is the worker processes'.
    instances = [];
    for (let i = 0; i < 2; i += 1) {
      instances.push(await spawnProcess('main.ts', { ...allow, JOB_WORKERS: 'false' }));
    }
    workers = await Promise.all(
      [0, 1].map(() => spawnProcess('worker-main.ts', { ...allow, JOB_CONCURRENCY: '8' })),
    );
    (globalThis as { hookPort?: number }).hookPort = hookPort;
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    receiver.close();
    await site?.close();
    await db?.close();
    await dropSchema(schema);
  });

  it('completes with every page delivered, charged and receipted once, and exact books', async () => {
    const [a, b] = instances.map((proc) => proc.ready) as [string, string];
    const minted = await fetchJson(`${a}/api/dev/keys?live=true`, { method: 'POST' });
    const { key, keyId } = minted.body as { key: string; keyId: string };
    const start = 10 * PAGES * TEXT_CREDITS;
    await fetchJson(`${a}/admin/keys/${keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: start }),
    });
    const hookPort = (globalThis as { hookPort?: number }).hookPort as number;
    const created = await fetchJson(`${a}/jobs/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `${site.origin}/p/0`,
        limit: 10_000,
        maxDepth: 20,
        format: 'text',
        webhook: { url: `http://127.0.0.1:${hookPort}/hook` },
      }),
    });
    expect(created.status).toBe(202);
    const { jobId, webhookSecret } = created.body as { jobId: string; webhookSecret: string };
    secret = webhookSecret;
    const read = async (at: string) =>
      (await fetchJson(`${at}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } }))
        .body as {
        status: string;
        completed: number;
        failed: number;
        total: number;
        manifest?: unknown;
        webhook?: { pending: number };
      };

    // Mid-crawl, one worker dies without a word.
    for (;;) {
      const job = await read(b);
      if (job.completed >= PAGES / 5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const victim = workers[0] as Proc;
    const victimId = /worker (\S+) running/.exec(victim.ready)?.[1];
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    // The kill interrupted tasks: some are still locked by the dead process's pool.
    const held = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${queueSchemaOf(schema)}.jobs j, instances i
        WHERE i.id = $1 AND j.locked_by = ANY (i.worker_ids)`,
      [victimId],
    );
    expect(Number(held.rows[0]?.n)).toBeGreaterThan(0);

    let job = await read(b);
    while (job.status === 'running' || job.status === 'queued' || (job.webhook?.pending ?? 1) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = await read(b);
    }
    expect(job.status).toBe('completed');
    expect([job.total, job.completed, job.failed]).toEqual([PAGES, PAGES, 0]);

    // Once each: pages, charges, receipts.
    const counts = await db.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM crawl_pages WHERE job_id = $1) AS pages,
              (SELECT count(DISTINCT url) FROM crawl_pages WHERE job_id = $1) AS urls,
              (SELECT count(DISTINCT content_hash) FROM crawl_pages WHERE job_id = $1) AS hashes,
              (SELECT count(*) FROM ledger WHERE job_id = $1 AND charged) AS charges,
              (SELECT count(DISTINCT receipt_nonce) FROM ledger WHERE job_id = $1) AS receipts,
              (SELECT coalesce(sum(units), 0) FROM ledger WHERE job_id = $1 AND charged) AS units`,
      [jobId],
    );
    expect(counts.rows[0]).toEqual({
      pages: String(PAGES),
      urls: String(PAGES),
      hashes: String(PAGES),
      charges: String(PAGES),
      receipts: String(PAGES),
      units: String(PAGES * TEXT_CREDITS),
    });
    // The books: what the key lost is what the pages were charged.
    const balance = await fetchJson(`${a}/api/dev/balance`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect((balance.body as { credits: number }).credits).toBe(start - PAGES * TEXT_CREDITS);

    // Webhooks: after de-duplication by webhook-id, one event per page, then `completed`.
    const unique = new Map<string, (typeof deliveries)[number]>();
    for (const event of deliveries) if (!unique.has(event.id)) unique.set(event.id, event);
    const events = [...unique.values()].filter((event) => event.data.jobId === jobId);
    const pageEvents = events.filter((event) => event.type === 'job.page');
    expect(pageEvents).toHaveLength(PAGES);
    expect(new Set(pageEvents.map((event) => event.data.seq)).size).toBe(PAGES);
    expect(events.at(-1)?.type).toBe('job.completed');
    expect(events.filter((event) => event.type === 'job.completed')).toHaveLength(1);

    // The manifest verifies the whole crawl.
    const pages: unknown[] = [];
    let after: string | null = '0';
    while (after !== null) {
      const answer = await fetchJson(`${b}/jobs/${jobId}/pages?after=${after}&limit=200`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = answer.body as { pages: unknown[]; next: string | null };
      pages.push(...body.pages);
      after = body.next;
    }
    const pinned = (await fetchJson(`${a}/.well-known/service-attestation`)).body as {
      address: string;
    };
    expect(verifyManifest(job.manifest, pages, pinned.address).valid).toBe(true);
  }, 300_000);
});
