import type { Queryable } from '../../db/database.js';
import { logEntryOf } from '../../log/entry.js';
import type { Payment } from './payment.js';
import type { Requirements } from './requirements.js';

/**
 * The `x402_payments` table (migrations 0005, 0007): each payment is claimed by its
 * `(payer, nonce)` before the facilitator is asked or any work is done, and the row
 * then records how it ended. The claim is one `INSERT … ON CONFLICT DO NOTHING`
 * statement (or one `UPDATE` of a released row), so of any number of requests
 * presenting one authorization, on any number of instances sharing the database,
 * exactly one gets it.
 *
 * States: `claimed` → `verified` (the facilitator vouched for it) → `settling` (the
 * facilitator was asked to settle; the signed result waits in `result`) → one final
 * state: `settled` (charged; the transaction is recorded), `failed` (the settlement
 * was refused and nothing moved). A settlement whose outcome is not known is
 * `unknown` until a retry of the same payment or the sweep reads the chain.
 * `released` (never settled: refused before settlement, not charged by the route's
 * rule, or expired unused) is the one final state a payment leaves to be claimed again:
 * nothing was ever attempted on chain with it.
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
  /** The payer's `payment-identifier` id, if it sent one. */
  readonly paymentId: string | null;
  /** SHA-256 of the call (route and parameters). */
  readonly callHash: string;
  /** SHA-256 of the payment as sent. */
  readonly payloadHash: string;
}

/** The claim of a checked `payment` for a call with `requirements`. */
export function paymentClaim(
  payment: Payment,
  requirements: Requirements,
  requestId: string | null,
  call: { readonly callHash: string; readonly payloadHash: string },
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
    paymentId: payment.paymentId,
    callHash: call.callHash,
    payloadHash: call.payloadHash,
  };
}

/** A payment's row as the door reads it back (a replay, a retry, the sweep). */
export interface StoredPayment {
  readonly id: string;
  readonly payer: string;
  readonly nonce: string;
  readonly state: PaymentRecord['state'];
  readonly route: string;
  readonly network: string;
  readonly x402Version: 1 | 2;
  readonly callHash: string | null;
  readonly payloadHash: string | null;
  readonly transaction: string | null;
  /** The stored signed result of a charged call, when one is kept. */
  readonly result: unknown;
  /** Unix seconds. */
  readonly validBefore: number;
  /** Whether a `settling` row was left longer than the stale age it was read with. */
  readonly stale: boolean;
}

/** The claim's row id, or the row that already holds the authorization. */
export type ClaimResult =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly reason: 'replayed'; readonly existing: StoredPayment | null };

interface StoredRow {
  id: string;
  payer: string;
  nonce: string;
  state: PaymentRecord['state'];
  route: string;
  network: string;
  x402_version: number;
  call_hash: string | null;
  payload_hash: string | null;
  transaction: string | null;
  result: string | null;
  valid_before: string;
  stale: boolean;
}

/** How long a `settling` row may wait for its facilitator before it counts as abandoned (s). */
export const SETTLING_STALE_SECONDS = 300;

const STORED_SELECT = `SELECT id::text AS id, payer, nonce, state, route, network, x402_version,
       call_hash, payload_hash, transaction, result,
       extract(epoch FROM valid_before)::bigint::text AS valid_before,
       (state = 'settling' AND settling_at < now() - make_interval(secs => $STALE)) AS stale
  FROM x402_payments`;

function stored(row: StoredRow): StoredPayment {
  return {
    id: row.id,
    payer: row.payer,
    nonce: row.nonce,
    state: row.state,
    route: row.route,
    network: row.network,
    x402Version: row.x402_version === 1 ? 1 : 2,
    callHash: row.call_hash,
    payloadHash: row.payload_hash,
    transaction: row.transaction,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    validBefore: Number(row.valid_before),
    stale: row.stale === true,
  };
}

/**
 * Claim `claim`'s `(payer, nonce)`, both lower-cased: a new row, or a row released
 * before any settlement was attempted (it is taken over, `attempts` + 1). Each is one
 * statement, so a concurrent claim of the same pair waits for this one and then takes
 * nothing. A refused claim comes with the row that holds the pair.
 */
