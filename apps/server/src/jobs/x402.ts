import { StorefrontError, sha256Hex } from '@storefront/core';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type {
  Network,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
} from '@x402/core/types';
import { isUptoPermit2Payload } from '@x402/evm';
import { UptoEvmScheme } from '@x402/evm/upto/server';
import type { Request, Response } from 'express';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../deps.js';
import { encodeBase64Json } from '../doors/x402/base64-json.js';
import { markSettling } from '../doors/x402/claims.js';
import {
  checkPayment,
  claimPayment,
  Facilitator,
  finishPayment,
  markVerified,
  PAYMENT_HEADERS,
  PAYMENT_REQUIRED_HEADER,
  parsePaymentHeader,
  paymentClaim,
  type Requirements,
  type Terms,
  v1AcceptEntry,
  v1NetworkName,
} from '../doors/x402/index.js';
import { dollars, USDC_DOMAIN } from '../doors/x402/terms.js';
import { CRAWL_JOB_SCHEMA } from './params.js';
import { TASKS } from './queue.js';
import { createdView } from './service.js';
import { insertJob, type JobRow, type NewJob, newJobToken, readJob } from './store.js';

/**
 * How long an `upto` authorization for a job stays valid (s): the crawl and its
 * settlement must end within it. A day covers a 10,000-page crawl at a polite pace.
 */
export const JOB_AUTHORIZATION_SECONDS = 86_400;

/** What the job door's payments need: the terms and the facilitator. */
export interface JobPaymentDeps {
  readonly terms: Terms;
  readonly facilitatorUrl: string | null;
  readonly facilitatorTimeoutMs: number;
  readonly publicBaseUrl: string;
}

/**
 * x402 for crawl jobs: `upto` on x402 v2 (the payer authorizes `limit × page price`
 * through Permit2; the job settles once, at the end, for the pages delivered), on the
 * official resource server and `upto` scheme (`@x402/core`, `@x402/evm`); x402 v1 has
 * no `upto`, so its terms are `exact` for the whole limit, settled at creation.
 */
export class JobPayments {
  readonly #deps: JobPaymentDeps;
  #server: Promise<x402ResourceServer> | null = null;

  constructor(deps: JobPaymentDeps) {
    this.#deps = deps;
  }

