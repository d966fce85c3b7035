import type { FetchedDocument, ParamProblem, ReceiptRule, Sha256Hex } from '@storefront/core';
import type { PageVerdict } from '@storefront/html';
import type { SafeFetchResult } from '@storefront/safe-fetch';
import type { Probes } from '../probes/index.js';
import type { SliceRequest } from './slice.js';

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

export type { ParamProblem };

/** What the route's own checks made of the query: typed inputs, or the problems. */
export type Checked<P> =
  | { readonly ok: true; readonly params: P }
  | { readonly ok: false; readonly details: readonly ParamProblem[] };

/**
 * What a call reads before its product runs:
 * - `page`: one document, which must answer 2xx (any status with `anyStatus`); with
 *   `headOnly` its body is not downloaded; with `accept` the request asks for those
 *   media types (the `Accept` header; any type otherwise), for a product that reads one
 *   kind of body (pdf) from a server that negotiates;
 * - `page-or-content`: a page, or nothing when `url` gives null (inline content);
 * - `fetches`: several URLs read at once, handed to the product as they came out,
 *   failures included (robots reads three files, availability probes one);
 * - `walk`: dependent fetches in rounds (map, crawl): `start` names the first URLs,
 *   and after each round `step`, a pure function run on a product thread, reads the
 *   outcomes and names the next ones, carrying a state of plain data. The pipeline
 *   fetches each round at once, stops at `maxFetches` or when the call's deadline
 *   nears (keeping time for the product), and hands the last state to `compute`;
 * - `gather`: the route's own gatherer reads what is not an HTTP fetch (DNS answers, a
 *   TLS handshake) through the service's {@link Probes}, within the call's budget, and
 *   resolves to plain, structured-clonable facts for the product. It never rejects for
 *   anything the network or the target does (that is in the facts).
 */
export type Reads<P> =
  | {
      readonly kind: 'page';
      url(params: P): string;
      readonly anyStatus?: boolean;
      readonly headOnly?: boolean;
      /** The `Accept` request header, e.g. `application/pdf` with a low-quality wildcard. */
      readonly accept?: string;
    }
  | { readonly kind: 'page-or-content'; url(params: P): string | null }
  | { readonly kind: 'fetches'; urls(params: P): readonly string[] }
  | {
      readonly kind: 'walk';
      /** Where the walk starts: where a failure is reported when nothing else says. */
      url(params: P): string;
      /** The most fetches one call makes. */
      maxFetches(params: P): number;
      /** The first round (pure, cheap: on the event loop). */
      start(params: P): WalkPlan;
      /** The next round from the outcomes of the last, in the order asked (pure; on a product thread). */
      step(input: WalkStepInput): WalkPlan;
    }
  | { readonly kind: 'gather'; gather(params: P, gathering: Gathering): Promise<unknown> };

/** What a `gather` read is handed: the network it may use and the call's time. */
export interface Gathering {
  /** Aborts when the call's budget runs out or its caller leaves. */
  readonly signal: AbortSignal;
  /** Whole milliseconds left of the call's budget when the gathering started. */
  readonly timeoutMs: number;
  readonly probes: Probes;
}

/** A walk's next round: its state (structured-clonable data) and the URLs to fetch; none ends it. */
export interface WalkPlan {
  readonly state: unknown;
  readonly fetch: readonly string[];
}

/** What a walk's `step` reads: the state and the outcomes of the round just fetched. */
export interface WalkStepInput {
  readonly state: unknown;
  readonly results: readonly SafeFetchResult[];
}

/** Why a walk ended: its plan ran out, the call's deadline neared, or `maxFetches` was reached. */
export type WalkStop = 'done' | 'deadline' | 'fetch-cap';

