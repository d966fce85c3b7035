import { StorefrontError } from '@storefront/core';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type {
  Network,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
} from '@x402/core/types';
import { UptoEvmScheme } from '@x402/evm/upto/server';
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import type { Database, Queryable } from '../db/database.js';
import { encodeBase64Json } from '../doors/x402/base64-json.js';
import type { AuthorizationLedger } from '../doors/x402/chain.js';
import {
  Facilitator,
  type Requirements,
  type Terms,
  v1AcceptEntry,
  v1NetworkName,
} from '../doors/x402/index.js';
import {
  type OfferReceiptKeys,
  type OfferSigner,
  offerSigner,
  type ReceiptExtension,
  signedReceipt,
} from '../doors/x402/offer-receipt.js';
import type { SettleDeps } from '../doors/x402/settle.js';
import { settlementHeader } from '../doors/x402/settlement-header.js';
import { dollars, USDC_DOMAIN } from '../doors/x402/terms.js';
import { CRAWL_JOB_SCHEMA } from './params.js';
import type { JobQueue } from './queue.js';
import { TASKS } from './queue.js';
import { type JobRow, type NewJob, readJob } from './store.js';

/**
 * How long an `upto` authorization for a job stays valid (s): the crawl and its
 * settlement must end within it. A day covers a 10,000-page crawl at a polite pace.
 */
export const JOB_AUTHORIZATION_SECONDS = 86_400;

/** What the job door's payments need: the terms, the facilitator and the chain's record. */
export interface JobPaymentDeps {
  readonly terms: Terms;
  readonly facilitatorUrl: string | null;
  readonly facilitatorTimeoutMs: number;
  readonly publicBaseUrl: string;
  /** The token's record of authorizations, read when a v1 settlement's outcome is unknown. */
  readonly ledger: AuthorizationLedger | null;
  readonly clock: () => Date;
  /** The keys of the signed offers of a job's 402 and the signed receipt of its settlement. */
  readonly offerReceiptKeys: OfferReceiptKeys;
}

/**
 * x402 for crawl jobs: `upto` on x402 v2 (the payer authorizes `limit × page price`
 * through Permit2; the job settles once, at the end, for the pages delivered), on the
 * official resource server and `upto` scheme (`@x402/core`, `@x402/evm`); x402 v1 has
 * no `upto`, so its terms are `exact` for the whole limit, settled at creation.
 */
export class JobPayments {
  readonly #deps: JobPaymentDeps;
  readonly #offers: OfferSigner;
  #server: Promise<x402ResourceServer> | null = null;

  constructor(deps: JobPaymentDeps) {
    this.#deps = deps;
    this.#offers = offerSigner(deps.offerReceiptKeys, deps.clock);
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
    // Signed offers beside each face's terms (the x402 `offer-receipt` extension).
    const [uptoOffers, exactOffers] = await Promise.all([
      this.#offers(resource, upto, 0),
      this.#offers(resource, exact, 0),
    ]);
    v2.extensions = { [OFFER_RECEIPT]: { info: { offers: uptoOffers } } };
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
        extensions: { [OFFER_RECEIPT]: { info: { offers: exactOffers } } },
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

  /**
   * The signed receipt (`offer-receipt`) of a job's settled payment, or null when it
   * cannot be made: a settlement already made is never undone by its receipt.
   */
  async receipt(
    payer: string,
    network: string,
    transaction: string | null,
  ): Promise<ReceiptExtension | null> {
    try {
      return await signedReceipt(this.#deps.offerReceiptKeys, {
        resourceUrl: `${this.#deps.publicBaseUrl}/jobs/crawl`,
        payer,
        network,
        transaction,
      });
    } catch {
      return null;
    }
  }

