import type { RetiredKey } from '@storefront/attest';
import type { Ed25519PublicJwk } from '../http/message-signature.js';
import type { Database } from './database.js';

/** The public keys of the x402 offers and receipts a signer key signs with. */
export interface OfferReceiptPublicKeys {
  /** The EIP-712 signer's address. */
  readonly eip712: string;
  /** The JWS (EdDSA) key. */
  readonly jws: Ed25519PublicJwk;
}

/** The public keys derived from a signer key that verifiers need after it retires. */
export interface DerivedPublicKeys {
  /** Its HTTP-signature key (`httpSignatureKey`). */
  readonly httpJwk?: Ed25519PublicJwk | null;
  /** Its x402 offer-receipt keys (`offerReceiptKeys`). */
  readonly offerReceipt?: OfferReceiptPublicKeys | null;
}

/**
 * Record `address` as the current signing key, with the public keys derived from it when
 * given. Any other key still marked current is retired now, so rotating
 * `SIGNER_PRIVATE_KEY` publishes the old key, and what it derived, as retired.
 */
export async function registerSigner(
  db: Database,
  address: string,
  keyId: string,
  derived: DerivedPublicKeys = {},
): Promise<void> {
  const httpJwk = derived.httpJwk ?? null;
  const offerReceipt = derived.offerReceipt ?? null;
  await db.transaction(async (tx) => {
    await tx.query(
      'UPDATE signer_keys SET retired_at = now() WHERE address <> $1 AND retired_at IS NULL',
      [address],
    );
    await tx.query(
      `INSERT INTO signer_keys (address, key_id, http_jwk, offer_receipt) VALUES ($1, $2, $3, $4)
       ON CONFLICT (address) DO UPDATE SET retired_at = NULL, key_id = EXCLUDED.key_id,
         http_jwk = coalesce(EXCLUDED.http_jwk, signer_keys.http_jwk),
         offer_receipt = coalesce(EXCLUDED.offer_receipt, signer_keys.offer_receipt)`,
      [
        address,
        keyId,
        httpJwk === null ? null : JSON.stringify(httpJwk),
        offerReceipt === null ? null : JSON.stringify(offerReceipt),
      ],
    );
  });
}

/** The retired signing keys, most recently retired first. */
export async function retiredSigners(db: Database): Promise<RetiredKey[]> {
  const { rows } = await db.query<{ address: string; key_id: string; retired_at: Date | string }>(
    'SELECT address, key_id, retired_at FROM signer_keys WHERE retired_at IS NOT NULL ORDER BY retired_at DESC, address',
  );
  return rows.map((row) => ({
    keyId: row.key_id,
    address: row.address,
    retiredAt: new Date(row.retired_at).toISOString(),
  }));
}

/**
 * The public HTTP-signature keys of the retired signer keys that recorded one, most
 * recently retired first.
 */
export async function retiredHttpKeys(
  db: Database,
): Promise<{ jwk: Ed25519PublicJwk; retiredAt: string }[]> {
  const { rows } = await db.query<{ http_jwk: Ed25519PublicJwk; retired_at: Date | string }>(
    `SELECT http_jwk, retired_at FROM signer_keys
      WHERE retired_at IS NOT NULL AND http_jwk IS NOT NULL ORDER BY retired_at DESC, address`,
  );
  return rows.map((row) => ({
    jwk: row.http_jwk,
    retiredAt: new Date(row.retired_at).toISOString(),
  }));
}

/**
 * The offer-receipt keys of the retired signer keys that recorded them, most recently
 * retired first.
 */
export async function retiredOfferReceiptKeys(
  db: Database,
): Promise<(OfferReceiptPublicKeys & { readonly retiredAt: string })[]> {
  const { rows } = await db.query<{
    offer_receipt: OfferReceiptPublicKeys;
    retired_at: Date | string;
  }>(
    `SELECT offer_receipt, retired_at FROM signer_keys
      WHERE retired_at IS NOT NULL AND offer_receipt IS NOT NULL ORDER BY retired_at DESC, address`,
  );
  return rows.map((row) => ({
    eip712: row.offer_receipt.eip712,
    jws: row.offer_receipt.jws,
    retiredAt: new Date(row.retired_at).toISOString(),
  }));
}
