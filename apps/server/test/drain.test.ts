import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { type RunningServer, startServer } from '../src/server.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  tempDir,
  uniqueSchema,
} from './helpers.js';

// A drain in one process, on every door: the server's `close()` as SIGTERM runs it.

const ADMIN_TOKEN = 'drain-test-admin-token';
const FETCH_CREDITS = 3;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-drain-');

/** Holds every request until released; counts the arrivals. */
const held: http.ServerResponse[] = [];
let arrived: () => void = () => {};
const page = http.createServer((_req, res) => {
  held.push(res);
  arrived();
});
function heldAtLeast(count: number): Promise<void> {
  return new Promise((resolve) => {
    arrived = () => {
      if (held.length >= count) resolve();
    };
    arrived();
  });
}
function release(): void {
  for (const res of held.splice(0)) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('A page that took its time.\n');
  }
}

let server: RunningServer;
let pageUrl = '';

beforeAll(async () => {
  page.listen(0, '127.0.0.1');
  await once(page, 'listening');
  const { port } = page.address() as AddressInfo;
  pageUrl = `http://127.0.0.1:${port}/held`;
  await createSchema(schema);
  server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        ADMIN_TOKEN,
        LOG_LEVEL: 'silent',
        SAFE_FETCH_ALLOW: `127.0.0.1:${port}`,
        FACILITATOR_URL: 'http://127.0.0.1:9/',
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
  );
}, 60_000);

afterAll(async () => {
  release();
  page.closeAllConnections();
  page.close();
  await server.close();
  await dropSchema(schema);
});

describe('draining', () => {
  it('finishes the calls in flight on every door, refuses new ones with 503 draining, reports it on /healthz, and commits every charge', async () => {
    const minted = await fetchJson(`${server.url}/api/dev/keys?live=true`, { method: 'POST' });
    const { key, keyId } = minted.body as { key: string; keyId: string };
    const credits = await fetchJson(`${server.url}/admin/keys/${keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 100 }),
    });
    expect(credits.status).toBe(200);
    const bearer = { authorization: `Bearer ${key}` };
    const paidUrl = `${server.url}/buy/fetch?url=${encodeURIComponent(pageUrl)}`;
    const mcp = new Client({ name: 'storefront-drain-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: bearer },
      }),
    );

    // Three calls through the key door and one through the MCP door, held by the page.
    const inFlight = Array.from({ length: 3 }, () => fetchJson(paidUrl, { headers: bearer }));
    const overMcp = mcp.callTool({ name: 'fetch', arguments: { url: pageUrl } });
    await heldAtLeast(4);

    const closed = server.close();

    const health = await fetchJson(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ok: false, error: 'draining', draining: true });
    expect(health.headers.get('retry-after')).toBe('1');

    // New calls on every door: refused before admission, nothing reserved or asked.
    const message = 'This instance is shutting down and admits no new calls; retry in 1 s';
    for (const headers of [bearer, {}]) {
      const late = await fetchJson(paidUrl, { headers });
      expect(late.status).toBe(503);
      expect(late.body).toMatchObject({ ok: false, error: 'draining', message });
      expect(late.headers.get('retry-after')).toBe('1');
      expect(late.headers.get('connection')).toBe('close');
    }
    const lateMcp = await mcp.callTool({ name: 'fetch', arguments: { url: pageUrl } });
    expect(lateMcp.isError).toBe(true);
    expect(lateMcp.content).toStrictEqual([
      { type: 'text', text: `draining: ${message}. Nothing was charged.` },
    ]);

    release();
    const answers = await Promise.all(inFlight);
    expect(answers.map((answer) => answer.status)).toStrictEqual([200, 200, 200]);
    const fromMcp = await overMcp;
    expect(fromMcp.isError ?? false).toBe(false);
    expect(fromMcp.structuredContent).toMatchObject({ ok: true });
    await closed;
    await mcp.close().catch(() => {});

    // The four delivered calls were charged and nothing is pending (PostgreSQL: the
    // books outlive the process; PGlite's are gone with it).
    if (DATABASE_URL === null) return;
    const db = await openDatabase({ url: DATABASE_URL, dataDir: null, schema, maxConnections: 1 });
    const { rows } = await db.query<{ outcome: string; charged: boolean }>(
      'SELECT outcome, charged FROM ledger WHERE key_id = $1',
      [keyId],
    );
    const key_ = await db.query<{ credits: string; in_flight: number }>(
      'SELECT credits, in_flight FROM api_keys WHERE key_id = $1',
      [keyId],
    );
    const leases = await db.query('SELECT id FROM instances');
    await db.close();
    expect(rows).toStrictEqual(Array(4).fill({ outcome: 'delivered', charged: true }));
    expect(key_.rows[0]).toMatchObject({ in_flight: 0 });
    expect(Number(key_.rows[0]?.credits)).toBe(100 - 4 * FETCH_CREDITS);
    expect(leases.rows).toStrictEqual([]);
  }, 60_000);
});
