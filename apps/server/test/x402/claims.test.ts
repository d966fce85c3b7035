import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import {
  claimPayment,
  finishPayment,
  markSettling,
  markVerified,
  type PaymentClaim,
  paymentClaim,
  paymentsFor,
  releaseExpiredPayments,
  takeUnsettled,
  unsettledPayments,
} from '../../src/doors/x402/claims.js';
import { requirementsFor } from '../../src/doors/x402/requirements.js';
import { testDatabase } from '../helpers.js';
import { handMade, nowSeconds, PAYER } from './payments.js';
import { BASE_URL, route, TERMS } from './terms.js';

const fetchRoute = route('fetch');
const [tier] = fetchRoute.prices;
if (tier === undefined) throw new Error('fetch has a price');
const requirements = requirementsFor(fetchRoute, tier, BASE_URL, TERMS);
const HASHES = { callHash: 'c'.repeat(64), payloadHash: 'p'.repeat(64) };

let db: Database;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ db, dispose } = await testDatabase({ migrated: true }));
}, 60_000);

afterEach(async () => {
  await dispose();
});

/** A claim of a fresh authorization from `payer`, valid for 60 s. */
function claim(change: Partial<PaymentClaim> = {}): PaymentClaim {
  return {
    ...paymentClaim(handMade(2, requirements), requirements, 'req-1', HASHES),
    nonce: `0x${randomBytes(32).toString('hex')}`,
    ...change,
  };
}

async function row(id: string) {
  const { rows } = await db.query('SELECT * FROM x402_payments WHERE id = $1::bigint', [id]);
  return rows[0];
}

