/**
 * The codes of an upstream failure (DESIGN §7): the target could not be fetched, or what
 * it answered cannot be used whole. The one list of them; a package that reports only
 * some (safe-fetch, robots) derives its subset from this one.
 */
export const UPSTREAM_ERROR_CODES = Object.freeze([
  'invalid_url',
  'blocked_ssrf',
  'dns_failure',
  'timeout',
  'connection_refused',
  'connection_reset',
  'tls_error',
  'protocol_error',
  'redirect_loop',
  'too_many_redirects',
  'body_too_large',
  'upstream_http_error',
] as const);

/** One of the upstream failure codes. */
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

/**
 * The closed catalogue of error codes (DESIGN §7). Every `ok:false` result, every error
 * body and every safe-fetch failure carries exactly one of these snake_case strings;
 * clients match on them, so a code is never renamed or reused for another meaning. The
 * order is the documented one (README table, `/catalog`).
 */
export const ERROR_CODES = Object.freeze([
  // Request and door errors (answered before any work or charge).
  'invalid_params',
  'invalid_key',
  'payment_required',
  'payment_invalid',
  'payment_mismatch',
  'payment_expired',
  'payment_replayed',
  'payment_rejected',
  'settlement_failed',
  'facilitator_unavailable',
  'draining',
  'sandbox_exhausted',
  'insufficient_credits',
  'rate_limited',
  'too_many_in_flight',
  'not_found',
  'method_not_allowed',
  'request_too_large',
  // Upstream failures.
  ...UPSTREAM_ERROR_CODES,
  // Product outcomes.
  'unsupported_content_type',
  'parse_error',
  'robots_disallowed',
  'not_content',
  'page_too_complex',
  // Our own fault.
  'internal_error',
] as const);

/** One of the catalogue's codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Who emits a code, for documentation and the OpenAPI document. */
export type ErrorOrigin = 'request' | 'door' | 'upstream' | 'product' | 'service';

/**
 * How a code reaches the caller (docs/decisions.md, "One HTTP status per error code").
 * - A number: the HTTP status of every answer that carries the code, on every route.
 *   Such an answer is never charged.
 * - `'result'`: the code reports an upstream or product failure inside a result body,
 *   `{ok:false, error, …}`. Its HTTP status is the route's, fixed by the route's charge
 *   rule: 200 where the route delivers failures (charged or not by the rule), 503 on
 *   the routes that answer an undeliverable result before charging.
 */
export type ErrorStatus = 400 | 401 | 402 | 404 | 405 | 413 | 429 | 500 | 503 | 'result';

/**
 * The status of every code, in one table; a code missing here does not compile. The
 * server answers with it and `/catalog` and `/openapi.json` publish it.
 */
export const ERROR_STATUS = {
  invalid_params: 400,
  invalid_key: 401,
  payment_required: 402,
  payment_invalid: 402,
  payment_mismatch: 402,
  payment_expired: 402,
  payment_replayed: 402,
  payment_rejected: 402,
  settlement_failed: 402,
  facilitator_unavailable: 503,
  draining: 503,
  sandbox_exhausted: 402,
  insufficient_credits: 402,
  rate_limited: 429,
  too_many_in_flight: 429,
  not_found: 404,
  method_not_allowed: 405,
  request_too_large: 413,
  invalid_url: 'result',
  blocked_ssrf: 'result',
  dns_failure: 'result',
  timeout: 'result',
  connection_refused: 'result',
  connection_reset: 'result',
  tls_error: 'result',
  protocol_error: 'result',
  redirect_loop: 'result',
  too_many_redirects: 'result',
  body_too_large: 'result',
  upstream_http_error: 'result',
  unsupported_content_type: 'result',
  parse_error: 'result',
  robots_disallowed: 'result',
  not_content: 'result',
  page_too_complex: 503,
  internal_error: 500,
} as const satisfies { readonly [C in ErrorCode]: ErrorStatus };

