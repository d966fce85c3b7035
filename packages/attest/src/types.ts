import type { ReceiptRule } from '@storefront/core';
import type { PageLine, SliceLine } from './message.js';

/** The signed receipt attached to every paid result (spec: Attestation). */
export interface Attestation {
  /**
   * The scheme of `verify.message` + `:` + the signer's checksummed address
   * (`storefront-attest/3:0x…`; `storefront-attest/1:0x…` or `/2:0x…` on receipts of older schemes).
   */
  readonly keyId: string;
  readonly alg: 'EIP-191-personal_sign';
  /** The signer's checksummed address. */
  readonly address: string;
  /** `0x` + sha256 hex of the result's `text`. */
  readonly contentHash: string;
  /** `0x` + 32 hex digits (128 bits from a CSPRNG). */
  readonly nonce: string;
  /** ISO-8601 time of signing. */
  readonly signedAt: string;
  /** `0x` + 65-byte EIP-191 signature (r, s, v). */
  readonly signature: string;
  readonly verify: {
    /** The exact signed string. */
    readonly message: string;
    /** One-line instructions for checking the receipt offline. */
    readonly howTo: string;
  };
}

/** What the signer binds besides the text. */
export interface SignMeta {
  /**
   * The route the result came from: the `<name>` of `/buy/<name>` (`markdown`), in
   * lower-case letters, digits and `-`. A verifier applies that route's receipt rule.
   */
  readonly route: string;
  readonly url: string;
  readonly status: number | null;
  readonly fetchedAt: string;
  /** The verdict on the page the result was made from (routes that read a page); bound by a `page:` line. */
  readonly page?: PageLine;
  /**
   * Where `text` sits in the whole text it was cut from (a result asked for in part);
   * bound by a `slice:` line.
   */
  readonly slice?: SliceLine;
}

/** A retired signing key, still valid for receipts signed before `retiredAt`. */
export interface RetiredKey {
  readonly keyId: string;
  readonly address: string;
  readonly retiredAt: string;
}

/**
 * The document published at `/.well-known/service-attestation`. A verifier pins its
 * `address` (and the retired ones): the key is the address, whatever the scheme in
 * `keyId`, so receipts of every scheme that key signed verify against it.
 */
export interface ServiceAttestationDocument {
  /** The scheme the service signs today. */
  readonly scheme: string;
  readonly alg: string;
  /** The current key under the current scheme: `scheme` + `:` + `address`. */
  readonly keyId: string;
  readonly address: string;
  readonly retired: readonly RetiredKey[];
  /**
   * Each route's receipt rule (route name → rule), as the service's registry declares
   * it: a verifier pinned to this document checks the fields of routes it was built
   * without. Optional: older documents have none.
   */
  readonly receiptRules?: Readonly<Record<string, ReceiptRule>>;
  readonly [extra: string]: unknown;
}
