import type { AnyRoute, CallFacts, PriceTier } from '../registry/types.js';
import type { WorkOutcome } from './outcome.js';

/** Response headers, by name. */
export type Headers = Readonly<Record<string, string>>;

/** An answer as the pipeline and the doors build it; the framework adapter writes it. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

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
 * ticket) and the headers every answer of the call carries; or refused, with the answer.
 */
export type Admission<T> =
  | {
      readonly kind: 'admitted';
      readonly ticket: T;
      readonly metered: boolean;
      readonly headers: Headers;
    }
  /** Refused, or answered without any work (an x402 retry of a payment already made). */
  | { readonly kind: 'refused'; readonly reply: Reply };

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

/** What a door's settlement made of an ending: the answer goes out (with headers), or is replaced. */
export type Settled =
  | { readonly ok: true; readonly headers: Headers }
  | { readonly ok: false; readonly reply: Reply };

/**
 * An access door: a thin adapter that admits or refuses a call before its work and
 * settles it after (DESIGN §1). It never does the work, signs, or picks the charge.
 */
export interface Door<T> {
  readonly name: CallFacts['door'];
  admit(call: PaidCall): Promise<Admission<T>>;
  /**
   * Before the answer goes out: take the payment of a charged call (a door that cannot
   * answers with a reply that replaces the result), give back what any other held.
   */
  settle(ticket: T, ending: Ending): Promise<Settled>;
  /**
   * Once a settled answer was written in full (`written`), or its caller left while it
   * was being written. The key door commits its charge only here.
   */
  delivered?(ticket: T, ending: Ending, written: boolean): void;
}
