import { capString } from '@storefront/core';
import type { Reply } from '../../pipeline/door.js';

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

/**
 * The tool result of a paid call's answer (`reply`, as the HTTP route would have sent
 * it): a delivered success is the HTTP body in `structuredContent` with its `text` in a
 * text block; anything else is an `isError` result whose text tells the caller what to
 * do next. `mintUrl` is where a key is minted.
 */
export function toolResult(reply: Reply, mintUrl: string): ToolResult {
  const body = (reply.body ?? {}) as Record<string, unknown>;
  const error = typeof body.error === 'string' ? body.error : 'internal_error';
  const message = typeof body.message === 'string' ? body.message : 'The call failed';
  if (reply.status === 200 && body.ok === true) {
    return { content: [{ type: 'text', text: textBlock(body) }], structuredContent: body };
  }
  const charge = reply.headers['Storefront-Charge'];
  switch (reply.status) {
    case 200: {
      const charged = charge !== undefined && charge !== 'none';
      return toolError(
        `${error}: ${message}. ${charged ? 'This attempt was charged (the route charges per attempt).' : 'Nothing was charged.'}`,
      );
    }
    case 400: {
      const details = Array.isArray(body.details)
        ? (body.details as { param?: string; message?: string }[])
            .map((d) => `\`${d.param ?? '?'}\`: ${d.message ?? 'invalid'}`)
            .join('; ')
        : '';
      return toolError(
        `invalid_params: ${details || message}. Nothing was charged; fix the arguments and call again.`,
      );
    }
    case 401:
      return toolError(
        `${error}: ${message}. Mint a key at ${mintUrl} and send it as \`Authorization: Bearer <key>\`.`,
      );
    case 402:
      return toolError(
        `${error}: ${message}. Nothing was charged. Add credits to the key, move it to a plan with calls left, or mint a key at ${mintUrl}.`,
      );
    case 429: {
      const wait = reply.headers['Retry-After'] ?? '1';
      return toolError(`${error}: ${message}. Nothing was charged; wait ${wait} s and call again.`);
    }
    default:
      return toolError(`${error}: ${message}. Nothing was charged.`);
  }
}

/** The text block of a success: the result's `text`, cut with a notice past {@link MCP_TEXT_MAX_CHARS}. */
function textBlock(body: Record<string, unknown>): string {
  const text = typeof body.text === 'string' ? body.text : JSON.stringify(body);
  if (text.length <= MCP_TEXT_MAX_CHARS) return text;
  return `${capString(text, MCP_TEXT_MAX_CHARS)}\n\n[Cut at ${MCP_TEXT_MAX_CHARS} of ${text.length} characters. structuredContent.text holds the whole text, and the receipt (structuredContent.attestation) covers all of it.]`;
}
