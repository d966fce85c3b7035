import {
  codePointLength,
  isSha256Hex,
  type ReceiptRule,
  StorefrontError,
  sha256Hex,
} from '@storefront/core';
import { getAddress, isAddress, verifyMessage } from 'ethers';
import { checkFields, ENVELOPE_FIELDS, isBare, uncoveredFields } from './fields.js';
import { type LegacyFieldCheck, legacyFields } from './legacy.js';
import {
  ATTEST_ALG,
  ATTEST_SCHEMES,
  type MessageFields,
  type PageLine,
  pageLineProblem,
  pageLineText,
  parseMessage,
  ROUTE_NAME,
  type SliceLine,
  sliceLineProblem,
  sliceLineText,
} from './message.js';
import { RECEIPT_RULES, ruleOf, ruleProblem } from './rules.js';
import type { RetiredKey, ServiceAttestationDocument } from './types.js';

/** The key(s) a receipt must be signed by: addresses, or a service-attestation document. */
export type PinnedKeys = string | readonly string[] | ServiceAttestationDocument;

/** The verifier's answer. */
export interface Verification {
  /** True when every applicable check passed. */
  readonly valid: boolean;
  readonly checks: {
    /** sha256(text) equals `attestation.contentHash`, which the message binds. */
    readonly contentHash: boolean;
    /** The message is well-formed and its EIP-191 signer is `attestation.address` (and `keyId`). */
    readonly signature: boolean;
    /** The recovered signer is one of the pinned keys. */
    readonly pinnedKey: boolean;
    /**
     * Those of url, status, fetchedAt, the page verdict (`page`) and the slice's place
     * in the whole (`slice`) that the result has equal the signed ones; null when it has
     * none of them. The ones compared are listed in `covered`.
     */
    readonly envelope: boolean | null;
    /**
     * `text` re-derived from the result's own fields (by its route's rule) equals `text`,
     * so they are covered too; false when they differ, when the signed route is not
     * `options.route`, or (scheme 1) when the result fits no route; null when no field
     * restates `text` (bare `{text, attestation}`, plain `/buy/fetch`) or no rule is
     * known for the signed route (see `notes`).
     */
    readonly fields: boolean | null;
  };
  /**
   * The route of the result: the signed `route:` line (scheme 2), or the route told from
   * the result's shape (scheme 1); null when none is known.
   */
  readonly route: string | null;
  /** The receipt rule applied to the fields; null when none was. */
  readonly rule: ReceiptRule | null;
  /** The result's fields the receipt covers: `text`, the envelope fields it has, and the fields `text` restates. */
  readonly covered: readonly string[];
  /** The result's other fields (besides `ok` and `attestation`): present, but not covered. */
  readonly uncovered: readonly string[];
  /** The fields of the signed message; null when `verify.message` is not one. */
  readonly signed: MessageFields | null;
  /** The address recovered from the signature, checksummed; null when none could be. */
  readonly signer: string | null;
  /** The receipt's `keyId` as given; null when absent. */
  readonly keyId: string | null;
  /** One sentence per failed check, in check order. */
  readonly problems: readonly string[];
  /** What was not checked, and why, when that is no failure (a route with no known rule). */
  readonly notes: readonly string[];
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** Options of {@link verifyReceipt}. */
export interface VerifyOptions {
  /**
   * The route the result came from (`fetch`, `extract`, …), as the caller expects it.
   * A scheme-2 receipt signed for another route fails `fields`. For a scheme-1 receipt
   * (no signed route) it names the route instead of telling it from the shape, and a
   * result of another shape fails `fields`.
   */
  readonly route?: string;
  /**
   * Receipt rules by route name, applied before the pinned document's `receiptRules` and
   * the built-in {@link RECEIPT_RULES}: for routes added after this package was built.
   */
  readonly rules?: Readonly<Record<string, ReceiptRule>>;
}

/**
 * Verify a receipt offline against pinned keys: needs nothing but the result (or
 * `{text, attestation}`) and the pinned address. Total: any input gives an answer,
 * a malformed one simply fails its checks. Throws only on misuse: `pinned` holds no
 * valid address, `options.route` is not a route name, or `options.rules` holds
 * something that is not a receipt rule.
 *
 * The fields rule of a `storefront-attest/2` receipt is the one for its signed route:
 * `options.rules`, else the pinned document's `receiptRules`, else
 * {@link RECEIPT_RULES}; with none, `fields` is null and `notes` says so. A
 * `storefront-attest/1` receipt names no route: its route is told from the result's
 * shape, as when that scheme was current.
 *
 * @example
 *   verifyReceipt(JSON.parse(body), '0x8ba1f109551bD432803012645Ac136ddd64DBA72').valid
 */
export function verifyReceipt(
  result: unknown,
  pinned: PinnedKeys,
  options: VerifyOptions = {},
): Verification {
  const pins = normalisePins(pinned);
  checkOptions(options);
  const problems: string[] = [];
  const input = isRecord(result) ? result : {};
  const attestation = isRecord(input.attestation) ? input.attestation : {};
  const text = input.text;
  const keyId = typeof attestation.keyId === 'string' ? attestation.keyId : null;
  const message = isRecord(attestation.verify) ? attestation.verify.message : undefined;
  const fields = typeof message === 'string' ? parseMessage(message) : null;
  const fieldCheck =
    fields !== null && fields.route !== null
      ? routedFields(input, fields.route, options, pins.rules)
      : withLegacyNote(
          legacyFields(input, options.route),
          fields !== null && options.route === undefined,
        );

  // 1. Content: the text hashes to the claimed contentHash, and the message binds it.
  let contentHash = false;
  if (typeof text !== 'string') {
    problems.push('The result has no `text` string to hash.');
  } else if (!isSha256Hex(attestation.contentHash)) {
    problems.push('`attestation.contentHash` is missing or not 0x + 64 hex digits.');
  } else if (sha256Hex(text) !== attestation.contentHash) {
    problems.push(`sha256(text) is ${sha256Hex(text)}, not ${attestation.contentHash}.`);
  } else if (fields !== null && fields.contentHash !== attestation.contentHash) {
    problems.push('The signed message binds a different contentHash.');
  } else {
    contentHash = fields !== null;
    if (fields === null) {
      problems.push(`\`verify.message\` is not a message of ${ATTEST_SCHEMES.join(' or ')}.`);
    }
  }

  // 2. Signature: recover the EIP-191 signer of the exact message.
  let signer: string | null = null;
  let signature = false;
  if (fields !== null && typeof message === 'string') {
    signer = recover(message, attestation.signature);
    if (signer === null) {
      problems.push('`signature` is not a valid 65-byte EIP-191 signature of `verify.message`.');
    } else if (!sameAddress(attestation.address, signer)) {
      problems.push(
        `The message was signed by ${signer}, not by \`address\` ${String(attestation.address)}.`,
      );
    } else if (keyId !== `${fields.scheme}:${signer}`) {
      // The keyId carries the scheme of the message it signs: the key is the address.
      problems.push(`\`keyId\` should be ${fields.scheme}:${signer}.`);
    } else if (attestation.alg !== ATTEST_ALG) {
      problems.push(`\`alg\` should be ${ATTEST_ALG}.`);
    } else if (attestation.nonce !== fields.nonce) {
      problems.push('`nonce` differs from the signed nonce.');
    } else {
      signature = true;
    }
  }

  // 3. Pinned key: the recovered signer is one the verifier trusts.
  const pinnedKey = signer !== null && isPinned(signer, attestation.signedAt, pins);
  if (signer !== null && !pinnedKey) {
    problems.push(`The signer ${signer} is not a pinned key.`);
  } else if (signer === null) {
    problems.push('No signer could be recovered, so it cannot match a pinned key.');
  }

  // 4. Envelope: the fields the result shows are the ones that were signed.
  const present = ENVELOPE_FIELDS.filter((key) => key in input);
  let envelope: boolean | null = present.length === 0 ? null : fields !== null;
  if (fields === null && present.length > 0) {
    problems.push(
      'The result’s url, status and fetchedAt cannot be compared without a signed message.',
    );
  } else if (fields !== null) {
    const differing = present.filter((key) => (input[key] ?? null) !== fields[key]);
    if (differing.length > 0) {
      envelope = false;
      problems.push(
        `The result’s ${differing.join(' and ')} ${differing.length === 1 ? 'differs' : 'differ'} from the signed message.`,
      );
    }
  }

  // The page verdict the result shows is the one that was signed (scheme 3).
  const pageShown = 'page' in input;
  if (pageShown && fields !== null) {
    const signedPage = fields.page ?? null;
    if (signedPage === null) {
      envelope = false;
      problems.push('The result’s page verdict is not in the signed message.');
    } else if (!samePage(input.page, signedPage)) {
      envelope = false;
      problems.push('The result’s page verdict differs from the signed one.');
    } else if (envelope === null) {
      envelope = true;
    }
  }

  // The slice the result shows is where the signed text sits in the signed whole (scheme 3).
  const sliceShown = 'slice' in input;
  if (sliceShown && fields !== null) {
    const signedSlice = fields.slice ?? null;
    if (signedSlice === null) {
      envelope = false;
      problems.push('The result’s slice is not in the signed message.');
    } else if (!sameSlice(input.slice, signedSlice, text)) {
      envelope = false;
      problems.push('The result’s slice differs from the signed one.');
    } else if (envelope === null) {
      envelope = true;
    }
  }

  // 5. Fields: the text the result's own fields give is the signed text.
  if (fieldCheck.problem !== null) problems.push(fieldCheck.problem);
  const covered = [
    'text',
    ...present,
    ...(pageShown ? ['page'] : []),
    ...(sliceShown ? ['slice'] : []),
    ...fieldCheck.covered,
  ];

  return {
    valid:
      contentHash && signature && pinnedKey && envelope !== false && fieldCheck.fields !== false,
    checks: { contentHash, signature, pinnedKey, envelope, fields: fieldCheck.fields },
    route: fieldCheck.route,
    rule: fieldCheck.rule,
    covered,
    uncovered: uncoveredFields(input, covered),
    signed: fields,
    signer,
    keyId,
    problems: dedupe(problems),
    notes: fieldCheck.note === null ? [] : [fieldCheck.note],
  };
}

interface RoutedFieldCheck {
  readonly route: string | null;
  readonly rule: ReceiptRule | null;
  readonly fields: boolean | null;
  readonly covered: readonly string[];
  readonly problem: string | null;
  readonly note: string | null;
}

/**
 * The fields check of a scheme-2 receipt: the rule of the signed route, never one told
 * from the result's shape.
 */
function routedFields(
  input: Record<string, unknown>,
  route: string,
  options: VerifyOptions,
  documentRules: Readonly<Record<string, unknown>> | undefined,
): RoutedFieldCheck {
  const none = { route, rule: null, fields: null, covered: [], problem: null, note: null };
  if (options.route !== undefined && options.route !== route) {
    return {
      ...none,
      fields: false,
      problem: `The receipt was signed for a /buy/${route} result, not /buy/${options.route}.`,
    };
  }
  // A bare `{text, attestation}` shows no field that could restate `text`.
  if (isBare(input)) return none;
  const sources = [
    [options.rules, 'given in `rules`'],
    [documentRules, 'published in the pinned service-attestation document'],
    [RECEIPT_RULES, 'built in'],
  ] as const;
  let found: { rule: unknown; from: string } | undefined;
  for (const [rules, from] of sources) {
    const rule = ruleOf(rules, route);
    if (rule !== undefined) {
      found = { rule, from };
      break;
    }
  }
  if (found === undefined) {
    return {
      ...none,
      note: `No receipt rule is known for /buy/${route}, so its fields were not compared with \`text\` (the signature, \`text\` and the envelope were); give the route's rule in \`rules\`, or pin a service-attestation document that publishes \`receiptRules\`.`,
    };
  }
  const problem = ruleProblem(found.rule);
  if (problem !== null) {
    return {
      ...none,
      note: `The receipt rule for /buy/${route} (${found.from}) is not one this verifier applies: ${problem}; its fields were not compared with \`text\`.`,
    };
  }
  const rule = found.rule as ReceiptRule;
  return { route, rule, ...checkFields(input, rule), note: null };
}

/**
 * A scheme-1 check (or one of a message that does not parse), with a note when the
 * route of a scheme-1 receipt was told from the shape: a receipt of that scheme names none.
 */
function withLegacyNote(check: LegacyFieldCheck, guessed: boolean): RoutedFieldCheck {
  return {
    ...check,
    note:
      guessed && check.route !== null
        ? `This storefront-attest/1 receipt names no route: /buy/${check.route} was told from the result's shape.`
        : null,
  };
}

/** Misuse of the options throws; a receipt's content never does. */
function checkOptions(options: VerifyOptions): void {
  if (options.route !== undefined && !ROUTE_NAME.test(String(options.route))) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`route\` as a route name of lower-case letters, digits and -, got \`${String(options.route)}\``,
    );
  }
  if (options.rules === undefined) return;
  if (!isRecord(options.rules)) {
    throw new StorefrontError('invalid_params', 'Expected `rules` as an object of route → rule');
  }
  for (const [route, rule] of Object.entries(options.rules)) {
    const problem = ROUTE_NAME.test(route) ? ruleProblem(rule) : 'its route is not a route name';
    if (problem !== null) {
      throw new StorefrontError(
        'invalid_params',
        `Expected \`rules.${route}\` as a receipt rule for a route name, but ${problem}`,
      );
    }
  }
}

