import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { bearerKey, hashKey } from './keys.js';

/** What every access token starts with (never a key's prefix, `mk_test_` or `mk_live_`). */
export const ACCESS_TOKEN_PREFIX = 'mk_at_';

/** How long an access token is good for (s): OAuth's usual hour. */
export const ACCESS_TOKEN_SECONDS = 3600;

const SHAPE = /^mk_at_([0-9a-z]{1,12})_([0-9a-f]{64})_([A-Za-z0-9_-]{43})$/;

/** What an `Authorization` header names: a key (by its hash), or why none. */
export type Credential =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'expired' }
  | { readonly kind: 'key'; readonly keyHash: string };

/**
 * OAuth access tokens for machine clients (the client-credentials grant,
 * docs/decisions.md, "Machine authorization"): a token stands for one key, for an hour,
 * and is checked without the database: `mk_at_<expiry>_<key hash>_<HMAC>`, the HMAC-SHA256
 * of the rest under a secret every instance derives from the signer key. The key's own
 * row decides the rest as for the key itself (unknown, revoked, credits, limits), so a
 * revoked key's tokens stop working at once.
 */
export interface AccessTokens {
  /** A token for the key whose hash is `keyHash`, good for {@link ACCESS_TOKEN_SECONDS} from `now`. */
  issue(keyHash: string, now: Date): { readonly token: string; readonly expiresIn: number };
  /** What `header` names: a key or a token (as the key's hash), or why neither. */
  credential(header: string | undefined, now: Date): Credential;
}

/** The HMAC secret of access tokens, derived from the signer's private key (HKDF-SHA256). */
export function accessTokenSecret(signerPrivateKey: string): Buffer {
  const key = Buffer.from(signerPrivateKey.replace(/^0x/, ''), 'hex');
  return Buffer.from(hkdfSync('sha256', key, 'storefront', 'oauth-access-token/1', 32));
}

/** Access tokens under `secret` (32 random bytes when none is given: tokens of this process only). */
export function accessTokens(secret: Buffer = randomBytes(32)): AccessTokens {
  const mac = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');
  return {
    issue(keyHash, now) {
      const expires = Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_SECONDS;
      const body = `${ACCESS_TOKEN_PREFIX}${expires.toString(36)}_${keyHash}`;
      return { token: `${body}_${mac(body)}`, expiresIn: ACCESS_TOKEN_SECONDS };
    },
    credential(header, now) {
      const match = /^Bearer[ \t]+(mk_at_\S+?)[ \t]*$/i.exec(header ?? '');
      if (match?.[1] === undefined) {
        const bearer = bearerKey(header);
        return bearer.kind === 'key' ? { kind: 'key', keyHash: hashKey(bearer.key) } : bearer;
      }
      const parts = SHAPE.exec(match[1]);
      if (parts === null) return { kind: 'malformed' };
      const [, expiry, hash, tag] = parts as unknown as [string, string, string, string];
      const body = match[1].slice(0, match[1].length - tag.length - 1);
      const expected = Buffer.from(mac(body));
      const given = Buffer.from(tag);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        return { kind: 'malformed' };
      }
      if (Number.parseInt(expiry, 36) * 1000 <= now.getTime()) return { kind: 'expired' };
      return { kind: 'key', keyHash: hash };
    },
  };
}
