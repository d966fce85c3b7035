import { StorefrontError } from '@storefront/core';
import express, { type Request, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { signedJson } from '../http/signed-answer.js';
import { createCrawlForKey, newCrawlJob } from '../jobs/create.js';
import {
  cancelJob,
  createdView,
  type JobReader,
  jobFor,
  jobReaderOf,
  jobView,
  MAX_PAGES_PER_READ,
  PAGES_PER_READ,
  pagesView,
} from '../jobs/service.js';
import { keyRefusalText } from '../metering/key-refusals.js';
import { createX402Job } from './jobs-x402.js';

/** The largest `POST /jobs/crawl` body (JSON). */
const MAX_BODY = '32kb';

/**
 * The job API: `POST /jobs/crawl` (key door or x402), `GET /jobs/{id}`,
 * `GET /jobs/{id}/pages?after=<cursor>`, `DELETE /jobs/{id}`. A job is seen only by
 * the key that created it or the holder of its job token; anyone else gets 404. Every
 * JSON answer under `/jobs` is signed with RFC 9421 (`signedJson`), refusals included.
 */
export function jobRoutes(deps: AppDeps): Router {
  const router = Router();
  const { services } = deps.jobs;
  router.use('/jobs', signedJson(deps.httpSignatureKey));

  router.post(
    '/jobs/crawl',
    express.json({ limit: MAX_BODY, type: () => true }),
    async (req, res) => {
      // Validation first: a bad body is 400 before any payment is asked or taken.
      const job = newCrawlJob(deps, req.body);
      const bearer = deps.accessTokens.credential(req.header('authorization'), deps.clock());
      if (bearer.kind === 'missing') {
        await createX402Job(deps, req, res, job);
        return;
      }
      if (bearer.kind !== 'key') throw new StorefrontError('invalid_key', keyRefusalText(bearer));
      const id = await createCrawlForKey(deps, bearer.keyHash, job);
      res.status(202).json(await createdView(services, id, { webhookSecret: job.webhook?.secret }));
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
      // `provenance[i]` is the `response-provenance` claim of `pages[i]` (null: failed page).
      provenance: pages.map((page) => page.provenance),
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
  const header = req.header('authorization');
  // A key or an access token reads its key's jobs; a job token its own job.
  const bearer = deps.accessTokens.credential(header, deps.clock());
  const reader: JobReader =
    bearer.kind === 'key' ? { kind: 'key', keyHash: bearer.keyHash } : jobReaderOf(header);
  const job = await jobFor(deps.jobs.services, id, reader);
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
