import { canonicalize, sha256Hex } from '@storefront/core';
import {
  fromBase64,
  leafHash,
  noteVerifier,
  openCheckpoint,
  TlogError,
  verifyInclusion,
} from '@storefront/tlog';
import type { Attestation } from './types.js';

/**
 * The receipt fields a log entry holds. The signature covers the signed message, which
 * binds the content hash, the nonce and everything else the receipt signs, so these five
 * name one receipt and nothing else.
 */
export const LOG_ENTRY_FIELDS = ['contentHash', 'keyId', 'nonce', 'signature', 'signedAt'] as const;

/** The receipt fields a log entry is made from. */
export type LoggedReceipt = Pick<Attestation, (typeof LOG_ENTRY_FIELDS)[number]>;

/**
 * A receipt's entry in the service's transparency log: the RFC 8785 canonical JSON of its
 * `contentHash`, `keyId`, `nonce`, `signature` and `signedAt` (in that order, no spaces).
 */
export function logEntry(receipt: LoggedReceipt): string {
  const entry: Record<string, string> = {};
  for (const field of LOG_ENTRY_FIELDS) {
    const value = receipt[field];
    if (typeof value !== 'string') throw new TypeError(`a receipt's \`${field}\` is a string`);
    entry[field] = value;
  }
  return canonicalize(entry);
}

/** The hash a receipt is looked up by in the log (`/log/proof?receipt=`): SHA-256 hex of its entry. */
export function receiptHash(receipt: LoggedReceipt): string {
  return sha256Hex(logEntry(receipt)).replace(/^0x/, '');
}

/** What `/log/proof` answers: the receipt's index, a checkpoint and the audit path to it. */
export interface LogProof {
  readonly index: number;
  /** The signed checkpoint (a C2SP signed note) the proof leads to. */
  readonly checkpoint: string;
  /** The audit path, leaf level first, each hash in base64. */
  readonly proof: readonly string[];
}

/** What `checkLogInclusion` found. */
export interface LogInclusion {
  readonly valid: boolean;
  /** The checkpoint's origin and size, when its signature verified. */
  readonly origin: string | null;
  readonly size: number | null;
  readonly index: number | null;
  readonly problem: string | null;
}

/**
 * Whether a receipt is in the service's log: the checkpoint is signed by the log key
 * `vkey` (a C2SP signed-note verifier key, published at `/.well-known/service-attestation`
 * as `log.vkey`), and the audit path leads from the receipt's entry at `index` to the
 * checkpoint's root (RFC 9162 §2.1.3.2).
 */
export function checkLogInclusion(
  receipt: LoggedReceipt,
  found: LogProof,
  vkey: string,
): LogInclusion {
  const fail = (problem: string, at: Partial<LogInclusion> = {}): LogInclusion => ({
    valid: false,
    origin: null,
    size: null,
    index: null,
    problem,
    ...at,
  });
  let checkpoint: ReturnType<typeof openCheckpoint>['checkpoint'];
  try {
    checkpoint = openCheckpoint(found.checkpoint, noteVerifier(vkey)).checkpoint;
  } catch (error) {
    const code = error instanceof TlogError ? ` (${error.code})` : '';
    return fail(`the checkpoint is not signed by the log key${code}: ${(error as Error).message}`);
  }
  const at = { origin: checkpoint.origin, size: checkpoint.size, index: found.index };
  if (!Number.isSafeInteger(found.index) || found.index < 0) return fail('no entry index', at);
  const proof = Array.isArray(found.proof) ? found.proof.map((h) => fromBase64(String(h))) : [];
  if (!Array.isArray(found.proof) || proof.some((h) => h === null || h.length !== 32)) {
    return fail('the proof is not a list of base64 SHA-256 hashes', at);
  }
  let entry: string;
  try {
    entry = logEntry(receipt);
  } catch (error) {
    return fail((error as Error).message, at);
  }
  const ok = verifyInclusion(
    leafHash(entry),
    found.index,
    checkpoint.size,
    proof as Uint8Array[],
    checkpoint.root,
  );
  return ok
    ? { valid: true, problem: null, ...at }
    : fail(`the proof does not lead from entry ${found.index} to the checkpoint's root`, at);
}
