import { capString } from '@storefront/core';
import type { CallResult } from '../../pipeline/door.js';

/** An MCP `tools/call` result. */
export interface ToolResult {
  [key: string]: unknown;
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: true;
}

/**
 * The most characters of a result's `text` put in the text block: clients cut tool
 * output near 25,000 tokens (mcp.md §6). The whole text stays in `structuredContent`,
 * which the receipt covers.
 */
export const MCP_TEXT_MAX_CHARS = 60_000;

/** A tool error: an `isError` result whose text says what happened and what to do next. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What a caller can do next about an `ok:false` answer, delivered or refused, by its code. */
const NEXT_STEPS: Readonly<Record<string, string>> = {
  not_content:
    'The site served something in place of the page (the verdict is named above): it is not solved or signed in to. Call again later, or read another URL.',
};

/** The refusals whose remedy is paying: credits, a plan with calls left, or a new key. */
const PAYMENT_CODES: ReadonlySet<string> = new Set([
  'payment_required',
  'sandbox_exhausted',
  'insufficient_credits',
]);

/** The refusals of a key's limits, whose remedy is waiting (`retryAfterSeconds`). */
const LIMIT_CODES: ReadonlySet<string> = new Set(['rate_limited', 'too_many_in_flight']);

/**
 * The tool result of a paid call's result, built from its typed fields: a delivered
 * success is the result in `structuredContent` with its `text` in a text block; an
 * `ok:false` result or a refusal is an `isError` result whose text says what happened,
 * what was charged and what to do next. `mintUrl` is where a key is minted.
 */
export function toolResult(result: CallResult, mintUrl: string): ToolResult {
  if (result.kind === 'delivered') {
    if (result.ok) {
      const { body } = result;
      return { content: [{ type: 'text', text: textBlock(body) }], structuredContent: body };
    }
    const charged = result.charge === 'charged';
    const next = result.error === null ? undefined : NEXT_STEPS[result.error];
    return toolError(
      `${result.error ?? 'internal_error'}: ${result.message ?? 'The call failed'}. ${charged ? 'This attempt was charged (the route charges per attempt).' : 'Nothing was charged.'}${next === undefined ? '' : ` ${next}`}`,
    );
  }
  const { code, message } = result;
  if (code === 'invalid_params') {
    const details = result.details.map((d) => `\`${d.param}\`: ${d.message}`).join('; ');
    return toolError(
      `invalid_params: ${details || message}. Nothing was charged; fix the arguments and call again.`,
    );
  }
  if (code === 'invalid_key') {
    return toolError(
      `${code}: ${message}. Mint a key at ${mintUrl} and send it as \`Authorization: Bearer <key>\`.`,
    );
  }
  if (PAYMENT_CODES.has(code)) {
    return toolError(
      `${code}: ${message}. Nothing was charged. Add credits to the key, move it to a plan with calls left, or mint a key at ${mintUrl}.`,
    );
  }
  if (LIMIT_CODES.has(code)) {
    return toolError(
      `${code}: ${message}. Nothing was charged; wait ${result.retryAfterSeconds ?? 1} s and call again.`,
    );
  }
  const next = NEXT_STEPS[code];
  return toolError(
    `${code}: ${message}. Nothing was charged.${next === undefined ? '' : ` ${next}`}`,
  );
}

/**
 * The text block of a success: the result's `text`, cut with a notice past
 * {@link MCP_TEXT_MAX_CHARS}; a part of a longer text (`slice`) ends with where it sits
 * and how to read on.
 */
function textBlock(body: Record<string, unknown>): string {
  const text = typeof body.text === 'string' ? body.text : JSON.stringify(body);
  const slice = body.slice as
    | { offset: number; length: number; total: number; next: number | null }
    | undefined;
  if (slice !== undefined && (slice.next !== null || slice.offset > 0)) {
    const place = `Characters ${slice.offset} to ${slice.offset + slice.length} of ${slice.total}`;
    const next =
      slice.next === null
        ? 'This part ends the text.'
        : `Call again with the same arguments and offset=${slice.next} for the next part (maxChars sets the part's size).`;
    return `${text}\n\n[${place}. ${next} The receipt signs this part and structuredContent.slice.wholeHash, the hash of the whole text.]`;
  }
  if (text.length <= MCP_TEXT_MAX_CHARS) return text;
  return `${capString(text, MCP_TEXT_MAX_CHARS)}\n\n[Cut at ${MCP_TEXT_MAX_CHARS} of ${text.length} characters. structuredContent.text holds the whole text, and the receipt (structuredContent.attestation) covers all of it.]`;
}