  /**
   * The `X-PAYMENT-RESPONSE` header of a v1 job's settled payment (`payment` as the job
   * stores it), with its signed receipt in `extensions`; the receipt also comes back to
   * be stored on the job.
   */
  async v1Settlement(payment: Readonly<Record<string, unknown>>): Promise<{
    readonly header: { readonly name: string; readonly value: string };
    readonly extensions: Readonly<Record<string, unknown>> | undefined;
  }> {
    const transaction = typeof payment.transaction === 'string' ? payment.transaction : '';
    const payer = String(payment.payer);
    const { network } = this.#deps.terms;
    const receipt = await this.receipt(payer, network, transaction === '' ? null : transaction);
    const extensions = receipt === null ? undefined : { [OFFER_RECEIPT]: receipt };
    return {
      header: settlementHeader(1, { transaction, network, payer }, extensions),
      extensions,
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

  /**
   * What settling a v1 payment needs (`settleClaimed`, `settleEarlier`), as the x402
   * door settles a call's: when the facilitator's answer is lost or a refusal, the
   * chain says whether it paid.
   */
  settleDeps(db: Queryable): SettleDeps {
    const { ledger, clock } = this.#deps;
    return { db, facilitator: this.facilitator(), ledger, clock };
  }
}

/** The name x402 payments of jobs are recorded under. */
export const JOB_ROUTE = 'crawl-job';
/** Seconds a v1 authorization must allow: it is settled at creation. */
const V1_TIMEOUT_SECONDS = 300;

function describe(job: NewJob): string {
  return `Crawl up to ${job.params.limit} pages as ${job.params.format} at ${dollars(job.pagePrice)} a page (${job.route})`;
}

/**
 * Settle an ended `upto` job for what it delivered (`charged`, atomic units), once; the
 * outcome is written on the job. A settlement that fails is thrown, so the task is
 * tried again (the authorization stays good until its deadline); an amount of 0 moves
 * nothing.
 */
export async function settleJob(
  db: Database,
  payments: JobPayments,
  jobId: string,
  lastTry = false,
): Promise<void> {
  const job = await readJob(db, jobId);
  if (job === null || job.payment === null || job.payment.scheme !== 'upto') return;
  if (job.payment.state !== 'authorized') return;
  const server = await payments.server();
  const amount = String(job.charged);
  const settled = await server.settlePayment(
    job.payment.payload as PaymentPayload,
    job.payment.requirements as PaymentRequirements,
    undefined,
    undefined,
    { amount },
  );
  if (!settled.success) {
    const reason = `${settled.errorReason ?? 'unknown'} ${settled.errorMessage ?? ''}`.trim();
    // Out of tries: the job shows that nothing was paid, and why.
    if (lastTry) {
      await recordSettlement(db, job, { state: 'unsettled', error: reason });
      return;
    }
    throw new Error(`upto settlement refused: ${reason}`);
  }
  const transaction = settled.transaction || null;
  // The payer as the job holds it (the payment's `from`, lower case).
  const receipt = await payments.receipt(String(job.payment.payer), settled.network, transaction);
  await recordSettlement(db, job, {
    state: 'settled',
    amount: settled.amount ?? amount,
    transaction,
    network: settled.network,
    ...(receipt === null ? {} : { extensions: { [OFFER_RECEIPT]: receipt } }),
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
 * Start a job paid with x402 v1 once its payment is known to be paid: its payment is
 * marked settled and its seed task queued, in one transaction; a job already started
 * is left alone, so the creating request and the sweep may both call it.
 */
export async function startPaidJob(
  db: Database,
  queue: JobQueue,
  jobId: string,
  transaction: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE crawl_jobs
          SET payment = payment || jsonb_build_object('state', 'settled', 'transaction', $2::text),
              updated_at = now()
        WHERE id = $1 AND status = 'queued' AND payment->>'state' = 'settling'
        RETURNING id`,
      [jobId, transaction],
    );
    if (rows.length === 0) return false;
    await queue.add(tx, TASKS.seed, { job: jobId });
    return true;
  });
}

/** Remove a v1 job whose payment is known never to have paid (it was never started). */
export async function dropUnpaidJob(db: Queryable, jobId: string): Promise<void> {
  await db.query(
    `DELETE FROM crawl_jobs WHERE id = $1 AND status = 'queued' AND payment->>'state' = 'settling'`,
    [jobId],
  );
}

/**
 * The sweep's part for v1 jobs (docs/decisions.md, "Crawl jobs: a v1 payment is
 * settled after its job exists"): a job still waiting for its payment whose payment row
 * has since ended, because the x402 reconciliation read the chain after a lost answer or
 * a crash, is started when it paid and removed when it did not. Returns the counts.
 */
export async function settleWaitingJobs(
  db: Database,
  queue: JobQueue,
): Promise<{ readonly started: number; readonly dropped: number }> {
  const { rows } = await db.query<{ id: string; state: string; transaction: string | null }>(
    `SELECT j.id, p.state, p.transaction
       FROM crawl_jobs j
       JOIN x402_payments p
         ON p.payer = lower(j.payment->>'payer') AND p.nonce = lower(j.payment->>'nonce')
      WHERE j.status = 'queued' AND j.door = 'x402' AND j.payment->>'state' = 'settling'
        AND p.state IN ('settled', 'released', 'failed')`,
  );
  let started = 0;
  let dropped = 0;
  for (const row of rows) {
    if (row.state === 'settled') {
      if (await startPaidJob(db, queue, row.id, row.transaction)) started += 1;
    } else {
      await dropUnpaidJob(db, row.id);
      dropped += 1;
    }
  }
  return { started, dropped };
}
