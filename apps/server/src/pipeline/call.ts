import type { Attestation, Signer } from '@storefront/attest';
import type { Fetcher } from '@storefront/safe-fetch';
import type { Probes } from '../probes/index.js';
import type { AnyRoute } from '../registry/types.js';
import type { Compute } from '../work/compute.js';
import { withinDeadline } from '../work/deadline.js';
import { ComputeCancelledError, callDeadline } from '../work/limits.js';
import { chargeFor } from './charge.js';
import type { CallResult, Door, Ending, PaidCall, PaymentExtensions } from './door.js';
import type { WorkOutcome } from './outcome.js';
import { readParams } from './params.js';
import { claimOf, type Question } from './provenance.js';
import { refusal, resultRefusal } from './refusal.js';
import { perform } from './work.js';

/** What the pipeline needs from the service. */
export interface PipelineDeps {
  readonly fetcher: Fetcher;
  readonly compute: Compute;
  readonly signer: Signer;
  readonly clock: () => Date;
  readonly publicBaseUrl: string;
  /** The network of `gather` reads (DNS, guarded TLS); absent, such routes fail. */
  readonly probes?: Probes;
  /** True once the instance is shutting down: no new call is admitted. Absent: never. */
  readonly draining?: () => boolean;
  /** What the payment protocol adds to answers (offers, receipts); absent: nothing. */
  readonly extensions?: PaymentExtensions;
}

/** `Retry-After` of a call refused because the instance is shutting down (s). */
export const DRAINING_RETRY_SECONDS = 1;

/** How the pipeline talks to the caller, whatever the transport. */
export interface Exchange {
  /** Aborts when the caller leaves before its answer has been written. */
  readonly left: AbortSignal;
  /**
   * Answer the call with `result` (typed data: the transport's adapter builds its own
   * answer from it); resolves true once that answer was written in full, false if the
   * caller left. The pipeline does not wait for it before the call ends. Called at most
   * once per call, and not at all when the caller left before there was an answer.
   * With `ready`, no byte of the answer is written before `ready` resolves; the adapter
   * builds (and signs) the answer meanwhile.
   */
  send(result: CallResult, ready?: Promise<void>): Promise<boolean>;
}

/** A paid call as it arrived: its route, its query, and how to read its headers. */
export interface CallRequest {
  readonly route: AnyRoute;
  readonly query: Readonly<Record<string, unknown>>;
  readonly requestId: string | null;
  /** A request header by (lower-case) name. */
  header(name: string): string | undefined;
  /**
   * What was asked, as the `response-provenance` fixed point names it (`endpoint`,
   * `inputs`), read only when a result is delivered; null when the request cannot be
   * mapped (a malformed query), absent when the adapter does not say: no claim is made
   * either way.
   */
  readonly question?: () => Question | null;
}

/**
 * One paid call, door-neutral, as a straight line (DESIGN §1): a door that screens
 * callers by their headers refuses one without standing → the params (400 before
 * any payment is asked or taken, on every door) → a shutting-down instance refuses
 * (503 `draining`) → the door admits or refuses → the work (fetch, product, shape)
 * within `budgetMs` from admission → the charge by the route's rule (`chargeFor`) → the
 * receipt → the door settles → the answer, handed to `exchange` as typed data. Whatever
 * happens after admission, the door settles the call exactly once; nothing is charged
 * without a delivered result.
 */
