import { isSha256Hex, StorefrontError, sha256Hex } from '@storefront/core';
import { getAddress, isAddress, verifyMessage } from 'ethers';
import { ATTEST_ALG, ATTEST_SCHEME, type MessageFields, parseMessage } from './message.js';
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
    /** The result's url, status and fetchedAt equal the signed ones; null when the input has none. */
    readonly envelope: boolean | null;
  };
  /** The address recovered from the signature, checksummed; null when none could be. */
  readonly signer: string | null;
  /** The receipt's `keyId` as given; null when absent. */
  readonly keyId: string | null;
  /** One sentence per failed check, in check order. */
  readonly problems: readonly string[];
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Verify a receipt offline against pinned keys: needs nothing but the result (or
 * `{text, attestation}`) and the pinned address. Total: any input gives an answer,
 * a malformed one simply fails its checks. Throws only when `pinned` holds no valid
 * address (misuse).
 *
 * @example
 *   verifyReceipt(JSON.parse(body), '0x8ba1f109551bD432803012645Ac136ddd64DBA72').valid
 */
export function verifyReceipt(result: unknown, pinned: PinnedKeys): Verification {
  const pins = normalisePins(pinned);
  const problems: string[] = [];
  const input = isRecord(result) ? result : {};
  const attestation = isRecord(input.attestation) ? input.attestation : {};
  const text = input.text;
  const keyId = typeof attestation.keyId === 'string' ? attestation.keyId : null;
  const message = isRecord(attestation.verify) ? attestation.verify.message : undefined;
  const fields = typeof message === 'string' ? parseMessage(message) : null;

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
    if (fields === null) problems.push('`verify.message` is not a storefront-attest/1 message.');
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
    } else if (keyId !== `${ATTEST_SCHEME}:${signer}`) {
      problems.push(`\`keyId\` should be ${ATTEST_SCHEME}:${signer}.`);
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
  const envelope =
    fields === null ? (hasEnvelope(input) ? false : null) : checkEnvelope(input, fields);
  if (envelope === false)
    problems.push('The result’s url, status or fetchedAt differ from the signed message.');

  return {
    valid: contentHash && signature && pinnedKey && envelope !== false,
    checks: { contentHash, signature, pinnedKey, envelope },
    signer,
    keyId,
    problems: dedupe(problems),
  };
}

interface Pins {
  readonly current: readonly string[];
  readonly retired: readonly RetiredKey[];
}

function normalisePins(pinned: PinnedKeys): Pins {
  if (typeof pinned === 'string' || Array.isArray(pinned)) {
    const list = (typeof pinned === 'string' ? [pinned] : pinned) as readonly unknown[];
    const current = list.map((value) => checkedAddress(value));
    if (current.length === 0)
      throw new StorefrontError('invalid_params', 'Expected at least one pinned address');
    return { current, retired: [] };
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
  return { current: [checkedAddress(doc.address)], retired };
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

function sameAddress(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

function hasEnvelope(input: Record<string, unknown>): boolean {
  return 'url' in input || 'status' in input || 'fetchedAt' in input;
}

function checkEnvelope(input: Record<string, unknown>, fields: MessageFields): boolean | null {
  if (!hasEnvelope(input)) return null;
  if ('url' in input && input.url !== fields.url) return false;
  if ('status' in input && (input.status ?? null) !== fields.status) return false;
  if ('fetchedAt' in input && input.fetchedAt !== fields.fetchedAt) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}
