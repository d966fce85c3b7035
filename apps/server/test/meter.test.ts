import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { mintKey } from '../src/metering/keys.js';
import { Meter } from '../src/metering/meter.js';
import * as store from '../src/metering/store.js';
import { tierPlans } from '../src/metering/tiers.js';
import { testDatabase } from './helpers.js';

const DELIVERED = {
  charged: true,
  outcome: 'delivered',
  error: null,
  upstreamStatus: 200,
  receiptNonce: null,
} as const;
const RELEASED = {
  ...DELIVERED,
  charged: false,
  outcome: 'failed',
  error: 'client_closed',
} as const;

let db: Database;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ db, dispose } = await testDatabase());
  await migrate(db);
});
afterEach(() => dispose());

/** A prepaid key holding `credits`, and a way to reserve calls of 8 credits on it. */
async function keyWith(credits: number) {
  const minted = mintKey('live');
  const issued = await store.issueKey(db, minted, {
    ip: '192.0.2.7',
    label: null,
    plan: tierPlans().prepaid,
    perHour: 20,
  });
  if (!issued.ok) throw new Error('not issued');
  const { keyId } = issued.record;
  await store.addCredits(db, keyId, credits);
  const reserve = async () => {
    const admitted = await store.admit(db, {
      keyHash: minted.hash,
      route: 'notarize',
      price: 8000,
      credits: 8,
      requestId: null,
      plans: tierPlans(),
    });
    if (admitted.kind !== 'reserved') throw new Error(admitted.kind);
    return admitted.ledgerId;
  };
  const state = async () => ({
    credits: (await store.findKeyById(db, keyId))?.credits,
    rows: (await store.ledgerFor(db, keyId, { limit: 100, after: null })).map((r) => [
      r.outcome,
      r.charged,
    ]),
  });
  return { keyId, hash: minted.hash, reserve, state };
}

describe('finishAll', () => {
  it('commits and releases many attempts of several keys in one statement, each once', async () => {
    const a = await keyWith(40);
    const b = await keyWith(16);
    const a1 = await a.reserve();
    const a2 = await a.reserve();
    const a3 = await a.reserve();
    const b1 = await b.reserve();
    const b2 = await b.reserve();
    expect([(await a.state()).credits, (await b.state()).credits]).toStrictEqual([16, 0]);

    const finished = await store.finishAll(db, [
      { ledgerId: a1, end: DELIVERED },
      { ledgerId: a2, end: RELEASED },
      { ledgerId: a3, end: RELEASED },
      { ledgerId: b1, end: RELEASED },
      { ledgerId: b2, end: DELIVERED },
    ]);
    expect([...finished].sort()).toStrictEqual([a1, a2, a3, b1, b2].sort());
    // Two releases of one key in one statement both come back.
    expect(await a.state()).toStrictEqual({
      credits: 32,
      rows: [
        ['delivered', true],
        ['failed', false],
        ['failed', false],
      ],
    });
    expect((await b.state()).credits).toBe(8);
    // Finishing again changes nothing.
    expect((await store.finishAll(db, [{ ledgerId: a2, end: RELEASED }])).size).toBe(0);
    expect((await a.state()).credits).toBe(32);
  });
});

describe('meter', () => {
  const plans = tierPlans();
  const attempt = (keyHash: string, credits: number) => ({
    keyHash,
    route: 'notarize',
    price: credits * 1000,
    credits,
    requestId: null,
  });

  it("decides one key's admissions in one statement in arrival order, against what the ones before took", async () => {
    const minted = mintKey('live');
    const issued = await store.issueKey(db, minted, {
      ip: '192.0.2.8',
      label: null,
      plan: plans.prepaid,
      perHour: 20,
    });
    if (!issued.ok) throw new Error('not issued');
    await store.addCredits(db, issued.record.keyId, 20);
    const unknown = mintKey('live').hash;
    const { admissions } = await store.meter(
      db,
      {
        admissions: [
          attempt(minted.hash, 8),
          attempt(unknown, 8),
          attempt(minted.hash, 50),
          attempt(minted.hash, 8),
          attempt(minted.hash, 8),
        ],
      },
      { plans, instanceId: null },
    );
    expect(admissions.map((a) => a.kind)).toStrictEqual([
      'reserved',
      'unknown',
      'insufficient_credits',
      'reserved',
      'insufficient_credits',
    ]);
    // Each refusal names the balance the calls before it left.
    expect(admissions.map((a) => (a.kind === 'unknown' ? null : a.key.credits))).toStrictEqual([
      20,
      null,
      12,
      12,
      4,
    ]);
    const key = await store.findKeyById(db, issued.record.keyId);
    expect(key).toMatchObject({ credits: 4, calls: 2 });
    const rows = await store.ledgerFor(db, issued.record.keyId, { limit: 10, after: null });
    expect(rows.map((r) => [r.outcome, r.units])).toStrictEqual([
      ['pending', 8],
      ['insufficient_credits', 0],
      ['pending', 8],
      ['insufficient_credits', 0],
    ]);
  });

  it("commits an answered call's charge without writing its key's row; a release gives back", async () => {
    const key = await keyWith(40);
    const [kept, released] = [await key.reserve(), await key.reserve()];
    expect((await store.answerAll(db, [kept])).has(kept)).toBe(true);
    const version = async () =>
      (
        await db.query<{ xmin: string }>(
          'SELECT xmin::text AS xmin FROM api_keys WHERE key_id = $1',
          [key.keyId],
        )
      ).rows[0]?.xmin;
    const before = await version();
    expect((await store.finishAll(db, [{ ledgerId: kept, end: DELIVERED }])).has(kept)).toBe(true);
    expect(await version()).toBe(before);
    expect((await store.finishAll(db, [{ ledgerId: released, end: RELEASED }])).size).toBe(1);
    expect(await version()).not.toBe(before);
    expect(await key.state()).toStrictEqual({
      credits: 32,
      rows: [
        ['delivered', true],
        ['failed', false],
      ],
    });
  });

  it('statements that share keys, named in opposite orders, never deadlock', async () => {
    const keys = await Promise.all([keyWith(100_000), keyWith(100_000)]);
    const [a, b] = keys.map((k) => k.hash) as [string, string];
    // Room for every call at once: only the locks are under test.
    const roomy = { ...plans, prepaid: { ...plans.prepaid, perMinute: 100_000, inFlight: 1000 } };
    const run = (first: string, second: string) =>
      store.meter(
        db,
        { admissions: [attempt(first, 1), attempt(second, 1), attempt(first, 1)] },
        { plans: roomy, instanceId: null },
      );
    // On PostgreSQL these run on several connections at once; each locks both keys.
    const batches = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? run(a, b) : run(b, a))),
    );
    for (const batch of batches) {
      expect(batch.admissions.every((x) => x.kind === 'reserved')).toBe(true);
    }
    expect((await keys[0]?.state())?.credits).toBe(100_000 - 60);
    expect((await keys[1]?.state())?.credits).toBe(100_000 - 60);
  });
});