describe('claimPayment', () => {
  it('claims a payment once; the same payer and nonce in any case is a replay', async () => {
    const first = claim({ payer: PAYER.address, nonce: `0x${'AB'.repeat(32)}` });
    const claimed = await claimPayment(db, first);
    expect(claimed).toMatchObject({ ok: true, id: expect.stringMatching(/^\d+$/) });
    expect(
      await claimPayment(db, {
        ...first,
        payer: PAYER.address.toLowerCase(),
        nonce: first.nonce.toLowerCase(),
      }),
    ).toMatchObject({ ok: false, reason: 'replayed', existing: { state: 'claimed' } });

    // The same nonce from another payer, or another nonce from this payer, is another payment.
    expect((await claimPayment(db, { ...first, payer: `0x${'6'.repeat(40)}` })).ok).toBe(true);
    expect((await claimPayment(db, { ...first, nonce: `0x${'cd'.repeat(32)}` })).ok).toBe(true);
  });

  it('records the claim, payer and nonce lower-cased', async () => {
    const payment = handMade(1, requirements);
    const claimed = await claimPayment(db, paymentClaim(payment, requirements, 'req-7', HASHES));
    if (!claimed.ok) throw new Error('not claimed');
    expect(await row(claimed.id)).toMatchObject({
      payer: PAYER.address.toLowerCase(),
      nonce: payment.nonce,
      route: 'fetch',
      network: 'eip155:8453',
      asset: TERMS.asset,
      pay_to: TERMS.payTo,
      x402_version: 1,
      state: 'claimed',
      charged: false,
      transaction: null,
      error: null,
      request_id: 'req-7',
      finished_at: null,
    });
    const [record] = await paymentsFor(db, { limit: 1 });
    expect(record).toMatchObject({ amount: 3000, validBefore: expect.any(String) });
    expect(Date.parse(record?.validBefore ?? '') / 1000).toBe(Number(payment.validBefore));
  });

  it('lets exactly one of 20 concurrent claims of one authorization through', async () => {
    const one = claim();
    const results = await Promise.all(Array.from({ length: 20 }, () => claimPayment(db, one)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toHaveLength(19);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM x402_payments');
    expect(rows[0]).toStrictEqual({ n: 1 });
  });

  it('keeps mixed-case payers and nonces out of the table', async () => {
    await expect(
      db.query(
        `INSERT INTO x402_payments (payer, nonce, route, amount, network, asset, pay_to, x402_version, valid_before)
         VALUES ($1, $2, 'fetch', 3000, 'eip155:8453', 'a', 'b', 2, now())`,
        [PAYER.address, `0x${'ab'.repeat(32)}`],
      ),
    ).rejects.toThrow(/check/i);
  });
});

describe('finishing a payment', () => {
  async function claimed(): Promise<string> {
    const result = await claimPayment(db, claim());
    if (!result.ok) throw new Error('not claimed');
    return result.id;
  }

  it('settles a verified payment: charged, with its transaction, finished', async () => {
    const id = await claimed();
    expect(await markVerified(db, id)).toBe(true);
    expect(await markVerified(db, id)).toBe(false);
    expect(await row(id)).toMatchObject({ state: 'verified', finished_at: null });
    const tx = `0x${'9f'.repeat(32)}`;
    // Settled only once settlement was attempted.
    expect(await finishPayment(db, id, { state: 'settled', transaction: tx })).toBe(false);
    expect(await markSettling(db, id, { ok: true })).toBe(true);
    expect(await row(id)).toMatchObject({ state: 'settling', result: '{"ok":true}' });
    expect(await finishPayment(db, id, { state: 'settled', transaction: tx })).toBe(true);
    expect(await row(id)).toMatchObject({
      state: 'settled',
      charged: true,
      transaction: tx,
      error: null,
      result: null,
      finished_at: expect.any(Date),
    });
  });

  it('never settles a payment the facilitator has not vouched for', async () => {
    const id = await claimed();
    expect(await finishPayment(db, id, { state: 'settled', transaction: '0x1' })).toBe(false);
    expect(await row(id)).toMatchObject({ state: 'claimed', charged: false });
  });

  it.each([
    ['released', { state: 'released' } as const, null],
    [
      'released with a reason',
      { state: 'released', error: 'facilitator_unavailable' } as const,
      'facilitator_unavailable',
    ],
  ])('ends a claimed or verified payment %s, not charged', async (_, end, error) => {
    const claimedOnly = await claimed();
    expect(await finishPayment(db, claimedOnly, end)).toBe(true);
    expect(await row(claimedOnly)).toMatchObject({ state: end.state, charged: false, error });

    const verified = await claimed();
    await markVerified(db, verified);
    expect(await finishPayment(db, verified, end)).toBe(true);
    expect(await row(verified)).toMatchObject({ state: end.state, charged: false });
  });

  it('never changes a finished payment', async () => {
    const id = await claimed();
    await markVerified(db, id);
    await markSettling(db, id, null);
    await finishPayment(db, id, { state: 'settled', transaction: `0x${'1'.repeat(64)}` });
    expect(await finishPayment(db, id, { state: 'failed', error: 'late' })).toBe(false);
    expect(await finishPayment(db, id, { state: 'released' })).toBe(false);
    expect(await markVerified(db, id)).toBe(false);
    expect(await row(id)).toMatchObject({ state: 'settled', charged: true, error: null });
  });

  it('releases unfinished payments whose authorization has expired, and only those', async () => {
    const now = nowSeconds();
    const expired = await claimPayment(db, claim({ validBefore: BigInt(now - 10) }));
    const live = await claimPayment(db, claim({ validBefore: BigInt(now + 60) }));
    const finished = await claimPayment(db, claim({ validBefore: BigInt(now - 10) }));
    const settling = await claimPayment(db, claim({ validBefore: BigInt(now - 10) }));
    if (!expired.ok || !live.ok || !finished.ok || !settling.ok) throw new Error('not claimed');
    await finishPayment(db, finished.id, { state: 'released', error: 'payment_rejected' });
    await markVerified(db, settling.id);
    await markSettling(db, settling.id, { ok: true });

    expect(await releaseExpiredPayments(db)).toBe(1);
    expect(await row(expired.id)).toMatchObject({ state: 'released', error: 'abandoned' });
    expect(await row(live.id)).toMatchObject({ state: 'claimed' });
    expect(await row(finished.id)).toMatchObject({ state: 'released', error: 'payment_rejected' });
    // Its settlement was attempted: it may have paid, so only the chain can end it.
    expect(await row(settling.id)).toMatchObject({ state: 'settling', finished_at: null });
  });
});

describe('claiming a payment again', () => {
  it('takes back a payment released before settlement: the same authorization works later', async () => {
    const one = claim();
    const first = await claimPayment(db, one);
    if (!first.ok) throw new Error('not claimed');
    await finishPayment(db, first.id, { state: 'released', error: 'payment_mismatch' });
    const again = await claimPayment(db, { ...one, route: 'markdown' });
    expect(again).toStrictEqual({ ok: true, id: first.id });
    expect(await row(first.id)).toMatchObject({
      state: 'claimed',
      route: 'markdown',
      attempts: 2,
      error: null,
      finished_at: null,
    });
  });

  it('never takes back a payment whose settlement was attempted', async () => {
    for (const end of ['settled', 'failed', 'unknown'] as const) {
      const one = claim();
      const first = await claimPayment(db, one);
      if (!first.ok) throw new Error('not claimed');
      await markVerified(db, first.id);
      await markSettling(db, first.id, { ok: true });
      await finishPayment(
        db,
        first.id,
        end === 'settled'
          ? { state: end, transaction: `0x${'1'.repeat(64)}` }
          : { state: end, error: 'x' },
      );
      expect([end, await claimPayment(db, one)]).toMatchObject([
        end,
        { ok: false, existing: { id: first.id, state: end } },
      ]);
    }
  });

  it('lets exactly one of 20 concurrent claims of a released authorization through', async () => {
    const one = claim();
    const first = await claimPayment(db, one);
    if (!first.ok) throw new Error('not claimed');
    await finishPayment(db, first.id, { state: 'released' });
    const results = await Promise.all(Array.from({ length: 20 }, () => claimPayment(db, one)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await row(first.id)).toMatchObject({ state: 'claimed', attempts: 2 });
  });

  it('hands an unknown settlement to exactly one taker, and lists it for the sweep', async () => {
    const first = await claimPayment(db, claim());
    if (!first.ok) throw new Error('not claimed');
    await markVerified(db, first.id);
    // A fetched page may hold NUL characters: the stored result keeps them.
    await markSettling(db, first.id, { ok: true, text: 'a\u0000b' });
    // In progress: not the sweep's, nobody may take it.
    expect(await unsettledPayments(db)).toStrictEqual([]);
    expect(await takeUnsettled(db, first.id)).toBe(false);
    await finishPayment(db, first.id, { state: 'unknown', error: 'no answer' });
    expect((await unsettledPayments(db)).map((p) => [p.id, p.result])).toStrictEqual([
      [first.id, { ok: true, text: 'a\u0000b' }],
    ]);
    const takers = await Promise.all(Array.from({ length: 5 }, () => takeUnsettled(db, first.id)));
    expect(takers.filter(Boolean)).toHaveLength(1);
  });
});

describe('paymentsFor', () => {
  it("lists one payer's payments newest first, or everyone's, up to the limit", async () => {
    const other = `0x${'6'.repeat(40)}`;
    const ids: string[] = [];
    for (const payer of [PAYER.address, other, PAYER.address, PAYER.address]) {
      const result = await claimPayment(db, claim({ payer }));
      if (result.ok) ids.push(result.id);
    }
    const mine = await paymentsFor(db, {
      payer: PAYER.address.toUpperCase().replace('0X', '0x'),
      limit: 2,
    });
    expect(mine.map((record) => record.id)).toStrictEqual([ids[3], ids[2]]);
    expect(mine[0]).toMatchObject({
      payer: PAYER.address.toLowerCase(),
      route: 'fetch',
      amount: 3000,
      payTo: TERMS.payTo,
      x402Version: 2,
      state: 'claimed',
      charged: false,
      transaction: null,
      requestId: 'req-1',
      finishedAt: null,
    });
    expect(new Date(mine[0]?.createdAt ?? '').toISOString()).toBe(mine[0]?.createdAt);
    expect((await paymentsFor(db, { limit: 10 })).map((record) => record.id)).toStrictEqual(
      [...ids].reverse(),
    );
    expect(await paymentsFor(db, { payer: `0x${'7'.repeat(40)}`, limit: 10 })).toStrictEqual([]);
  });
});