  /** The official resource server with the `upto` scheme, its facilitator's kinds read once. */
  server(): Promise<x402ResourceServer> {
    const url = this.#deps.facilitatorUrl;
    if (url === null) {
      return Promise.reject(
        new StorefrontError('facilitator_unavailable', 'No x402 facilitator is configured'),
      );
    }
    this.#server ??= (async () => {
      const server = new x402ResourceServer(
        new HTTPFacilitatorClient({ url, timeoutMs: this.#deps.facilitatorTimeoutMs }),
      ).register(this.#deps.terms.network as Network, new UptoEvmScheme());
      await server.initialize();
      return server;
    })().catch((error: unknown) => {
      this.#server = null;
      throw new StorefrontError(
        'facilitator_unavailable',
        `The x402 facilitator could not be reached: ${(error as Error).message}`,
      );
    });
    return this.#server;
  }

  /** The `upto` requirements of a job: at most `limit × page price`. */
  async uptoRequirements(job: NewJob): Promise<PaymentRequirements> {
    const server = await this.server();
    const { terms } = this.#deps;
    const token = terms.token ?? USDC_DOMAIN;
    const [requirements] = await server.buildPaymentRequirements({
      scheme: 'upto',
      network: terms.network as Network,
      payTo: terms.payTo,
      price: {
        amount: String(job.params.limit * job.pagePrice),
        asset: terms.asset,
        extra: { name: token.name, version: token.version },
      },
      maxTimeoutSeconds: JOB_AUTHORIZATION_SECONDS,
    });
    if (requirements === undefined) throw new Error('The upto scheme built no requirements');
    return requirements;
  }

  /** Both faces of the 402 of a job: v2 `upto` in `PAYMENT-REQUIRED`, v1 `exact` for the limit in the body. */
  async challenge(
    job: NewJob,
    message: string,
    error = 'payment_required',
  ): Promise<{ readonly header: string; readonly body: Record<string, unknown> }> {
    const resource = `${this.#deps.publicBaseUrl}/jobs/crawl`;
    const description = describe(job);
    const upto = await this.uptoRequirements(job);
    const v2: PaymentRequired = {
      x402Version: 2,
      error: message,
      resource: { url: resource, description, mimeType: 'application/json' },
      accepts: [upto],
    };
    const exact = this.exactRequirements(job);
    const entry = v1AcceptEntry(exact);
    return {
      header: encodeBase64Json(v2),
      body: {
        ok: false,
        error,
        message,
        x402Version: 1,
        accepts: [
          {
            ...entry,
            outputSchema: {
              input: {
                type: 'http',
                method: 'POST',
                bodyType: 'json',
                bodyFields: CRAWL_JOB_SCHEMA,
              },
              output: entry.outputSchema.output,
            },
            extra: { ...entry.extra, pagePrice: String(job.pagePrice), pages: job.params.limit },
          },
        ],
      },
    };
  }

  /**
   * The `exact` terms of a job for x402 v1, which has no `upto`: the whole limit,
   * settled at creation, whatever the crawl delivers (the description says so).
   */
  exactRequirements(job: NewJob): Requirements {
    const { terms, publicBaseUrl } = this.#deps;
    const most = job.params.limit * job.pagePrice;
    return {
      scheme: 'exact',
      network: terms.network,
      v1Network: v1NetworkName(terms.network),
      amount: String(most),
      price: dollars(most),
      asset: terms.asset,
      payTo: terms.payTo,
      maxTimeoutSeconds: V1_TIMEOUT_SECONDS,
      resource: `${publicBaseUrl}/jobs/crawl`,
      description: `${describe(job)}. x402 v1 has no upto: this pays for all ${job.params.limit} pages at creation, whatever the crawl delivers; pay with x402 v2 (upto) to pay only for delivered pages`,
      mimeType: 'application/json',
      route: JOB_ROUTE,
      tier: job.route,
      includes: `up to ${job.params.limit} pages, each with its signed receipt`,
      token: terms.token ?? USDC_DOMAIN,
      legacyNetworkNames: terms.legacyNetworkNames,
      queryParams: {},
      output: {},
      bazaar: null,
    };
  }

  /** The facilitator of v1 payments (our client of its HTTP API, as the x402 door uses). */
  facilitator(): Facilitator {
    const url = this.#deps.facilitatorUrl;
    if (url === null) {
      throw new StorefrontError('facilitator_unavailable', 'No x402 facilitator is configured');
    }
    return new Facilitator({ url, timeoutMs: this.#deps.facilitatorTimeoutMs });
  }
}

/** The name x402 payments of jobs are recorded under. */
const JOB_ROUTE = 'crawl-job';
/** Seconds a v1 authorization must allow: it is settled at creation. */
const V1_TIMEOUT_SECONDS = 300;

function describe(job: NewJob): string {
  return `Crawl up to ${job.params.limit} pages as ${job.params.format} at ${dollars(job.pagePrice)} a page (${job.route})`;
}

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
 * Settle an ended `upto` job for what it delivered (`charged`, atomic units), once; the
 * outcome is written on the job. A settlement that fails is thrown, so the task is
 * tried again (the authorization stays good until its deadline); an amount of 0 moves
 * nothing.
 */
export async function settleJob(deps: AppDeps, jobId: string): Promise<void> {
  const job = await readJob(deps.db, jobId);
  if (job === null || job.payment === null || job.payment.scheme !== 'upto') return;
  if (job.payment.state !== 'authorized') return;
  const server = await deps.jobs.payments.server();
  const amount = String(job.charged);
  const settled = await server.settlePayment(
    job.payment.payload as PaymentPayload,
    job.payment.requirements as PaymentRequirements,
    undefined,
    undefined,
    { amount },
  );
  if (!settled.success) {
    throw new Error(
      `upto settlement refused: ${settled.errorReason ?? 'unknown'} ${settled.errorMessage ?? ''}`,
    );
  }
  await recordSettlement(deps.db, job, {
    state: 'settled',
    amount: settled.amount ?? amount,
    transaction: settled.transaction || null,
    network: settled.network,
  });
}

async function recordSettlement(
  db: Database,
  job: JobRow,
  settlement: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `UPDATE crawl_jobs SET payment = payment || $2::jsonb, updated_at = now()
      WHERE id = $1 AND payment->>'state' = 'authorized'`,
    [job.id, JSON.stringify(settlement)],
  );
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
