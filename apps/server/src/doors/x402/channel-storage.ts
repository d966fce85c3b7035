import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  Channel,
  ChannelStorage,
  ChannelUpdateResult,
} from '@x402/evm/batch-settlement/server';
import type { Database, Queryable } from '../../db/database.js';

/**
 * What must be written with a charge: called inside the transaction that raises a
 * channel's charged total, with the channel before and after, so that the books and the
 * charge commit together or not at all.
 */
export type ChargeEffect = (tx: Queryable, before: Channel, after: Channel) => Promise<void>;

/** The charge effect of the call in progress (see {@link PgChannelStorage.charging}). */
const chargeEffects = new AsyncLocalStorage<ChargeEffect>();

/** The id as stored: channel ids are bytes32 hex, compared without case. */
function keyOf(channelId: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(channelId)) throw new Error('invalid_channel_id');
  return channelId.toLowerCase();
}

/**
 * The channels of the official `batch-settlement` server scheme (`@x402/evm`) in
 * PostgreSQL (`x402_channels`), so that every instance shares them and a crash loses
 * none. The scheme's `updateChannel` contract (no other change may interleave between
 * reading a channel and writing it back, across all instances) is kept with the row's
 * lock; a channel not yet stored is created only if no one else created it meanwhile,
 * else the update is made again on the stored one.
 */
export class PgChannelStorage implements ChannelStorage {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Run `work` so that an update it makes which raises a channel's charged total also
   * runs `effect` in the same transaction (the call's row in the books).
   */
  charging<T>(effect: ChargeEffect, work: () => Promise<T>): Promise<T> {
    return chargeEffects.run(effect, work);
  }

  async get(channelId: string): Promise<Channel | undefined> {
    const { rows } = await this.#db.query<{ state: Channel }>(
      'SELECT state FROM x402_channels WHERE channel_id = $1',
      [keyOf(channelId)],
      'x402_channel_get',
    );
    return rows[0]?.state;
  }

  async list(): Promise<Channel[]> {
    const { rows } = await this.#db.query<{ state: Channel }>(
      'SELECT state FROM x402_channels ORDER BY channel_id',
    );
    return rows.map((row) => row.state);
  }

  async updateChannel(
    channelId: string,
    update: (current: Channel | undefined) => Channel | undefined,
  ): Promise<ChannelUpdateResult> {
    const key = keyOf(channelId);
    const effect = chargeEffects.getStore();
    for (;;) {
      const result = await this.#db.transaction(async (tx) => {
        // The row lock holds the channel until commit; READ COMMITTED reads the newest
        // version once the lock is had, so no change interleaves.
        const { rows } = await tx.query<{ state: Channel }>(
          'SELECT state FROM x402_channels WHERE channel_id = $1 FOR UPDATE',
          [key],
          'x402_channel_lock',
        );
        const current = rows[0]?.state;
        const next = update(current);
        if (next === current) return { channel: current, status: 'unchanged' } as const;
        if (next === undefined) {
          await tx.query('DELETE FROM x402_channels WHERE channel_id = $1', [key]);
          return { channel: undefined, status: 'deleted' } as const;
        }
        if (current === undefined) {
          // A new channel: another instance may be creating it at this moment.
          const { rows: created } = await tx.query(
            `INSERT INTO x402_channels (channel_id, state) VALUES ($1, $2::jsonb)
             ON CONFLICT (channel_id) DO NOTHING RETURNING 1`,
            [key, JSON.stringify(next)],
            'x402_channel_create',
          );
          if (created.length === 0) return null;
        } else {
          await tx.query(
            'UPDATE x402_channels SET state = $2::jsonb, updated_at = now() WHERE channel_id = $1',
            [key, JSON.stringify(next)],
            'x402_channel_put',
          );
          if (
            effect !== undefined &&
            BigInt(next.chargedCumulativeAmount) > BigInt(current.chargedCumulativeAmount)
          ) {
            await effect(tx, current, next);
          }
        }
        return { channel: next, status: 'updated' } as const;
      });
      // Created meanwhile by another instance: read it and decide again.
      if (result !== null) return result;
    }
  }
}
