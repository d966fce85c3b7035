/**
 * Serve the key door of this checkout on PostgreSQL, for comparing two commits under the
 * same load (bench/README.md, "Service overhead"): starts the real server in its
 * own schema with enterprise keys (no rate window), prints `{url, key, keys}` as one JSON
 * line (`key` the first of `keys`), and stops (dropping the schema) on SIGTERM or Ctrl-C.
 * Usage: node --conditions=@storefront/source --import tsx serve-key-door.ts [--keys=1]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dropSchemasSql,
  loadConfig,
  openDatabase,
  silentLogger,
  startServer,
} from './lib/server-deps.js';
import { enterpriseKey } from './lib/service-calls.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required (PostgreSQL)');
const dataDir = mkdtempSync(join(tmpdir(), 'serve-key-door-'));
const schema = `bench_ab_${process.pid}_${Date.now()}`;
const adminToken = 'serve-key-door-admin-token';
const server = await startServer(
  loadConfig(
    {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SIGNER_PRIVATE_KEY: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: adminToken,
      ENTERPRISE_PER_MINUTE: '1000000',
    },
    dataDir,
  ),
  { schema, logger: silentLogger() },
);
const count = Number(
  process.argv.find((a) => a.startsWith('--keys='))?.slice('--keys='.length) ?? '1',
);
if (!Number.isInteger(count) || count < 1) throw new Error('--keys= takes a whole number ≥ 1');
const keys: string[] = [];
for (let i = 0; i < count; i += 1) {
  // 20 keys per client address an hour: the keys after the first 20 come from other
  // loopback addresses (127.0.0.2, …; Linux routes all of 127.0.0.0/8 to loopback).
  const from = i < 20 ? undefined : `127.0.0.${1 + Math.floor(i / 20)}`;
  keys.push((await enterpriseKey(server.url, adminToken, from)).key);
}
console.log(JSON.stringify({ url: server.url, key: keys[0], keys }));

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  const db = await openDatabase({ url: databaseUrl, dataDir: null });
  await db.exec(dropSchemasSql(schema));
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
