import { timingSafeEqual } from 'node:crypto';
import { bearerKey, hashKey } from '../metering/keys.js';
import { findKeyByHash } from '../metering/store.js';
import { finishJob, type JobServices } from './crawl.js';
import { hashToken, type JobRow, lockJob, type PageRow, readJob, readPages } from './store.js';
import { type WebhookStatus, webhookStatus } from './webhooks.js';

/** Pages per `GET /jobs/{id}/pages` answer by default, and at most. */
export const PAGES_PER_READ = 50;
export const MAX_PAGES_PER_READ = 200;

/** Who asks for a job: a key of ours, a job token, or nobody. */
export type JobReader =
  | { readonly kind: 'key'; readonly keyHash: string }
  | { readonly kind: 'token'; readonly hash: string }
  | { readonly kind: 'none' };

/** The reader named by an `Authorization: Bearer …` header. */
export function jobReaderOf(header: string | undefined): JobReader {
  const match = /^Bearer[ \t]+(jt_[A-Za-z0-9_-]{43})[ \t]*$/i.exec(header ?? '');
  if (match?.[1] !== undefined) return { kind: 'token', hash: hashToken(match[1]) };
  const bearer = bearerKey(header);
  return bearer.kind === 'key' ? { kind: 'key', keyHash: hashKey(bearer.key) } : { kind: 'none' };
}

/**
 * Job `id` when `reader` may see it: the key that created it, or the holder of the job
 * token an x402 job was created with. Anyone else gets null (answered 404, so a job's
 * existence is not told to others).
 */
export async function jobFor(
  services: Pick<JobServices, 'db'>,
  id: string,
  reader: JobReader,
): Promise<JobRow | null> {
  if (reader.kind === 'none' || !/^job_[0-9a-f]{24}$/.test(id)) return null;
  const job = await readJob(services.db, id);
  if (job === null) return null;
  if (reader.kind === 'token') {
    return job.tokenHash !== null && sameHex(job.tokenHash, reader.hash) ? job : null;
  }
  if (job.keyId === null) return null;
  const key = await findKeyByHash(services.db, reader.keyHash);
  return key !== null && key.revokedAt === null && key.keyId === job.keyId ? job : null;
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/**
 * Cancel a job that has not ended: no page is committed after this (a page task
 * commits only for a running job), the reservation beyond what was charged is given
 * back, and the manifest signs what was delivered. An ended job is left as it is.
 */
export async function cancelJob(services: JobServices, id: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const job = await lockJob(tx, id);
    if (job === null || (job.status !== 'queued' && job.status !== 'running')) return;
    await finishJob(services, tx, job, 'cancelled');
  });
}

/** A job as `GET /jobs/{id}` answers it. */
export async function jobView(
  services: Pick<JobServices, 'db' | 'publicBaseUrl'>,
  job: JobRow,
): Promise<Record<string, unknown>> {
  const base = `${services.publicBaseUrl}/jobs/${job.id}`;
  const webhook: WebhookStatus | null =
    job.webhook === null ? null : await webhookStatus(services, job.id, job.webhook.url);
  const ended = job.status !== 'queued' && job.status !== 'running';
  return {
    ok: true,
    jobId: job.id,
    status: job.status,
    url: job.params.url,
    format: job.params.format,
    limit: job.limit,
    total: job.total,
    completed: job.completed,
    failed: job.failed,
    pagePrice: job.pagePrice,
    charged: job.completed * job.pagePrice,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    statusUrl: base,
    pagesUrl: `${base}/pages`,
    ...(job.door === 'key'
      ? {
          reservation: {
            source: job.source,
            reserved: job.reserved,
            charged: job.charged,
            released: job.released,
          },
        }
      : { payment: paymentView(job.payment) }),
    ...(job.error === null ? {} : { error: job.error }),
    ...(webhook === null ? {} : { webhook }),
    ...(ended && job.manifest !== null ? { manifest: job.manifest } : {}),
  };
}

/** One read of a job's pages after `after`, and the cursor of the next read (null once all are read). */
export async function pagesView(
  services: Pick<JobServices, 'db'>,
  job: JobRow,
  after: number,
  limit: number,
): Promise<{ readonly pages: readonly PageRow[]; readonly next: string | null }> {
  const pages = await readPages(services.db, job.id, after, limit);
  const last = pages.at(-1)?.seq ?? after;
  const ended = job.status !== 'queued' && job.status !== 'running';
  const made = job.completed + job.failed;
  return { pages, next: ended && last >= made ? null : String(last) };
}

/** The 202 answer of a created job, with the secrets shown this once (job token, webhook secret). */
export async function createdView(
  services: Pick<JobServices, 'db' | 'publicBaseUrl'>,
  jobId: string,
  secrets: { readonly jobToken?: string; readonly webhookSecret?: string | undefined },
): Promise<Record<string, unknown>> {
  const job = await readJob(services.db, jobId);
  if (job === null) throw new Error(`Job ${jobId} vanished after its creation`);
  const view = await jobView(services, job);
  return {
    ok: true,
    jobId,
    status: view.status,
    statusUrl: view.statusUrl,
    pagesUrl: view.pagesUrl,
    ...(secrets.jobToken === undefined ? {} : { jobToken: secrets.jobToken }),
    ...(secrets.webhookSecret === undefined ? {} : { webhookSecret: secrets.webhookSecret }),
    limit: view.limit,
    pagePrice: view.pagePrice,
    ...('reservation' in view ? { reservation: view.reservation } : { payment: view.payment }),
  };
}

/** What a job's x402 payment shows: its terms and its settlement, not the signed payload. */
function paymentView(payment: Record<string, unknown> | null): Record<string, unknown> | null {
  if (payment === null) return null;
  const { payload: _payload, requirements: _requirements, ...shown } = payment;
  return shown;
}
