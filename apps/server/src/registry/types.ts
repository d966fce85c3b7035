import type { Signer } from '@storefront/attest';
import type { Fetcher } from '@storefront/safe-fetch';
import type { CallDeadline } from '../work/limits.js';

/** A JSON Schema object, as written in the registry and published in discovery. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * How an `ok:false` result is charged (spec "Errors"; DESIGN §4):
 * - `per-attempt`: delivered and charged (fetch, extract, links, diff, feed);
 * - `free-on-failure`: delivered, not charged (metadata, notarize, robots, headers);
 * - `before-charging`: HTTP 503 before any charge (markdown, table, validate);
 * - `always-delivered`: the product reports a down host as `ok:true`, so every
 *   delivered result is charged; `ok:false` (probe not performed) is not (availability).
 */
export type ChargeRule = 'per-attempt' | 'free-on-failure' | 'before-charging' | 'always-delivered';

/** One price point of a route: USDC atomic units (6 decimals). */
export interface PriceTier {
  /** `extra.tier` in the payment terms; the route name for single-price routes. */
  readonly tier: string;
  readonly amount: number;
  /** `extra.includes`: what this price buys. */
  readonly includes: string;
}

/** One problem with the request's parameters (the `details` of a 400). */
export interface ParamProblem {
  readonly param: string;
  readonly message: string;
}

/** What the route's own checks made of the query: typed inputs, or the problems. */
export type Checked<P> =
  | { readonly ok: true; readonly params: P }
  | { readonly ok: false; readonly details: readonly ParamProblem[] };

/**
 * Run route `route`'s `compute` on `input` (structured-clonable): on a product thread
 * with a deadline and a heap bound, or inline. Rejects with `ComputeLimitError` when the
 * task hit a bound or its call's `deadline` passed (waiting for a thread included), and
 * with `ComputeCancelledError` when `signal` aborted while the task still waited for a
 * thread.
 */
export type Compute = <O>(
  route: string,
  input: unknown,
  signal?: AbortSignal,
  deadline?: CallDeadline,
) => Promise<O>;

/** What a route's work needs from the service. */
export interface WorkContext {
  readonly fetcher: Fetcher;
  /** Where the CPU-bound part of the work runs. */
  readonly compute: Compute;
  readonly publicBaseUrl: string;
  readonly clock: () => Date;
  /** The door the call came through (`key` for now), echoed where a route shows it. */
  readonly door: 'key' | 'x402' | 'mcp';
  /** Whether this call counts against a meter (false on unmetered plans). */
  readonly metered: boolean;
}

/** A result to sign: the canonical text and the envelope the receipt binds. */
export interface Signable {
  readonly text: string;
  readonly url: string;
  readonly status: number | null;
  readonly fetchedAt: string;
}

/**
 * What a route's work produced.
 * - `delivered`: a 200 answer. `ok` is the product's verdict; `sign` is present on
 *   success and the body gets `attestation` from it.
 * - `undeliverable`: the route answers 503 `ok:false` before charging (only routes
 *   whose rule is `before-charging` produce it).
 */
export type WorkOutcome =
  | {
      readonly kind: 'delivered';
      readonly ok: boolean;
      /** The response body in the spec's field order, without `attestation`. */
      readonly body: Record<string, unknown>;
      readonly sign: Signable | null;
      readonly error: string | null;
      readonly upstreamStatus: number | null;
    }
  | {
      readonly kind: 'undeliverable';
      readonly body: Record<string, unknown>;
      readonly error: string;
      readonly upstreamStatus: number | null;
    };

/** One `/buy/*` route: the single source of truth for everything about it. */
export interface RouteEntry<P = unknown> {
  /** The product name: the path segment, MCP tool name and ledger route. */
  readonly name: string;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /** Query parameters: a JSON Schema object of string properties with the spec's limits. */
  readonly params: JsonSchema;
  /** Price points, cheapest first; most routes have one. */
  readonly prices: readonly PriceTier[];
  readonly chargeRule: ChargeRule;
  /** The 200 body, as JSON Schema (closed where the spec says no other fields). */
  readonly response: JsonSchema;
  /** Whether the spec forbids fields beyond its list (tests hold every answer to it). */
  readonly closedResponse: boolean;
  /**
   * When the route answers 404 `not_found`: what a parameter can name that the fetched
   * content may lack (table, validate). Absent on routes that never do.
   */
  readonly notFound?: string;
  /** Checks beyond the schema (URL shape, cross-parameter rules) giving typed params. */
  check(query: Readonly<Record<string, string>>): Checked<P>;
  /** The price point these params select (DESIGN §4, `/buy/fetch` tiers). */
  priceFor(params: P): PriceTier;
  /**
   * The CPU-bound part of the work (parsing and the product), a pure function of
   * structured-clonable input: `run` hands it to `context.compute`, which runs it on a
   * product thread. Absent when the work has nothing heavy to do.
   */
  readonly compute?: (input: never) => unknown;
  /** Fetch, run the product and shape the answer. Never throws for upstream faults. */
  run(params: P, context: WorkContext): Promise<WorkOutcome>;
}

/** The signer a route answer is signed with. */
export type { Signer };
