import type { Queryable } from '../../db/database.js';
import type { Payment } from './payment.js';
import type { Requirements } from './requirements.js';

/**
 * The `x402_payments` table (migration 0005): each payment is claimed by its
 * `(payer, nonce)` before the facilitator is asked or any work is done, and the row
 * then records how it ended. The claim is one `INSERT … ON CONFLICT DO NOTHING`
 * statement, so of any number of requests presenting one authorization, on any number
 * of instances sharing the database, exactly one gets it.
 *
 * States: `claimed` → `verified` (the facilitator vouched for it) → one final state:
 * `settled` (charged; the transaction is recorded), `released` (never settled: the
 * route's rule did not charge, or the facilitator could not be reached) or `failed`
 * (refused by the facilitator, or the settlement failed). A final row never changes.
 */

/** What a claim records about a payment. */
export interface PaymentClaim {
  readonly payer: string;
  readonly nonce: string;
  /** The route's name. */
  readonly route: string;
  /** Atomic units of the asset. */
  readonly amount: bigint;
  /** CAIP-2 id. */
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  readonly x402Version: 1 | 2;
  /** Unix seconds after which the authorization can no longer be settled. */
  readonly validBefore: bigint;
  readonly requestId: string | null;
}

/** The claim of a checked `payment` for a call with `requirements`. */
export function paymentClaim(
  payment: Payment,
  requirements: Requirements,
  requestId: string | null,
): PaymentClaim {
  return {
    payer: payment.payer,
    nonce: payment.nonce,
    route: requirements.route,
    amount: payment.value,
    network: requirements.network,
    asset: requirements.asset,
    payTo: requirements.payTo,
    x402Version: payment.version,
    validBefore: payment.validBefore,
    requestId,
  };
}

/** The claim's row id, or `replayed` when the authorization was presented before. */
export type ClaimResult =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly reason: 'replayed' };

/**
 * Claim `claim`'s `(payer, nonce)`, both lower-cased. One statement: a concurrent claim
 * of the same pair waits for this one and then inserts nothing.
 */
export async function claimPayment(db: Queryable, claim: PaymentClaim): Promise<ClaimResult> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO x402_payments
       (payer, nonce, route, amount, network, asset, pay_to, x402_version, valid_before, request_id)
     VALUES (lower($1), lower($2), $3, $4::bigint, $5, $6, $7, $8, to_timestamp($9::bigint), $10)
     ON CONFLICT (payer, nonce) DO NOTHING
     RETURNING id::text AS id`,
    [
      claim.payer,
      claim.nonce,
      claim.route,
      claim.amount.toString(),
      claim.network,
      claim.asset,
      claim.payTo,
      claim.x402Version,
      claim.validBefore.toString(),
      claim.requestId,
    ],
    'x402_claim',
  );
  const row = rows[0];
  return row === undefined ? { ok: false, reason: 'replayed' } : { ok: true, id: row.id };
}

/** Record that the facilitator vouched for claimed payment `id`. False unless it was `claimed`. */
export async function markVerified(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE x402_payments SET state = 'verified'
      WHERE id = $1::bigint AND state = 'claimed'
      RETURNING id`,
    [id],
    'x402_verified',
  );
  return rows.length > 0;
}

/** How a payment ended. `settled` is the only charged end, and only a verified payment settles. */
export type PaymentEnd =
  | { readonly state: 'settled'; readonly transaction: string }
  | { readonly state: 'released'; readonly error?: string | null }
  | { readonly state: 'failed'; readonly error: string };

/**
 * Finish payment `id` with `end` (sets `charged` for `settled`, and `finished_at`).
 * Only a row not yet final changes, and `settled` only from `verified`; returns whether
 * the row changed.
 */
export async function finishPayment(db: Queryable, id: string, end: PaymentEnd): Promise<boolean> {
  const transaction = end.state === 'settled' ? end.transaction : null;
  const error = end.state === 'settled' ? null : (end.error ?? null);
  const { rows } = await db.query(
    `UPDATE x402_payments
        SET state = $2::text, charged = ($2::text = 'settled'), transaction = $3, error = $4,
            finished_at = now()
      WHERE id = $1::bigint
        AND (state = 'verified' OR (state = 'claimed' AND $2::text <> 'settled'))
      RETURNING id`,
    [id, end.state, transaction, error],
    'x402_finish',
  );
  return rows.length > 0;
}

/**
 * Release every unfinished payment whose authorization has expired (a crash between
 * claim and finish): past `validBefore` it can no longer be settled by anyone, so
 * `released` (not charged) is certain. Returns how many rows changed.
 */
export async function releaseExpiredPayments(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `UPDATE x402_payments
        SET state = 'released', error = 'abandoned', finished_at = now()
      WHERE finished_at IS NULL AND valid_before < now()
      RETURNING id`,
  );
  return rows.length;
}

/** One row of the x402 ledger view. */
export interface PaymentRecord {
  readonly id: string;
  readonly payer: string;
  readonly nonce: string;
  readonly route: string;
  readonly amount: number;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  readonly x402Version: number;
  readonly state: 'claimed' | 'verified' | 'settled' | 'released' | 'failed';
  readonly charged: boolean;
  readonly transaction: string | null;
  readonly error: string | null;
  readonly requestId: string | null;
  readonly validBefore: string;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

/** Options of {@link paymentsFor}. */
export interface PaymentsQuery {
  /** One payer's payments (any case); every payer's when absent. */
  readonly payer?: string;
  /** At most this many rows, newest first (1 to 1000). */
  readonly limit: number;
}

interface PaymentRow {
  id: string;
  payer: string;
  nonce: string;
  route: string;
  amount: string;
  network: string;
  asset: string;
  pay_to: string;
  x402_version: number;
  state: PaymentRecord['state'];
  charged: boolean;
  transaction: string | null;
  error: string | null;
  request_id: string | null;
  valid_before: Date;
  created_at: Date;
  finished_at: Date | null;
}

const RECORD_SELECT = `SELECT id::text AS id, payer, nonce, route, amount::text AS amount, network,
       asset, pay_to, x402_version, state, charged, transaction, error, request_id,
       valid_before, created_at, finished_at
  FROM x402_payments`;

/** The newest x402 payments, of one payer or of all, for the ledger view. */
export async function paymentsFor(db: Queryable, query: PaymentsQuery): Promise<PaymentRecord[]> {
  const limit = Math.min(1000, Math.max(1, Math.floor(query.limit)));
  // Two statements rather than `$1 IS NULL OR …`, so the payer's index serves the first.
  const { rows } =
    query.payer === undefined
      ? await db.query<PaymentRow>(`${RECORD_SELECT} ORDER BY id DESC LIMIT $1`, [limit])
      : await db.query<PaymentRow>(
          `${RECORD_SELECT} WHERE payer = lower($1) ORDER BY id DESC LIMIT $2`,
          [query.payer, limit],
        );
  return rows.map((row) => ({
    id: row.id,
    payer: row.payer,
    nonce: row.nonce,
    route: row.route,
    amount: Number(row.amount),
    network: row.network,
    asset: row.asset,
    payTo: row.pay_to,
    x402Version: row.x402_version,
    state: row.state,
    charged: row.charged,
    transaction: row.transaction,
    error: row.error,
    requestId: row.request_id,
    validBefore: new Date(row.valid_before).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  }));
}
