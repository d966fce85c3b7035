import type { Fetcher } from '@storefront/safe-fetch';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../db/database.js';
import { contentDigest, type HttpSignatureKey, signRequest } from '../http/message-signature.js';
import type { JobQueue } from './queue.js';
import { TASKS } from './queue.js';
import { readJob } from './store.js';

/**
 * When a failed delivery is tried again, after its n-th failure (ms): the schedule
 * Standard Webhooks senders use (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); after the
 * last, the event is given up and marked failed on the job.
 */
export const WEBHOOK_RETRY_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Events delivered per run of the delivery task before it queues itself again. */
const BATCH = 100;
/** One delivery's deadline (ms). */
const DELIVERY_TIMEOUT_MS = 10_000;

/** What delivering a job's events needs. */
export interface WebhookServices {
  readonly db: Database;
  readonly queue: JobQueue;
  readonly fetcher: Fetcher;
  readonly clock: () => Date;
  /** The retry schedule (tests shorten it). */
  readonly retryMs?: readonly number[];
  /**
   * The key of the RFC 9421 signature each delivery carries beside Standard Webhooks'
   * (`Signature-Input`, `Signature`, `Content-Digest`); absent, none.
   */
  readonly httpSignatureKey?: HttpSignatureKey;
}

/** Where a job's webhook deliveries stand (`GET /jobs/{id}`). */
export interface WebhookStatus {
  readonly url: string;
  readonly delivered: number;
  readonly pending: number;
  readonly failed: number;
  readonly lastError: string | null;
}

/**
 * Deliver job `jobId`'s pending events in order (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature` over `id.timestamp.body` with the job's
 * secret) and an RFC 9421 signature with the service's HTTP-signature key over
 * `@method`, `@target-uri`, `content-digest` and `webhook-id`, through the same SSRF
 * guard as every fetch. A 2xx answer delivers an event; anything else stops the run,
 * counts an attempt and queues the next try by the retry schedule, so a later event
 * never overtakes an earlier one (page events arrive before `completed`). An event
 * out of tries is marked failed and the next one goes. At least once: an event sent
 * whose answer was lost is sent again, with the same id.
 */
export async function deliverEvents(services: WebhookServices, jobId: string): Promise<void> {
  const job = await readJob(services.db, jobId);
  if (job?.webhook == null) return;
  const { url, secret } = job.webhook;
  const signer = new Webhook(secret);
  const schedule = services.retryMs ?? WEBHOOK_RETRY_MS;
  const { rows } = await services.db.query<{
    seq: string;
    id: string;
    type: string;
    payload: Record<string, unknown>;
    created_at: Date | string;
    attempts: number;
  }>(
    `SELECT seq, id, type, payload, created_at, attempts FROM job_events
      WHERE job_id = $1 AND delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT $2`,
    [jobId, BATCH],
  );
  for (const event of rows) {
    const timestamp = new Date(event.created_at);
    const body = JSON.stringify({
      type: event.type,
      timestamp: timestamp.toISOString(),
      data: event.payload,
    });
    const now = services.clock();
    const signature = signer.sign(event.id, now, body);
    const created = Math.floor(now.getTime() / 1000);
    const key = services.httpSignatureKey;
    const digest = contentDigest(body);
    const messageSignature =
      key === undefined
        ? {}
        : {
            'content-digest': digest,
            ...signRequest(key, {
              method: 'POST',
              targetUri: new URL(url).href,
              digest,
              webhookId: event.id,
              created,
            }),
          };
    const result = await services.fetcher.fetch(url, {
      method: 'POST',
      payload: body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(created),
        'webhook-signature': signature,
        ...messageSignature,
      },
    });
    const ok = result.ok && result.doc.status >= 200 && result.doc.status <= 299;
    if (ok) {
      await services.db.query(
        `UPDATE job_events SET delivered_at = now(), attempts = attempts + 1 WHERE seq = $1`,
        [event.seq],
      );
      continue;
    }
    const error = result.ok ? `HTTP ${result.doc.status}` : `${result.error}: ${result.message}`;
    const attempt = event.attempts + 1;
    const wait = schedule[attempt - 1];
    await services.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE job_events SET attempts = $2, last_error = $3,
                failed_at = CASE WHEN $4 THEN now() END WHERE seq = $1`,
        [event.seq, attempt, error.slice(0, 500), wait === undefined],
      );
      await services.queue.add(
        tx,
        TASKS.webhooks,
        { job: jobId },
        {
          key: `webhooks:${jobId}`,
          queue: `webhooks:${jobId}`,
          runAt: new Date(now.getTime() + (wait ?? 0)),
        },
      );
    });
    return;
  }
  if (rows.length === BATCH) {
    await services.db.transaction((tx) =>
      services.queue.add(
        tx,
        TASKS.webhooks,
        { job: jobId },
        { key: `webhooks:${jobId}`, queue: `webhooks:${jobId}` },
      ),
    );
  }
}

/** Where job `jobId`'s deliveries stand; null without a webhook. */
export async function webhookStatus(
  services: { readonly db: Database },
  jobId: string,
  url: string,
): Promise<WebhookStatus> {
  const { rows } = await services.db.query<{
    delivered: string;
    pending: string;
    failed: string;
    last_error: string | null;
  }>(
    `SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered,
            count(*) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL) AS pending,
            count(*) FILTER (WHERE failed_at IS NOT NULL) AS failed,
            (SELECT last_error FROM job_events WHERE job_id = $1 AND last_error IS NOT NULL
              ORDER BY seq DESC LIMIT 1) AS last_error
       FROM job_events WHERE job_id = $1`,
    [jobId],
  );
  const row = rows[0];
  return {
    url,
    delivered: Number(row?.delivered ?? 0),
    pending: Number(row?.pending ?? 0),
    failed: Number(row?.failed ?? 0),
    lastError: row?.last_error ?? null,
  };
}
