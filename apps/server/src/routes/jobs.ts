import { StorefrontError } from '@storefront/core';
import express, { type Request, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { pageRouteOf } from '../jobs/crawl.js';
import { readCrawlJob } from '../jobs/params.js';
import {
  cancelJob,
  createdView,
  jobFor,
  jobReaderOf,
  jobView,
  MAX_PAGES_PER_READ,
  PAGES_PER_READ,
  pagesView,
} from '../jobs/service.js';
import { createKeyJob, type NewJob, newJobId, newWebhookSecret } from '../jobs/store.js';
import { keyRefusalText } from '../metering/key-refusals.js';
import { bearerKey, hashKey } from '../metering/keys.js';
import { creditsFor } from '../metering/tiers.js';
import { createX402Job } from './jobs-x402.js';

/** The largest `POST /jobs/crawl` body (JSON). */
const MAX_BODY = '32kb';

/**
 * The job API: `POST /jobs/crawl` (key door or x402), `GET /jobs/{id}`,
 * `GET /jobs/{id}/pages?after=<cursor>`, `DELETE /jobs/{id}`. A job is seen only by
 * the key that created it or the holder of its job token; anyone else gets 404.
 */
export function jobRoutes(deps: AppDeps): Router {
  const router = Router();
  const { services } = deps.jobs;

  router.post(
    '/jobs/crawl',
    express.json({ limit: MAX_BODY, type: () => true }),
    async (req, res) => {
      // Validation first: a bad body is 400 before any payment is asked or taken.
      const read = readCrawlJob(req.body);
      if (!read.ok) {
        throw new StorefrontError('invalid_params', 'Invalid crawl job', { details: read.details });
      }
      const { params } = read;
      const page = pageRouteOf(deps.registry, params.format);
      const webhook =
        params.webhook === null ? null : { ...params.webhook, secret: newWebhookSecret() };
      const job: NewJob = {
        id: newJobId(),
        params,
        route: page.route.name,
        pagePrice: page.price,
        pageCredits: creditsFor(page.price),
        webhook,
      };
      const bearer = bearerKey(req.header('authorization'));
      if (bearer.kind === 'missing') {
        await createX402Job(deps, req, res, job);
        return;
      }
      if (bearer.kind === 'malformed') {
        throw new StorefrontError('invalid_key', keyRefusalText(bearer));
      }
      const created = await createKeyJob(
        deps.db,
        deps.jobs.queue,
        hashKey(bearer.key),
        deps.plans,
        job,
      );
      if (created.kind === 'unknown') {
        throw new StorefrontError('invalid_key', keyRefusalText({ kind: 'unknown' }));
      }
      if (created.kind === 'revoked') {
        throw new StorefrontError(
          'invalid_key',
          keyRefusalText({ kind: 'revoked', tail: bearer.key.slice(-4) }),
        );
      }
      if (created.kind === 'exhausted') {
        throw new StorefrontError(
          created.error,
          `A crawl of up to ${params.limit} pages reserves ${params.limit} × ${job.pageCredits} credits (or ${params.limit} plan calls) up front; the key holds less`,
        );
      }
      res
        .status(202)
        .json(await createdView(services, created.job.id, { webhookSecret: webhook?.secret }));
    },
  );

  router.get('/jobs/:id', async (req, res) => {
    const job = await readable(deps, req);
    res.json(await jobView(services, job));
  });

  router.get('/jobs/:id/pages', async (req, res) => {
    const job = await readable(deps, req);
    const after = cursorOf(req.query.after);
    const limit = limitOf(req.query.limit);
    const { pages, next } = await pagesView(services, job, after, limit);
    res.json({
      ok: true,
      jobId: job.id,
      status: job.status,
      pages: pages.map((page) => page.result),
      next,
    });
  });

  router.delete('/jobs/:id', async (req, res) => {
    const job = await readable(deps, req);
    await cancelJob(services, job.id);
    const after = await readable(deps, req);
    res.json(await jobView(services, after));
  });

  router.all(['/jobs/crawl', '/jobs/:id', '/jobs/:id/pages'], (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const allow =
      req.path === '/jobs/crawl' ? 'POST' : req.path.endsWith('/pages') ? 'GET' : 'GET, DELETE';
    res.setHeader('Allow', allow);
    throw new StorefrontError('method_not_allowed', `${req.path} answers ${allow}`);
  });
  return router;
}

/** The job of `req.params.id` when the caller may read it; else 404. */
async function readable(deps: AppDeps, req: Request) {
  const id = String(req.params.id);
  const job = await jobFor(deps.jobs.services, id, jobReaderOf(req.header('authorization')));
  if (job === null) {
    throw new StorefrontError(
      'not_found',
      `No job \`${id.slice(0, 64)}\` for this key or job token`,
    );
  }
  return job;
}

function cursorOf(raw: unknown): number {
  if (raw === undefined) return 0;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) {
    throw new StorefrontError('invalid_params', 'Expected `after` to be a cursor from `next`', {
      details: [{ param: 'after', message: 'Expected `after` to be a cursor from `next`' }],
    });
  }
  return Number(raw);
}

function limitOf(raw: unknown): number {
  if (raw === undefined) return PAGES_PER_READ;
  const n = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > MAX_PAGES_PER_READ) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`limit\` from 1 to ${MAX_PAGES_PER_READ}`,
      {
        details: [
          { param: 'limit', message: `Expected \`limit\` from 1 to ${MAX_PAGES_PER_READ}` },
        ],
      },
    );
  }
  return n;
}
