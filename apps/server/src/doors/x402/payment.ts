import { extractPaymentIdentifier } from '@x402/extensions/payment-identifier';
import { decodeBase64Json } from './base64-json.js';
import { caip2Network } from './networks.js';
import { type Requirements, v2Accept } from './requirements.js';

/**
 * Reading an x402 payment from a request, and checking it against the call's terms
 * before anything is claimed or asked of the facilitator (x402.md §2, §5; DESIGN §4).
 */

/** The payment header of each x402 version. */
export const PAYMENT_HEADERS = Object.freeze({ 1: 'X-PAYMENT', 2: 'PAYMENT-SIGNATURE' } as const);

/** A payment header's name. */
export type PaymentHeader = (typeof PAYMENT_HEADERS)[1 | 2];

/**
 * The longest payment header read, in characters, checked before decoding. The official
 * v2 client echoes the 402's extensions, the Bazaar declaration with the route's whole
 * answer schema included, so an EOA payment is 4.7 to 8.2 KiB of base64 (`/buy/dns`,
 * the largest schema, is the 8.2). 12 KiB leaves room for a smart-wallet (ERC-6492)
 * signature and stays within Node's 16 KiB limit on a request's header block.
 */
export const MAX_PAYMENT_HEADER_CHARS = 12_288;

/**
 * Seconds a payer's clock may run ahead of ours: an authorization may end at most this
 * much later than `maxTimeoutSeconds` from now. NTP-synced clients are within a second;
 * this covers a drifting laptop or VM without letting an authorization outlive the
 * terms by much.
 */
export const CLOCK_SKEW_SECONDS = 15;

/**
 * Seconds an authorization must still be valid when it is checked, as the facilitator
 * requires (`validBefore >= now + 6`, a block's time to settle on Base).
 */
export const MIN_VALIDITY_SECONDS = 6;

/** The terms a v2 payment says it accepted (its `accepted` object, fields as sent). */
export interface AcceptedTerms {
  readonly scheme: string;
  readonly network: string;
  readonly amount: string;
  readonly asset: string;
  readonly payTo: string;
  /** As sent; compared with the terms' `maxTimeoutSeconds`. */
  readonly maxTimeoutSeconds: unknown;
  /** As sent; compared key by key with the terms' `extra` (token domain, tier). */
  readonly extra: unknown;
}

/** A decoded, well-formed x402 payment with an EIP-3009 authorization (`exact` on EVM). */
export interface Payment {
  readonly version: 1 | 2;
  readonly header: PaymentHeader;
  /** v1 `scheme`, v2 `accepted.scheme`. */
  readonly scheme: string;
  /** The chain; a v1 payment's v1 name we know becomes its CAIP-2 id (`base` → `eip155:8453`). */
  readonly network: string;
  /** `authorization.from`, as sent. */
  readonly payer: string;
  /** `authorization.to`, as sent. */
  readonly to: string;
  readonly value: bigint;
  /** Unix seconds. */
  readonly validAfter: bigint;
  /** Unix seconds. */
  readonly validBefore: bigint;
  /** `authorization.nonce`, lower-cased: `0x` and 64 hex digits. */
  readonly nonce: string;
  readonly signature: string;
  /** v2 only: the terms the payer says it accepted; null for v1. */
  readonly accepted: AcceptedTerms | null;
  /** v2 only: the `resource.url` the payer says it pays for; null for v1 or when left out. */
  readonly resource: string | null;
  /**
   * The payer's idempotency key: the `payment-identifier` extension's `info.id` (v2),
   * or null when none (or no valid one) was sent.
   */
  readonly paymentId: string | null;
  /** The decoded header, forwarded unchanged to the facilitator as `paymentPayload`. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** What reading a payment header gave. */
export type PaymentRead =
  | { readonly ok: true; readonly payment: Payment }
  | { readonly ok: false; readonly error: 'payment_invalid'; readonly message: string };

/**
 * A request's headers: Node's `IncomingHttpHeaders` (lower-case names), or a getter
 * that takes a lower-case name.
 */
export type HeaderSource =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | ((name: string) => string | readonly string[] | null | undefined);

/**
 * The payment a request carries: `PAYMENT-SIGNATURE` (v2) when present, else
 * `X-PAYMENT` (v1); null when it carries neither.
 */
export function readPayment(headers: HeaderSource): PaymentRead | null {
  for (const version of [2, 1] as const) {
    const name = PAYMENT_HEADERS[version];
    const value =
      typeof headers === 'function' ? headers(name.toLowerCase()) : headers[name.toLowerCase()];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      return invalid(`${name} was sent ${value.length} times; send one payment`);
    }
    return parsePaymentHeader(name, value);
  }
  return null;
}

