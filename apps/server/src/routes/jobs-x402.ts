import { sha256Hex } from '@storefront/core';
import type { PaymentPayload } from '@x402/core/types';
import { isUptoPermit2Payload } from '@x402/evm';
import type { Request, Response } from 'express';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../deps.js';
import { markSettling } from '../doors/x402/claims.js';
import {
  checkPayment,
  claimPayment,
  finishPayment,
  markVerified,
  PAYMENT_HEADERS,
  PAYMENT_REQUIRED_HEADER,
  parsePaymentHeader,
  paymentClaim,
} from '../doors/x402/index.js';
import { dollars } from '../doors/x402/terms.js';
import { JOB_ROUTE } from '../jobs/payments.js';
import { TASKS } from '../jobs/queue.js';
import { createdView } from '../jobs/service.js';
import { insertJob, type NewJob, newJobToken } from '../jobs/store.js';

/** The payer and nonce of an upto payload, which a job claims once. */
function uptoOf(payload: PaymentPayload): { payer: string; nonce: string } | null {
  const inner = payload.payload as Record<string, unknown>;
  if (!isUptoPermit2Payload(inner)) return null;
  return {
    payer: inner.permit2Authorization.from.toLowerCase(),
    nonce: inner.permit2Authorization.nonce,
  };
}

/** A 402 with the job's terms and the reason. */
async function refuse(
  deps: AppDeps,
  res: Response,
  job: NewJob,
  error: 'payment_required' | 'payment_invalid',
  message: string,
): Promise<void> {
  const { header, body } = await deps.jobs.payments.challenge(job, message, error);
  res.setHeader(PAYMENT_REQUIRED_HEADER, header);
  res.status(402).json(body);
}

/**
 * `POST /jobs/crawl` without a key: the x402 door. No payment: 402 with the terms. A v2
 * `upto` payment: matched to the job's terms, verified by the facilitator, claimed once
 * (the job row holds its payer and nonce), and the job created with a job token, its
 * only read access; it settles for the delivered pages when the job ends.
 */
export async function createX402Job(
  deps: AppDeps,
  req: Request,
  res: Response,
  job: NewJob,
): Promise<void> {
  const v2 = req.header(PAYMENT_HEADERS[2]);
  const v1 = req.header(PAYMENT_HEADERS[1]);
  const most = dollars(job.params.limit * job.pagePrice);
  if (v2 === undefined && v1 === undefined) {
    await refuse(
      deps,
      res,
      job,
      'payment_required',
      `A crawl of up to ${job.params.limit} pages costs at most ${most}; pay with x402 (v2 upto: only delivered pages are charged) or send an API key`,
    );
    return;
  }
  if (v2 === undefined) {
    await createV1Job(deps, req, res, job, v1 as string);
    return;
  }
  const read = parsePaymentPayload(v2);
  if (read === null) {
    await refuse(
      deps,
      res,
      job,
      'payment_invalid',
      `${PAYMENT_HEADERS[2]} is not an x402 v2 payment`,
    );
    return;
  }
  const server = await deps.jobs.payments.server();
  const requirements = await deps.jobs.payments.uptoRequirements(job);
  const matched = server.findMatchingRequirements([requirements], read);
  const claim = uptoOf(read);
  if (matched === undefined || claim === null) {
    await refuse(
      deps,
      res,
      job,
      'payment_invalid',
      `The payment does not match this job's terms: upto, at most ${requirements.amount} atomic units to ${requirements.payTo}`,
    );
    return;
  }
  const verified = await server.verifyPayment(read, matched);
  if (!verified.isValid) {
    await refuse(
      deps,
      res,
      job,
      'payment_invalid',
      `The facilitator refused the payment: ${verified.invalidReason ?? 'invalid'}${verified.invalidMessage ? ` (${verified.invalidMessage})` : ''}`,
    );
    return;
  }
  const token = newJobToken();
  const created = await createPaidJob(deps.db, deps, job, token.hash, {
    scheme: 'upto',
    x402Version: 2,
    payer: claim.payer,
    nonce: claim.nonce,
    maxAmount: requirements.amount,
    state: 'authorized',
    payload: read,
    requirements: matched,
  });
  if (!created) {
    await refuse(deps, res, job, 'payment_invalid', 'This payment was already used for a job');
    return;
  }
  res.status(202).json(
    await createdView(deps.jobs.services, job.id, {
      jobToken: token.token,
      webhookSecret: job.webhook?.secret,
    }),
  );
}

