import { setTimeout as sleep } from 'node:timers/promises';
import type { Signer } from '@storefront/attest';
import { canonicalize, type FetchedDocument, MERKLE_TREE, merkleRoot } from '@storefront/core';
import { readSitemap, siteUrl } from '@storefront/crawl';
import { isAllowed, type ParsedRobots, parseRobots } from '@storefront/robots';
import { DEFAULT_USER_AGENT, type Fetcher, type SafeFetchResult } from '@storefront/safe-fetch';
import type { Logger } from 'pino';
import type { Database, Queryable } from '../db/database.js';
import { logEntryOf } from '../log/entry.js';
import type { WorkOutcome } from '../pipeline/outcome.js';
import { claimOf, questionOfTarget, type ResponseProvenance } from '../pipeline/provenance.js';
import { perform } from '../pipeline/work.js';
import type { AnyRoute } from '../registry/types.js';
import { type Compute, pageLinksTask } from '../work/compute.js';
import { withinDeadline } from '../work/deadline.js';
import { callDeadline } from '../work/limits.js';
import { type CrawlJobParams, type JobEvent, urlFilter } from './params.js';
import { type JobQueue, TASKS } from './queue.js';
import {
  JOB_COLUMNS,
  type JobRow,
  jobOf,
  lockJob,
  pageHashes,
  readJob,
  releaseReservation,
} from './store.js';

/** Sitemaps read to seed a job: the ones robots.txt names (or `/sitemap.xml`), and their children. */
const MAX_SITEMAPS = 20;
/** The longest crawl-delay a job honours (s); a longer one is taken as this. */
const MAX_CRAWL_DELAY_S = 60;

/** What the job tasks need. */
export interface JobServices {
  readonly db: Database;
  readonly queue: JobQueue;
  readonly fetcher: Fetcher;
  readonly compute: Compute;
  readonly signer: Signer;
  readonly clock: () => Date;
  readonly publicBaseUrl: string;
  readonly registry: readonly AnyRoute[];
  readonly logger: Logger;
  /** Each page's budget, as a call's (fetch and product). */
  readonly pageBudgetMs: number;
  /** Fetches in flight to one origin from this process at most. */
  readonly hosts: HostLimiter;
  /** robots.txt and crawl-delay per job and origin already read in this process. */
  readonly hostRules: HostRulesCache;
}

/**
 * The page product of a job: `/buy/markdown` for markdown, `/buy/fetch` for text, with
 * the job's `maxChars` as the route's own.
 */
export function pageRouteOf(
  registry: readonly AnyRoute[],
  format: CrawlJobParams['format'],
  maxChars?: number,
): { readonly route: AnyRoute; readonly params: unknown; readonly price: number } {
  const name = format === 'markdown' ? 'markdown' : 'fetch';
  const route = registry.find((r) => r.name === name);
  if (route === undefined) throw new Error(`No /buy/${name} route for crawl jobs`);
  const checked = route.check({
    url: 'https://example.com/',
    ...(maxChars === undefined ? {} : { maxChars: String(maxChars) }),
  });
  if (!checked.ok) throw new Error(`/buy/${name} refused a plain URL`);
  return { route, params: checked.params, price: route.priceFor(checked.params).amount };
}

/**
 * The single-page request a job's page answers as (`/buy/markdown?url=<page>`, with the
 * job's `maxChars`): its product, receipt and provenance claim are that call's.
 */
export function pageTarget(route: AnyRoute, url: string, maxChars?: number): string {
  const query = new URLSearchParams({ url });
  if (maxChars !== undefined) query.set('maxChars', String(maxChars));
  return `${route.path}?${query}`;
}

/** What robots.txt of an origin says for our crawler. */
type RobotsRules =
  | { readonly mode: 'allow-all' }
  | { readonly mode: 'disallow-all' }
  | { readonly mode: 'rules'; readonly robots: ParsedRobots };

/** A per-origin cap on fetches in flight in this process. */
export class HostLimiter {
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();
  constructor(readonly perHost: number) {}

