import { type ParamProblem, sha256Hex } from '@storefront/core';
import { DIFF_MAX_PREV_HASH_CHARS, DIFF_MAX_PREV_TEXT_CHARS } from './limits.js';
import { normalizeText } from './lines.js';

/** The verdict of {@link checkDiffParams}. */
export type DiffParamCheck =
  | { readonly ok: true; readonly comparedBy: 'hash' | 'text' }
  | {
      readonly ok: false;
      readonly error: 'invalid_params';
      readonly details: readonly ParamProblem[];
    };

const SHA256 = /^0x[0-9a-fA-F]{64}$/;

/**
 * Check `/buy/diff` query parameters before any payment (DESIGN §4): at least one of
 * `prevHash` and `prevText`; `prevHash` is `0x` + 64 hex digits (either case);
 * `prevText` is well-formed and at most {@link DIFF_MAX_PREV_TEXT_CHARS} characters;
 * `format` is `text` or `markdown`. When both are given, `prevHash` must be the sha256
 * of `prevText`, as given or with its line endings normalised to `\n`. A refusal is
 * answered with HTTP 400 and never charged.
 */
export function checkDiffParams(params: Readonly<Record<string, unknown>>): DiffParamCheck {
  const details: ParamProblem[] = [];
  const { prevHash, prevText, format } = params;
  if (prevHash === undefined && prevText === undefined) {
    details.push({ param: 'prevHash', message: 'Expected `prevHash` or `prevText`, got neither' });
  }
  const hashProblem = prevHash === undefined ? null : prevHashProblem(prevHash);
  if (hashProblem !== null) details.push({ param: 'prevHash', message: hashProblem });
  const textProblem = prevText === undefined ? null : prevTextProblem(prevText);
  if (textProblem !== null) details.push({ param: 'prevText', message: textProblem });
  if (
    hashProblem === null &&
    textProblem === null &&
    typeof prevHash === 'string' &&
    typeof prevText === 'string' &&
    !hashMatchesText(prevHash, prevText)
  ) {
    details.push({
      param: 'prevHash',
      message: 'Expected `prevHash` to be the sha256 of `prevText`, got a different hash',
    });
  }
  if (format !== undefined && format !== 'text' && format !== 'markdown') {
    details.push({
      param: 'format',
      message: `Expected \`format\` to be \`text\` or \`markdown\`, got \`${String(format).slice(0, 40)}\``,
    });
  }
  if (details.length > 0) return { ok: false, error: 'invalid_params', details };
  return { ok: true, comparedBy: prevText === undefined ? 'hash' : 'text' };
}

/** Why `prevHash` is unusable, or null. */
export function prevHashProblem(value: unknown): string | null {
  if (typeof value !== 'string')
    return `Expected \`prevHash\` to be a string, got \`${typeof value}\``;
  if (value.length > DIFF_MAX_PREV_HASH_CHARS || !SHA256.test(value)) {
    return `Expected \`prevHash\` to be \`0x\` followed by 64 hex digits, got \`${value.slice(0, 80)}\``;
  }
  return null;
}

/** Why `prevText` is unusable, or null. */
export function prevTextProblem(value: unknown): string | null {
  if (typeof value !== 'string')
    return `Expected \`prevText\` to be a string, got \`${typeof value}\``;
  if (value.length > DIFF_MAX_PREV_TEXT_CHARS) {
    return `Expected \`prevText\` to have at most ${DIFF_MAX_PREV_TEXT_CHARS} characters, got ${value.length}`;
  }
  if (!value.isWellFormed())
    return 'Expected `prevText` to be well-formed Unicode, got a lone surrogate';
  return null;
}

/** Whether a (well-formed) hash is the sha256 of the text, as given or normalised. */
export function hashMatchesText(prevHash: string, prevText: string): boolean {
  const wanted = prevHash.toLowerCase();
  return sha256Hex(prevText) === wanted || sha256Hex(normalizeText(prevText)) === wanted;
}