describe('Meter', () => {
  /**
   * The database, with every meter statement's finishes counted, and the statements held
   * until `release`; `started` resolves when the first one arrives.
   */
  function gated(inner: Database) {
    const sizes: number[] = [];
    let open: () => void = () => {};
    let gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let arrived: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const db: Queryable = {
      async query(sql, params, name) {
        if (name === 'storefront_meter') {
          sizes.push((params?.[0] as unknown[] | undefined)?.length ?? 0);
          arrived();
          await gate;
        }
        return inner.query(sql, params, name);
      },
      exec: (sql) => inner.exec(sql),
    };
    const release = () => {
      open();
      gate = Promise.resolve();
    };
    return { db, sizes, release, started };
  }

  const options = { plans: tierPlans(), instanceId: null };

  it('runs two statements at a time and gathers what arrives meanwhile into the next', async () => {
    const key = await keyWith(80);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await key.reserve());
    const errors: unknown[] = [];
    const g = gated(db);
    const meter = new Meter(g.db, { error: (o: unknown) => errors.push(o) }, options);

    // What arrives in one turn of the event loop goes into one statement.
    meter.settle(ids[0] as string, DELIVERED);
    meter.settle(ids[1] as string, DELIVERED);
    await g.started;
    meter.settle(ids[2] as string, DELIVERED);
    await new Promise((resolve) => setImmediate(resolve));
    // Two statements run; the rest waits for one of them.
    for (const id of ids.slice(3)) meter.settle(id, id === ids[3] ? RELEASED : DELIVERED);
    expect(meter.pending).toBe(4);
    const drained = meter.drain();
    g.release();
    await drained;
    expect(g.sizes).toStrictEqual([2, 1, 4]);
    expect(meter.pending).toBe(0);
    expect(errors).toStrictEqual([]);
    const { credits, rows } = await key.state();
    expect(credits).toBe(80 - 6 * 8);
    expect(rows.filter(([outcome]) => outcome === 'delivered')).toHaveLength(6);
    expect(rows.filter(([outcome]) => outcome === 'failed')).toHaveLength(1);
  });

  it('logs a failed statement and leaves its rows pending for the sweeper', async () => {
    const key = await keyWith(16);
    const id = await key.reserve();
    const errors: Record<string, unknown>[] = [];
    const failing: Queryable = {
      query: () => Promise.reject(new Error('connection lost')),
      exec: () => Promise.reject(new Error('connection lost')),
    };
    const meter = new Meter(
      failing,
      { error: (o: unknown) => errors.push(o as Record<string, unknown>) },
      options,
    );
    meter.settle(id, DELIVERED);
    await meter.drain();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.ledgerIds).toStrictEqual([id]);
    expect(await key.state()).toStrictEqual({ credits: 8, rows: [['pending', false]] });
    // The sweeper gives the reservation back once it is old enough.
    await db.query("UPDATE ledger SET created_at = now() - interval '10 minutes' WHERE id = $1", [
      id,
    ]);
    expect(await store.sweepAbandoned(db, 300)).toBe(1);
    expect((await key.state()).credits).toBe(16);
  });
});

describe('the reservation sweeper', () => {
  it('releases only reservations older than the bound, once, on either database', async () => {
    const key = await keyWith(20);
    const old = await key.reserve();
    const fresh = await key.reserve();
    expect((await key.state()).credits).toBe(4);
    await db.query("UPDATE ledger SET created_at = now() - interval '10 minutes' WHERE id = $1", [
      old,
    ]);

    expect(await store.sweepAbandoned(db, 300)).toBe(1);
    expect(await store.sweepAbandoned(db, 300)).toBe(0);
    expect((await key.state()).credits).toBe(12);
    // The released attempt cannot be committed afterwards; the fresh one still can.
    expect(await store.finish(db, old, DELIVERED)).toBe(false);
    expect(await store.finish(db, fresh, DELIVERED)).toBe(true);
    expect(await key.state()).toStrictEqual({
      credits: 12,
      rows: [
        ['abandoned', false],
        ['delivered', true],
      ],
    });
  });
});