  async run<T>(origin: string, task: () => Promise<T>): Promise<T> {
    const active = this.#active.get(origin) ?? 0;
    if (active >= this.perHost) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(origin) ?? [];
        queue.push(resolve);
        this.#waiting.set(origin, queue);
      });
    } else {
      this.#active.set(origin, active + 1);
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.get(origin)?.shift();
      if (next !== undefined) next();
      else {
        const left = (this.#active.get(origin) ?? 1) - 1;
        if (left === 0) this.#active.delete(origin);
        else this.#active.set(origin, left);
      }
    }
  }
}

/**
 * A new job's first task, in two steps. First the start URL's task is queued and the
 * job runs, so its first page is fetched while the sitemaps are read; `seeding` keeps
 * the job from ending meanwhile. Then robots.txt of the start origin (rules and
 * crawl-delay, kept for every worker) and its sitemaps are read, and the sitemap URLs
 * the filters, robots.txt and the limit allow are admitted (one hop deep) in the same
 * transaction that clears `seeding`. A task run again after a crash between the steps
 * finds the job running and seeding, and does the second step.
 */
export async function seedJob(services: JobServices, jobId: string): Promise<void> {
  const job = await readJob(services.db, jobId);
  if (job === null) return;
  if (job.status === 'queued') {
    const wantsSitemap = job.params.limit > 1 && job.params.maxDepth > 0;
    const started = await services.db.transaction(async (tx) => {
      const locked = await lockJob(tx, jobId);
      if (locked === null || locked.status !== 'queued') return false;
      await services.queue.addPages(tx, jobId, [locked.params.url], 0);
      await tx.query(
        `UPDATE crawl_jobs SET status = 'running', seeding = $2, updated_at = now() WHERE id = $1`,
        [jobId, wantsSitemap],
      );
      return wantsSitemap;
    });
    if (!started) return;
  } else if (job.status !== 'running' || !job.seeding) {
    return;
  }
  const origin = new URL(job.params.url).origin;
  const { rules } = await hostRules(services, job.id, origin);
  const allowed = urlFilter(job.params);
  const seeds = (await sitemapUrls(services.fetcher, origin, rules)).filter(
    (url) => url !== job.params.url && allowed(url) && robotsAllow(rules, url),
  );
  await endSeeding(services, jobId, seeds);
}

/**
 * Admit the sitemap URLs `seeds` to a seeding job and clear `seeding`; the job ends
 * here when its pages are all made already.
 */
async function endSeeding(
  services: JobServices,
  jobId: string,
  seeds: readonly string[],
): Promise<void> {
  await services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, jobId);
    if (locked === null || locked.status !== 'running' || !locked.seeding) return;
    const added = await admit(services, tx, locked, seeds, 1);
    await tx.query(`UPDATE crawl_jobs SET seeding = false, updated_at = now() WHERE id = $1`, [
      jobId,
    ]);
    const after = { ...locked, seeding: false, total: locked.total + added };
    if (after.completed + after.failed === after.total) await finishJob(services, tx, after, null);
  });
}

/** A page task's payload. */
export interface PageTask {
  readonly job: string;
  readonly url: string;
  readonly depth: number;
}

/**
 * One admitted URL of a running job: check robots.txt, wait for the origin's
 * crawl-delay slot and a fetch slot, fetch, make the page exactly as its single-page
 * route would (same product, same receipt), list its links, and commit it once: the
 * page, its charge (a ledger row on the key door), its webhook event, and the URLs it
 * adds, in one transaction that only a `queued` URL of a `running` job can pass. A
 * task run again after a crash finds its URL done and stops; a cancelled job's task
 * charges nothing.
 */
