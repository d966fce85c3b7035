import type { AnyRoute, CallFacts, ParamProblem, PriceTier } from '../registry/types.js';
import type { WorkOutcome } from './outcome.js';
import type { ResponseProvenance } from './provenance.js';

/** Response headers, by name. */
export type Headers = Readonly<Record<string, string>>;

/**
 * A call answered without its result, the reason as data; nothing is charged. The
 * adapter of each transport builds its answer from these fields: HTTP writes `status`,
 * `headers` and `body`; MCP writes a tool error from `code`, `message`, `details` and
 * `retryAfterSeconds`, or a transport-level 401 for `invalid_key`.
 */
export interface Refusal {
  readonly kind: 'refused';
  /** A service error code, or the product's code of a result answered before charging. */
  readonly code: string;
  readonly message: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** When to call again (s): a rate limit, calls in flight, a draining instance; null: no hint. */
  readonly retryAfterSeconds: number | null;
  /** Each parameter's problem (`invalid_params`); empty otherwise. */
  readonly details: readonly ParamProblem[];
  /** The answer's headers (`RateLimit-*`, `Retry-After`, the x402 terms …). */
  readonly headers: Headers;
  /**
   * The answer's body over HTTP: the error body, the payment terms of a 402, or the
   * `ok:false` result of a route that answers failures before charging.
   */
  readonly body: unknown;
}

/** A call answered with its result (HTTP 200), and what that cost. */
export interface Delivery {
  readonly kind: 'delivered';
  /** The result as delivered, its receipt included. */
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
  /** The product's verdict: a route may deliver an `ok:false` result (its charge rule says). */
  readonly ok: boolean;
  /** The code and message of an `ok:false` result; null on success. */
  readonly error: string | null;
  readonly message: string | null;
  /**
   * What the delivery cost: `charged` by the route's rule, `free`, or `paid-earlier`: the
   * result a payment already made paid for (an x402 retry), handed back without work.
   */
  readonly charge: 'charged' | 'free' | 'paid-earlier';
  /**
   * The result's `response-provenance` claim (`provenance.ts`), set by the pipeline on
   * every delivered result of a call whose question reads; absent otherwise.
   */
  readonly provenance?: ResponseProvenance;
}

/** What a paid call came to, as the pipeline hands it to the adapter that writes it. */
export type CallResult = Delivery | Refusal;

/** A paid call whose params were read: what a door decides on. */
export interface PaidCall {
  readonly route: AnyRoute;
  readonly params: unknown;
  /** The price point the params select. */
  readonly price: PriceTier;
  readonly requestId: string | null;
  /** A request header by (lower-case) name. */
  header(name: string): string | undefined;
}

/**
 * What a door decided before any work: admitted, with what it holds for the call (its
 * ticket) and the headers every answer of the call carries; refused; or answered
 * without any work (an x402 retry of a payment already made gets the paid result).
 */
export type Admission<T> =
  | {
      readonly kind: 'admitted';
      readonly ticket: T;
      readonly metered: boolean;
      readonly headers: Headers;
    }
  | Refusal
  | Delivery;

/**
 * How an admitted call ended, as its door settles it:
 * - `charge`: a result the route's rule charges for, about to be delivered;
 * - `free`: a result delivered without charge;
 * - `refuse`: answered with an error status, never charged;
 * - `failed`: nothing delivered (the caller left, or the service failed).
 */
export type Ending =
  | {
      readonly kind: 'charge' | 'free';
      readonly outcome: WorkOutcome;
      readonly receiptNonce: string | null;
      /** The answer's body as it will be delivered (with its receipt). */
      readonly body: unknown;
    }
  | { readonly kind: 'refuse'; readonly outcome: WorkOutcome; readonly status: number }
  | {
      readonly kind: 'failed';
      readonly error: 'internal_error' | 'client_closed';
      readonly upstreamStatus: number | null;
    };

/**
 * What a payment protocol carries beside a paid call's answers (x402: signed offers
 * beside the terms of a 402, a signed receipt and the result's provenance in the
 * settlement response). Applied by the pipeline to every answer of every door; an
 * answer without the protocol's terms or settlement is returned as it is.
 */
export interface PaymentExtensions {
  refused(call: PaidCall, refused: Refusal): Promise<Refusal>;
  delivered(call: PaidCall, delivery: Delivery): Promise<Delivery>;
}

/**
 * What a door's settlement made of an ending: the answer goes out (with headers), or is
 * refused. `ready`: what must have happened before the answer's first byte is written;
 * the answer is built and signed meanwhile (docs/decisions.md, "The answer is prepared
 * while its statement runs"). It never rejects.
 */
export type Settled =
  | { readonly ok: true; readonly headers: Headers; readonly ready?: Promise<void> }
  | { readonly ok: false; readonly refusal: Refusal };

/**
 * An access door: a thin adapter that admits or refuses a call before its work and
 * settles it after (DESIGN §1). It never does the work, signs, or picks the charge.
 */
export interface Door<T> {
  readonly name: CallFacts['door'];
  /**
   * Before the params are read: refuse a caller the door can tell from the request's
   * headers alone has no standing (no I/O). A door whose transport must refuse such a
   * caller before any input error has one (MCP answers a tools/call without a key 401,
   * mcp.md §3); HTTP doors do not (DESIGN §4: bad params are 400 first, on every door).
   */
  screen?(request: Pick<PaidCall, 'requestId' | 'header'>): Refusal | null;
  admit(call: PaidCall): Promise<Admission<T>>;
  /**
   * Before the answer goes out: take the payment of a charged call (a door that cannot
   * refuses, and the refusal replaces the result), give back what any other held. What
   * the door still waits for when it resolves, and the answer must wait for, is `ready`.
   */
  settle(ticket: T, ending: Ending): Promise<Settled>;
  /**
   * Once a settled answer was written in full (`written`), or its caller left while it
   * was being written. The key door commits its charge only here.
   */
  delivered?(ticket: T, ending: Ending, written: boolean): void;
}