export async function claimPayment(db: Queryable, claim: PaymentClaim): Promise<ClaimResult> {
  const values = [
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
    claim.paymentId,
    claim.callHash,
    claim.payloadHash,
  ];
  const retaken = await db.query<{ id: string }>(
    `UPDATE x402_payments
        SET route = $3, amount = $4::bigint, network = $5, asset = $6, pay_to = $7,
            x402_version = $8, valid_before = to_timestamp($9::bigint), request_id = $10,
            payment_id = $11, call_hash = $12, payload_hash = $13, state = 'claimed',
            error = NULL, finished_at = NULL, attempts = attempts + 1
      WHERE payer = lower($1) AND nonce = lower($2) AND state = 'released'
      RETURNING id::text AS id`,
    values,
    'x402_reclaim',
  );
  if (retaken.rows[0] !== undefined) return { ok: true, id: retaken.rows[0].id };
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO x402_payments
       (payer, nonce, route, amount, network, asset, pay_to, x402_version, valid_before,
        request_id, payment_id, call_hash, payload_hash)
     VALUES (lower($1), lower($2), $3, $4::bigint, $5, $6, $7, $8, to_timestamp($9::bigint),
             $10, $11, $12, $13)
     ON CONFLICT (payer, nonce) DO NOTHING
     RETURNING id::text AS id`,
    values,
    'x402_claim',
  );
  const row = rows[0];
  if (row !== undefined) return { ok: true, id: row.id };
  const existing = await db.query<StoredRow>(
    `${STORED_SELECT.replace('$STALE', '$3')} WHERE payer = lower($1) AND nonce = lower($2)`,
    [claim.payer, claim.nonce, SETTLING_STALE_SECONDS],
  );
  const found = existing.rows[0];
  return { ok: false, reason: 'replayed', existing: found === undefined ? null : stored(found) };
}

/**
 * The newest other payment of `payer` named `paymentId` that still counts: in flight,
 * of unknown outcome, or paid with its result kept (a released or failed one never
 * paid, and a delivered one keeps no result); null when there is none.
 */
export async function paymentById(
  db: Queryable,
  payer: string,
  paymentId: string,
  exceptId: string,
): Promise<StoredPayment | null> {
  const { rows } = await db.query<StoredRow>(
    `${STORED_SELECT.replace('$STALE', '$4')}
      WHERE payer = lower($1) AND payment_id = $2 AND id <> $3::bigint
        AND (state IN ('claimed', 'verified', 'settling', 'unknown')
             OR (state = 'settled' AND result IS NOT NULL))
      ORDER BY id DESC LIMIT 1`,
    [payer, paymentId, exceptId, SETTLING_STALE_SECONDS],
  );
  const row = rows[0];
  return row === undefined ? null : stored(row);
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

/**
 * Before asking the facilitator to settle verified payment `id`: `settling`, with the
 * signed `result` the call is about to deliver, so that a payment whose settlement
 * answer is lost still has its result. False unless it was `verified`.
 */
export async function markSettling(db: Queryable, id: string, result: unknown): Promise<boolean> {
  // The result's receipt enters the transparency log with it (docs/decisions.md, "A
  // transparency log of every receipt").
  const entry = logEntryOf(result);
  const { rows } = await db.query(
    `WITH settling AS (
       UPDATE x402_payments SET state = 'settling', settling_at = now(), result = $2
        WHERE id = $1::bigint AND state = 'verified'
        RETURNING id
     ), logged AS (
       INSERT INTO tlog_pending (entry) SELECT $3::text FROM settling WHERE $3::text IS NOT NULL
     )
     SELECT id FROM settling`,
    [id, JSON.stringify(result ?? null), entry],
    'x402_settling',
  );
  return rows.length > 0;
}

/**
 * Take payment `id` to settle or reconcile it: from `unknown`, or from a `settling`
 * row left longer than `staleSeconds` (its instance is gone). One statement, so one
 * taker wins. Returns whether this caller took it.
 */
export async function takeUnsettled(
  db: Queryable,
  id: string,
  staleSeconds = SETTLING_STALE_SECONDS,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE x402_payments SET state = 'settling', settling_at = now()
      WHERE id = $1::bigint
        AND (state = 'unknown'
             OR (state = 'settling' AND settling_at < now() - make_interval(secs => $2)))
      RETURNING id`,
    [id, staleSeconds],
    'x402_take',
  );
  return rows.length > 0;
}