/** Decode and validate the value of payment header `header`. */
export function parsePaymentHeader(header: PaymentHeader, value: string): PaymentRead {
  const text = value.trim();
  if (text.length > MAX_PAYMENT_HEADER_CHARS) {
    return invalid(
      `${header} is ${text.length} characters long; at most ${MAX_PAYMENT_HEADER_CHARS} are read`,
    );
  }
  const decoded = decodeBase64Json(text);
  if (!decoded.ok)
    return invalid(`${header} must be base64 of a JSON object, but ${decoded.problem}`);
  if (!isObject(decoded.value)) return invalid(`${header} must be base64 of a JSON object`);
  const raw = decoded.value;
  const version = header === PAYMENT_HEADERS[2] ? 2 : 1;
  if (raw.x402Version !== version) {
    return invalid(
      `Expected \`x402Version\` ${version} in ${header}, got ${shown(raw.x402Version)}`,
    );
  }
  const fields = new Fields();
  let scheme: string;
  let network: string;
  let accepted: AcceptedTerms | null = null;
  if (version === 2) {
    const terms = fields.object(raw, 'accepted');
    accepted = {
      scheme: fields.string(terms, 'accepted.scheme'),
      network: fields.string(terms, 'accepted.network'),
      amount: fields.string(terms, 'accepted.amount'),
      asset: fields.string(terms, 'accepted.asset'),
      payTo: fields.string(terms, 'accepted.payTo'),
      maxTimeoutSeconds: own(terms, 'maxTimeoutSeconds'),
      extra: own(terms, 'extra'),
    };
    scheme = accepted.scheme;
    network = accepted.network;
  } else {
    scheme = fields.string(raw, 'scheme');
    network = fields.string(raw, 'network');
  }
  const payload = fields.object(raw, 'payload');
  const authorization = fields.object(payload, 'payload.authorization');
  const payment: Payment = {
    version,
    header,
    scheme,
    // v1 names the chain `base`; v2 must already use the CAIP-2 id its terms showed.
    network: version === 1 ? caip2Network(network) : network,
    payer: fields.address(authorization, 'payload.authorization.from'),
    to: fields.address(authorization, 'payload.authorization.to'),
    value: fields.uint256(authorization, 'payload.authorization.value'),
    validAfter: fields.uint256(authorization, 'payload.authorization.validAfter'),
    validBefore: fields.uint256(authorization, 'payload.authorization.validBefore'),
    nonce: fields.nonce(authorization, 'payload.authorization.nonce'),
    signature: fields.signature(payload, 'payload.signature'),
    accepted,
    resource: version === 2 ? resourceUrl(raw) : null,
    paymentId: version === 2 ? extractPaymentIdentifier(raw as never) : null,
    raw,
  };
  return fields.problem === null ? { ok: true, payment } : invalid(fields.problem);
}

/** The `resource.url` of a v2 payload, or null when it has none. */
function resourceUrl(raw: Record<string, unknown>): string | null {
  const resource = own(raw, 'resource');
  if (!isObject(resource)) return null;
  const url = own(resource, 'url');
  return typeof url === 'string' ? url : null;
}

/** Why a payment does not fit the call: the error code and a message naming the field. */
export interface PaymentProblem {
  readonly error: 'payment_mismatch' | 'payment_expired';
  readonly message: string;
}

