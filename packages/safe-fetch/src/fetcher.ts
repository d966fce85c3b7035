import type { IncomingHttpHeaders } from 'node:http';
import { type FetchedDocument, StorefrontError } from '@storefront/core';
import { Agent, request } from 'undici';
import { createAllowList } from './allow-list.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  type DrainableBody,
  discardBody,
  drainBody,
  parseContentEncoding,
  readBody,
} from './body.js';
import { createConnector, systemLookup } from './connector.js';
import { DEADLINE, GuardError, mapError } from './errors.js';
import type {
  Fetcher,
  FetcherOptions,
  FetchInit,
  SafeFetchFailure,
  SafeFetchResult,
  UpstreamErrorCode,
} from './types.js';
import {
  checkParsed,
  checkUrlWith,
  clip,
  DEFAULT_ALLOWED_PORTS,
  type UrlPolicy,
} from './url-policy.js';

/** The default wall-clock deadline over a whole fetch: 5 s. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** The default number of redirects followed; one more fails with `too_many_redirects`. */
export const DEFAULT_MAX_REDIRECTS = 10;

/** The `User-Agent` sent by default, with a page that explains the traffic. */
export const DEFAULT_USER_AGENT = 'Storefront/1 (+https://storefront.example/bot)';

/** Response headers larger than this fail with `protocol_error`. */
const MAX_HEADER_SIZE = 16384;

/** Statuses that redirect (RFC 9110 §15.4); 300, 304 and 305 are returned as documents. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Request headers that carry credentials; they go to the first URL and never further. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Request headers the fetcher owns: framing, hop-by-hop, and the codings it can decode. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'accept-encoding',
]);

const OPTION_NAMES = new Set([
  'testOnlyAllow',
  'timeoutMs',
  'maxBodyBytes',
  'maxRedirects',
  'allowedPorts',
  'userAgent',
  'lookup',
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Create the guarded HTTP client: the only way the service reaches the network.
 *
 * Every URL is checked before connecting, every connection is checked again at connect
 * time against the resolved address and pinned to it, redirects are followed by hand
 * and re-checked, one wall-clock deadline covers the whole exchange, and the decoded
 * body is cut at a cap. `fetch` resolves to a tagged result and never rejects for
 * anything the network or the target does. Bad options throw a {@link StorefrontError}.
 *
 * @example
 *   const fetcher = createFetcher();
 *   const result = await fetcher.fetch('https://example.com/');
 *   if (result.ok) console.log(result.doc.status, result.doc.bytes.length);
 *   else console.log(result.error, result.message);
 *   await fetcher.close();
 */
