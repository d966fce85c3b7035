import type { PaymentRequirements } from '@x402/core/types';
import { caip2Network } from './networks.js';
import type { Payment } from './payment.js';
import {
  type Requirements,
  type V1AcceptEntry,
  v1FacilitatorRequirements,
  v2Accept,
} from './requirements.js';

/**
 * An HTTP client for an x402 facilitator's `POST /verify` and `POST /settle` (x402 v1
 * §7, v2 §7; x402.md §3), for both protocol versions. Every outcome is a tagged result,
 * never a throw:
 * - `ok: true`: the facilitator vouched for the payment, or settled it;
 * - `kind: 'rejected'`: it answered, and said no (`isValid: false`, `success: false`),
 *   with its reason: the payer's problem;
 * - `kind: 'unavailable'`: no usable answer (connection refused or closed, no answer
 *   before the timeout, a 5xx, a redirect loop, a body that is not the documented
 *   shape): the service's problem. A garbage 200 is never taken for success.
 *
 * An `unavailable` settle is ambiguous: the transfer may still have been sent. The
 * authorization lives only until its `validBefore`, so that uncertainty is short.
 */

/** What `/verify` said. */
export type VerifyResult = { readonly ok: true; readonly payer: string } | FacilitatorFailure;

/** What `/settle` said. */
export type SettleResult =
  | {
      readonly ok: true;
      /** The transaction hash. */
      readonly transaction: string;
      /** CAIP-2 id of the chain it settled on. */
      readonly network: string;
      readonly payer: string;
    }
  | FacilitatorFailure;

/** A facilitator that said no, or gave no usable answer. */
export type FacilitatorFailure =
  | {
      readonly ok: false;
      readonly kind: 'rejected';
      /** The facilitator's reason code (`invalid_exact_evm_payload_signature`), or `unspecified`. */
      readonly reason: string;
      /** Its human-readable message, when it gave one. */
      readonly detail: string | null;
    }
  | { readonly ok: false; readonly kind: 'unavailable'; readonly reason: string };

/** The body of a `/verify` or `/settle` request. */
export interface FacilitatorRequest {
  readonly x402Version: 1 | 2;
  readonly paymentPayload: Readonly<Record<string, unknown>>;
  readonly paymentRequirements: V1AcceptEntry | PaymentRequirements;
}

/**
 * The request for `payment`: the payload as the payer sent it, and the requirements in
 * the payment's own version (v1: the accept entry with the chain's v1 name; v2: the
 * accept entry the payment's `accepted` must equal).
 */
export function facilitatorRequest(
  payment: Payment,
  requirements: Requirements,
): FacilitatorRequest {
  return {
    x402Version: payment.version,
    paymentPayload: payment.raw,
    paymentRequirements:
      payment.version === 1 ? v1FacilitatorRequirements(requirements) : v2Accept(requirements),
  };
}

/** Options of {@link Facilitator}. */
export interface FacilitatorOptions {
  /** The facilitator's base URL; `/verify` and `/settle` are appended. */
  readonly url: string;
  /** How long one request may take, answer body included (ms). */
  readonly timeoutMs: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** Gives the request up (the caller left); the result is then `unavailable`. */
  readonly signal?: AbortSignal;
  /** This request's timeout in place of the client's (ms). */
  readonly timeoutMs?: number;
}

/** The largest facilitator answer read; a documented one is a few hundred bytes. */
export const MAX_FACILITATOR_ANSWER_BYTES = 64 * 1024;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TRANSACTION = /^0x[0-9a-fA-F]{64}$/;

/** A facilitator at one URL. */
export class Facilitator {
  readonly url: string;
  readonly timeoutMs: number;

  constructor(options: FacilitatorOptions) {
    // `${url}/verify` of a URL with a trailing slash would have `//`.
    this.url = options.url.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs;
  }

  /** Ask the facilitator whether `payment` is good for `requirements` (signature, funds, …). */
  async verify(
    payment: Payment,
    requirements: Requirements,
    options: RequestOptions = {},
  ): Promise<VerifyResult> {
    const answer = await this.post('verify', facilitatorRequest(payment, requirements), options);
    if (!answer.ok) return answer;
    const { status, body } = answer;
    if (typeof body.isValid !== 'boolean') return garbage('verify', status, 'no boolean `isValid`');
    if (body.isValid === false) {
      return status < 500 ? rejected(body.invalidReason, body.invalidMessage) : httpError(status);
    }
    if (status >= 300) return httpError(status);
    const payer = payerOf(body, payment);
    return payer.ok ? { ok: true, payer: payer.payer } : garbage('verify', status, payer.problem);
  }

