import { isSha256Hex, type Sha256Hex, StorefrontError } from '@storefront/core';

/**
 * The scheme a signer issues today: first line of every new signed message and prefix
 * of every new keyId. Scheme 2 adds the `route:` line; scheme 3 the optional `page:`
 * line, the verdict on the page the result was made from, and the optional `slice:`
 * line, where a slice of a longer text sits in the whole.
 */
export const ATTEST_SCHEME = 'storefront-attest/3';

/** Every scheme a verifier reads, oldest first: `/1` and `/2` receipts stay verifiable. */
export const ATTEST_SCHEMES = [
  'storefront-attest/1',
  'storefront-attest/2',
  ATTEST_SCHEME,
] as const;

/** A scheme from {@link ATTEST_SCHEMES}. */
export type AttestScheme = (typeof ATTEST_SCHEMES)[number];

/** The signature algorithm named in every attestation. */
export const ATTEST_ALG = 'EIP-191-personal_sign';

/**
 * A route name as the `route:` line carries it: lower-case letters, digits and `-`
 * (the `<name>` of `/buy/<name>`).
 */
export const ROUTE_NAME = /^[a-z0-9-]+$/;

/**
 * The verdict on the page a result was made from, as a `page:` line binds it (scheme 3):
 * what the page is (`content`, or what was served in its place), the version of the
 * rules that decided it, the visible words they counted, and the signals that fired.
 */
export interface PageLine {
  /** `content`, `challenge`, `blocked`, `login`, `paywall`, `shell`, `error` or `parked`. */
  readonly verdict: string;
  /** The rules' version (`page-verdict/1`). */
  readonly rubric: string;
  /** Visible words outside the site's chrome. */
  readonly words: number;
  /** The signals that fired, sorted, each `<kind>:<name>`. */
  readonly signals: readonly string[];
}

/**
 * Where the signed `text` sits in a longer text it was cut from, as a `slice:` line binds
 * it (scheme 3): a result asked for with `maxChars` or `offset` carries part of the text,
 * and its receipt signs that part (`contentHash`) together with this line, so the part
 * verifies on its own and as part of the whole; two parts with the same `wholeHash` come
 * from the same text. Counted in Unicode code points.
 */
export interface SliceLine {
  /** Where the part starts in the whole text. */
  readonly offset: number;
  /** The part's length (the code points of the signed `text`). */
  readonly length: number;
  /** The whole text's length. */
  readonly total: number;
  /** `0x` + sha256 hex of the whole text. */
  readonly wholeHash: Sha256Hex;
}

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
  /**
   * The verdict on the page the result was made from (scheme 3, routes that read a
   * page); null when the message binds none.
   */
  readonly page?: PageLine | null;
  /**
   * Where the signed text sits in the whole it was cut from (scheme 3, a result asked
   * for in part); null when the message binds none.
   */
  readonly slice?: SliceLine | null;
  /** `0x` + hex, at least 128 random bits. */
  readonly nonce: string;
}

/** The labelled lines after the scheme line, per scheme; those in {@link OPTIONAL} may be absent. */
const KEYS: Readonly<Record<AttestScheme, readonly string[]>> = {
  'storefront-attest/1': ['contentHash', 'url', 'status', 'fetchedAt', 'nonce'],
  'storefront-attest/2': ['route', 'contentHash', 'url', 'status', 'fetchedAt', 'nonce'],
  'storefront-attest/3': [
    'route',
    'contentHash',
    'url',
    'status',
    'fetchedAt',
    'page',
    'slice',
    'nonce',
  ],
};

/** The lines a message has only when it binds what they say. */
const OPTIONAL: ReadonlySet<string> = new Set(['page', 'slice']);

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
  'page:<verdict>;<rubric>;<words>;<signals, comma-separated> (only for a result made from a page)',
  'slice:<offset>;<length>;<total>;0x<sha256 hex of the whole text> (only for a result asked for in part; code points)',
  'nonce:0x<32 hex>',
] as const;
const NONCE = /^0x[0-9a-f]{32,128}$/;
const VERDICT = /^[a-z]+$/;
const RUBRIC = /^[a-z0-9-]+\/[0-9]+$/;
const SIGNAL = /^[a-z]+:[a-z0-9-]+$/;