/** Options of {@link checkPayment}. */
export interface CheckOptions {
  /**
   * Seconds the authorization must stay valid from now (default
   * {@link MIN_VALIDITY_SECONDS}). A door that settles after the work may ask for the
   * work's budget on top, so a slow call does not end with an authorization that
   * expired before it could settle.
   */
  readonly minValiditySeconds?: number;
}

/**
 * Check `payment` against the call's `requirements` at `nowSeconds` (Unix seconds):
 * null when it fits exactly, else the first problem. In order:
 * 1. the version can be settled on this chain (v1 needs a v1 network name);
 * 2. scheme `exact` and the same network;
 * 3. v2: `accepted` names the terms' scheme, network, amount, asset and payTo;
 * 4. the authorization pays the terms' payee (`to`, case-insensitive);
 * 5. its value equals the price of the selected tier exactly: an underpayment and an
 *    overpayment are both mismatches;
 * 6. its window: `validAfter <= now`, `validBefore >= now + minValiditySeconds`, and
 *    `validBefore <= now + maxTimeoutSeconds + CLOCK_SKEW_SECONDS` (official clients
 *    sign `now + maxTimeoutSeconds`; a longer-lived authorization is refused);
 * 7. v2: the payment is bound to this call: `resource.url` is this call's resource and
 *    the rest of `accepted` (maxTimeoutSeconds, and every key of `extra`: the token's
 *    domain and the tier) is what this call offers, so a payment signed for one route
 *    or tier is not taken on another of the same price (v1 payloads carry neither: see
 *    docs/decisions.md, "x402: a payment bound to its call").
 */
export function checkPayment(
  payment: Payment,
  requirements: Requirements,
  nowSeconds: number,
  options: CheckOptions = {},
): PaymentProblem | null {
  const r = requirements;
  if (payment.version === 1 && r.v1Network === null) {
    return mismatch(
      `x402Version: version 1 has no name for ${r.network}, so v1 payments cannot be settled here; pay with x402 version 2 (PAYMENT-SIGNATURE)`,
    );
  }
  if (payment.scheme !== r.scheme) return mismatch(expected('scheme', r.scheme, payment.scheme));
  if (payment.network !== r.network) {
    return mismatch(expected('network', r.network, payment.network));
  }
  if (payment.accepted !== null) {
    const a = payment.accepted;
    if (a.amount !== r.amount) return mismatch(expected('accepted.amount', r.amount, a.amount));
    if (!sameAddress(a.asset, r.asset)) {
      return mismatch(expected('accepted.asset', r.asset, a.asset));
    }
    if (!sameAddress(a.payTo, r.payTo)) {
      return mismatch(expected('accepted.payTo', r.payTo, a.payTo));
    }
  }
  if (!sameAddress(payment.to, r.payTo)) {
    return mismatch(expected('payload.authorization.to', r.payTo, payment.to));
  }
  if (payment.value !== BigInt(r.amount)) {
    return mismatch(
      `payload.authorization.value: expected ${r.amount} (tier ${r.tier}, ${r.price}), got ${payment.value}`,
    );
  }
  return (
    checkWindow(payment, r, BigInt(Math.floor(nowSeconds)), options) ?? checkBinding(payment, r)
  );
}

/**
 * Step 7 of {@link checkPayment}, v2 only: the resource and the rest of `accepted` are
 * those of this call.
 */
function checkBinding(payment: Payment, r: Requirements): PaymentProblem | null {
  const a = payment.accepted;
  if (a === null) return null;
  if (payment.resource !== r.resource) {
    return mismatch(
      `resource.url: this payment was signed for ${shown(payment.resource)}, but this call is ${r.resource} (tier ${r.tier}); sign the terms of this call`,
    );
  }
  const offered = v2Accept(r);
  if (a.maxTimeoutSeconds !== offered.maxTimeoutSeconds) {
    return mismatch(
      `accepted.maxTimeoutSeconds: expected ${offered.maxTimeoutSeconds}, got ${shown(a.maxTimeoutSeconds)}`,
    );
  }
  const extra = isObject(a.extra) ? a.extra : {};
  for (const [key, value] of Object.entries(offered.extra)) {
    if (own(extra, key) !== value) {
      return mismatch(`accepted.extra.${key}: expected ${value}, got ${shown(own(extra, key))}`);
    }
  }
  return null;
}

