import http from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { DATABASE_URL, tempDir, testDatabase } from './helpers.js';

// A health check that reaches the port while the rest of the start still runs (the
// port is bound first, so that PORT=0 yields absolute URLs) is answered once the app is
// there, not left hanging. The start is held at its lease by a lock on `instances`,
// which only PostgreSQL can show from another connection.

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function get(url: string): { answered: Promise<number>; sent: Promise<void> } {
  let sent: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const answered = new Promise<number>((resolve, reject) => {
    const request = http.get(url, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    request.once('finish', () => sent());
    request.once('error', reject);
  });
  return { answered, sent: written };
}

describe.skipIf(DATABASE_URL === null)('a request during the start', () => {
  it('waits for the app and is answered', async () => {
    const { db, schema, dispose } = await testDatabase({ migrated: true });
    const port = await freePort();
    const dataDir = tempDir('storefront-start-');
    let unlock: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = db.transaction(async (tx) => {
      await tx.query('LOCK TABLE instances IN ACCESS EXCLUSIVE MODE');
      locked();
      await held;
    });
    await isLocked;
    const starting = startServer(
      loadConfig(
        {
          NODE_ENV: 'test',
          PORT: String(port),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          FACILITATOR_URL: 'http://127.0.0.1:9/',
          DATABASE_URL: DATABASE_URL as string,
        },
        dataDir,
      ),
      { logger: pino({ level: 'silent' }), schema },
    );
    try {
      // The start is waiting for its lease: the port is bound, the app not yet there.
      for (;;) {
        const { rows } = await db.query<{ n: string | number }>(
          `SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'instances' AND NOT l.granted`,
        );
        if (Number(rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const health = get(`http://127.0.0.1:${port}/healthz`);
      await health.sent;
      // Let the server read the request while the start is still held.
      await new Promise((resolve) => setTimeout(resolve, 200));
      unlock();
      await holding;
      const server = await starting;
      try {
        expect(await health.answered).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      unlock();
      await holding.catch(() => {});
      await dispose();
    }
  }, 60_000);
});
