import { StorefrontError } from '@storefront/core';
import type { AppDeps } from '../deps.js';
import { keyRefusalText } from '../metering/key-refusals.js';
import { creditsFor } from '../metering/tiers.js';
import { pageRouteOf } from './crawl.js';
import { readCrawlJob } from './params.js';
import { createKeyJob, type NewJob, newJobId, newWebhookSecret } from './store.js';

/** A crawl job from a request body, checked: `invalid_params` before any payment. */
export function newCrawlJob(deps: Pick<AppDeps, 'registry'>, body: unknown): NewJob {
  const read = readCrawlJob(body);
  if (!read.ok) {
    throw new StorefrontError('invalid_params', 'Invalid crawl job', { details: read.details });
  }
  const { params } = read;
  const page = pageRouteOf(deps.registry, params.format);
  const webhook =
    params.webhook === null ? null : { ...params.webhook, secret: newWebhookSecret() };
  return {
    id: newJobId(),
    params,
    route: page.route.name,
    pagePrice: page.price,
    pageCredits: creditsFor(page.price),
    webhook,
  };
}

/**
 * Create `job` paid by the key whose hash is `keyHash`, its limit reserved up front; its
 * id. Refused as the job route answers: an unknown or revoked key `invalid_key`, a key
 * that cannot cover the reservation with the code its plan gives.
 */
export async function createCrawlForKey(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'plans'>,
  keyHash: string,
  job: NewJob,
): Promise<string> {
  const created = await createKeyJob(deps.db, deps.jobs.queue, keyHash, deps.plans, job);
  if (created.kind === 'unknown') {
    throw new StorefrontError('invalid_key', keyRefusalText({ kind: 'unknown' }));
  }
  if (created.kind === 'revoked') {
    throw new StorefrontError(
      'invalid_key',
      keyRefusalText({ kind: 'revoked', tail: created.tail }),
    );
  }
  if (created.kind === 'exhausted') {
    const { limit } = job.params;
    throw new StorefrontError(
      created.error,
      `A crawl of up to ${limit} pages reserves ${limit} × ${job.pageCredits} credits (or ${limit} plan calls) up front; the key holds less`,
    );
  }
  return created.job.id;
}
