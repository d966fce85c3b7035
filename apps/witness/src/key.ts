import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a witness without a configured key keeps the one it made, in its data directory. */
export const KEY_FILE = 'witness.key';

/**
 * The witness's 32-byte Ed25519 seed: `configured` (64 hex digits) when given, otherwise
 * the one in `dataDir/witness.key` (mode 0600), made on first start so that restarts
 * keep the same key.
 */
export function loadWitnessSeed(configured: string | undefined, dataDir: string): Uint8Array {
  const parse = (hex: string, from: string): Uint8Array => {
    const bare = hex.trim().replace(/^0x/, '');
    if (!/^[0-9a-fA-F]{64}$/.test(bare)) {
      throw new Error(`${from} is not a witness key (64 hex digits, an Ed25519 seed)`);
    }
    return new Uint8Array(Buffer.from(bare, 'hex'));
  };
  if (configured !== undefined && configured !== '') return parse(configured, 'WITNESS_KEY');
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return parse(readFileSync(file, 'utf8'), file);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const seed = randomBytes(32);
  try {
    writeFileSync(file, `${seed.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return loadWitnessSeed(undefined, dataDir);
    throw error;
  }
  return new Uint8Array(seed);
}
