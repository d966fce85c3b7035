import type { Channel } from '@x402/evm/batch-settlement/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { PgChannelStorage } from '../../src/doors/x402/channel-storage.js';
import { testDatabase } from '../helpers.js';

const ID = `0x${'ab'.repeat(32)}`;
const PAYER = `0x${'11'.repeat(20)}` as const;

/** A channel as the official scheme stores it, charged `charged` so far. */
function channel(charged: bigint, claimed = 0n): Channel {
  return {
    channelId: ID,
    channelConfig: {
      payer: PAYER,
      payerAuthorizer: PAYER,
      receiver: `0x${'22'.repeat(20)}`,
      receiverAuthorizer: `0x${'33'.repeat(20)}`,
      token: `0x${'44'.repeat(20)}`,
      withdrawDelay: 900,
      salt: `0x${'00'.repeat(32)}`,
    },
    chargedCumulativeAmount: charged.toString(),
    signedMaxClaimable: charged.toString(),
    signature: '0x',
    balance: '1000000',
    totalClaimed: claimed.toString(),
    withdrawRequestedAt: 0,
    refundNonce: 0,
    lastRequestTimestamp: 0,
  };
}

let db: Database;
let dispose: () => Promise<void>;
let storage: PgChannelStorage;

beforeEach(async () => {
  ({ db, dispose } = await testDatabase({ migrated: true }));
  storage = new PgChannelStorage(db);
}, 60_000);

afterEach(async () => {
  await dispose();
});

describe('the batch-settlement channels in PostgreSQL', () => {
  it('never loses a charge when many calls update one channel at once, and books each with it', async () => {
    await storage.updateChannel(ID, () => channel(0n));
    await db.exec('CREATE TABLE booked (cumulative numeric PRIMARY KEY)');
    const calls = 40;
    await Promise.all(
      Array.from({ length: calls }, () =>
        storage.charging(
          async (tx, before, after) => {
            expect(BigInt(after.chargedCumulativeAmount)).toBe(
              BigInt(before.chargedCumulativeAmount) + 5n,
            );
            await tx.query('INSERT INTO booked (cumulative) VALUES ($1)', [
              after.chargedCumulativeAmount,
            ]);
          },
          () =>
            storage.updateChannel(ID, (current) =>
              current === undefined
                ? current
                : {
                    ...current,
                    chargedCumulativeAmount: (
                      BigInt(current.chargedCumulativeAmount) + 5n
                    ).toString(),
                  },
            ),
        ),
      ),
    );
    expect((await storage.get(ID))?.chargedCumulativeAmount).toBe(String(5 * calls));
    const { rows } = await db.query<{ n: string; top: string }>(
      'SELECT count(*)::text AS n, max(cumulative)::text AS top FROM booked',
    );
    expect(rows[0]).toStrictEqual({ n: String(calls), top: String(5 * calls) });
  });

  it('leaves the charge undone when its books cannot be written', async () => {
    await storage.updateChannel(ID, () => channel(10n));
    await expect(
      storage.charging(
        async () => {
          throw new Error('the books are full');
        },
        () => storage.updateChannel(ID, (current) => current && { ...channel(15n) }),
      ),
    ).rejects.toThrow('the books are full');
    expect((await storage.get(ID))?.chargedCumulativeAmount).toBe('10');
  });

  it('writes no books for an update that charges nothing, or outside a charge', async () => {
    await storage.updateChannel(ID, () => channel(10n));
    let effects = 0;
    const effect = async () => {
      effects++;
    };
    // The reservation of a call and the record of a claim change the channel, not its charge.
    await storage.charging(effect, () =>
      storage.updateChannel(ID, (current) => current && { ...current, totalClaimed: '10' }),
    );
    // A charge made outside `charging` (none in the service) has no effect to run.
    await storage.updateChannel(
      ID,
      (current) => current && { ...current, chargedCumulativeAmount: '20' },
    );
    expect(effects).toBe(0);
    expect(await storage.get(ID)).toMatchObject({
      totalClaimed: '10',
      chargedCumulativeAmount: '20',
    });
  });

  it('creates a channel once when many first calls race, deletes it, and lists what is stored', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storage.updateChannel(ID.toUpperCase().replace('0X', '0x'), (current) =>
          current === undefined ? { ...channel(BigInt(i)) } : current,
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'updated')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'unchanged')).toHaveLength(7);
    expect(await storage.list()).toHaveLength(1);
    expect(await storage.updateChannel(ID, () => undefined)).toStrictEqual({
      channel: undefined,
      status: 'deleted',
    });
    expect(await storage.get(ID)).toBeUndefined();
    expect(await storage.updateChannel(ID, () => undefined)).toStrictEqual({
      channel: undefined,
      status: 'unchanged',
    });
  });

  it('refuses a channel id that is not bytes32 hex before reading anything', async () => {
    await expect(storage.get('../../etc')).rejects.toThrow('invalid_channel_id');
    await expect(storage.updateChannel('0x12', () => undefined)).rejects.toThrow(
      'invalid_channel_id',
    );
  });
});