interface Pins {
  readonly current: readonly string[];
  readonly retired: readonly RetiredKey[];
  /** The pinned document's `receiptRules`, unchecked (they are checked when applied). */
  readonly rules: Readonly<Record<string, unknown>> | undefined;
}

function normalisePins(pinned: PinnedKeys): Pins {
  if (typeof pinned === 'string' || Array.isArray(pinned)) {
    const list = (typeof pinned === 'string' ? [pinned] : pinned) as readonly unknown[];
    const current = list.map((value) => checkedAddress(value));
    if (current.length === 0)
      throw new StorefrontError('invalid_params', 'Expected at least one pinned address');
    return { current, retired: [], rules: undefined };
  }
  if (!isRecord(pinned)) {
    throw new StorefrontError(
      'invalid_params',
      'Expected a pinned address or a service-attestation document',
    );
  }
  const doc = pinned as ServiceAttestationDocument;
  const retired = Array.isArray(doc.retired)
    ? doc.retired.filter(
        (key) => isRecord(key) && isAddress(key.address) && typeof key.retiredAt === 'string',
      )
    : [];
  const rules = isRecord(doc.receiptRules) ? doc.receiptRules : undefined;
  return { current: [checkedAddress(doc.address)], retired, rules };
}

function checkedAddress(value: unknown): string {
  if (typeof value !== 'string' || !isAddress(value)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected a pinned address as 0x + 40 hex digits, got \`${String(value)}\``,
    );
  }
  return getAddress(value.toLowerCase());
}