export async function crawlPage(services: JobServices, task: PageTask): Promise<void> {
  const job = await runningJobOf(services.db, task);
  if (job === null) return;
  const origin = new URL(task.url).origin;
  const host = await hostRules(services, job.id, origin);
  if (!robotsAllow(host.rules, task.url)) {
    await commitSkip(services, task);
    return;
  }
  if (host.delayMs > 0) await waitForSlot(services.db, job.id, origin);

  const { route, params } = pageRouteOf(services.registry, job.params.format, job.params.maxChars);
  // The page's budget starts once it has its fetch slot: waiting for the origin's
  // other fetches is not the page's time.
  const { fetched, deadline, within } = await services.hosts.run(origin, async () => {
    const deadline = callDeadline(services.pageBudgetMs);
    const within = withinDeadline(services, deadline, new AbortController().signal);
    return { fetched: await within.fetcher.fetch(task.url), deadline, within };
  });
  const pageParams = { ...(params as object), url: task.url };
  const outcome = await perform(
    route,
    pageParams,
    {
      fetcher: prefetched(fetched),
      compute: within.compute,
      deadline,
      publicBaseUrl: services.publicBaseUrl,
      clock: services.clock,
    },
    { door: job.door, metered: job.door === 'key' },
  );
  const links =
    fetched.ok && task.depth < job.params.maxDepth && isPageOk(outcome)
      ? await linksOf(services.compute, fetched.doc, job.params)
      : [];
  const made = resultOf(services.signer, route.name, outcome, task.url);
  // The page's claim is the one its single-page call would carry (`GET /buy/<format>?url=`).
  const provenance = made.ok
    ? claimOf(
        questionOfTarget(pageTarget(route, task.url, job.params.maxChars)),
        route,
        made.result,
        services.clock(),
      )
    : null;
  await commitPage(services, task, job, route.name, { ...made, provenance }, links);
}

/**
 * A page task out of tries (the database or a bug failed it every time): its URL is
 * committed as a failed page, free, so that the job still ends.
 */
export async function failPage(
  services: JobServices,
  task: PageTask,
  error: unknown,
): Promise<void> {
  services.logger.error({ err: error, job: task.job, url: task.url }, 'crawl page failed');
  const job = await readJob(services.db, task.job);
  if (job === null) return;
  const message = 'The page could not be made after several tries';
  await commitPage(
    services,
    task,
    job,
    job.route,
    {
      ok: false,
      result: { ok: false, url: task.url, error: 'internal_error', message },
      contentHash: null,
      nonce: null,
      status: null,
      error: 'internal_error',
      provenance: null,
    },
    [],
  );
}

/**
 * A seed task out of tries. Before the start page was queued, the job fails and its
 * reservation is given back; after, the crawl goes on without the sitemaps' URLs.
 */
export async function failSeed(
  services: JobServices,
  jobId: string,
  error: unknown,
): Promise<void> {
  services.logger.error({ err: error, job: jobId }, 'crawl seed failed');
  const job = await readJob(services.db, jobId);
  if (job?.status === 'running') {
    await endSeeding(services, jobId, []);
    return;
  }
  await services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, jobId);
    if (locked === null || locked.status !== 'queued') return;
    await tx.query(`UPDATE crawl_jobs SET error = $2 WHERE id = $1`, [
      jobId,
      'The crawl could not start after several tries',
    ]);
    await finishJob(services, tx, { ...locked, failed: 0, completed: 0 }, 'failed');
  });
}

/** What a page commits: its stored answer, what its receipt says, and its provenance claim. */
type MadePage = ReturnType<typeof resultOf> & { readonly provenance: ResponseProvenance | null };

/** Thrown inside a page's transaction to roll it back: the job is no longer running. */
class JobNotRunning extends Error {}

/**
 * Commit one page of a running job, once: only a `queued` URL of a `running` job
 * passes (a task run again after a crash, or a cancelled job, commits nothing). In one
 * transaction: first what needs no other page's turn (the URL's claim, a lock on its
 * frontier row alone, and the ledger row of a key-door charge, whose columns never
 * change on a job); then, with the job's row locked by the update of its counts and
 * charge, the page (next `seq`), the `page` event, the links it admits, and the job's
 * end when it was the last page. Every page of a job, from every worker process, waits
 * its turn for that lock, so it is held for as few statements as can be
 * (docs/decisions.md, "Crawl jobs: the page commit's lock").
 */
