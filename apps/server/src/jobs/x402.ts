import { StorefrontError } from '@storefront/core';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.js';
import type { NewJob } from './store.js';

/** `POST /jobs/crawl` without a key: the x402 door (terms, verification, the job token). */
export async function createX402Job(
  _deps: AppDeps,
  _req: Request,
  _res: Response,
  job: NewJob,
): Promise<void> {
  throw new StorefrontError(
    'payment_required',
    `A crawl of up to ${job.params.limit} pages costs up to ${job.params.limit} × the page price; send an API key`,
  );
}