  /** Ask the facilitator to settle `payment` on chain; resolves once it has answered. */
  async settle(
    payment: Payment,
    requirements: Requirements,
    options: RequestOptions = {},
  ): Promise<SettleResult> {
    const answer = await this.post('settle', facilitatorRequest(payment, requirements), options);
    if (!answer.ok) return answer;
    const { status, body } = answer;
    if (typeof body.success !== 'boolean') return garbage('settle', status, 'no boolean `success`');
    if (body.success === false) {
      return status < 500 ? rejected(body.errorReason, body.errorMessage) : httpError(status);
    }
    if (status >= 300) return httpError(status);
    if (typeof body.transaction !== 'string' || !TRANSACTION.test(body.transaction)) {
      return garbage('settle', status, 'success without a transaction hash');
    }
    if (typeof body.network !== 'string' || body.network === '') {
      return garbage('settle', status, 'success without a `network`');
    }
    const payer = payerOf(body, payment);
    if (!payer.ok) return garbage('settle', status, payer.problem);
    return {
      ok: true,
      transaction: body.transaction,
      network: caip2Network(body.network),
      payer: payer.payer,
    };
  }

  /**
   * POST `request` to `/<path>` and read a JSON object back: the answer with its status
   * (any status with a JSON object body), or `unavailable`.
   */
  private async post(
    path: 'verify' | 'settle',
    request: FacilitatorRequest,
    options: RequestOptions,
  ): Promise<
    | { readonly ok: true; readonly status: number; readonly body: Record<string, unknown> }
    | FacilitatorFailure
  > {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.url}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request),
        signal,
      });
      status = response.status;
      const read = await readCapped(response, MAX_FACILITATOR_ANSWER_BYTES);
      if (read === null) {
        return unavailable(
          `the ${path} answer is larger than ${MAX_FACILITATOR_ANSWER_BYTES} bytes (HTTP ${status})`,
        );
      }
      text = read;
    } catch (error) {
      if (timeout.aborted) return unavailable(`no ${path} answer within ${timeoutMs} ms`);
      if (options.signal?.aborted) return unavailable(`the ${path} request was given up`);
      return unavailable(`could not reach the facilitator for ${path}: ${networkError(error)}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return garbage(path, status, `not JSON: ${excerpt(text)}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return garbage(path, status, `not a JSON object: ${excerpt(text)}`);
    }
    return { ok: true, status, body: body as Record<string, unknown> };
  }
}

/** The body of `response` as UTF-8, or null when it is longer than `cap` bytes. */
async function readCapped(response: Response, cap: number): Promise<string | null> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The payer the facilitator names: it must be the payment's own `from` when given
 * (an answer about another payer is not an answer about this payment); the payment's
 * `from` when left out, as the v1 schema allows.
 */
function payerOf(
  body: Record<string, unknown>,
  payment: Payment,
): { ok: true; payer: string } | { ok: false; problem: string } {
  const payer = body.payer;
  if (payer === undefined || payer === null) return { ok: true, payer: payment.payer };
  if (typeof payer !== 'string' || !ADDRESS.test(payer)) {
    return { ok: false, problem: 'a `payer` that is not an address' };
  }
  if (payer.toLowerCase() !== payment.payer.toLowerCase()) {
    return { ok: false, problem: `\`payer\` ${payer}, but the payment is from ${payment.payer}` };
  }
  return { ok: true, payer };
}

function rejected(reason: unknown, detail: unknown): FacilitatorFailure {
  return {
    ok: false,
    kind: 'rejected',
    reason: typeof reason === 'string' && reason !== '' ? excerpt(reason) : 'unspecified',
    detail: typeof detail === 'string' && detail !== '' ? excerpt(detail) : null,
  };
}

function unavailable(reason: string): FacilitatorFailure {
  return { ok: false, kind: 'unavailable', reason };
}

function httpError(status: number): FacilitatorFailure {
  return unavailable(`the facilitator answered HTTP ${status}`);
}

function garbage(path: string, status: number, problem: string): FacilitatorFailure {
  return unavailable(`the ${path} answer (HTTP ${status}) is not usable: ${problem}`);
}

/** The code of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) or its message. */
function networkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : cause.message;
  }
  return String(cause);
}

/** Text from the facilitator, for a message: one line, cut short. */
function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  if (line === '') return '<empty>';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
