import {
  fail,
  joinRows,
  ok,
  type ProductResult,
  StorefrontError,
  sha256Hex,
} from '@storefront/core';
import { contentProblem } from './check-params.js';
import { INLINE_SOURCE, NOTARIZE_STATEMENT_VERSION, WELL_KNOWN_PATH } from './limits.js';
import type {
  NotarizeData,
  NotarizeInput,
  NotarizeOptions,
  NotarizeSubject,
  NotarizeVerify,
} from './types.js';

const NO_OPTIONS: NotarizeOptions = Object.freeze({});
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const encoder = new TextEncoder();

/**
 * Build the canonical notarization statement for inline content or a fetched page.
 * `text` is the statement: eight `name:value` lines joined by `\n` in a fixed order
 * (see the README), naming the scheme, the sha256 and byte length of the notarized
 * bytes, the source, exactly which bytes were hashed, and the witness time. The
 * signature over it is added by the service, not here.
 *
 * @example
 *   const result = notarize({ content: 'Hello, world', witnessedAt: '2026-01-02T03:04:05.678Z' });
 *   if (result.ok) console.log(result.text);
 */
export function notarize(
  input: NotarizeInput,
  options?: Readonly<NotarizeOptions> | null,
): ProductResult<NotarizeData> {
  const wellKnown = wellKnownFor(options ?? NO_OPTIONS);
  if (input === null || typeof input !== 'object') {
    throw new StorefrontError(
      'internal_error',
      'Expected `{ content, witnessedAt }` or `{ document, text? }`',
    );
  }

  if ('content' in input) {
    const witnessedAt = checkTime(input.witnessedAt, 'witnessedAt');
    const problem = contentProblem(input.content);
    if (problem !== null) return fail('invalid_params', problem);
    return statement(
      encoder.encode(input.content),
      INLINE_SOURCE,
      'inline',
      'inline-text',
      witnessedAt,
      wellKnown,
    );
  }

  const { document, text } = input;
  if (
    document === null ||
    typeof document !== 'object' ||
    !(document.bytes instanceof Uint8Array)
  ) {
    throw new StorefrontError('internal_error', 'Expected `document` to be a FetchedDocument');
  }
  if (text !== undefined && typeof text !== 'string') {
    throw new StorefrontError(
      'internal_error',
      `Expected \`text\` to be a string, got \`${typeof text}\``,
    );
  }
  const witnessedAt = checkTime(document.fetchedAt, 'document.fetchedAt');
  const source = String(document.url);
  if (!isHttpUrl(source)) {
    return fail(
      'invalid_url',
      `Expected the final URL to be an http(s) URL, got \`${source.slice(0, 200)}\``,
    );
  }
  if (!(document.status >= 200 && document.status <= 299)) {
    return fail(
      'upstream_http_error',
      `Upstream answered ${document.status}; only a 2xx page is notarized`,
    );
  }
  if (document.truncated) {
    return fail(
      'body_too_large',
      'The body was cut at the fetch cap, so the whole page cannot be notarized',
    );
  }
  return text === undefined
    ? statement(document.bytes, source, 'url', 'page-body', witnessedAt, wellKnown)
    : statement(encoder.encode(text), source, 'url', 'page-text', witnessedAt, wellKnown);
}

function statement(
  bytes: Uint8Array,
  source: string,
  sourceKind: 'url' | 'inline',
  subject: NotarizeSubject,
  witnessedAt: string,
  wellKnown: string,
): ProductResult<NotarizeData> {
  const contentHash = sha256Hex(bytes);
  const data: NotarizeData = {
    algorithm: 'sha256',
    contentHash,
    byteLength: bytes.length,
    source,
    sourceKind,
    witnessedAt,
    statementVersion: NOTARIZE_STATEMENT_VERSION,
    verify: verifyFor(subject, wellKnown),
  };
  const text = joinRows([
    `statementVersion:${NOTARIZE_STATEMENT_VERSION}`,
    `algorithm:${data.algorithm}`,
    `contentHash:${contentHash}`,
    `byteLength:${data.byteLength}`,
    `source:${source}`,
    `sourceKind:${sourceKind}`,
    `subject:${subject}`,
    `witnessedAt:${witnessedAt}`,
  ]);
  return ok(text, data);
}

const SUBJECT_WORDS: Readonly<Record<NotarizeSubject, string>> = {
  'inline-text': 'the UTF-8 bytes of the content you sent',
  'page-text': 'the UTF-8 bytes of the page text',
  'page-body': 'the page body as received',
};

function verifyFor(subject: NotarizeSubject, wellKnown: string): NotarizeVerify {
  return {
    howTo: `Check that sha256 of ${SUBJECT_WORDS[subject]} equals data.contentHash, that sha256(text) equals attestation.contentHash, and that the EIP-191 signer recovered from attestation.verify.message and attestation.signature is the key pinned at ${wellKnown}, e.g. ethers.verifyMessage(attestation.verify.message, attestation.signature) (or viem's verifyMessage); the verifier shipped with the service also checks the statement against data: node packages/attest/bin/storefront-verify.js result.json --pin <address> (in a checkout of the Storefront repository, after pnpm install && pnpm build).`,
    wellKnown,
  };
}

function wellKnownFor(options: Readonly<NotarizeOptions>): string {
  if (typeof options !== 'object') {
    throw new StorefrontError(
      'internal_error',
      `Expected options to be an object, got \`${typeof options}\``,
    );
  }
  const { baseUrl } = options;
  if (baseUrl === undefined) return WELL_KNOWN_PATH;
  if (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)) {
    throw new StorefrontError(
      'internal_error',
      `Expected \`baseUrl\` to be an http(s) URL, got \`${String(baseUrl).slice(0, 200)}\``,
    );
  }
  return new URL(WELL_KNOWN_PATH, baseUrl).href;
}

function checkTime(value: unknown, name: string): string {
  if (typeof value !== 'string' || !ISO_8601.test(value)) {
    throw new StorefrontError(
      'internal_error',
      `Expected \`${name}\` to be an ISO-8601 time, got \`${String(value).slice(0, 100)}\``,
    );
  }
  return value;
}

/** An absolute http(s) URL with nothing that would break a statement line. */
function isHttpUrl(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
