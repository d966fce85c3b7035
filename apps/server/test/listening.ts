import { expect } from 'vitest';
import { ADMIN_TOKEN } from './keys.js';

/**
 * Keys, credits and the pinned signer of a listening server at `origin` (started with
 * `ADMIN_TOKEN`), through its development and operator APIs, as a client sees them.
 */

/** A live key with `credits` credits (prepaid plan). */
export async function liveKeyAt(origin: string, credits: number): Promise<string> {
  const minted = (await (
    await fetch(`${origin}/api/dev/keys?live=true`, { method: 'POST' })
  ).json()) as { key: string; keyId: string };
  if (credits > 0) {
    const granted = await fetch(`${origin}/admin/keys/${minted.keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits }),
    });
    expect(granted.status).toBe(200);
  }
  return minted.key;
}

/** The credits `key` holds. */
export async function creditsAt(origin: string, key: string): Promise<number> {
  const res = await fetch(`${origin}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await res.json()) as { credits: number }).credits;
}

/** The signer address pinned at `/.well-known/service-attestation`. */
export async function pinnedAddressAt(origin: string): Promise<string> {
  const res = await fetch(`${origin}/.well-known/service-attestation`);
  return ((await res.json()) as { address: string }).address;
}