/** The codes answered with a fixed HTTP status (every code whose status is a number). */
export type AnswerCode = {
  [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends number ? C : never;
}[ErrorCode];

/** The codes that report a failure inside a result (status `'result'`). */
export type ResultCode = Exclude<ErrorCode, AnswerCode>;

/**
 * The HTTP status of an answer carrying `code` on a route whose undeliverable results
 * are answered before charging (`beforeCharging`) or not: the code's own status, or
 * for a result code 503 before charging and 200 otherwise.
 */
export function httpStatusOf(code: ErrorCode, beforeCharging: boolean): number {
  const status: ErrorStatus = ERROR_STATUS[code];
  if (status !== 'result') return status;
  return beforeCharging ? 503 : 200;
}

/** Whether `code` is answered with a fixed HTTP status rather than inside a result. */
export function isAnswerCode(code: ErrorCode): code is AnswerCode {
  return ERROR_STATUS[code] !== 'result';
}

/** What each code means, who emits it, its HTTP status, and an example message. */
export interface ErrorCodeInfo {
  readonly code: ErrorCode;
  readonly origin: ErrorOrigin;
  readonly status: ErrorStatus;
  readonly meaning: string;
  readonly example: string;
}

/** The catalogue with a meaning per code; the README table is generated from it. */
export const ERROR_CATALOGUE: readonly ErrorCodeInfo[] = [
  info(
    'invalid_params',
    'request',
    'A parameter is missing, too long or malformed.',
    'Expected `url` to be an http or https URL, got `ftp://x`',
  ),
  info(
    'invalid_key',
    'door',
    'The bearer key is malformed, unknown or revoked.',
    'Unknown API key ending in `a1b2`',
  ),
  info(
    'payment_required',
    'door',
    'No payment and no key were sent to a paid route.',
    'This route costs $0.005; pay with x402 or send a bearer key',
  ),
  info(
    'payment_invalid',
    'door',
    'The x402 payment header (`X-PAYMENT` or `PAYMENT-SIGNATURE`) could not be read: not base64 JSON, too large, or a field is missing or malformed. Nothing was charged.',
    'Expected `payload.authorization.nonce` to be 0x followed by 64 hex digits',
  ),
  info(
    'payment_mismatch',
    'door',
    "The x402 payment does not match the call's terms exactly: scheme, network, asset, payee, or amount (which must equal the price of the tier the parameters select, neither less nor more); a v2 payment must also name this call's resource and tier (`resource.url`, `accepted`), so a payment signed for one route is not taken on another. The message names the field, what was expected and what was sent. Nothing was charged, and the payment can still be used for the call it was signed for.",
    'amount: expected 3000 (tier fetch, $0.003), got 6000',
  ),
  info(
    'payment_expired',
    'door',
    "The x402 authorization's validity window does not fit: it starts in the future, ends too soon to settle, or lasts longer than the terms' `maxTimeoutSeconds` allow. Sign a fresh payment. Nothing was charged.",
    'validBefore 1767225660 is 2 s from now; at least 6 s are needed to settle',
  ),
  info(
    'payment_replayed',
    'door',
    'This x402 authorization (payer and nonce) was already settled, or is in use by a call in progress; each one pays once. A payment refused before settlement is not used up. Nothing was charged for this call.',
    'Payment nonce 0x8efa… of 0x1563… was already used',
  ),
  info(
    'payment_rejected',
    'door',
    'The facilitator found the x402 payment invalid (bad signature, insufficient funds, nonce used on chain, …); its reason is in the message. Nothing was charged, and the payment is not used up.',
    'The facilitator refused the payment: invalid_exact_evm_payload_signature',
  ),
  info(
    'settlement_failed',
    'door',
    'The x402 payment verified but its settlement failed or its outcome is not known yet, so no result is delivered. The message gives the reason. When the outcome is unknown, send the same payment again: if the transfer landed, the stored result is delivered without a second charge.',
    'Settlement failed: transaction reverted',
  ),
  info(
    'facilitator_unavailable',
    'service',
    'The x402 facilitator could not be reached, timed out, or gave no usable answer while the payment was being verified; nothing was charged and no work was done. Retry after `Retry-After` seconds with a fresh payment.',
    'The payment facilitator did not answer within 15000 ms',
  ),
  info(
    'draining',
    'service',
    'The instance is shutting down (a deploy or a restart): it finishes the calls it has admitted and admits no new one. Nothing was charged and no work was done; retry after `Retry-After` seconds (a load balancer sends the retry to another instance).',
    'This instance is shutting down and admits no new calls; retry in 1 s',
  ),
  info(
    'sandbox_exhausted',
    'door',
    'A test key has used all of its sandbox calls.',
    'Sandbox key used 100 of 100 calls',
  ),
  info(
    'insufficient_credits',
    'door',
    'A live key has no allowance or credits left for this call.',
    'This call costs 5 credits; 3 remain',
  ),
  info(
    'rate_limited',
    'door',
    'The key made more calls this minute than its tier allows.',
    'Sandbox keys make at most 5 calls per minute',
  ),
  info(
    'too_many_in_flight',
    'door',
    'The key already has as many calls in flight as its plan allows; retry when one has finished.',
    'The prepaid plan allows 10 calls in flight at once; retry in 1 s',
  ),
  info(
    'not_found',
    'request',
    'No route answers this path, or the thing a parameter names does not exist in the fetched content (a table index past the last table, a page without tables, a JSON Pointer that selects nothing); not charged.',
    'Table 5 was requested; the page has 3 tables',
  ),
  info(
    'method_not_allowed',
    'request',
    'A paid route was called with a method other than GET (HEAD included); answered with `Allow: GET` before any payment, admission or work.',
    '`POST /buy/fetch`: paid routes answer GET only',
  ),
  info(
    'request_too_large',
    'request',
    'The request body is larger than the endpoint reads (`POST /mcp` 4 MB, `POST /x402/verify` and the payment webhook 1 MB, `/admin/*` 4 KB); it was not read, and nothing was charged.',
    'The request body is larger than 1048576 bytes',
  ),
  info(
    'invalid_url',
    'upstream',
    'The target URL is not an absolute http(s) URL, has credentials, or is too long.',
    'Expected an http or https URL, got `file:`',
  ),
  info(
    'blocked_ssrf',
    'upstream',
    'The target resolves to an address or port the service never contacts (private, loopback, metadata, …).',
    'Refused to connect to a loopback address',
  ),
  info(
    'dns_failure',
    'upstream',
    'The target host name did not resolve.',
    'Host `nope.invalid` did not resolve',
  ),
  info(
    'timeout',
    'upstream',
    'The exchange did not finish within the 5 s deadline.',
    'No complete answer within 5000 ms',
  ),
  info(
    'connection_refused',
    'upstream',
    'The target refused the TCP connection.',
    'Connection refused by 93.184.216.34:443',
  ),
  info(
    'connection_reset',
    'upstream',
    'The connection was reset or closed before the answer was complete.',
    'Connection reset by peer',
  ),
  info(
    'tls_error',
    'upstream',
    'The TLS handshake failed (certificate, protocol or cipher).',
    'Certificate has expired',
  ),
  info(
    'protocol_error',
    'upstream',
    'The target answered with something that is not usable HTTP (oversized headers, malformed response, unsupported content-coding, a compressed body that is corrupt or cut short).',
    'Unsupported content-coding `gzip, gzip`',
  ),
  info(
    'redirect_loop',
    'upstream',
    'A redirect led back to a URL already visited.',
    'Redirect loop at https://a.example/',
  ),
  info(
    'too_many_redirects',
    'upstream',
    'More than 10 redirects were needed.',
    'Stopped after 10 redirects',
  ),
  info(
    'body_too_large',
    'upstream',
    'The body exceeded what the product can use whole (the fetch itself truncates at 10 MiB).',
    'JSON body was cut at 10485760 bytes',
  ),
  info(
    'upstream_http_error',
    'upstream',
    'The target answered with an HTTP error status.',
    'Upstream answered 404',
  ),
  info(
    'unsupported_content_type',
    'product',
    'The body is not a kind of document the product reads.',
    'Expected HTML, got `application/pdf`',
  ),
  info(
    'parse_error',
    'product',
    'The body could not be parsed as the format it claims.',
    'Feed is not well-formed XML',
  ),
  info(
    'robots_disallowed',
    'product',
    "The site's robots.txt disallows the start page for the service's user agent (or robots.txt answered 5xx or could not be fetched, which disallows everything, RFC 9309), so nothing was crawled.",
    'robots.txt of https://a.example disallows / for Storefront/1',
  ),
  info(
    'not_content',
    'product',
    "The page served is not the content the URL names but a page in its place: a bot challenge or CAPTCHA wall, an access-denied page, a sign-in wall, a paywall stub, an empty app shell, an error page or a parked domain. The answer's `page` gives the verdict and the signals that decided it; the route's rule for an ok:false result applies.",
    'The page is a challenge page, not the content (challenge:cloudflare-resource, challenge:header-cf-mitigated)',
  ),
  info(
    'page_too_complex',
    'service',
    'The page opens more elements than the service parses, or processing it ran past the deadline or the memory bound of a product thread; answered with 503, nothing was charged.',
    'Processing the page took longer than 10 s',
  ),
  info(
    'internal_error',
    'service',
    'A fault of the service; nothing was charged.',
    'Internal error (request id 3f1c…)',
  ),
];

function info(
  code: ErrorCode,
  origin: ErrorOrigin,
  meaning: string,
  example: string,
): ErrorCodeInfo {
  return Object.freeze({ code, origin, status: ERROR_STATUS[code], meaning, example });
}

/** Whether `value` is one of the catalogue's codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Options of {@link StorefrontError}. */
export interface StorefrontErrorOptions {
  readonly details?: readonly unknown[];
  readonly cause?: unknown;
}

/**
 * Thrown for misuse and for request errors the server turns into an HTTP answer.
 * Bad content and network failures are never thrown: they are `ok:false` results.
 * `status` is the code's HTTP status from {@link ERROR_STATUS} (undefined for a code
 * that is only ever delivered inside a result); no error chooses its own.
 */
export class StorefrontError extends Error {
  override readonly name = 'StorefrontError';
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly details: readonly unknown[] | undefined;

  constructor(code: ErrorCode, message: string, options: StorefrontErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    const status: ErrorStatus = ERROR_STATUS[code];
    this.status = status === 'result' ? undefined : status;
    this.details = options.details;
  }
}