async function commitPage(
  services: JobServices,
  task: PageTask,
  job: JobRow,
  routeName: string,
  page: MadePage,
  links: readonly string[],
): Promise<void> {
  const charge = page.ok ? (job.door === 'key' ? job.unitCost : job.pagePrice) : 0;
  const wake = await services.db
    .transaction(async (tx) => {
      if (!(await claimUrl(tx, task, 'done'))) return false;
      if (page.ok && job.door === 'key') {
        await tx.query(
          `INSERT INTO ledger (key_id, route, price, units, source, charged, outcome, upstream_status,
                               receipt_nonce, finished_at, job_id, answered)
           VALUES ($1, $2, $3, $4, $5, true, 'delivered', $6, $7, now(), $8, true)`,
          [
            job.keyId,
            routeName,
            job.pagePrice,
            job.unitCost,
            job.source,
            page.status,
            page.nonce,
            job.id,
          ],
        );
      }
      const after = await countPage(tx, job.id, page.ok ? 1 : 0, page.ok ? 0 : 1, charge);
      if (after === null) throw new JobNotRunning();
      const seq = after.completed + after.failed;
      const event = wantsEvent(after, 'page')
        ? {
            jobId: after.id,
            seq,
            url: task.url,
            ok: page.ok,
            ...(page.ok ? { contentHash: page.contentHash } : { error: page.error }),
          }
        : null;
      // The page, its receipt's log entry and its event in one statement: the job's row is
      // locked meanwhile.
      await tx.query(
        `WITH page AS (
           INSERT INTO crawl_pages (job_id, seq, url, ok, charged, content_hash, result, provenance)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $10)
         ), logged AS (
           INSERT INTO tlog_pending (entry) SELECT $9::text WHERE $9::text IS NOT NULL)
         INSERT INTO job_events (id, job_id, type, payload)
         SELECT ${NEW_EVENT_ID}, $1, 'job.page', $8::jsonb WHERE $8::jsonb IS NOT NULL`,
        [
          after.id,
          seq,
          task.url,
          page.ok,
          charge,
          page.contentHash,
          JSON.stringify(page.result),
          event === null ? null : JSON.stringify(event),
          logEntryOf(page.result),
          page.provenance === null ? null : JSON.stringify(page.provenance),
        ],
      );
      const recorded = event !== null;
      const added = await admit(services, tx, after, links, task.depth + 1);
      if (!after.seeding && after.completed + after.failed === after.total + added) {
        await finishJob(services, tx, { ...after, total: after.total + added }, null);
        return false;
      }
      return recorded;
    })
    .catch((error: unknown) => {
      if (!(error instanceof JobNotRunning)) throw error;
      return false;
    });
  // After the commit, so that the delivery task's key is not held while the job's row
  // is: a crash here leaves the event to the next wake-up (`wakeWebhooks`).
  if (wake) await wakeWebhooks(services, services.db, job.id);
}

/**
 * Add one page's counts and charge to a running job, locking its row for the rest of
 * `tx`; the job as it is after, or null when it is not running.
 */
async function countPage(
  tx: Queryable,
  jobId: string,
  completed: number,
  failed: number,
  charged: number,
): Promise<JobRow | null> {
  const { rows } = await tx.query(
    `UPDATE crawl_jobs SET completed = completed + $2, failed = failed + $3,
            charged = charged + $4, updated_at = now()
      WHERE id = $1 AND status = 'running'
     RETURNING ${JOB_COLUMNS}`,
    [jobId, completed, failed, charged],
  );
  return rows[0] === undefined ? null : jobOf(rows[0]);
}

/** Move the URL of `task` from `queued` to `state`; false when it was not queued (done before). */
async function claimUrl(
  tx: Queryable,
  task: PageTask,
  state: 'done' | 'skipped',
): Promise<boolean> {
  const claimed = await tx.query(
    `UPDATE crawl_frontier SET state = $3 WHERE job_id = $1 AND url = $2 AND state = 'queued'
     RETURNING url`,
    [task.job, task.url, state],
  );
  return claimed.rows.length > 0;
}

