import type { RetiredKey } from '@storefront/attest';
import type { Ed25519PublicJwk } from '../http/message-signature.js';
import type { Database } from './database.js';

/**
 * Record `address` as the current signing key, with the public JWK of its HTTP-signature
 * key (`httpSignatureKey`) when given. Any other key still marked current is retired now,
 * so rotating `SIGNER_PRIVATE_KEY` publishes the old key as retired.
 */
export async function registerSigner(
  db: Database,
  address: string,
  keyId: string,
  httpJwk: Ed25519PublicJwk | null = null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      'UPDATE signer_keys SET retired_at = now() WHERE address <> $1 AND retired_at IS NULL',
      [address],
    );
    await tx.query(
      `INSERT INTO signer_keys (address, key_id, http_jwk) VALUES ($1, $2, $3)
       ON CONFLICT (address) DO UPDATE SET retired_at = NULL, key_id = EXCLUDED.key_id,
         http_jwk = coalesce(EXCLUDED.http_jwk, signer_keys.http_jwk)`,
      [address, keyId, httpJwk === null ? null : JSON.stringify(httpJwk)],
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