export function createFetcher(options: FetcherOptions = {}): Fetcher {
  if (options === null || typeof options !== 'object') {
    throw misuse(
      `Expected options to be an object, got \`${options === null ? 'null' : typeof options}\``,
    );
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw misuse(`Unknown option \`${name}\` (expected one of ${[...OPTION_NAMES].join(', ')})`);
    }
  }
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1, 600_000);
  const maxBodyBytes = integerOption(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
    1,
    2 ** 30,
  );
  const maxRedirects = integerOption(
    'maxRedirects',
    options.maxRedirects,
    DEFAULT_MAX_REDIRECTS,
    0,
    20,
  );
  const allowedPorts = portsOption(options.allowedPorts);
  const userAgent = userAgentOption(options.userAgent);
  const lookup = options.lookup ?? systemLookup;
  if (typeof lookup !== 'function') {
    throw misuse(`Expected \`lookup\` to be a function, got \`${typeof lookup}\``);
  }
  const allow = createAllowList(options.testOnlyAllow, process.env.NODE_ENV);
  const policy: UrlPolicy = { allowedPorts, allow };

  const agent = new Agent({
    connect: createConnector({ allowedPorts, allow, lookup, timeoutMs }),
    // Idle timers only; a slow drip never trips them, so the deadline below is what counts.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    maxHeaderSize: MAX_HEADER_SIZE,
  });
  let closing: Promise<void> | null = null;
  /** Bodies of `body: false` answers still draining; `close` cuts them short. */
  const draining = new Set<DrainableBody>();

  async function run(raw: string, init: PreparedInit): Promise<SafeFetchResult> {
    const started = performance.now();
    const redirects: string[] = [];
    const checked = checkUrlWith(raw, policy);
    if (!checked.ok) {
      return failure(checked.error, checked.message, redirects, undefined, checked.url);
    }
    const requestedUrl = checked.url.href;
    // A caller's own deadline can only shorten the fetcher's.
    const deadlineMs = Math.min(init.timeoutMs ?? timeoutMs, timeoutMs);
    const controller = new AbortController();
    const timer = setTimeout(
      () =>
        controller.abort(new GuardError(DEADLINE, `No complete answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
    let current = checked.url;
    let status: number | undefined;
    const visited = new Set([withoutHash(current)]);
    let headers = init.headers;
    /** Whether the deadline stays armed after the answer, over a body still draining. */
    let drainingBody = false;
    try {
      for (;;) {
        status = undefined;
        const response = await request(current, {
          dispatcher: agent,
          method: init.method,
          headers,
          ...(init.payload === undefined ? {} : { body: init.payload }),
          signal: controller.signal,
        });
        const { body } = response;
        status = response.statusCode;
        const location = response.headers.location;

        // A POST is never sent again elsewhere: its redirect is its answer.
        if (REDIRECT_STATUSES.has(status) && location !== undefined && init.method !== 'POST') {
          discardBody(body);
          redirects.push(current.href);
          const hop = nextHop(location, current, status, redirects, visited);
          if (!hop.ok) return hop;
          visited.add(withoutHash(hop.url));
          current = hop.url;
          headers = withoutCredentials(headers);
          continue;
        }

        const headersMs = performance.now() - started;
        const fetchedAt = new Date().toISOString();
        const responseHeaders = flattenHeaders(response.headers);
        let bytes: Uint8Array = new Uint8Array(0);
        let truncated = false;
        if (!init.body) {
          // Nobody reads this body: drain it in the background, within the fetch's
          // deadline, so the connection can serve the next request. (undici closes the
          // connection after a HEAD anyway, against servers that answer HEAD with a body.)
          const drainable = body as DrainableBody;
          draining.add(drainable);
          drainingBody = true;
          drainBody(drainable, () => {
            draining.delete(drainable);
            clearTimeout(timer);
          });
        } else {
          const coding = parseContentEncoding(responseHeaders['content-encoding']);
          if (!coding.ok) {
            discardBody(body);
            return failure('protocol_error', coding.message, redirects, status, current.href);
          }
          const declared = Number(responseHeaders['content-length']);
          ({ bytes, truncated } = await readBody(
            body,
            coding.coding,
            maxBodyBytes,
            Number.isSafeInteger(declared) && declared >= 0 ? declared : null,
          ));
        }
        const totalMs = performance.now() - started;
        const doc: FetchedDocument = {
          requestedUrl,
          url: current.href,
          status,
          headers: responseHeaders,
          contentType: responseHeaders['content-type'] ?? null,
          bytes,
          truncated,
          redirects,
          fetchedAt,
        };
        return {
          ok: true,
          doc,
          timing: {
            headersMs: Math.round(headersMs),
            bodyMs: Math.round(totalMs - headersMs),
            totalMs: Math.round(totalMs),
          },
        };
      }
    } catch (error) {
      // Whatever broke once the deadline passed (an aborted socket, a destroyed decoder),
      // the cause is the deadline.
      const cause = controller.signal.aborted ? controller.signal.reason : error;
      const mapped = mapError(cause, { url: current, timeoutMs: deadlineMs });
      return failure(mapped.error, mapped.message, redirects, status, current.href);
    } finally {
      if (!drainingBody) clearTimeout(timer);
    }
  }

  /**
   * Decide where a redirect leads (RFC 9110 §15.4): the Location resolved against the
   * current URL, refused when it was visited, when the hop count is spent, or when it
   * fails any check a first URL would fail. The address is checked again at connect.
   */
  function nextHop(
    location: string | string[],
    current: URL,
    status: number,
    redirects: readonly string[],
    visited: ReadonlySet<string>,
  ): { readonly ok: true; readonly url: URL } | SafeFetchFailure {
    if (Array.isArray(location)) {
      const message = `${clip(current.href)} answered ${status} with ${location.length} Location headers`;
      return failure('protocol_error', message, redirects, status, current.href);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      const message = `Redirect refused: expected an absolute or relative URL in Location, got \`${clip(location)}\``;
      return failure('invalid_url', message, redirects, status);
    }
    if (visited.has(withoutHash(next))) {
      const message = `Redirect loop at ${clip(next.href)}`;
      return failure('redirect_loop', message, redirects, status, next.href);
    }
    if (redirects.length > maxRedirects) {
      const message = `Stopped after ${maxRedirects} redirects`;
      return failure('too_many_redirects', message, redirects, status, next.href);
    }
    const check = checkParsed(next, policy);
    if (!check.ok) {
      return failure(
        check.error,
        `Redirect refused: ${check.message}`,
        redirects,
        status,
        check.url,
      );
    }
    return { ok: true, url: next };
  }

  return Object.freeze({
    async fetch(url: string, init?: FetchInit): Promise<SafeFetchResult> {
      if (closing !== null) throw misuse('Expected an open fetcher, got one that was closed');
      const prepared = prepareInit(init, userAgent);
      try {
        return await run(url, prepared);
      } catch (error) {
        // Unreachable by design; a bug here must still not reject the caller's promise.
        const message = error instanceof Error ? error.message : String(error);
        return failure('internal_error', `Internal error: ${message}`, [], undefined, undefined);
      }
    },
    close(): Promise<void> {
      if (closing === null) {
        for (const body of draining) discardBody(body);
        closing = agent.close();
      }
      return closing;
    },
  });
}

interface PreparedInit {
  readonly method: 'GET' | 'HEAD' | 'POST';
  /** The request body of a POST. */
  readonly payload: string | undefined;
  /** Whether the final body is read (never for HEAD). */
  readonly body: boolean;
  readonly headers: Readonly<Record<string, string>>;
  /** The caller's deadline for this request (ms), if it gave one. */
  readonly timeoutMs: number | undefined;
}

/** Check the per-request options (misuse throws) and build the request headers. */
function prepareInit(init: FetchInit | undefined, userAgent: string): PreparedInit {
  if (init !== undefined && (init === null || typeof init !== 'object')) {
    throw misuse(
      `Expected \`init\` to be an object, got \`${init === null ? 'null' : typeof init}\``,
    );
  }
  const method = init?.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw misuse(
      `Expected \`method\` to be \`GET\`, \`HEAD\` or \`POST\`, got \`${String(method)}\``,
    );
  }
  const payload = init?.payload;
  if ((method === 'POST') !== (typeof payload === 'string')) {
    throw misuse('Expected `payload` (a string) with `POST`, and only with `POST`');
  }
  const body = init?.body ?? true;
  if (typeof body !== 'boolean') {
    throw misuse(`Expected \`body\` to be a boolean, got \`${typeof body}\``);
  }
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: '*/*',
  };
  const given = init?.headers ?? {};
  if (given === null || typeof given !== 'object') {
    throw misuse('Expected `headers` to be an object of strings');
  }
  for (const [rawName, value] of Object.entries(given)) {
    const name = rawName.toLowerCase();
    if (!TOKEN.test(name)) throw misuse(`Expected a header name, got \`${clip(rawName)}\``);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw misuse(`Expected header \`${name}\` to be a string without line breaks`);
    }
    if (RESERVED_HEADERS.has(name)) {
      throw misuse(`Header \`${name}\` is set by the fetcher and cannot be given`);
    }
    defineHeader(headers, name, value);
  }
  // Only codings this package can decode, so bodies are never left encoded.
  headers['accept-encoding'] = 'gzip, deflate, br';
  const timeoutMs = init?.timeoutMs;
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1)
  ) {
    throw misuse(`Expected \`timeoutMs\` to be a positive integer, got \`${String(timeoutMs)}\``);
  }
  return { method, payload, body: body && method !== 'HEAD', headers, timeoutMs };
}