/**
 * The job of `task` when it is running and the task's URL still waits to be made (not
 * done by an earlier run), else null: one statement, as every page task starts with it.
 */
async function runningJobOf(db: Queryable, task: PageTask): Promise<JobRow | null> {
  const { rows } = await db.query(
    `SELECT ${JOB_COLUMNS},
            (SELECT f.state FROM crawl_frontier f WHERE f.job_id = $1 AND f.url = $2) AS url_state
       FROM crawl_jobs WHERE id = $1`,
    [task.job, task.url],
  );
  const row = rows[0];
  if (row === undefined || row.url_state !== 'queued') return null;
  const job = jobOf(row);
  return job.status === 'running' ? job : null;
}

/**
 * A URL robots.txt disallows: it leaves the crawl without a page or a charge, and
 * frees its place under the limit.
 */
async function commitSkip(services: JobServices, task: PageTask): Promise<void> {
  await services.db
    .transaction(async (tx) => {
      // The URL's claim first, then the job's lock: the order every page's commit takes.
      if (!(await claimUrl(tx, task, 'skipped'))) return;
      const locked = await lockJob(tx, task.job);
      if (locked === null || locked.status !== 'running') throw new JobNotRunning();
      await tx.query(`UPDATE crawl_jobs SET total = total - 1, updated_at = now() WHERE id = $1`, [
        task.job,
      ]);
      const after = { ...locked, total: locked.total - 1 };
      if (!after.seeding && after.completed + after.failed === after.total)
        await finishJob(services, tx, after, null);
    })
    .catch((error: unknown) => {
      if (!(error instanceof JobNotRunning)) throw error;
    });
}

/**
 * Admit `urls` (in order) to the job's crawl at `depth`, within its limit: those the
 * job has not seen, that its filters allow; their tasks are queued and the job's
 * `total` counts them, in one statement. The job's row is locked by the caller, so
 * two pages adding links at once never pass the limit. Returns how many were added.
 */
async function admit(
  services: JobServices,
  tx: Queryable,
  job: JobRow,
  urls: readonly string[],
  depth: number,
): Promise<number> {
  const room = job.limit - job.total;
  if (room <= 0 || urls.length === 0 || depth > job.params.maxDepth) return 0;
  const allowed = urlFilter(job.params);
  const candidates = [...new Set(urls)].filter(allowed);
  if (candidates.length === 0) return 0;
  const { rows } = await tx.query<{ added: number }>(
    `WITH added AS (
       INSERT INTO crawl_frontier (job_id, url, depth)
       SELECT $1, t.u, $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(u, i)
        WHERE NOT EXISTS (SELECT 1 FROM crawl_frontier f WHERE f.job_id = $1 AND f.url = t.u)
        ORDER BY t.i LIMIT $4
       ON CONFLICT DO NOTHING RETURNING url),
     queued AS (${services.queue.addPagesSql('added', '$1', '$3')} AS n
                 WHERE EXISTS (SELECT 1 FROM added)),
     counted AS (UPDATE crawl_jobs SET total = total + (SELECT count(*) FROM added)
                  WHERE id = $1 AND EXISTS (SELECT 1 FROM added))
     SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM queued) AS queued`,
    [job.id, candidates, depth, room],
  );
  return rows[0]?.added ?? 0;
}

/**
 * End a job (its row locked by the caller): `completed` when any page was delivered
 * or none failed, else `failed`; `cancelled` when `cancelled` is given. Signs the
 * manifest over what was delivered, gives back what the reservation holds beyond the
 * charges, queues the x402 settlement of what was delivered, and writes the last
 * event, after every page event.
 */
