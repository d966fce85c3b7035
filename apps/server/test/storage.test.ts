import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSigner } from '@storefront/attest';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, migrate } from '../src/db/migrate.js';
import { registerSigner, retiredSigners } from '../src/db/signer-keys.js';
import { DEV_KEY_FILE, loadSignerKey } from '../src/signer-key.js';
import { tempDir, testDatabase } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function database() {
  const handle = await testDatabase();
  cleanups.push(handle.dispose);
  return handle.db;
}

describe('migrations', () => {
  it('applies every shipped migration once and records it', async () => {
    const db = await database();
    const shipped = readdirSync(defaultMigrationsDir())
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, -4));
    expect(await migrate(db)).toStrictEqual(shipped);
    expect(await migrate(db)).toStrictEqual([]);
    const { rows } = await db.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toStrictEqual(shipped);
  });

  it('applies new files in name order, each exactly once under concurrent start-ups', async () => {
    const db = await database();
    const dir = tempDir('migrations-');
    writeFileSync(join(dir, '0002_b.sql'), "INSERT INTO seen (name) VALUES ('b');");
    writeFileSync(
      join(dir, '0001_a.sql'),
      "CREATE TABLE seen (name text NOT NULL); INSERT INTO seen (name) VALUES ('a');",
    );
    writeFileSync(join(dir, 'README.txt'), 'not a migration');
    const results = await Promise.all([migrate(db, dir), migrate(db, dir), migrate(db, dir)]);
    expect(results.flat().sort()).toStrictEqual(['0001_a', '0002_b']);
    const { rows } = await db.query<{ name: string }>('SELECT name FROM seen ORDER BY name');
    expect(rows.map((r) => r.name)).toStrictEqual(['a', 'b']);
  });

  it('rolls back a failing migration completely', async () => {
    const db = await database();
    const dir = tempDir('migrations-');
    writeFileSync(
      join(dir, '0001_bad.sql'),
      'CREATE TABLE half (x int); SELECT * FROM missing_table;',
    );
    await expect(migrate(db, dir)).rejects.toThrow(/missing_table/);
    const { rows } = await db.query("SELECT 1 FROM schema_migrations WHERE version = '0001_bad'");
    expect(rows).toStrictEqual([]);
    await expect(db.query('SELECT * FROM half')).rejects.toThrow();
  });
});

describe('signer keys', () => {
  it('retires the previous key when a new one is registered, and un-retires a returning one', async () => {
    const db = await database();
    await migrate(db);
    const a = createSigner(`0x${'a'.repeat(64)}`);
    const b = createSigner(`0x${'b'.repeat(64)}`);
    await registerSigner(db, a.address, a.keyId);
    await registerSigner(db, a.address, a.keyId);
    expect(await retiredSigners(db)).toStrictEqual([]);
    await registerSigner(db, b.address, b.keyId);
    const retired = await retiredSigners(db);
    expect(retired.map((k) => k.address)).toStrictEqual([a.address]);
    expect(retired[0]?.keyId).toBe(a.keyId);
    expect(Date.parse(retired[0]?.retiredAt ?? '')).not.toBeNaN();
    await registerSigner(db, a.address, a.keyId);
    expect((await retiredSigners(db)).map((k) => k.address)).toStrictEqual([b.address]);
  });
});

describe('development signer key file', () => {
  it('is created once with mode 0600 and read back on the next start', () => {
    const dir = join(tempDir(), 'nested', '.data');
    const first = loadSignerKey(null, dir);
    expect(first.source).toBe('dev-created');
    expect(statSync(join(dir, DEV_KEY_FILE)).mode & 0o777).toBe(0o600);
    const second = loadSignerKey(null, dir);
    expect(second).toStrictEqual({ privateKey: first.privateKey, source: 'dev-file' });
  });

  it('prefers SIGNER_PRIVATE_KEY and writes nothing then', () => {
    const dir = tempDir();
    const key = `0x${'3'.repeat(64)}`;
    expect(loadSignerKey(key, dir)).toStrictEqual({ privateKey: key, source: 'env' });
    expect(readdirSync(dir)).toStrictEqual([]);
  });

  it('refuses a corrupt key file with a clear message', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, DEV_KEY_FILE), 'garbage');
    expect(() => loadSignerKey(null, dir)).toThrow(/does not hold a private key/);
  });
});
