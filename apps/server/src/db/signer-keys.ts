import type { RetiredKey } from '@storefront/attest';
import type { Database } from './database.js';

/**
 * Record `address` as the current signing key. Any other key still marked current is
 * retired now, so rotating `SIGNER_PRIVATE_KEY` publishes the old key as retired.
 */
export async function registerSigner(db: Database, address: string, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      'UPDATE signer_keys SET retired_at = now() WHERE address <> $1 AND retired_at IS NULL',
      [address],
    );
    await tx.query(
      `INSERT INTO signer_keys (address, key_id) VALUES ($1, $2)
       ON CONFLICT (address) DO UPDATE SET retired_at = NULL, key_id = EXCLUDED.key_id`,
      [address, keyId],
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
