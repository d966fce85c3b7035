import { isSha256Hex, type Sha256Hex, StorefrontError } from '@storefront/core';

/** The scheme tag: first line of every signed message and prefix of every keyId. */
export const ATTEST_SCHEME = 'storefront-attest/1';

/** The signature algorithm named in every attestation. */
export const ATTEST_ALG = 'EIP-191-personal_sign';

/** The fields a signed message binds, in their fixed order. */
export interface MessageFields {
  /** `0x` + sha256 hex of the result's `text`. */
  readonly contentHash: Sha256Hex;
  /** The result's `url` (final URL, origin, or `inline:content`). */
  readonly url: string;
  /** The upstream HTTP status, or null when the host never answered. */
  readonly status: number | null;
  /** ISO-8601 time of the read. */
  readonly fetchedAt: string;
  /** `0x` + hex, at least 128 random bits. */
  readonly nonce: string;
}

const KEYS = ['contentHash', 'url', 'status', 'fetchedAt', 'nonce'] as const;

/** The signed message's lines with placeholders, joined by `\n`: published for verifiers. */
export const MESSAGE_TEMPLATE = [
  ATTEST_SCHEME,
  'contentHash:0x<sha256 hex of text>',
  'url:<result url>',
  'status:<upstream status, or none>',
  'fetchedAt:<ISO-8601>',
  'nonce:0x<32 hex>',
] as const;
const NONCE = /^0x[0-9a-f]{32,128}$/;

/**
 * Build the exact string that is signed with EIP-191 `personal_sign`:
 *
 * ```text
 * storefront-attest/1
 * contentHash:0x<sha256 of text>
 * url:<url>
 * status:<integer, or none>
 * fetchedAt:<ISO-8601>
 * nonce:0x<hex>
 * ```
 *
 * Lines are joined by `\n` with no trailing newline. Throws a {@link StorefrontError}
 * when a field would make the message ambiguous (a line break in `url`, a malformed
 * hash or nonce, a non-integer status).
 */
export function buildMessage(fields: MessageFields): string {
  if (!isSha256Hex(fields.contentHash)) {
    throw misuse(`Expected \`contentHash\` as 0x + 64 hex digits, got \`${fields.contentHash}\``);
  }
  if (typeof fields.url !== 'string' || fields.url === '' || /[\r\n]/.test(fields.url)) {
    throw misuse(`Expected \`url\` as a non-empty single-line string, got \`${fields.url}\``);
  }
  if (fields.status !== null && !(Number.isInteger(fields.status) && fields.status >= 0)) {
    throw misuse(`Expected \`status\` as a non-negative integer or null, got \`${fields.status}\``);
  }
  if (typeof fields.fetchedAt !== 'string' || Number.isNaN(Date.parse(fields.fetchedAt))) {
    throw misuse(`Expected \`fetchedAt\` as an ISO-8601 time, got \`${fields.fetchedAt}\``);
  }
  if (!NONCE.test(fields.nonce)) {
    throw misuse(`Expected \`nonce\` as 0x + 32 to 128 hex digits, got \`${fields.nonce}\``);
  }
  return [
    ATTEST_SCHEME,
    `contentHash:${fields.contentHash}`,
    `url:${fields.url}`,
    `status:${fields.status === null ? 'none' : String(fields.status)}`,
    `fetchedAt:${fields.fetchedAt}`,
    `nonce:${fields.nonce}`,
  ].join('\n');
}

/**
 * Parse a signed message back into its fields; null when it is not a well-formed
 * `storefront-attest/1` message. Parsing and rebuilding gives the same string.
 */
export function parseMessage(message: string): MessageFields | null {
  if (typeof message !== 'string') return null;
  const lines = message.split('\n');
  if (lines.length !== KEYS.length + 1 || lines[0] !== ATTEST_SCHEME) return null;
  const values: Record<string, string> = {};
  for (let i = 0; i < KEYS.length; i++) {
    const line = lines[i + 1] as string;
    const key = KEYS[i] as string;
    if (!line.startsWith(`${key}:`)) return null;
    values[key] = line.slice(key.length + 1);
  }
  const status = values.status === 'none' ? null : Number(values.status);
  if (status !== null && !/^\d+$/.test(values.status as string)) return null;
  const fields: MessageFields = {
    contentHash: values.contentHash as Sha256Hex,
    url: values.url as string,
    status,
    fetchedAt: values.fetchedAt as string,
    nonce: values.nonce as string,
  };
  try {
    return buildMessage(fields) === message ? fields : null;
  } catch {
    return null;
  }
}

function misuse(message: string): StorefrontError {
  return new StorefrontError('internal_error', message);
}
