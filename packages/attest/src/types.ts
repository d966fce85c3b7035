/** The signed receipt attached to every paid result (spec: Attestation). */
export interface Attestation {
  /** `storefront-attest/1:` + the signer's checksummed address. */
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
  readonly url: string;
  readonly status: number | null;
  readonly fetchedAt: string;
}

/** A retired signing key, still valid for receipts signed before `retiredAt`. */
export interface RetiredKey {
  readonly keyId: string;
  readonly address: string;
  readonly retiredAt: string;
}

/** The document published at `/.well-known/service-attestation`. */
export interface ServiceAttestationDocument {
  readonly scheme: string;
  readonly alg: string;
  readonly keyId: string;
  readonly address: string;
  readonly retired: readonly RetiredKey[];
  readonly [extra: string]: unknown;
}
