import { sha256Hex } from '@storefront/core';
import type { PaymentPayload } from '@x402/core/types';
import { isUptoPermit2Payload } from '@x402/evm';
import type { Request, Response } from 'express';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../deps.js';
import { markSettling, type StoredPayment } from '../doors/x402/claims.js';
import {
  checkPayment,
  claimPayment,
  finishPayment,
  markVerified,
  PAYMENT_HEADERS,
  PAYMENT_REQUIRED_HEADER,
  type Payment,
  parsePaymentHeader,
  paymentClaim,
  type Requirements,
} from '../doors/x402/index.js';
import { type SettleEnd, settleClaimed, settleEarlier } from '../doors/x402/settle.js';
import { dollars } from '../doors/x402/terms.js';
import { dropUnpaidJob, JOB_ROUTE, startPaidJob } from '../jobs/payments.js';
import { TASKS } from '../jobs/queue.js';
import { createdView } from '../jobs/service.js';
import { insertJob, type NewJob, newJobToken, readJob } from '../jobs/store.js';

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
 * the terms, claimed once in `x402_payments` (as the x402 door claims a call's) and
 * verified; then the job is written, not started, and the payment settled; the job
 * starts once the payment is known to be paid (docs/decisions.md, "Crawl jobs: a v1
 * payment is settled after its job exists"). A refused payment removes the job; one
 * whose outcome the chain cannot tell yet leaves it waiting for the sweep, and the same
 * header sent again gets the job once it paid.
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
  const payloadHash = sha256Hex(JSON.stringify(payment.raw));
  const claimed = await claimPayment(
    deps.db,
    paymentClaim(payment, requirements, req.header('x-request-id') ?? null, {
      callHash: sha256Hex(JSON.stringify([JOB_ROUTE, job.params])),
      payloadHash,
    }),
  );
  if (!claimed.ok) {
    const existing = claimed.existing;
    if (existing?.route === JOB_ROUTE && existing.payloadHash === payloadHash) {
      await retryV1Job(deps, res, job, payment, requirements, existing);
      return;
    }
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
  // The job is written before the payment settles, so that a payment that lands whatever
  // happens next (a lost answer, a crash) always has its job.
  const token = newJobToken();
  await deps.db.transaction(async (tx) => {
    await insertJob(tx, job, {
      door: 'x402',
      keyId: null,
      tokenHash: token.hash,
      source: null,
      unitCost: 0,
      reserved: 0,
      payment: {
        scheme: 'exact',
        x402Version: 1,
        payer: payment.payer.toLowerCase(),
        nonce: payment.nonce.toLowerCase(),
        maxAmount: requirements.amount,
        amount: requirements.amount,
        state: 'settling',
      },
    });
    await markSettling(tx, claimed.id, null);
  });
  const settled = await settleClaimed(
    deps.jobs.payments.settleDeps(deps.db),
    claimed.id,
    payment,
    requirements,
    false,
  );
  if (settled.paid) {
    await startPaidJob(deps.db, deps.jobs.queue, job.id, settled.transaction);
    await answerV1Job(deps, res, job, job.id, token);
    return;
  }
  if (settled.certain) await dropUnpaidJob(deps.db, job.id);
  await refuse(deps, res, job, 'payment_invalid', unsettledMessage(settled));
}

/**
 * The same v1 payment sent again for its job: the job is handed over (with a new job
 * token) if its payment is paid and no answer gave the job out yet. A payment of
 * unknown outcome is read on chain first, and settled again when the chain shows it
 * still unpaid and payable (as the x402 door does for a call: `settleEarlier`). A
 * payment known never to have paid removes the job. Anything else is refused.
 */
async function retryV1Job(
  deps: AppDeps,
  res: Response,
  job: NewJob,
  payment: Payment,
  requirements: Requirements,
  existing: StoredPayment,
): Promise<void> {
  const waiting = await jobOfPayment(deps.db, existing.payer, existing.nonce);
  if (waiting === null || waiting.answered) {
    await refuse(deps, res, job, 'payment_invalid', 'This payment was already used');
    return;
  }
  let end: SettleEnd;
  if (existing.state === 'settled') {
    end = { paid: true, transaction: existing.transaction ?? '', network: existing.network };
  } else if (existing.state === 'released' || existing.state === 'failed') {
    end = { paid: false, certain: true, reason: `the payment was ${existing.state}` };
  } else {
    const again = await settleEarlier(
      deps.jobs.payments.settleDeps(deps.db),
      existing,
      payment,
      requirements,
      false,
    );
    end =
      again.kind === 'paid'
        ? { paid: true, transaction: again.transaction, network: again.network }
        : again.kind === 'expired'
          ? { paid: false, certain: true, reason: 'it expired unpaid' }
          : again.kind === 'unpaid'
            ? again.end
            : {
                paid: false,
                certain: false,
                reason:
                  again.kind === 'busy'
                    ? 'another request is settling it'
                    : (again.reason ?? 'not on chain yet'),
              };
  }
  if (end.paid) {
    // A row settled with no hash recorded gives '' here; the job keeps null, as the sweep's does.
    await startPaidJob(deps.db, deps.jobs.queue, waiting.id, end.transaction || null);
    await answerV1Job(deps, res, job, waiting.id, newJobToken());
    return;
  }
  if (end.certain) await dropUnpaidJob(deps.db, waiting.id);
  await refuse(deps, res, job, 'payment_invalid', unsettledMessage(end));
}

/** Why a v1 job did not start: refused (nothing moved) or not known yet (send it again). */
function unsettledMessage(end: { readonly certain: boolean; readonly reason: string }): string {
  return end.certain
    ? `The payment could not be settled (${end.reason}); nothing was charged and no job was made`
    : `The payment's settlement has no known outcome yet (${end.reason}). Send the same X-PAYMENT header again: the job is handed over once the transfer is seen on chain; nothing is charged otherwise`;
}

/**
 * Answer 202 with v1 job `jobId` and `token`, which becomes its only token: once, as
 * the job is marked answered first; a request that loses that race (the same header
 * sent twice at once) is refused as a used payment.
 */
async function answerV1Job(
  deps: AppDeps,
  res: Response,
  job: NewJob,
  jobId: string,
  token: { readonly token: string; readonly hash: string },
): Promise<void> {
  const paid = await readJob(deps.db, jobId);
  const settlement = await deps.jobs.payments.v1Settlement(paid?.payment ?? {});
  if (!(await markAnswered(deps.db, jobId, token.hash, settlement.extensions))) {
    await refuse(deps, res, job, 'payment_invalid', 'This payment was already used');
    return;
  }
  // The settlement and its signed receipt, as the x402 door answers a paid call.
  res.setHeader(settlement.header.name, settlement.header.value);
  res.status(202).json(
    await createdView(deps.jobs.services, jobId, {
      jobToken: token.token,
      webhookSecret: paid?.webhook?.secret,
    }),
  );
}

/** The v1 job of payment (payer, nonce), and whether an answer gave it out; null without one. */
async function jobOfPayment(
  db: Database,
  payer: string,
  nonce: string,
): Promise<{ readonly id: string; readonly answered: boolean } | null> {
  const { rows } = await db.query<{ id: string; answered: boolean }>(
    `SELECT id, (payment ? 'answered') AS answered FROM crawl_jobs
      WHERE payment->>'payer' = lower($1) AND payment->>'nonce' = lower($2)`,
    [payer, nonce],
  );
  return rows[0] ?? null;
}

/**
 * Give v1 job `jobId` its token and mark it answered, once, with its settlement's
 * `extensions` (the signed receipt); false when it was already.
 */
async function markAnswered(
  db: Database,
  jobId: string,
  tokenHash: string,
  extensions: Readonly<Record<string, unknown>> | undefined,
): Promise<boolean> {
  const mark = { answered: true, ...(extensions === undefined ? {} : { extensions }) };
  const { rows } = await db.query(
    `UPDATE crawl_jobs SET token_hash = $2, payment = payment || $3::jsonb
      WHERE id = $1 AND NOT (payment ? 'answered') RETURNING id`,
    [jobId, tokenHash, JSON.stringify(mark)],
  );
  return rows.length > 0;
}
