import type { LookupAddress } from 'node:dns';
import type { UpstreamErrorCode as CoreUpstreamErrorCode, FetchedDocument } from '@storefront/core';
import type { NOT_FETCH_FAILURES } from './errors.js';

/**
 * The error codes a fetch can fail with; every one is listed in the README: core's
 * upstream codes but the two it never produces, and `internal_error` for our own bug.
 */
export type UpstreamErrorCode =
  | Exclude<CoreUpstreamErrorCode, (typeof NOT_FETCH_FAILURES)[number]>
  | 'internal_error';

/** One exact loopback `(IP, port)` pair that tests may reach through the guard. */
export interface AllowEntry {
  readonly ip: string;
  readonly port: number;
}

/**
 * A `dns.lookup`-compatible function. It is called with `{ all: true }` and must answer
 * with every address the name resolves to.
 */
export type LookupFunction = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Options of {@link createFetcher}. */
export interface FetcherOptions {
  /**
   * Test-only exact loopback `(IP, port)` pairs that bypass the address and port checks,
   * as entries or in the `SAFE_FETCH_ALLOW` format (`127.0.0.1:43123,[::1]:43124`).
   * Refused when `NODE_ENV` is `production`.
   */
  readonly testOnlyAllow?: ReadonlyArray<AllowEntry> | string | undefined;
  /** Wall-clock deadline over the whole exchange, redirects and body included (ms). */
  readonly timeoutMs?: number | undefined;
  /** Cap on the decoded body; longer bodies are cut here and marked `truncated`. */
  readonly maxBodyBytes?: number | undefined;
  /** How many redirects are followed; one more fails with `too_many_redirects`. */
  readonly maxRedirects?: number | undefined;
  /** Destination ports that may be contacted. */
  readonly allowedPorts?: ReadonlyArray<number> | undefined;
  /** The `User-Agent` request header. */
  readonly userAgent?: string | undefined;
  /** Resolver used at connect time; tests pass a stub to simulate DNS answers. */
  readonly lookup?: LookupFunction | undefined;
}

/** Per-request options of {@link Fetcher.fetch}. */
export interface FetchInit {
  /**
   * `POST` sends `payload` (a webhook delivery): the same guard on every connection, but
   * a redirect is not followed; it is the answer.
   */
  readonly method?: 'GET' | 'HEAD' | 'POST' | undefined;
  /** The request body of a `POST` (and only of a `POST`). */
  readonly payload?: string | undefined;
  /**
   * `false`: a GET whose final body is not downloaded. The document comes back as soon
   * as the final response's status and headers arrive, with empty `bytes`; the body is
   * drained in the background (up to 128 KiB, else the connection is closed). For callers that read only the response
   * head (a security-headers audit), where a HEAD request could be answered differently.
   */
  readonly body?: boolean | undefined;
  /** Extra request headers. Credentials (`authorization`, `cookie`) go to the first URL only. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * This request's wall-clock deadline (ms), for a caller with a budget of its own (a
   * server call that must end in time): it can shorten the fetcher's `timeoutMs`, never
   * lengthen it.
   */
  readonly timeoutMs?: number | undefined;
}

/** Where the time of one fetch went, in whole milliseconds. */
export interface FetchTiming {
  /** From the call until the final response's headers arrived (redirects included). */
  readonly headersMs: number;
  /** Reading and decoding the final body. */
  readonly bodyMs: number;
  /** The whole call. */
  readonly totalMs: number;
}

/** A fetch that produced a document (any HTTP status, including 4xx and 5xx). */
export interface SafeFetchSuccess {
  readonly ok: true;
  readonly doc: FetchedDocument;
  readonly timing: FetchTiming;
}

/** A fetch that produced no document. */
export interface SafeFetchFailure {
  readonly ok: false;
  readonly error: UpstreamErrorCode;
  /** The upstream status of the response being handled when it failed, when there was one. */
  readonly status?: number;
  readonly message: string;
  /** The URL being fetched when it failed, or the redirect target that was refused. */
  readonly url?: string;
  /** Every URL that answered with a redirect before the failure, in order. */
  readonly redirects: readonly string[];
}

/** What {@link Fetcher.fetch} resolves to; it never rejects for network or target faults. */
export type SafeFetchResult = SafeFetchSuccess | SafeFetchFailure;

/** A guarded HTTP client: the only way the service reaches the network. */
export interface Fetcher {
  /** Fetch a URL through the guard; resolves to a tagged result. */
  fetch(url: string, init?: FetchInit): Promise<SafeFetchResult>;
  /** Close pooled connections; the fetcher cannot be used afterwards. */
  close(): Promise<void>;
}