/** The text of a `page:` line (after `page:`): `<verdict>;<rubric>;<words>;<signals>`. */
export function pageLineText(page: PageLine): string {
  return `${page.verdict};${page.rubric};${page.words};${page.signals.join(',')}`;
}

/**
 * Why `page` cannot be a `page:` line (null when it can): a verdict of lower-case
 * letters, a rubric `name/version`, a whole number of words, and signals
 * `<kind>:<name>`, sorted and without repeats.
 */
export function pageLineProblem(page: unknown): string | null {
  if (typeof page !== 'object' || page === null || Array.isArray(page)) {
    return 'it is not an object';
  }
  const { verdict, rubric, words, signals } = page as Record<string, unknown>;
  if (typeof verdict !== 'string' || !VERDICT.test(verdict)) {
    return '`verdict` is not a word of lower-case letters';
  }
  if (typeof rubric !== 'string' || !RUBRIC.test(rubric)) return '`rubric` is not name/version';
  if (!Number.isSafeInteger(words) || (words as number) < 0) {
    return '`words` is not a whole number';
  }
  if (!Array.isArray(signals) || !signals.every((x) => typeof x === 'string' && SIGNAL.test(x))) {
    return '`signals` is not a list of <kind>:<name>';
  }
  for (let i = 1; i < signals.length; i++) {
    if ((signals[i - 1] as string) >= (signals[i] as string)) {
      return '`signals` is not sorted without repeats';
    }
  }
  return null;
}

/** The text of a `slice:` line (after `slice:`): `<offset>;<length>;<total>;<wholeHash>`. */
export function sliceLineText(slice: SliceLine): string {
  return `${slice.offset};${slice.length};${slice.total};${slice.wholeHash}`;
}

/**
 * Why `slice` cannot be a `slice:` line (null when it can): whole numbers with
 * `offset + length` at most `total`, and the whole text's hash as 0x + 64 hex digits.
 */
export function sliceLineProblem(slice: unknown): string | null {
  if (typeof slice !== 'object' || slice === null || Array.isArray(slice)) {
    return 'it is not an object';
  }
  const { offset, length, total, wholeHash } = slice as Record<string, unknown>;
  for (const [name, value] of [
    ['offset', offset],
    ['length', length],
    ['total', total],
  ] as const) {
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      return `\`${name}\` is not a whole number`;
    }
  }
  if ((offset as number) + (length as number) > (total as number)) {
    return '`offset` + `length` is past `total`';
  }
  if (!isSha256Hex(wholeHash)) return '`wholeHash` is not 0x + 64 hex digits';
  return null;
}

/** A `slice:` line's text back into its fields; null when it is not one. */
function parseSliceLine(text: string): SliceLine | null {
  const parts = text.split(';');
  if (parts.length !== 4) return null;
  const [offset, length, total, wholeHash] = parts as [string, string, string, string];
  const whole = /^(?:0|[1-9][0-9]*)$/;
  if (!whole.test(offset) || !whole.test(length) || !whole.test(total)) return null;
  const slice = {
    offset: Number(offset),
    length: Number(length),
    total: Number(total),
    wholeHash: wholeHash as Sha256Hex,
  };
  return sliceLineProblem(slice) === null ? slice : null;
}

/** A `page:` line's text back into its fields; null when it is not one. */
function parsePageLine(text: string): PageLine | null {
  const parts = text.split(';');
  if (parts.length !== 4) return null;
  const [verdict, rubric, words, signals] = parts as [string, string, string, string];
  if (!/^(?:0|[1-9][0-9]*)$/.test(words)) return null;
  const page: PageLine = {
    verdict,
    rubric,
    words: Number(words),
    signals: signals === '' ? [] : signals.split(','),
  };
  return pageLineProblem(page) === null ? page : null;
}

