import { hkdfSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSigner, generatePrivateKey, type Signer } from '@storefront/attest';
import type { Logger } from 'pino';
import { type OfferReceiptKeys, offerReceiptKeys } from './doors/x402/offer-receipt.js';
import { type HttpSignatureKey, httpSignatureKey } from './http/message-signature.js';
import { logKeySeed } from './log/key.js';
import { accessTokenSecret } from './metering/access-tokens.js';
import { nativePersonalSign } from './signing.js';

/** Where the development signer key lives inside the data directory. */
export const DEV_KEY_FILE = 'signer.key';

/**
 * The signer key: `SIGNER_PRIVATE_KEY` when set, otherwise a development key kept in
 * `DATA_DIR/signer.key` (mode 0600), created on first start so that restarts keep
 * the same pinned address.
 */
export function loadSignerKey(
  configured: string | null,
  dataDir: string,
): { privateKey: string; source: 'env' | 'dev-file' | 'dev-created' } {
  if (configured !== null) return { privateKey: configured, source: 'env' };
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    const privateKey = readFileSync(file, 'utf8').trim();
    if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
      throw new Error(
        `${file} does not hold a private key (0x + 64 hex); delete it to create a new one`,
      );
    }
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { privateKey, source: 'dev-file' };
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const privateKey = generatePrivateKey();
  // `wx`: never overwrite a key another process created a moment ago.
  try {
    writeFileSync(file, `${privateKey}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSignerKey(null, dataDir);
    throw error;
  }
  return { privateKey, source: 'dev-created' };
}

/**
 * The service's signer from its configured or development key, signing receipts with the
 * native secp256k1 backend and answers with libsodium when they load (a warning when one
 * does not), and where the key came from.
 */
export async function serviceSigner(
  config: { readonly signerPrivateKey: string | null; readonly dataDir: string },
  logger: Logger,
): Promise<{
  readonly signer: Signer;
  readonly source: ReturnType<typeof loadSignerKey>['source'];
  /** The secret of OAuth access tokens, derived from the signer key (`accessTokenSecret`). */
  readonly tokenSecret: Buffer;
  /** The key that authorizes `batch-settlement` claims and refunds (`receiverAuthorizerKey`). */
  readonly receiverAuthorizerKey: `0x${string}`;
  /** The Ed25519 key of RFC 9421 signatures of answers and webhooks (`httpSignatureKey`). */
  readonly httpSignatureKey: HttpSignatureKey;
  /** The keys of x402 offers and receipts (`offerReceiptKeys`). */
  readonly offerReceiptKeys: OfferReceiptKeys;
  /** The seed of the transparency log's checkpoint key (`logKeySeed`). */
  readonly logKeySeed: Uint8Array;
}> {
  const key = loadSignerKey(config.signerPrivateKey, config.dataDir);
  const backend = await nativePersonalSign();
  if (backend === null) {
    logger.warn(
      'native secp256k1 unavailable: receipts are signed with the slower pure-JS implementation',
    );
  }
  const signer = createSigner(key.privateKey, backend ? { personalSign: backend } : {});
  const httpKey = httpSignatureKey(key.privateKey);
  if (httpKey.backend !== 'libsodium') {
    logger.warn('libsodium unavailable: answers are signed with the slower node:crypto Ed25519');
  }
  return {
    signer,
    source: key.source,
    tokenSecret: accessTokenSecret(key.privateKey),
    receiverAuthorizerKey: receiverAuthorizerKey(key.privateKey),
    httpSignatureKey: httpKey,
    offerReceiptKeys: offerReceiptKeys(key.privateKey),
    logKeySeed: logKeySeed(key.privateKey),
  };
}

/** The order of secp256k1's group: a private key is a number in [1, n). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The key that authorizes the claims and refunds of this service's `batch-settlement`
 * channels (their `receiverAuthorizer`), derived from the signer key (HKDF), so every
 * instance and worker of one service signs with it and no other party (the facilitator
 * included) can refund what a channel was charged before the service claims it.
 */
export function receiverAuthorizerKey(signerPrivateKey: string): `0x${string}` {
  const key = Buffer.from(signerPrivateKey.replace(/^0x/, ''), 'hex');
  for (let round = 0; ; round++) {
    const info = `x402-receiver-authorizer/1${round === 0 ? '' : `/${round}`}`;
    const derived = Buffer.from(hkdfSync('sha256', key, 'storefront', info, 32));
    const scalar = BigInt(`0x${derived.toString('hex')}`);
    if (scalar > 0n && scalar < SECP256K1_N) return `0x${derived.toString('hex')}`;
  }
}