/** How a payment ended, or that its settlement's outcome is not known. */
export type PaymentEnd =
  /** Paid; `keepResult` keeps the stored result for a retry that has not had it. */
  | { readonly state: 'settled'; readonly transaction: string; readonly keepResult?: boolean }
  /** Never settled (nothing was attempted on chain, or it expired unused): claimable again. */
  | { readonly state: 'released'; readonly error?: string | null }
  /** Settlement was attempted and refused; nothing moved. */
  | { readonly state: 'failed'; readonly error: string }
  /** The settlement's outcome is not known yet. */
  | { readonly state: 'unknown'; readonly error: string };

/** The states each end is reached from. */
const FROM: Record<PaymentEnd['state'], readonly string[]> = {
  settled: ['settling'],
  failed: ['settling'],
  unknown: ['settling'],
  released: ['claimed', 'verified', 'settling'],
};

/**
 * Finish payment `id` with `end` (sets `charged` for `settled`, and `finished_at` for a
 * final state), only from the states that lead there (`settled` only from `settling`);
 * returns whether the row changed.
 */
export async function finishPayment(db: Queryable, id: string, end: PaymentEnd): Promise<boolean> {
  const transaction = end.state === 'settled' ? end.transaction : null;
  const error = end.state === 'settled' ? null : (end.error ?? null);
  const keep = end.state === 'unknown' || (end.state === 'settled' && end.keepResult === true);
  const { rows } = await db.query(
    `UPDATE x402_payments
        SET state = $2::text, charged = ($2::text = 'settled'), transaction = $3, error = $4,
            finished_at = CASE WHEN $2::text = 'unknown' THEN NULL ELSE now() END,
            result = CASE WHEN $5::boolean THEN result ELSE NULL END
      WHERE id = $1::bigint AND state = ANY(string_to_array($6::text, ','))
      RETURNING id`,
    [id, end.state, transaction, error, keep, FROM[end.state].join(',')],
    'x402_finish',
  );
  return rows.length > 0;
}

/**
 * Release every payment that never reached settlement and whose authorization has
 * expired (a crash between claim and settle): past `validBefore` it can no longer be
 * settled by anyone, so `released` (not charged) is certain. A payment whose
 * settlement was attempted is left to {@link unsettledPayments}: it may have paid.
 * Also drops the results kept for retries once a day has passed. Returns how many
 * payments were released.
 */
export async function releaseExpiredPayments(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `UPDATE x402_payments
        SET state = 'released', error = 'abandoned', finished_at = now()
      WHERE finished_at IS NULL AND state IN ('claimed', 'verified') AND valid_before < now()
      RETURNING id`,
  );
  await db.query(
    `UPDATE x402_payments SET result = NULL
      WHERE state = 'settled' AND result IS NOT NULL AND finished_at < now() - interval '1 day'`,
  );
  return rows.length;
}

/**
 * The payments whose settlement outcome is not known: `unknown`, or `settling` for
 * longer than `staleSeconds`; oldest first, at most `limit`.
 */
export async function unsettledPayments(
  db: Queryable,
  staleSeconds = SETTLING_STALE_SECONDS,
  limit = 100,
): Promise<StoredPayment[]> {
  const { rows } = await db.query<StoredRow>(
    `${STORED_SELECT.replace('$STALE', '$1')}
      WHERE state = 'unknown'
         OR (state = 'settling' AND settling_at < now() - make_interval(secs => $1))
      ORDER BY settling_at LIMIT $2`,
    [staleSeconds, limit],
  );
  return rows.map(stored);
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
  readonly state:
    | 'claimed'
    | 'verified'
    | 'settling'
    | 'unknown'
    | 'settled'
    | 'released'
    | 'failed';
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
