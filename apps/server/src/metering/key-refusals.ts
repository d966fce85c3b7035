import { StorefrontError } from '@storefront/core';

/**
 * Why a bearer key cannot be used: no key, a header that holds no key or access token of
 * ours, an expired access token, a key that was never issued, or a revoked one (`tail`:
 * its last four characters).
 */
export type KeyRefusal =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'expired' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'revoked'; readonly tail: string };

/**
 * The one wording of each key refusal: the key door, the MCP door and the key routes
 * (balance, usage, billing) all answer in these words.
 */
export function keyRefusalText(refusal: KeyRefusal): string {
  switch (refusal.kind) {
    case 'missing':
      return 'Send an API key as `Authorization: Bearer <key>`';
    case 'malformed':
      return 'Expected `Authorization: Bearer mk_test_…` or `Bearer mk_live_…` (or an access token from /oauth/token)';
    case 'expired':
      return 'The access token has expired; ask /oauth/token for a new one';
    case 'unknown':
      return 'Unknown API key';
    case 'revoked':
      return `API key ending in \`${refusal.tail}\` was revoked`;
  }
}

/** A stored key as far as its refusal goes. */
interface StoredKey {
  readonly revokedAt: string | null;
  readonly tail: string;
}

/** The stored key found for a bearer key when it is live; else why not (none, or revoked). */
export function liveKey<K extends StoredKey>(
  key: K | null,
): { readonly ok: true; readonly key: K } | { readonly ok: false; readonly refusal: KeyRefusal } {
  if (key === null) return { ok: false, refusal: { kind: 'unknown' } };
  if (key.revokedAt !== null) return { ok: false, refusal: { kind: 'revoked', tail: key.tail } };
  return { ok: true, key };
}

/** A key refusal as the routes throw it: 401 `invalid_key`. */
export function invalidKey(refusal: KeyRefusal): StorefrontError {
  return new StorefrontError('invalid_key', keyRefusalText(refusal));
}