/** Step 6 of {@link checkPayment}: the authorization's validity window. */
function checkWindow(
  payment: Payment,
  requirements: Requirements,
  now: bigint,
  options: CheckOptions,
): PaymentProblem | null {
  const minValidity = BigInt(options.minValiditySeconds ?? MIN_VALIDITY_SECONDS);
  const maxValidity = BigInt(requirements.maxTimeoutSeconds + CLOCK_SKEW_SECONDS);
  const { validAfter, validBefore } = payment;
  if (validAfter > now) {
    return expired(`validAfter ${validAfter} is ${validAfter - now} s in the future`);
  }
  if (validBefore < now + minValidity) {
    const left = validBefore - now;
    return expired(
      left < 0n
        ? `validBefore ${validBefore} passed ${-left} s ago`
        : `validBefore ${validBefore} is ${left} s from now; at least ${minValidity} s are needed to settle`,
    );
  }
  if (validBefore > now + maxValidity) {
    return expired(
      `validBefore ${validBefore} is ${validBefore - now} s from now; the terms allow at most ${requirements.maxTimeoutSeconds} s (maxTimeoutSeconds)`,
    );
  }
  return null;
}

function mismatch(message: string): PaymentProblem {
  return { error: 'payment_mismatch', message };
}

function expired(message: string): PaymentProblem {
  return { error: 'payment_expired', message };
}

function expected(field: string, want: string, got: string): string {
  return `${field}: expected ${want}, got ${shown(got)}`;
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function invalid(message: string): PaymentRead {
  return { ok: false, error: 'payment_invalid', message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value sent by the client, for a message: JSON, cut short. */
function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^[0-9]{1,78}$/;
const UINT256_MAX = (1n << 256n) - 1n;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
/** At least a 65-byte ECDSA signature; smart wallets (ERC-1271, ERC-6492) send longer ones. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,}$/;

/**
 * Reads fields of a decoded payment, keeping the first problem (later reads return
 * placeholders), so the parser reads straight through and reports one clear message.
 */
class Fields {
  problem: string | null = null;

  private fail(path: string, what: string, value: unknown): void {
    this.problem ??= `Expected \`${path}\` to be ${what}, got ${shown(value)}`;
  }

  object(from: Record<string, unknown>, path: string): Record<string, unknown> {
    const value = own(from, path);
    if (isObject(value)) return value;
    this.fail(path, 'an object', value);
    return {};
  }

  string(from: Record<string, unknown>, path: string): string {
    const value = own(from, path);
    if (typeof value === 'string' && value !== '') return value;
    this.fail(path, 'a non-empty string', value);
    return '';
  }

  address(from: Record<string, unknown>, path: string): string {
    return this.matching(from, path, ADDRESS, 'an address: 0x followed by 40 hex digits');
  }

  nonce(from: Record<string, unknown>, path: string): string {
    return this.matching(from, path, NONCE, '0x followed by 64 hex digits').toLowerCase();
  }

  signature(from: Record<string, unknown>, path: string): string {
    return this.matching(from, path, SIGNATURE, 'a hex signature of at least 65 bytes');
  }

  uint256(from: Record<string, unknown>, path: string): bigint {
    const text = this.matching(from, path, UINT, 'a decimal integer string');
    if (text === '') return 0n;
    const value = BigInt(text);
    if (value <= UINT256_MAX) return value;
    this.fail(path, 'at most 2^256 - 1', text);
    return 0n;
  }

  private matching(
    from: Record<string, unknown>,
    path: string,
    pattern: RegExp,
    what: string,
  ): string {
    const value = own(from, path);
    if (typeof value === 'string' && pattern.test(value)) return value;
    this.fail(path, what, value);
    return '';
  }
}

/** The value of the last key of `path` on `from`, own properties only. */
function own(from: Record<string, unknown>, path: string): unknown {
  const key = path.slice(path.lastIndexOf('.') + 1);
  return Object.hasOwn(from, key) ? from[key] : undefined;
}