export async function finishJob(
  services: JobServices,
  tx: Queryable,
  job: JobRow,
  ending: 'cancelled' | 'failed' | null,
): Promise<JobRow['status']> {
  const status = ending ?? (job.completed > 0 || job.failed === 0 ? 'completed' : 'failed');
  const manifest = await signManifest(services, tx, job);
  await tx.query(
    `WITH logged AS (INSERT INTO tlog_pending (entry) VALUES ($4))
     UPDATE crawl_jobs SET status = $2, manifest = $3, seeding = false, finished_at = now(),
            updated_at = now()
      WHERE id = $1`,
    [job.id, status, JSON.stringify(manifest), logEntryOf(manifest)],
  );
  await releaseReservation(tx, job);
  if (job.door === 'x402' && job.payment?.scheme === 'upto') {
    await services.queue.add(tx, TASKS.settle, { job: job.id }, { key: `settle:${job.id}` });
  }
  const recorded = await recordEvent(tx, job, status === 'completed' ? 'completed' : status, {
    jobId: job.id,
    status,
    completed: job.completed,
    failed: job.failed,
    charged: job.charged,
    merkleRoot: (manifest.data as { merkleRoot: string }).merkleRoot,
  });
  if (recorded) await wakeWebhooks(services, tx, job.id);
  return status;
}

/**
 * The job's manifest: a signed result whose `text` is the RFC 8785 JSON of its `data`,
 * which names the RFC 6962 Merkle root of the delivered pages' content hashes in page
 * order, so the whole crawl verifies as one (`verifyManifest` in @storefront/attest).
 */
async function signManifest(
  services: JobServices,
  tx: Queryable,
  job: JobRow,
): Promise<Record<string, unknown>> {
  const hashes = await pageHashes(tx, job.id);
  const data = {
    jobId: job.id,
    url: job.params.url,
    route: job.route,
    format: job.params.format,
    pages: hashes.length,
    tree: MERKLE_TREE,
    merkleRoot: merkleRoot(hashes),
  };
  const text = canonicalize(data);
  const fetchedAt = services.clock().toISOString();
  const attestation = services.signer.sign(text, {
    route: 'crawl-job',
    url: job.params.url,
    status: null,
    fetchedAt,
  });
  return { ok: true, url: job.params.url, fetchedAt, text, data, attestation };
}

/** Whether `job`'s webhook asked for events of `type`. */
function wantsEvent(job: JobRow, type: JobEvent): boolean {
  return job.webhook?.events.includes(type) === true;
}

/** SQL for a new event's Standard Webhooks `webhook-id`. */
const NEW_EVENT_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * Write a webhook event of `job` when its webhook asked for it; true when one was
 * written. Events take the order of the transactions that write them, each under the
 * job's row lock; `wakeWebhooks` queues their delivery.
 */
async function recordEvent(
  tx: Queryable,
  job: JobRow,
  type: JobEvent,
  data: Record<string, unknown>,
): Promise<boolean> {
  if (!wantsEvent(job, type)) return false;
  await tx.query(
    `INSERT INTO job_events (id, job_id, type, payload) VALUES (${NEW_EVENT_ID}, $1, $2, $3)`,
    [job.id, `job.${type}`, JSON.stringify(data)],
  );
  return true;
}

/**
 * Queue the delivery of job `jobId`'s pending events: one task per job (its key), run
 * after any delivery retry it waits behind (`keepRunAt`), one at a time (its queue).
 * It delivers every pending event, so a wake-up lost to a crash after a page's commit
 * is made good by the next page's, and the job's last event is always queued in the
 * transaction that ends the job.
 */
async function wakeWebhooks(services: JobServices, db: Queryable, jobId: string): Promise<void> {
  await services.queue.add(
    db,
    TASKS.webhooks,
    { job: jobId },
    { key: `webhooks:${jobId}`, queue: `webhooks:${jobId}`, keepRunAt: true },
  );
}

/** What a page's outcome stores: the single-page answer with its receipt, or the failure. */
function resultOf(
  signer: Signer,
  route: string,
  outcome: WorkOutcome,
  url: string,
): {
  readonly ok: boolean;
  readonly result: Record<string, unknown>;
  readonly contentHash: string | null;
  readonly nonce: string | null;
  readonly status: number | null;
  readonly error: string | null;
} {
  if (outcome.kind === 'delivered' && outcome.ok && outcome.sign !== null) {
    const { text, ...envelope } = outcome.sign;
    const { status } = envelope;
    const attestation = signer.sign(text, { route, ...envelope });
    return {
      ok: true,
      result: { ...outcome.body, attestation },
      contentHash: attestation.contentHash,
      nonce: attestation.nonce,
      status,
      error: null,
    };
  }
  const body = outcome.body ?? { ok: false, url, error: outcome.error };
  return {
    ok: false,
    result: body,
    contentHash: null,
    nonce: null,
    status: outcome.upstreamStatus,
    error: outcome.error,
  };
}

