import { isSha256Hex, type Sha256Hex, StorefrontError } from '@storefront/core';

/**
 * The scheme a signer issues today: first line of every new signed message and prefix
 * of every new keyId. Scheme 2 adds the `route:` line.
 */
export const ATTEST_SCHEME = 'storefront-attest/2';

/** Every scheme a verifier reads, oldest first: `/1` receipts stay verifiable. */
export const ATTEST_SCHEMES = ['storefront-attest/1', ATTEST_SCHEME] as const;

/** A scheme from {@link ATTEST_SCHEMES}. */
export type AttestScheme = (typeof ATTEST_SCHEMES)[number];

/** The signature algorithm named in every attestation. */
export const ATTEST_ALG = 'EIP-191-personal_sign';

/**
 * A route name as the `route:` line carries it: lower-case letters, digits and `-`
 * (the `<name>` of `/buy/<name>`).
 */
export const ROUTE_NAME = /^[a-z0-9-]+$/;

/** The fields a signed message binds, in their fixed order. */
export interface MessageFields {
  /** The first line: which format the rest follows. */
  readonly scheme: AttestScheme;
  /**
   * The route the result came from (`markdown` for `/buy/markdown`); null in a
   * `storefront-attest/1` message, which names none.
   */
  readonly route: string | null;
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

/** The labelled lines after the scheme line, per scheme. */
const KEYS: Readonly<Record<AttestScheme, readonly string[]>> = {
  'storefront-attest/1': ['contentHash', 'url', 'status', 'fetchedAt', 'nonce'],
  'storefront-attest/2': ['route', 'contentHash', 'url', 'status', 'fetchedAt', 'nonce'],
};

/**
 * The lines of a message of the current scheme with placeholders, joined by `\n`:
 * published for verifiers.
 */
export const MESSAGE_TEMPLATE = [
  ATTEST_SCHEME,
  'route:<route name, [a-z0-9-]+>',
  'contentHash:0x<sha256 hex of text>',
  'url:<result url>',
  'status:<upstream status, or none>',
  'fetchedAt:<ISO-8601>',
  'nonce:0x<32 hex>',
] as const;
const NONCE = /^0x[0-9a-f]{32,128}$/;

/**
 * Build the exact string that is signed with EIP-191 `personal_sign`. Scheme 2 (what
 * signers issue):
 *
 * ```text
 * storefront-attest/2
 * route:<route name>
 * contentHash:0x<sha256 of text>
 * url:<url>
 * status:<integer, or none>
 * fetchedAt:<ISO-8601>
 * nonce:0x<hex>
 * ```
 *
 * Scheme 1 is the same without the `route:` line. Lines are joined by `\n` with no
 * trailing newline. Throws a {@link StorefrontError} when a field would make the
 * message ambiguous (a line break in `url`, a malformed hash, nonce or route name, a
 * non-integer status) or does not fit the scheme (a route in scheme 1, none in 2).
 */
export function buildMessage(fields: MessageFields): string {
  if (!(ATTEST_SCHEMES as readonly string[]).includes(fields.scheme)) {
    throw misuse(
      `Expected \`scheme\` as one of ${ATTEST_SCHEMES.join(', ')}, got \`${fields.scheme}\``,
    );
  }
  const routed = fields.scheme !== 'storefront-attest/1';
  if (routed && !(typeof fields.route === 'string' && ROUTE_NAME.test(fields.route))) {
    throw misuse(
      `Expected \`route\` as a route name of lower-case letters, digits and -, got \`${fields.route}\``,
    );
  }
  if (!routed && fields.route !== null) {
    throw misuse(`Expected no \`route\` in a storefront-attest/1 message, got \`${fields.route}\``);
  }
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
    fields.scheme,
    ...(routed ? [`route:${fields.route}`] : []),
    `contentHash:${fields.contentHash}`,
    `url:${fields.url}`,
    `status:${fields.status === null ? 'none' : String(fields.status)}`,
    `fetchedAt:${fields.fetchedAt}`,
    `nonce:${fields.nonce}`,
  ].join('\n');
}

/**
 * Parse a signed message back into its fields; null when it is not a well-formed
 * message of a known scheme (`storefront-attest/1` or `/2`). Parsing and rebuilding
 * gives the same string.
 */
export function parseMessage(message: string): MessageFields | null {
  if (typeof message !== 'string') return null;
  const lines = message.split('\n');
  const scheme = lines[0] as AttestScheme;
  if (!Object.hasOwn(KEYS, scheme)) return null;
  const keys = KEYS[scheme];
  if (lines.length !== keys.length + 1) return null;
  const values: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) {
    const line = lines[i + 1] as string;
    const key = keys[i] as string;
    if (!line.startsWith(`${key}:`)) return null;
    values[key] = line.slice(key.length + 1);
  }
  const status = values.status === 'none' ? null : Number(values.status);
  if (status !== null && !/^\d+$/.test(values.status as string)) return null;
  const fields: MessageFields = {
    scheme,
    route: values.route ?? null,
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