export async function runPaidCall<T>(
  deps: PipelineDeps,
  door: Door<T>,
  request: CallRequest,
  exchange: Exchange,
  budgetMs: number,
): Promise<void> {
  const { route, requestId } = request;
  const screened = door.screen?.(request) ?? null;
  if (screened !== null) {
    await exchange.send(screened);
    return;
  }
  const read = readParams(route, request.query);
  if (!read.ok) {
    const message = `Invalid parameters for ${route.path}`;
    await exchange.send(refusal('invalid_params', message, { requestId, details: read.details }));
    return;
  }
  const call: PaidCall = {
    route,
    params: read.params,
    price: route.priceFor(read.params),
    requestId,
    header: request.header,
  };
  // A shutting-down instance finishes the calls it has admitted and admits none: the
  // caller retries, and a load balancer sends the retry to another instance.
  if (deps.draining?.() === true) {
    await exchange.send(
      refusal(
        'draining',
        `This instance is shutting down and admits no new calls; retry in ${DRAINING_RETRY_SECONDS} s`,
        { requestId, retryAfterSeconds: DRAINING_RETRY_SECONDS },
      ),
    );
    return;
  }
  const finish = finisher(deps, request, call);
  const admission = await door.admit(call);
  if (admission.kind !== 'admitted') {
    await exchange.send(await finish(admission));
    return;
  }
  const { ticket, headers } = admission;
  // The work's budget counts from admission: the key door's admission is one statement,
  // and an x402 verification round trip is the facilitator's time, not the work's.
  const deadline = callDeadline(budgetMs);

  let outcome: WorkOutcome;
  try {
    outcome = await perform(
      call.route,
      call.params,
      {
        ...withinDeadline(deps, deadline, exchange.left),
        deadline,
        publicBaseUrl: deps.publicBaseUrl,
        clock: deps.clock,
      },
      { door: door.name, metered: admission.metered },
    );
  } catch (error) {
    // A product dropped from the queue because its caller left: nobody to answer.
    const cancelled = error instanceof ComputeCancelledError;
    await door.settle(ticket, {
      kind: 'failed',
      error: cancelled ? 'client_closed' : 'internal_error',
      upstreamStatus: null,
    });
    if (cancelled) return;
    throw error;
  }

  // The one decision of what the outcome costs and how it is answered.
  const charge = chargeFor(call.route, outcome);
  if (charge.kind === 'refuse') {
    await door.settle(ticket, { kind: 'refuse', outcome, status: charge.status });
    await exchange.send(resultRefusal(outcome, charge.status, headers));
    return;
  }
  // The caller left while the work ran: nothing can be delivered, so nothing is charged.
  if (exchange.left.aborted) {
    await door.settle(ticket, {
      kind: 'failed',
      error: 'client_closed',
      upstreamStatus: outcome.upstreamStatus,
    });
    return;
  }

  const attestation = sign(deps.signer, outcome, call.route.name);
  const body = attestation === null ? outcome.body : { ...outcome.body, attestation };
  const ending: Ending = {
    kind: charge.kind,
    outcome,
    receiptNonce: attestation?.nonce ?? null,
    body,
  };
  const settled = await door.settle(ticket, ending);
  if (!settled.ok) {
    await exchange.send(await finish(settled.refusal));
    return;
  }
  const ok = outcome.kind === 'delivered' && outcome.ok;
  // The answer is built while what the door still waits for (`ready`) runs, and written
  // once it has.
  const written = exchange.send(
    await finish({
      kind: 'delivered',
      body,
      headers: { ...headers, ...settled.headers },
      ok,
      error: ok ? null : outcome.error,
      message: ok ? null : (outcome.message ?? null),
      charge: charge.kind === 'charge' ? 'charged' : 'free',
    }),
    settled.ready,
  );
  // The door hears once the answer was written; the call does not wait for it (an MCP
  // answer is written only after the tool's result has been handed back).
  const { delivered } = door;
  if (delivered !== undefined) void written.then((whole) => delivered(ticket, ending, whole));
}

/**
 * The last step of every answer of an admitted call, whatever the door: a delivered
 * result gets its `response-provenance` claim (the one place it is made, `provenance.ts`),
 * then the payment protocol adds what it carries (signed offers beside terms; a signed
 * receipt and the claim in the settlement response). A result already settled is
 * never lost to these: should one fail, the answer goes out without it.
 */
function finisher(
  deps: PipelineDeps,
  request: CallRequest,
  call: PaidCall,
): (result: CallResult) => Promise<CallResult> {
  const { question } = request;
  return async (result) => {
    if (result.kind === 'refused') {
      if (deps.extensions === undefined) return result;
      try {
        return await deps.extensions.refused(call, result);
      } catch {
        return result;
      }
    }
    const claim = claimOf(question?.() ?? null, call.route, result.body, deps.clock());
    const claimed = claim === null ? result : { ...result, provenance: claim };
    if (deps.extensions === undefined) return claimed;
    try {
      return await deps.extensions.delivered(call, claimed);
    } catch {
      return claimed;
    }
  };
}

/** The receipt of a delivered success, naming its route; null for anything else. */
function sign(signer: Signer, outcome: WorkOutcome, route: string): Attestation | null {
  if (outcome.kind !== 'delivered' || outcome.sign === null) return null;
  // The envelope (and the page verdict, on a route that reads a page) is what it binds.
  const { text, ...envelope } = outcome.sign;
  return signer.sign(text, { route, ...envelope });
}
