/**
 * What one MCP `tools/call` asks of the database: the key is read once, by the key
 * door's admission statement, and nothing reads it before the MCP SDK runs.
 */

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { buildDeps } from '../src/deps.js';
import { testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
/**
 * The statements the counted app ran, in order, whitespace folded; a meter statement as
 * what it carried (`meter: 1 admissions, 0 answers, 0 finishes`).
 */
const statements: string[] = [];
let counted: ReturnType<typeof createApp>;
let settle: () => Promise<void>;

beforeAll(async () => {
  t = await testApp();
  const db: Database = {
    ...t.db,
    query(sql, params, name) {
      const count = (i: number) => (params?.[i] as unknown[] | undefined)?.length ?? 0;
      statements.push(
        name === 'storefront_meter'
          ? `meter: ${count(7)} admissions, ${count(6)} answers, ${count(0)} finishes`
          : sql.replace(/\s+/g, ' ').trim(),
      );
      return t.db.query(sql, params, name);
    },
  };
  // The same app on a database whose every statement is counted.
  const deps = buildDeps({ ...t.parts, db });
  counted = createApp(deps);
  settle = () => deps.meter.drain();
}, 60_000);

afterAll(async () => {
  await t?.dispose();
});

/** Statements that read a key by its hash: a lookup, or a meter statement that admits. */
function keyReads(): string[] {
  return statements.filter(
    (sql) =>
      /\bFROM api_keys\b.*\bWHERE key_hash = \$1/.test(sql) ||
      /^meter: [1-9]\d* admissions/.test(sql),
  );
}

function toolsCall(name: string, args: Record<string, unknown>, key?: string) {
  const post = request(counted)
    .post('/mcp')
    .set('accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  return key === undefined ? post : post.set('authorization', `Bearer ${key}`);
}

describe('database statements of one MCP tools/call', () => {
  it('reads the key exactly once: the admission statement, nothing before the SDK', async () => {
    const minted = await request(counted).post('/api/dev/keys').expect(201);
    statements.length = 0;
    const res = await toolsCall('notarize', { content: 'counted' }, minted.body.key).expect(200);
    expect(res.body.result.isError).toBeUndefined();
    expect(res.body.result.structuredContent.ok).toBe(true);
    // The charge is committed once the answer is written: wait for it.
    await settle();
    expect(keyReads()).toHaveLength(1);
    // Admission, counting the call off the key's calls in flight before the answer,
    // committing the charge after it.
    expect(statements).toStrictEqual([
      'meter: 1 admissions, 0 answers, 0 finishes',
      'meter: 0 admissions, 1 answers, 0 finishes',
      'meter: 0 admissions, 0 answers, 1 finishes',
    ]);
  });

  it('an unknown key: 401 from that one admission statement', async () => {
    statements.length = 0;
    const unknown = `mk_live_${'A'.repeat(43)}`;
    const res = await toolsCall('notarize', { content: 'x' }, unknown).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="storefront"/);
    expect(res.body.error.message).toMatch(/^Unknown API key; mint a key at /);
    expect(keyReads()).toHaveLength(1);
    expect(statements).toHaveLength(1);
  });

  it('no key and no payment: the x402 terms, no statement at all', async () => {
    statements.length = 0;
    const res = await toolsCall('notarize', { content: 'x' }).expect(200);
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.structuredContent).toMatchObject({ x402Version: 2 });
    expect(statements).toStrictEqual([]);
  });
});