function isPageOk(outcome: WorkOutcome): boolean {
  return outcome.kind === 'delivered' && outcome.ok;
}

/** A fetcher that answers with `result`, already fetched: the page's route reads it as its own fetch. */
function prefetched(result: SafeFetchResult): Fetcher {
  return { fetch: async () => result, close: async () => {} };
}

/** The page's links that may join the crawl, normalised as the crawl compares them. */
async function linksOf(
  compute: Compute,
  doc: FetchedDocument,
  params: CrawlJobParams,
): Promise<string[]> {
  let links: string[];
  try {
    links = await compute(pageLinksTask, doc);
  } catch {
    return [];
  }
  const allowed = urlFilter(params);
  const out: string[] = [];
  for (const link of links) {
    const url = siteUrl(link);
    if (url !== null && allowed(url)) out.push(url);
  }
  return out;
}

/** What a job keeps of an origin: its robots.txt rules and the crawl-delay they set (ms). */
interface HostRules {
  readonly rules: RobotsRules;
  readonly delayMs: number;
}

/**
 * The robots.txt rules of `origin` for job `jobId`: read once per job and origin, by
 * whichever worker needs them first, and kept with the crawl-delay they set. The first
 * worker's row wins (a second reads it back), so every worker of the job follows one.
 */
function hostRules(services: JobServices, jobId: string, origin: string): Promise<HostRules> {
  return services.hostRules.load(jobId, origin, () => readHostRules(services, jobId, origin));
}

async function readHostRules(
  services: JobServices,
  jobId: string,
  origin: string,
): Promise<HostRules> {
  const stored = await storedHostRules(services.db, jobId, origin);
  if (stored !== null) return stored;
  const result = await services.fetcher.fetch(`${origin}/robots.txt`);
  const rules = robotsRulesOf(result);
  const delay = rules.mode === 'rules' ? crawlDelayOf(rules.robots) : 0;
  const inserted = await services.db.query(
    `INSERT INTO crawl_hosts (job_id, origin, robots, delay_ms) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING origin`,
    [jobId, origin, JSON.stringify(rules), Math.round(delay * 1000)],
  );
  return inserted.rows.length > 0
    ? { rules, delayMs: Math.round(delay * 1000) }
    : ((await storedHostRules(services.db, jobId, origin)) as HostRules);
}

/** Origins' rules kept per process at most (the oldest go first). */
const HOST_RULES_KEPT = 1024;

/**
 * The robots.txt rules and crawl-delay of each (job, origin) this process has read: they
 * never change once stored, so a page of a job reads them from the database once per
 * process rather than once per page (a parsed robots.txt can be large), and tasks that
 * need them at once (a job's seed and its start page) share one read.
 */
export class HostRulesCache {
  readonly #kept = new Map<string, HostRules>();
  readonly #reading = new Map<string, Promise<HostRules>>();

  get(jobId: string, origin: string): HostRules | undefined {
    return this.#kept.get(`${jobId} ${origin}`);
  }

