import type { CallResult, Headers, Refusal } from '../../pipeline/door.js';
import { decodeBase64Json, encodeBase64Json } from '../x402/base64-json.js';
import { PAYMENT_REQUIRED_HEADER } from '../x402/requirements.js';
import { SETTLEMENT_HEADERS } from '../x402/settlement-header.js';
import type { ToolResult } from './result.js';

/** Where a `tools/call` carries its payment (x402 MCP transport). */
export const PAYMENT_META = 'x402/payment';

/** Where a paid tool result carries its settlement (x402 MCP transport). */
export const PAYMENT_RESPONSE_META = 'x402/payment-response';

/** The payment headers the x402 door reads, by version. */
const PAYMENT_HEADER = { 1: 'x-payment', 2: 'payment-signature' } as const;

/** The names of both payment headers: only `_meta` carries a payment into an MCP call. */
export const PAYMENT_HEADER_NAMES: ReadonlySet<string> = new Set(Object.values(PAYMENT_HEADER));

/**
 * The payment header of a `tools/call`'s `_meta["x402/payment"]`, as the x402 door reads
 * it: the same PaymentPayload, base64 JSON under the header of its `x402Version`
 * (`X-PAYMENT` for 1, `PAYMENT-SIGNATURE` otherwise, where the door refuses what it
 * cannot read with the terms, as over HTTP). Empty when the call carries none.
 */
export function paymentHeaderOf(payment: unknown): Readonly<Record<string, string>> {
  if (payment === undefined) return {};
  const version = (payment as { x402Version?: unknown } | null)?.x402Version === 1 ? 1 : 2;
  return { [PAYMENT_HEADER[version]]: encodeBase64Json(payment) };
}

/** A header of `headers` by name, whatever its case. */
function headerValue(headers: Headers, name: string): string | null {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return value;
  }
  return null;
}

/** The decoded value of the header `name` of `headers`, when it is there and reads. */
function decodedHeader(headers: Headers, name: string): Record<string, unknown> | null {
  const value = headerValue(headers, name);
  if (value === null) return null;
  const decoded = decodeBase64Json(value);
  return decoded.ok && typeof decoded.value === 'object' && decoded.value !== null
    ? (decoded.value as Record<string, unknown>)
    : null;
}

/**
 * The tool result of a refusal that offers payment terms (the x402 door's 402: no
 * payment, a payment refused, a settlement failed): `isError`, the PaymentRequired
 * object (the v2 terms the HTTP answer carries in `PAYMENT-REQUIRED`) as
 * `structuredContent` and, as the transport requires, its JSON as the first text block;
 * a second block says what happened and the other way in. Null for any other refusal.
 */
export function paymentToolResult(refused: Refusal, mintUrl: string): ToolResult | null {
  const terms = decodedHeader(refused.headers, PAYMENT_REQUIRED_HEADER);
  if (terms === null) return null;
  return {
    isError: true,
    structuredContent: terms,
    content: [
      { type: 'text', text: JSON.stringify(terms) },
      {
        type: 'text',
        text: `${refused.code}: ${refused.message}. Nothing was charged. To pay, call again with a PaymentPayload for these terms in params._meta["${PAYMENT_META}"]; for a key, mint one at ${mintUrl}.`,
      },
    ],
  };
}

/**
 * A delivered result's settlement, as the transport carries it in
 * `_meta["x402/payment-response"]`: the decoded `PAYMENT-RESPONSE` (or v1
 * `X-PAYMENT-RESPONSE`) of the HTTP answer. Null when the result settled nothing.
 */
export function settlementOf(result: CallResult): Record<string, unknown> | null {
  if (result.kind !== 'delivered') return null;
  return (
    decodedHeader(result.headers, SETTLEMENT_HEADERS[2]) ??
    decodedHeader(result.headers, SETTLEMENT_HEADERS[1])
  );
}
