import type { Queryable } from '../db/database.js';
import { type JobQueue, TASKS } from './queue.js';

/**
 * How often a redemption is tried while the facilitator or the chain fails: graphile-worker
 * waits e^n seconds after the n-th failure (at most e^10, about 6 h), so 25 tries cover
 * more than three days, after which every worker's start tries again.
 */
const REDEEM_ATTEMPTS = 25;

/** The key of the one pending redemption task: a charge while it waits joins it. */
const REDEEM_KEY = 'x402-redeem';

/**
 * Schedule the redemption of `batch-settlement` vouchers `seconds` from `now`, in `tx`
 * (the transaction of a channel's first charge since its last redemption, so the task
 * exists exactly when the charge does). A redemption already waiting keeps its time:
 * one task claims every channel's vouchers, however many calls came meanwhile; tasks
 * run one at a time (their own queue), so two workers never claim at once. `soonest`
 * moves a waiting redemption to this time instead.
 */
export async function scheduleRedemption(
  queue: JobQueue,
  tx: Queryable,
  now: Date,
  seconds: number,
  { soonest = false } = {},
): Promise<void> {
  await queue.add(
    tx,
    TASKS.redeem,
    {},
    {
      key: REDEEM_KEY,
      queue: REDEEM_KEY,
      runAt: new Date(now.getTime() + seconds * 1000),
      keepRunAt: !soonest,
      maxAttempts: REDEEM_ATTEMPTS,
    },
  );
}

/**
 * Schedule a redemption `seconds` from `now` when a channel holds vouchers charged past
 * what is claimed: at a worker's start (`seconds` 0: the process that charged them
 * stopped before its task ran, or its task gave up), and after each redemption (calls
 * charged while it claimed are not a channel's first charge since a redemption, so they
 * scheduled none). Nothing charged is left unredeemed.
 */
export async function redeemLeftovers(
  db: Queryable,
  queue: JobQueue,
  now: Date,
  seconds: number,
): Promise<void> {
  const { rows } = await db.query(
    `SELECT 1 FROM x402_channels
      WHERE (state->>'chargedCumulativeAmount')::numeric > (state->>'totalClaimed')::numeric
      LIMIT 1`,
  );
  if (rows.length > 0)
    await scheduleRedemption(queue, db, now, seconds, { soonest: seconds === 0 });
}
