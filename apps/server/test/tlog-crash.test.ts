import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Attestation, checkLogInclusion, receiptHash } from '@storefront/attest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { queueSchemaOf } from '../src/jobs/queue.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  tempDir,
  uniqueSchema,
} from './helpers.js';

// An instance killed (`kill -9`) right after answering paid calls loses no log entry: each
// receipt's entry committed with its call, and the next instance sequences it
// (docs/decisions.md, "A transparency log of every receipt"). While the calls run, this
// test holds the log's state row, so the killed instance cannot have sequenced any.

const ROOT = join(import.meta.dirname, '../src');
const ADMIN_TOKEN = 'tlog-crash-admin-token-0123456789';
const SIGNER = `0x${'6'.repeat(64)}`;
const CALLS = 12;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-tlog-crash-');
const children = new Set<ChildProcess>();
let db: Database;

async function spawnInstance(): Promise<{ child: ChildProcess; url: string }> {
  const url = new URL(DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', join(ROOT, 'main.ts')],
    {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.href,
        JOB_QUEUE_SCHEMA: queueSchemaOf(schema),
        ADMIN_TOKEN,
        SIGNER_PRIVATE_KEY: SIGNER,
        FACILITATOR_URL: 'http://127.0.0.1:9/',
        PRODUCT_THREADS: '1',
        JOB_WORKERS: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`main.ts exited with ${code}:\n${output}`)));
  });
  return { child, url: ready };
}

describe.runIf(DATABASE_URL !== null)('the log survives kill -9 of an instance', () => {
  beforeAll(async () => {
    await createSchema(schema);
    db = await openDatabase({
      url: DATABASE_URL as string,
      dataDir: null,
      schema,
      maxConnections: 2,
    });
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await db?.close();
    await dropSchema(schema);
  }, 60_000);

  it('sequences in the next instance every receipt the killed one answered', async () => {
    const first = await spawnInstance();
    const minted = await fetchJson(`${first.url}/api/dev/keys?live=true`, { method: 'POST' });
    const { key, keyId } = minted.body as { key: string; keyId: string };
    await fetchJson(`${first.url}/admin/keys/${keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 1000 }),
    });

    // Hold the log's state row: the instance's sequencer skips while it is held.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM tlog_state WHERE id = 1 FOR UPDATE');
      locked();
      await held;
    });
    await isLocked;

    const receipts: Attestation[] = [];
    try {
      // One after the other: the key's plan caps its calls in flight.
      for (let i = 0; i < CALLS; i++) {
        const answer = await fetchJson(`${first.url}/buy/notarize?content=crash%20${i}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status).toBe(200);
        receipts.push((answer.body as { attestation: Attestation }).attestation);
      }
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      const pending = await db.query<{ n: string }>('SELECT count(*) AS n FROM tlog_pending');
      expect(Number(pending.rows[0]?.n)).toBe(CALLS);
    } finally {
      release();
    }
    await holding;

    const second = await spawnInstance();
    const published = (await fetchJson(`${second.url}/.well-known/service-attestation`)).body as {
      log: { vkey: string };
    };
    for (const receipt of receipts) {
      for (;;) {
        const found = await fetchJson(`${second.url}/log/proof?receipt=${receiptHash(receipt)}`);
        if (found.status === 200) {
          const proof = found.body as { index: number; checkpoint: string; proof: string[] };
          expect(checkLogInclusion(receipt, proof, published.log.vkey).valid).toBe(true);
          break;
        }
        expect(found.status).toBe(404);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const left = await db.query<{ n: string }>('SELECT count(*) AS n FROM tlog_pending');
    expect(Number(left.rows[0]?.n)).toBe(0);
    second.child.kill('SIGKILL');
  }, 180_000);
});