function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADERS.has(name)) defineHeader(out, name, value);
  }
  return out;
}

/**
 * Lower-cased names; repeated headers joined with `, `, except `set-cookie`, whose values
 * may themselves contain commas, joined with `\n`.
 */
function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    const joined = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
    const existing = out[name];
    defineHeader(out, name, existing === undefined ? joined : `${existing}, ${joined}`);
  }
  return out;
}

/** Assign without the `__proto__` setter, which a header name must not reach. */
function defineHeader(target: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function withoutHash(url: URL): string {
  return url.hash === '' ? url.href : url.href.slice(0, -url.hash.length);
}

function failure(
  error: UpstreamErrorCode,
  message: string,
  redirects: readonly string[],
  status: number | undefined,
  url?: string,
): SafeFetchFailure {
  const result: {
    ok: false;
    error: UpstreamErrorCode;
    status?: number;
    message: string;
    url?: string;
    redirects: readonly string[];
  } = { ok: false, error, message, redirects };
  if (status !== undefined) result.status = status;
  if (url !== undefined) result.url = url;
  return result;
}

function misuse(message: string): StorefrontError {
  return new StorefrontError('internal_error', message);
}

function integerOption(
  name: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw misuse(
      `Expected \`${name}\` to be an integer from ${min} to ${max}, got \`${String(value)}\``,
    );
  }
  return value;
}

function portsOption(value: unknown): ReadonlySet<number> {
  if (value === undefined) return new Set(DEFAULT_ALLOWED_PORTS);
  if (!Array.isArray(value)) {
    throw misuse(`Expected \`allowedPorts\` to be an array of ports, got \`${typeof value}\``);
  }
  for (const port of value) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw misuse(
        `Expected \`allowedPorts\` to hold ports from 1 to 65535, got \`${String(port)}\``,
      );
    }
  }
  return new Set(value as number[]);
}

function userAgentOption(value: unknown): string {
  if (value === undefined) return DEFAULT_USER_AGENT;
  if (typeof value !== 'string' || value === '' || value.length > 512 || /[\r\n\0]/.test(value)) {
    throw misuse(
      'Expected `userAgent` to be a non-empty string of at most 512 characters without line breaks',
    );
  }
  return value;
}