function isPinned(signer: string, signedAt: unknown, pins: Pins): boolean {
  if (pins.current.includes(signer)) return true;
  // A retired key still vouches for receipts it signed before it was retired.
  const at = typeof signedAt === 'string' ? Date.parse(signedAt) : Number.NaN;
  return pins.retired.some(
    (key) =>
      sameAddress(key.address, signer) && !Number.isNaN(at) && at <= Date.parse(key.retiredAt),
  );
}

function recover(message: string, signature: unknown): string | null {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  try {
    return verifyMessage(message, signature);
  } catch {
    return null;
  }
}

/** A result's `page` as the signed line gives it: the same four fields and nothing else. */
function samePage(shown: unknown, signed: PageLine): boolean {
  if (!isRecord(shown) || pageLineProblem(shown) !== null) return false;
  const keys = Object.keys(shown).sort();
  if (keys.join(',') !== 'rubric,signals,verdict,words') return false;
  return pageLineText(shown as unknown as PageLine) === pageLineText(signed);
}

/**
 * A result's `slice` as the signed line gives it: the same four fields, `next` where the
 * following part starts (null after the last), and `length` the code points of `text`.
 */
function sameSlice(shown: unknown, signed: SliceLine, text: unknown): boolean {
  if (!isRecord(shown) || sliceLineProblem(shown) !== null) return false;
  const keys = Object.keys(shown).sort();
  if (keys.join(',') !== 'length,next,offset,total,wholeHash') return false;
  const { offset, length, total, next } = shown as unknown as SliceLine & { next: unknown };
  const expectedNext = offset + length < total ? offset + length : null;
  return (
    sliceLineText(shown as unknown as SliceLine) === sliceLineText(signed) &&
    next === expectedNext &&
    typeof text === 'string' &&
    codePointLength(text) === length
  );
}

function sameAddress(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}
