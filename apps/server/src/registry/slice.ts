import type { JsonSchema, ParamProblem } from '@storefront/core';
import { type Sha256Hex, sha256Hex, sliceText } from '@storefront/core';

/**
 * Answers sized for agents: `maxChars` and `offset` cut a text or markdown answer to a
 * part of it. The answer carries the part where the whole would be, and `slice` says
 * where it sits (`offset`, `length`, the whole's `total` length and `wholeHash`, and
 * `next`, where the following part starts); the receipt signs the part and that place
 * (`slice:` line), so a part verifies on its own and two parts with the same
 * `wholeHash` prove they come from the same text. Counted in Unicode code points.
 */
export interface SliceRequest {
  /** Where the part starts, in code points. */
  readonly offset: number;
  /** The most code points the part holds; null for the rest of the text. */
  readonly maxChars: number | null;
}

/** The largest `maxChars` and `offset`: ten million code points, beyond any page's text. */
export const SLICE_MAX = 10_000_000;

/**
 * The most characters an MCP tool answers with when the call names no `maxChars`: the
 * text appears twice in a tool result (its text block and `structuredContent`), and
 * common clients cut a result near 25,000 tokens.
 */
export const MCP_SLICE_CHARS = 20_000;

const WHOLE = /^(?:0|[1-9][0-9]{0,7})$/;

/** The query parameters of a route whose answer can be cut: `maxChars` and `offset`. */
export const SLICE_PARAMS: Readonly<Record<'maxChars' | 'offset', JsonSchema>> = {
  maxChars: {
    type: 'string',
    pattern: '^[1-9][0-9]{0,7}$',
    maxLength: 8,
    description: `Answer with at most this many characters (Unicode code points, 1 to ${SLICE_MAX}) of the text, from \`offset\`; \`slice\` in the answer says where the part sits in the whole and where the next one starts. The receipt signs the part and its place in the whole.`,
  },
  offset: {
    type: 'string',
    pattern: '^(?:0|[1-9][0-9]{0,7})$',
    maxLength: 8,
    description:
      'Where the part starts, in characters (Unicode code points) of the whole text; default 0. Pass the previous answer’s `slice.next` to read on.',
    default: '0',
  },
};

/** What a route's answer says about its part of the text: the signed place plus `next`. */
export interface SliceField {
  readonly offset: number;
  readonly length: number;
  readonly total: number;
  readonly wholeHash: Sha256Hex;
  /** Where the following part starts; null when this part ends the text. */
  readonly next: number | null;
}

/**
 * The slice a query asks for (null when it names neither `maxChars` nor `offset`), or
 * what is wrong with it.
 */
export function readSlice(
  query: Readonly<Record<string, string>>,
): { readonly ok: true; readonly slice: SliceRequest | null } | ParamProblem {
  const { maxChars, offset } = query;
  if (maxChars === undefined && offset === undefined) return { ok: true, slice: null };
  const size = maxChars === undefined ? null : wholeIn(maxChars, 1);
  if (size === undefined) {
    return {
      param: 'maxChars',
      message: `Expected \`maxChars\` to be a whole number from 1 to ${SLICE_MAX}, got \`${String(maxChars).slice(0, 20)}\``,
    };
  }
  const from = offset === undefined ? 0 : wholeIn(offset, 0);
  if (from === undefined || from === null) {
    return {
      param: 'offset',
      message: `Expected \`offset\` to be a whole number from 0 to ${SLICE_MAX}, got \`${String(offset).slice(0, 20)}\``,
    };
  }
  return { ok: true, slice: { offset: from, maxChars: size } };
}

function wholeIn(value: string, min: number): number | undefined {
  if (!WHOLE.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= SLICE_MAX ? n : undefined;
}

/** The part of `whole` a request asks for, and its place in the whole. */
export function cut(
  whole: string,
  request: SliceRequest,
): { readonly text: string; readonly slice: SliceField } {
  const part = sliceText(whole, request.offset, request.maxChars);
  const end = part.offset + part.length;
  return {
    text: part.text,
    slice: {
      offset: part.offset,
      length: part.length,
      total: part.total,
      wholeHash: sha256Hex(whole),
      next: end < part.total ? end : null,
    },
  };
}

/** The JSON Schema of an answer's `slice`. */
export const SLICE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['offset', 'length', 'total', 'wholeHash', 'next'],
  additionalProperties: false,
  properties: {
    offset: { type: 'integer', minimum: 0 },
    length: { type: 'integer', minimum: 0 },
    total: { type: 'integer', minimum: 0 },
    wholeHash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
    next: { type: ['integer', 'null'], minimum: 0 },
  },
};