/** What the pipeline read for a route's {@link Reads}, and when. */
export type Source =
  | { readonly kind: 'page'; readonly doc: FetchedDocument }
  | {
      readonly kind: 'fetches';
      readonly results: readonly SafeFetchResult[];
      /** When the reads started (ISO-8601). */
      readonly at: string;
    }
  | {
      readonly kind: 'walk';
      /** The state the last round left. */
      readonly state: unknown;
      readonly stop: WalkStop;
      /** Fetches made. */
      readonly fetches: number;
      /** When the walk started (ISO-8601). */
      readonly at: string;
    }
  | { readonly kind: 'none'; readonly at: string }
  | GatheredSource;

/** What a `gather` read produced: the gatherer's facts, and when it started (ISO-8601). */
export interface GatheredSource<F = unknown> {
  readonly kind: 'gathered';
  readonly facts: F;
  readonly at: string;
}

export type PageSource = Extract<Source, { readonly kind: 'page' }>;
export type FetchesSource = Extract<Source, { readonly kind: 'fetches' }>;
export type WalkSource = Extract<Source, { readonly kind: 'walk' }>;
export type NoneSource = Extract<Source, { readonly kind: 'none' }>;

/** A route's product input: its params, what was read, and the service's public address. */
export interface ProductInput<P, S extends Source = Source> {
  readonly params: P;
  readonly source: S;
  readonly baseUrl: string;
}

/** The door a call came through, and whether it counts against a meter. */
export interface CallFacts {
  readonly door: 'key' | 'x402' | 'mcp';
  /** False on unmetered plans. */
  readonly metered: boolean;
}

/** What a receipt binds besides the text: where the content came from and when. */
export interface Envelope {
  readonly url: string;
  readonly status: number | null;
  readonly fetchedAt: string;
  /** The verdict on the page the answer was made from (judged routes), signed with it. */
  readonly page?: PageVerdict;
  /** Where a part of the text sits in the whole (an answer asked for in part), signed with it. */
  readonly slice?: {
    readonly offset: number;
    readonly length: number;
    readonly total: number;
    readonly wholeHash: Sha256Hex;
  };
}

/**
 * The answer a route shapes from its product's output.
 * - `ok:true`: the body in the spec's field order (without `attestation`), the `text`
 *   its receipt signs, and the envelope when the source is not one page (a page's is
 *   its own url, status and fetch time).
 * - `ok:false`: the failure's code and message, the fields the route's failure body
 *   carries besides them, and where it happened when the source is not one page.
 */
export type Shaped =
  | {
      readonly ok: true;
      readonly body: Record<string, unknown>;
      readonly text: string;
      readonly envelope?: Envelope;
    }
  | {
      readonly ok: false;
      readonly error: string;
      readonly message?: string | undefined;
      readonly fields?: Record<string, unknown>;
      readonly at?: { readonly url: string; readonly status: number | null };
    };

/** Where an example call reads: the fixture site the tests serve on loopback. */
export interface ExampleSite {
  /** A URL on the fixture site (its pages: `/product`, `/wiki`, `/news`, `/seo`, …, and every route's own {@link RouteExample.pages}). */
  url(path: string): string;
  /** A URL on the fixture shop: its own origin, with robots.txt, sitemaps and linked pages (map, crawl). */
  shopUrl(path: string): string;
}

/** A page an example serves on the fixture site. */
export interface ExamplePage {
  readonly contentType: string;
  readonly body: string;
}

/**
 * A route's example, read by the catalogs and by the tests of every door:
 * - `query`: a sample call for catalogs (the Bazaar's `queryParams`), with public URLs;
 *   it passes the route's checks;
 * - `call`: a call that succeeds on the fixture site, as the tests make it through the
 *   key, x402 and MCP doors, and `credits`, what it costs on the key door;
 * - `pages`: pages the call reads that the fixture site serves from here, by path.
 */
export interface RouteExample {
  readonly query: Readonly<Record<string, string>>;
  call(site: ExampleSite): Readonly<Record<string, string>>;
  readonly credits: number;
  readonly pages?: Readonly<Record<string, ExamplePage>>;
}