  /** The kept rules, or those `read` gives (one read at a time per job and origin). */
  load(jobId: string, origin: string, read: () => Promise<HostRules>): Promise<HostRules> {
    const key = `${jobId} ${origin}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined) return Promise.resolve(kept);
    let reading = this.#reading.get(key);
    if (reading === undefined) {
      reading = read()
        .then((rules) => this.put(jobId, origin, rules))
        .finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    return reading;
  }

  put(jobId: string, origin: string, rules: HostRules): HostRules {
    if (this.#kept.size >= HOST_RULES_KEPT) {
      const oldest = this.#kept.keys().next().value;
      if (oldest !== undefined) this.#kept.delete(oldest);
    }
    this.#kept.set(`${jobId} ${origin}`, rules);
    return rules;
  }
}

async function storedHostRules(
  db: Queryable,
  jobId: string,
  origin: string,
): Promise<HostRules | null> {
  const { rows } = await db.query<{ robots: RobotsRules; delay_ms: number }>(
    `SELECT robots, delay_ms FROM crawl_hosts WHERE job_id = $1 AND origin = $2`,
    [jobId, origin],
  );
  const row = rows[0];
  return row === undefined ? null : { rules: row.robots, delayMs: Number(row.delay_ms) };
}

/**
 * What robots.txt's answer means (RFC 9309 §2.3.1): 2xx, its rules; 4xx (and a final
 * 3xx), allow all; 5xx or no answer, disallow all.
 */
function robotsRulesOf(result: SafeFetchResult): RobotsRules {
  if (!result.ok) return { mode: 'disallow-all' };
  const { status } = result.doc;
  if (status >= 200 && status <= 299)
    return { mode: 'rules', robots: parseRobots(result.doc.bytes) };
  if (status >= 500) return { mode: 'disallow-all' };
  return { mode: 'allow-all' };
}

function robotsAllow(rules: RobotsRules, url: string): boolean {
  if (rules.mode === 'allow-all') return true;
  if (rules.mode === 'disallow-all') return false;
  const parsed = new URL(url);
  return isAllowed(rules.robots, DEFAULT_USER_AGENT, `${parsed.pathname}${parsed.search}`);
}

/**
 * The crawl-delay (s) robots.txt sets for our crawler: its own group's, else the `*`
 * group's; 0 when none, at most {@link MAX_CRAWL_DELAY_S}.
 */
export function crawlDelayOf(robots: ParsedRobots, userAgent = DEFAULT_USER_AGENT): number {
  const token = (userAgent.split('/')[0] ?? '').toLowerCase();
  const own = robots.groups.find((g) => g.agents.some((a) => a.toLowerCase() === token));
  const any = robots.groups.find((g) => g.agents.includes('*'));
  const delay = (own ?? any)?.crawlDelay ?? 0;
  return Math.min(MAX_CRAWL_DELAY_S, delay);
}

/**
 * Wait for this fetch's turn under the origin's crawl-delay: each fetch takes the next
 * slot (`next_at` moves on by the delay, in one statement shared by every worker), and
 * sleeps until it. No delay, no wait.
 */
async function waitForSlot(db: Queryable, jobId: string, origin: string): Promise<void> {
  const { rows } = await db.query<{ wait_ms: number | null }>(
    `UPDATE crawl_hosts SET next_at = greatest(next_at, now()) + delay_ms * interval '1 millisecond'
      WHERE job_id = $1 AND origin = $2 AND delay_ms > 0
     RETURNING (extract(epoch FROM (next_at - delay_ms * interval '1 millisecond' - now())) * 1000)::int AS wait_ms`,
    [jobId, origin],
  );
  const wait = rows[0]?.wait_ms ?? 0;
  if (wait > 0) await sleep(wait);
}

/** The page URLs the sitemaps of `origin` list (robots.txt's, else `/sitemap.xml`), index files followed once. */
async function sitemapUrls(
  fetcher: Fetcher,
  origin: string,
  rules: RobotsRules,
): Promise<string[]> {
  const named = 'robots' in rules ? [...rules.robots.sitemaps] : [];
  const queue = named.length > 0 ? named : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const urls: string[] = [];
  while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
    const at = queue.shift() as string;
    if (seen.has(at)) continue;
    seen.add(at);
    const result = await fetcher.fetch(at);
    if (!result.ok || result.doc.status < 200 || result.doc.status > 299) continue;
    const read = readSitemap(result.doc);
    if (!read.ok) continue;
    for (const entry of read.entries) {
      const url = siteUrl(entry.loc, result.doc.url);
      if (url === null) continue;
      if (read.kind === 'sitemap-index') queue.push(url);
      else urls.push(url);
    }
  }
  return urls;
}