/**
 * Build the exact string that is signed with EIP-191 `personal_sign`. Scheme 3 (what
 * signers issue):
 *
 * ```text
 * storefront-attest/3
 * route:<route name>
 * contentHash:0x<sha256 of text>
 * url:<url>
 * status:<integer, or none>
 * fetchedAt:<ISO-8601>
 * page:<verdict>;<rubric>;<words>;<signals>     (only for a result made from a page)
 * slice:<offset>;<length>;<total>;0x<sha256>     (only for a result asked for in part)
 * nonce:0x<hex>
 * ```
 *
 * Scheme 2 is the same without the `page:` and `slice:` lines, scheme 1 without the `route:` line
 * too. Lines are joined by `\n` with no trailing newline. Throws a
 * {@link StorefrontError} when a field would make the message ambiguous (a line break
 * in `url`, a malformed hash, nonce, route name or page verdict, a non-integer status)
 * or does not fit the scheme (a route in scheme 1, none in 2 or 3, a page or a slice
 * before 3).
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
  const page = fields.page ?? null;
  if (page !== null) {
    if (!KEYS[fields.scheme].includes('page')) {
      throw misuse(`Expected no \`page\` in a ${fields.scheme} message`);
    }
    const problem = pageLineProblem(page);
    if (problem !== null) throw misuse(`Expected \`page\` as a page verdict, but ${problem}`);
  }
  const slice = fields.slice ?? null;
  if (slice !== null) {
    if (!KEYS[fields.scheme].includes('slice')) {
      throw misuse(`Expected no \`slice\` in a ${fields.scheme} message`);
    }
    const problem = sliceLineProblem(slice);
    if (problem !== null) throw misuse(`Expected \`slice\` as a slice's range, but ${problem}`);
  }
  return [
    fields.scheme,
    ...(routed ? [`route:${fields.route}`] : []),
    `contentHash:${fields.contentHash}`,
    `url:${fields.url}`,
    `status:${fields.status === null ? 'none' : String(fields.status)}`,
    `fetchedAt:${fields.fetchedAt}`,
    ...(page === null ? [] : [`page:${pageLineText(page)}`]),
    ...(slice === null ? [] : [`slice:${sliceLineText(slice)}`]),
    `nonce:${fields.nonce}`,
  ].join('\n');
}

/**
 * Parse a signed message back into its fields; null when it is not a well-formed
 * message of a known scheme (`storefront-attest/1`, `/2` or `/3`). Parsing and rebuilding
 * gives the same string.
 */
export function parseMessage(message: string): MessageFields | null {
  if (typeof message !== 'string') return null;
  const lines = message.split('\n');
  const scheme = lines[0] as AttestScheme;
  if (!Object.hasOwn(KEYS, scheme)) return null;
  // An optional line is left out of the expected keys when the message has none.
  const keys = KEYS[scheme].filter(
    (key) => !OPTIONAL.has(key) || lines.some((line) => line.startsWith(`${key}:`)),
  );
  if (lines.length !== keys.length + 1) return null;
  const values: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) {
    const line = lines[i + 1] as string;
    const key = keys[i] as string;
    if (!line.startsWith(`${key}:`)) return null;
    values[key] = line.slice(key.length + 1);
  }
  const page = values.page === undefined ? null : parsePageLine(values.page);
  if (values.page !== undefined && page === null) return null;
  const slice = values.slice === undefined ? null : parseSliceLine(values.slice);
  if (values.slice !== undefined && slice === null) return null;
  const status = values.status === 'none' ? null : Number(values.status);
  if (status !== null && !/^\d+$/.test(values.status as string)) return null;
  const fields: MessageFields = {
    scheme,
    route: values.route ?? null,
    contentHash: values.contentHash as Sha256Hex,
    url: values.url as string,
    status,
    fetchedAt: values.fetchedAt as string,
    page,
    slice,
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