/**
 * One `/buy/*` route: the single source of truth for everything about it. The pipeline
 * reads what {@link reads} names, runs {@link compute} on it (on a product thread when
 * it parses a downloaded body), shapes the answer with {@link shape}, signs it and
 * charges by {@link chargeRule}. `P` is the typed params, `S` what the route reads, `O`
 * its product's output.
 */
export interface RouteDefinition<P, S extends Source = Source, O = unknown> {
  /** The product name: the path segment, MCP tool name and ledger route. */
  readonly name: string;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /** Query parameters: a JSON Schema object of string properties with the spec's limits. */
  readonly params: JsonSchema;
  /** Price points, cheapest first; most routes have one. */
  readonly prices: readonly PriceTier[];
  /** A sample query for catalogs and a call the tests make on the fixture site. */
  readonly example: RouteExample;
  readonly chargeRule: ChargeRule;
  /** The 200 body, as JSON Schema (closed where the spec says no other fields). */
  readonly response: JsonSchema;
  /**
   * How the signed `text` follows from the answer's fields (the product package's
   * `receiptRule`): verifiers apply it by the route name the receipt carries, and the
   * service-attestation document publishes it.
   */
  readonly receiptRule: ReceiptRule;
  /** Whether the spec forbids fields beyond its list (tests hold every answer to it). */
  readonly closedResponse: boolean;
  /**
   * When the route answers 404 `not_found`: what a parameter can name that the fetched
   * content may lack (table, validate). Absent on routes that never do.
   */
  readonly notFound?: string;
  /**
   * The verdict on the page read (`page-verdict.ts`). `gate`: the route's value is the
   * page's content (`judgedRoute`): its product runs only on a page judged `content`,
   * another verdict is answered `not_content`. `report`: the route's own answer stands
   * whatever the page is (`reportingRoute`: headers, availability). Either way the verdict
   * is in the answer (`page`) and its receipt. Absent: the route reads no page's content.
   */
  readonly pageVerdict?: 'gate' | 'report';
  /**
   * The answer's text can be cut to a part (`maxChars`, `offset`; `slice.ts`): `of` reads
   * the part the params ask for (null for the whole text), and `copies` names the body's
   * fields besides `text` that hold the same text (`data.markdown`). The pipeline cuts
   * them all alike and adds `slice`; the receipt signs the part and its place.
   */
  readonly slices?: {
    of(params: P): SliceRequest | null;
    readonly copies: readonly (readonly string[])[];
  };
  /** Checks beyond the schema (URL shape, cross-parameter rules) giving typed params. */
  check(query: Readonly<Record<string, string>>): Checked<P>;
  /** The price point these params select (DESIGN §4, `/buy/fetch` tiers). */
  priceFor(params: P): PriceTier;
  /** What the call reads. */
  readonly reads: Reads<P>;
  /**
   * The product: a pure function of structured-clonable input, so that it can run on a
   * product thread. Never throws for bad content (it returns a failure). It may answer
   * with a promise (a product built on an asynchronous library, pdf); the thread, and
   * the pipeline on the event loop, wait for it.
   */
  compute(input: ProductInput<P, S>): O | Promise<O>;
  /**
   * Load what the product needs ahead of its first call (a large library, pdf.js): a
   * product thread starts every route's `warm` in the background as soon as it is ready,
   * so the first call does not pay for the load (one arriving sooner waits for the
   * rest of it) and no other product waits for it. Absent on routes whose code loads
   * with the registry.
   */
  readonly warm?: () => Promise<void>;
  /** The answer from the product's output; `call` says which door and whether metered. */
  shape(output: O, input: ProductInput<P, S>, call: CallFacts): Shaped;
}

/** Any route, as the pipeline and the discovery documents handle them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds routes of every params type.
export type AnyRoute = RouteDefinition<any, any, any>;

/** The name the rest of the server knows routes by. */
export type RouteEntry<P = unknown> = RouteDefinition<P, Source, unknown>;