function parsePaymentPayload(header: string): PaymentPayload | null {
  const read = parsePaymentHeader(PAYMENT_HEADERS[2], header);
  if (read.ok) return read.payment.raw as unknown as PaymentPayload;
  // An upto payment carries no EIP-3009 authorization, which that reader requires.
  try {
    const value = JSON.parse(Buffer.from(header.trim(), 'base64').toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const payload = value as PaymentPayload;
    return payload.x402Version === 2 && typeof payload.payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/**
 * Insert a paid job with its seed task, claiming its payment: a payment (payer, nonce)
 * makes one job; a second job with it is refused (false).
 */
async function createPaidJob(
  db: Database,
  deps: AppDeps,
  job: NewJob,
  tokenHash: string,
  payment: Record<string, unknown>,
): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await insertJob(tx, job, {
        door: 'x402',
        keyId: null,
        tokenHash,
        source: null,
        unitCost: 0,
        reserved: 0,
        payment,
      });
      await deps.jobs.queue.add(tx, TASKS.seed, { job: job.id });
    });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return false;
    throw error;
  }
}

/**
 * A job paid with x402 v1 (`X-PAYMENT`, `exact` for the whole limit): checked against
 * the terms, claimed once in `x402_payments` (as the x402 door claims a call's), verified
 * and settled before the job exists; a payment that does not settle makes no job.
 */
async function createV1Job(
  deps: AppDeps,
  req: Request,
  res: Response,
  job: NewJob,
  header: string,
): Promise<void> {
  const read = parsePaymentHeader(PAYMENT_HEADERS[1], header);
  if (!read.ok) {
    await refuse(deps, res, job, 'payment_invalid', read.message);
    return;
  }
  const { payment } = read;
  const requirements = deps.jobs.payments.exactRequirements(job);
  const now = Math.floor(deps.clock().getTime() / 1000);
  const problem = checkPayment(payment, requirements, now);
  if (problem !== null) {
    await refuse(deps, res, job, 'payment_invalid', problem.message);
    return;
  }
  const claimed = await claimPayment(
    deps.db,
    paymentClaim(payment, requirements, req.header('x-request-id') ?? null, {
      callHash: sha256Hex(JSON.stringify([JOB_ROUTE, job.params])),
      payloadHash: sha256Hex(JSON.stringify(payment.raw)),
    }),
  );
  if (!claimed.ok) {
    await refuse(deps, res, job, 'payment_invalid', 'This payment was already used');
    return;
  }
  const facilitator = deps.jobs.payments.facilitator();
  const verified = await facilitator.verify(payment, requirements);
  if (!verified.ok) {
    await finishPayment(deps.db, claimed.id, { state: 'released', error: verified.kind });
    await refuse(
      deps,
      res,
      job,
      'payment_invalid',
      `The facilitator refused the payment (${verified.kind})`,
    );
    return;
  }
  await markVerified(deps.db, claimed.id);
  await markSettling(deps.db, claimed.id, null);
  const settled = await facilitator.settle(payment, requirements);
  if (!settled.ok) {
    // Refused: nothing moved. No usable answer: unknown until the reconciler reads the chain.
    await finishPayment(
      deps.db,
      claimed.id,
      settled.kind === 'rejected'
        ? { state: 'failed', error: settled.reason }
        : { state: 'unknown', error: settled.reason },
    );
    await refuse(
      deps,
      res,
      job,
      'payment_invalid',
      `The payment could not be settled (${settled.kind})`,
    );
    return;
  }
  await finishPayment(deps.db, claimed.id, { state: 'settled', transaction: settled.transaction });
  const token = newJobToken();
  await createPaidJob(deps.db, deps, job, token.hash, {
    scheme: 'exact',
    x402Version: 1,
    payer: payment.payer.toLowerCase(),
    nonce: payment.nonce,
    maxAmount: requirements.amount,
    amount: requirements.amount,
    state: 'settled',
    transaction: settled.transaction,
  });
  res.status(202).json(
    await createdView(deps.jobs.services, job.id, {
      jobToken: token.token,
      webhookSecret: job.webhook?.secret,
    }),
  );
}
