import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import {
  admit,
  answerAll,
  endLease,
  type Finish,
  finishAll,
  releaseExpiredLeases,
  renewLease,
} from '../src/metering/store.js';
import { tierPlans } from '../src/metering/tiers.js';
import { testDatabase } from './helpers.js';

// The statements behind instance leases and answered calls, on PostgreSQL and PGlite.

const plans = tierPlans();
const CREDITS = 3;
const delivered: Finish = {
  charged: true,
  outcome: 'delivered',
  error: null,
  upstreamStatus: 200,
  receiptNonce: null,
};

let db: Database;
let dispose: () => Promise<void>;
let keys = 0;

beforeAll(async () => {
  ({ db, dispose } = await testDatabase({ migrated: true }));
}, 60_000);
afterAll(() => dispose());

/** A prepaid key with `credits`; returns its id and hash. */
async function key(credits: number): Promise<{ keyId: string; keyHash: string }> {
  keys += 1;
  const keyId = `key_lease_${keys}`;
  const keyHash = `hash_lease_${keys}`;
  await db.query(
    `INSERT INTO api_keys (key_id, key_hash, tail, env, tier, credits)
     VALUES ($1, $2, 'abcd', 'live', 'prepaid', $3)`,
    [keyId, keyHash, credits],
  );
  return { keyId, keyHash };
}

async function reserve(keyHash: string, instanceId: string): Promise<string> {
  const admission = await admit(db, {
    keyHash,
    route: 'fetch',
    price: 3000,
    credits: CREDITS,
    requestId: null,
    plans,
    instanceId,
  });
  if (admission.kind !== 'reserved') throw new Error(`not reserved: ${admission.kind}`);
  return admission.ledgerId;
}

async function keyRow(keyId: string) {
  const { rows } = await db.query<{ in_flight: number; credits: string }>(
    'SELECT in_flight, credits FROM api_keys WHERE key_id = $1',
    [keyId],
  );
  const row = rows[0] as { in_flight: number; credits: string };
  return { inFlight: row.in_flight, credits: Number(row.credits) };
}

async function outcomes(keyId: string): Promise<string[]> {
  const { rows } = await db.query<{ outcome: string; charged: boolean }>(
    'SELECT outcome, charged FROM ledger WHERE key_id = $1 ORDER BY id',
    [keyId],
  );
  return rows.map((row) => `${row.outcome}${row.charged ? ':charged' : ''}`);
}

/** Move an instance's last heartbeat `seconds` into the past. */
async function age(instanceId: string, seconds: number): Promise<void> {
  await db.query(
    `UPDATE instances SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1`,
    [instanceId, seconds],
  );
}

describe('instance leases', () => {
  it('releases the reservations of an instance whose lease expired, and only those; a late commit of a released call charges nothing', async () => {
    const { keyId, keyHash } = await key(30);
    await renewLease(db, 'live-instance');
    await renewLease(db, 'gone-instance');
    const mine = await reserve(keyHash, 'live-instance');
    const theirs = [
      await reserve(keyHash, 'gone-instance'),
      await reserve(keyHash, 'gone-instance'),
    ];
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 3, credits: 30 - 3 * CREDITS });

    // Within the lease nothing is released.
    expect(await releaseExpiredLeases(db, 5)).toBe(0);
    await age('gone-instance', 6);
    expect(await releaseExpiredLeases(db, 5)).toBe(2);
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 1, credits: 30 - CREDITS });
    expect(await outcomes(keyId)).toStrictEqual(['pending', 'abandoned', 'abandoned']);
    const leases = await db.query<{ id: string }>('SELECT id FROM instances ORDER BY id');
    expect(leases.rows.map((row) => row.id)).toContain('live-instance');
    expect(leases.rows.map((row) => row.id)).not.toContain('gone-instance');

    // The stalled instance comes back and commits what it delivered: nothing is charged
    // for a released row, and its credits stay returned.
    const late = await finishAll(
      db,
      theirs.map((ledgerId) => ({ ledgerId, end: delivered })),
    );
    expect(late.size).toBe(0);
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 1, credits: 30 - CREDITS });

    // A clean stop gives back what the instance still holds, and its lease.
    expect(await endLease(db, 'live-instance')).toBe(1);
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 0, credits: 30 });
    expect(await outcomes(keyId)).toStrictEqual(['abandoned', 'abandoned', 'abandoned']);
    expect(mine).toBeDefined();
  });

  it('a reservation whose instance has no lease row at all is released', async () => {
    const { keyId, keyHash } = await key(30);
    await reserve(keyHash, 'never-registered');
    expect(await releaseExpiredLeases(db, 5)).toBe(1);
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 0, credits: 30 });
  });
});

describe('answered calls', () => {
  it('leave the calls in flight once, before their commit; the commit and a release do not count them off again', async () => {
    const { keyId, keyHash } = await key(30);
    await renewLease(db, 'answering');
    const a = await reserve(keyHash, 'answering');
    const b = await reserve(keyHash, 'answering');
    expect((await keyRow(keyId)).inFlight).toBe(2);

    expect([...(await answerAll(db, [a, b]))].sort()).toStrictEqual([a, b].sort());
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 0, credits: 30 - 2 * CREDITS });
    // Marked once: a second mark changes nothing.
    expect((await answerAll(db, [a])).size).toBe(0);
    expect((await keyRow(keyId)).inFlight).toBe(0);

    // One commits as charged; the other's instance dies and its row is released.
    expect((await finishAll(db, [{ ledgerId: a, end: delivered }])).size).toBe(1);
    await age('answering', 60);
    expect(await releaseExpiredLeases(db, 5)).toBe(1);
    expect(await keyRow(keyId)).toStrictEqual({ inFlight: 0, credits: 30 - CREDITS });
    expect(await outcomes(keyId)).toStrictEqual(['delivered:charged', 'abandoned']);
  });
});
