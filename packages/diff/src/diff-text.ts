import {
  capString,
  decodeBytes,
  fail,
  joinRows,
  ok,
  type ProductResult,
  StorefrontError,
  sha256Hex,
} from '@storefront/core';
import { hashMatchesText, prevHashProblem, prevTextProblem } from './check-params.js';
import { formatHunks } from './hunks.js';
import {
  DIFF_CLAIM_VERSION,
  DIFF_CONTEXT_LINES,
  DIFF_MAX_HUNK_LINE_CHARS,
  DIFF_MAX_HUNK_LINES,
} from './limits.js';
import { internLines, normalizeText, splitLines } from './lines.js';
import { DELETE, editScript, INSERT } from './myers.js';
import type { DiffData, DiffInput, DiffLines, DiffOptions } from './types.js';

const NO_OPTIONS: DiffOptions = Object.freeze({});
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Prove whether a page changed since an earlier read. Texts are compared with line
 * endings normalised to `\n`. With `prevHash` only, the proof is hash-only; with
 * `prevText`, a line diff (Myers, bounded) is added. `text` is the change claim: six
 * `name:value` lines binding the url, `changed`, `fromHash`, `toHash` and `fetchedAt`,
 * so signed claims chain into an audit trail (one claim's `toHash` is the next one's
 * `fromHash`).
 *
 * @example
 *   const result = diffText({ document, text: pageText, prevText: earlierText });
 *   if (result.ok) console.log(result.data.changed, result.data.diff?.hunks.join('\n'));
 */
export function diffText(
  input: DiffInput,
  options?: Readonly<DiffOptions> | null,
): ProductResult<DiffData> {
  const context = contextFrom(options ?? NO_OPTIONS);
  if (input === null || typeof input !== 'object') {
    throw new StorefrontError(
      'internal_error',
      'Expected `{ document, text?, prevHash?, prevText? }`',
    );
  }
  const { document, prevHash, prevText } = input;
  if (
    document === null ||
    typeof document !== 'object' ||
    !(document.bytes instanceof Uint8Array)
  ) {
    throw new StorefrontError('internal_error', 'Expected `document` to be a FetchedDocument');
  }
  if (input.text !== undefined && typeof input.text !== 'string') {
    throw new StorefrontError(
      'internal_error',
      `Expected \`text\` to be a string, got \`${typeof input.text}\``,
    );
  }
  const fetchedAt = document.fetchedAt;
  if (typeof fetchedAt !== 'string' || !ISO_8601.test(fetchedAt)) {
    throw new StorefrontError(
      'internal_error',
      `Expected \`document.fetchedAt\` to be an ISO-8601 time, got \`${String(fetchedAt).slice(0, 100)}\``,
    );
  }

  const envelope = { bytes: document.bytes.length, contentType: document.contentType };
  if (prevHash === undefined && prevText === undefined) {
    return fail('invalid_params', 'Expected `prevHash` or `prevText`, got neither', envelope);
  }
  const problem =
    (prevHash === undefined ? null : prevHashProblem(prevHash)) ??
    (prevText === undefined ? null : prevTextProblem(prevText));
  if (problem !== null) return fail('invalid_params', problem, envelope);
  if (prevHash !== undefined && prevText !== undefined && !hashMatchesText(prevHash, prevText)) {
    return fail(
      'invalid_params',
      'Expected `prevHash` to be the sha256 of `prevText`, got a different hash',
      envelope,
    );
  }
  const url = String(document.url);
  if (!isHttpUrl(url)) {
    return fail(
      'invalid_url',
      `Expected the final URL to be an http(s) URL, got \`${url.slice(0, 200)}\``,
      envelope,
    );
  }
  if (!(document.status >= 200 && document.status <= 299)) {
    return fail(
      'upstream_http_error',
      `Upstream answered ${document.status}; only a 2xx page is compared`,
      envelope,
    );
  }

  const current = normalizeText(
    input.text ?? decodeBytes(document.bytes, { contentType: document.contentType }).text,
  );
  const toHash = sha256Hex(current);
  let data: DiffData;
  if (prevText === undefined) {
    const fromHash = (prevHash as string).toLowerCase();
    data = { changed: fromHash !== toHash, fromHash, toHash, comparedBy: 'hash', ...envelope };
  } else {
    const previous = normalizeText(prevText);
    const fromHash = sha256Hex(previous);
    data = {
      changed: fromHash !== toHash,
      fromHash,
      toHash,
      comparedBy: 'text',
      diff: lineDiff(previous, current, context),
      ...envelope,
    };
  }
  const claim = joinRows([
    `claimVersion:${DIFF_CLAIM_VERSION}`,
    `url:${url}`,
    `changed:${data.changed}`,
    `fromHash:${data.fromHash ?? 'none'}`,
    `toHash:${data.toHash}`,
    `fetchedAt:${fetchedAt}`,
  ]);
  return ok(claim, data);
}

/** The line diff of two normalised texts. */
export function lineDiff(
  previous: string,
  current: string,
  context = DIFF_CONTEXT_LINES,
): DiffLines {
  const old = splitLines(previous);
  const now = splitLines(current);
  const { a, b } = internLines(old, now);
  const { ops } = editScript(a, b);
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op === INSERT) added++;
    else if (op === DELETE) removed++;
  }
  const hunks = formatHunks(ops, old, now, context, DIFF_MAX_HUNK_LINES);
  let cut = false;
  const lines = hunks.lines.map((line) => {
    const capped = capString(line, DIFF_MAX_HUNK_LINE_CHARS);
    if (capped !== line) cut = true;
    return capped;
  });
  return { added, removed, hunks: lines, truncated: hunks.truncated || cut };
}

function contextFrom(options: Readonly<DiffOptions>): number {
  if (typeof options !== 'object') {
    throw new StorefrontError(
      'internal_error',
      `Expected options to be an object, got \`${typeof options}\``,
    );
  }
  const { context = DIFF_CONTEXT_LINES } = options;
  if (!Number.isInteger(context) || context < 0 || context > 100) {
    throw new StorefrontError(
      'internal_error',
      `Expected \`context\` to be an integer from 0 to 100, got \`${String(context)}\``,
    );
  }
  return context;
}

/** An absolute http(s) URL with nothing that would break a claim line. */
function isHttpUrl(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
