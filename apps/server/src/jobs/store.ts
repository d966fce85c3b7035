import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';
import type { PaySource, TierPlans } from '../metering/tiers.js';
import type { CrawlJobParams, JobEvent } from './params.js';
import { type JobQueue, TASKS } from './queue.js';

/** A job's states (`GET /jobs/{id}`). */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A job as stored. */
export interface JobRow {
  readonly id: string;
  readonly door: 'key' | 'x402';
  readonly keyId: string | null;
  readonly tokenHash: string | null;
  readonly status: JobStatus;
  readonly params: CrawlJobParams;
  readonly route: string;
  readonly pagePrice: number;
  readonly pageCredits: number;
  readonly limit: number;
  readonly source: PaySource | null;
  readonly unitCost: number;
  readonly reserved: number;
  readonly released: number;
  readonly total: number;
  /** True while the seed task still reads the sitemaps: the job cannot end yet. */
  readonly seeding: boolean;
  readonly completed: number;
  readonly failed: number;
  readonly charged: number;
  readonly payment: Record<string, unknown> | null;
  readonly webhook: JobWebhook | null;
  readonly manifest: Record<string, unknown> | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where a job's events go, and the Standard Webhooks secret that signs them. */
export interface JobWebhook {
  readonly url: string;
  readonly events: readonly JobEvent[];
  readonly secret: string;
}

/** The columns {@link jobOf} reads. */
export const JOB_COLUMNS = `id, door, key_id, token_hash, status, params, route, page_price, page_credits,
  page_limit, source, unit_cost, reserved, released, total, seeding, completed, failed, charged, payment,
  webhook, manifest, error, created_at, updated_at`;

function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** A job row as stored, read. */
export function jobOf(row: Record<string, unknown>): JobRow {
  return {
    id: String(row.id),
    door: row.door as JobRow['door'],
    keyId: (row.key_id as string | null) ?? null,
    tokenHash: (row.token_hash as string | null) ?? null,
    status: row.status as JobStatus,
    params: row.params as CrawlJobParams,
    route: String(row.route),
    pagePrice: Number(row.page_price),
    pageCredits: Number(row.page_credits),
    limit: Number(row.page_limit),
    source: (row.source as PaySource | null) ?? null,
    unitCost: Number(row.unit_cost),
    reserved: Number(row.reserved),
    released: Number(row.released),
    total: Number(row.total),
    seeding: row.seeding === true,
    completed: Number(row.completed),
    failed: Number(row.failed),
    charged: Number(row.charged),
    payment: (row.payment as Record<string, unknown> | null) ?? null,
    webhook: (row.webhook as JobWebhook | null) ?? null,
    manifest: (row.manifest as Record<string, unknown> | null) ?? null,
    error: (row.error as string | null) ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A new job id: `job_` and 96 random bits. */
export function newJobId(): string {
  return `job_${randomBytes(12).toString('hex')}`;
}

/** A job token (the x402 door's read access) and its stored hash. */
export function newJobToken(): { readonly token: string; readonly hash: string } {
  const token = `jt_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** What a new job is: who pays, what it crawls, what each page costs. */
export interface NewJob {
  readonly id: string;
  readonly params: CrawlJobParams;
  readonly route: string;
  readonly pagePrice: number;
  readonly pageCredits: number;
  readonly webhook: JobWebhook | null;
}

/** The balance column each metered source spends. */
const SOURCE_COLUMN: Readonly<Record<Exclude<PaySource, 'unmetered'>, string>> = {
  sandbox: 'sandbox_remaining',
  included: 'included_remaining',
  credits: 'credits',
};

/** What {@link createKeyJob} decided. */
export type KeyJobCreation =
  | { readonly kind: 'created'; readonly job: JobRow }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'revoked'; readonly tail: string }
  | { readonly kind: 'exhausted'; readonly error: 'sandbox_exhausted' | 'insufficient_credits' };

/**
 * Create a job paid through the key door, in one transaction: lock the key, take
 * `limit × page price` from the first source of its plan that holds all of it (sandbox
 * calls or plan calls count one per page; credits the page's credits; an unmetered plan
 * reserves nothing), write the job and its start URL, and enqueue its seed task. The
 * workers see the task only once the reservation is committed; a refusal changes
 * nothing.
 */
export async function createKeyJob(
  db: Database,
  queue: JobQueue,
  keyHash: string,
  plans: TierPlans,
  job: NewJob,
): Promise<KeyJobCreation> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      key_id: string;
      tier: keyof TierPlans;
      tail: string;
      revoked_at: unknown;
      credits: string;
      included_remaining: string;
      sandbox_remaining: number;
    }>(
      `SELECT key_id, tier, tail, revoked_at, credits, included_remaining, sandbox_remaining
         FROM api_keys WHERE key_hash = $1 FOR UPDATE`,
      [keyHash],
    );
    const key = rows[0];
    if (key === undefined) return { kind: 'unknown' };
    if (key.revoked_at !== null) return { kind: 'revoked', tail: key.tail };
    const plan = plans[key.tier];
    const limit = job.params.limit;
    const held: Record<PaySource, number> = {
      sandbox: Number(key.sandbox_remaining),
      included: Number(key.included_remaining),
      credits: Number(key.credits),
      unmetered: Number.POSITIVE_INFINITY,
    };
    const unitCostOf = (source: PaySource) =>
      source === 'credits' ? job.pageCredits : source === 'unmetered' ? 0 : 1;
    const source = plan.pays.find((s) => held[s] >= limit * unitCostOf(s));
    if (source === undefined) return { kind: 'exhausted', error: plan.exhausted };
    const unitCost = unitCostOf(source);
    const reserved = limit * unitCost;
    if (source !== 'unmetered' && reserved > 0) {
      const column = SOURCE_COLUMN[source];
      await tx.query(
        `UPDATE api_keys SET ${column} = ${column} - $2, last_used_at = now() WHERE key_id = $1`,
        [key.key_id, reserved],
      );
    }
    const inserted = await insertJob(tx, job, {
      door: 'key',
      keyId: key.key_id,
      tokenHash: null,
      source,
      unitCost,
      reserved,
      payment: null,
    });
    await queue.add(tx, TASKS.seed, { job: job.id });
    return { kind: 'created', job: inserted };
  });
}

/** Insert a job and its start URL (depth 0), queued. */
export async function insertJob(
  tx: Queryable,
  job: NewJob,
  pay: {
    readonly door: 'key' | 'x402';
    readonly keyId: string | null;
    readonly tokenHash: string | null;
    readonly source: PaySource | null;
    readonly unitCost: number;
    readonly reserved: number;
    readonly payment: Record<string, unknown> | null;
  },
): Promise<JobRow> {
  const { rows } = await tx.query(
    `INSERT INTO crawl_jobs (id, door, key_id, token_hash, status, params, route, page_price,
                             page_credits, page_limit, source, unit_cost, reserved, payment, webhook, total)
     VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1)
     RETURNING ${JOB_COLUMNS}`,
    [
      job.id,
      pay.door,
      pay.keyId,
      pay.tokenHash,
      JSON.stringify(job.params),
      job.route,
      job.pagePrice,
      job.pageCredits,
      job.params.limit,
      pay.source,
      pay.unitCost,
      pay.reserved,
      pay.payment === null ? null : JSON.stringify(pay.payment),
      job.webhook === null ? null : JSON.stringify(job.webhook),
    ],
  );
  await tx.query(`INSERT INTO crawl_frontier (job_id, url, depth) VALUES ($1, $2, 0)`, [
    job.id,
    job.params.url,
  ]);
  return jobOf(rows[0] as Record<string, unknown>);
}

/** The job `id`, or null. */
export async function readJob(db: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await db.query(`SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = $1`, [id]);
  return rows[0] === undefined ? null : jobOf(rows[0]);
}

/** The job `id` locked for the rest of `tx`, or null. */
export async function lockJob(tx: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await tx.query(
    `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] === undefined ? null : jobOf(rows[0]);
}

/** One stored page of a job. */
export interface PageRow {
  readonly seq: number;
  readonly url: string;
  readonly ok: boolean;
  readonly result: Record<string, unknown>;
  /** The page's `response-provenance` claim; null for a failed page. */
  readonly provenance: Record<string, unknown> | null;
}

/** Up to `limit` pages of job `id` after `after` (a `seq`), in order. */
export async function readPages(
  db: Queryable,
  id: string,
  after: number,
  limit: number,
): Promise<PageRow[]> {
  const { rows } = await db.query<{
    seq: number;
    url: string;
    ok: boolean;
    result: unknown;
    provenance: unknown;
  }>(
    `SELECT seq, url, ok, result, provenance FROM crawl_pages WHERE job_id = $1 AND seq > $2
      ORDER BY seq LIMIT $3`,
    [id, after, limit],
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    url: row.url,
    ok: row.ok,
    result: row.result as Record<string, unknown>,
    provenance: (row.provenance as Record<string, unknown> | null) ?? null,
  }));
}

/** The content hashes of job `id`'s delivered pages, in page order: the manifest's leaves. */
export async function pageHashes(tx: Queryable, id: string): Promise<string[]> {
  const { rows } = await tx.query<{ content_hash: string }>(
    `SELECT content_hash FROM crawl_pages WHERE job_id = $1 AND ok ORDER BY seq`,
    [id],
  );
  return rows.map((row) => row.content_hash);
}

/**
 * Give back what a finished key-door job holds beyond what it charged, once (in the
 * transaction that ends the job, with its row locked).
 */
export async function releaseReservation(tx: Queryable, job: JobRow): Promise<number> {
  if (job.door !== 'key' || job.source === null || job.source === 'unmetered') return 0;
  const rest = job.reserved - job.charged - job.released;
  if (rest <= 0) return 0;
  const column = SOURCE_COLUMN[job.source];
  await tx.query(`UPDATE api_keys SET ${column} = ${column} + $2 WHERE key_id = $1`, [
    job.keyId,
    rest,
  ]);
  await tx.query(`UPDATE crawl_jobs SET released = released + $2 WHERE id = $1`, [job.id, rest]);
  return rest;
}
