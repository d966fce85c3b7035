import type { Queryable } from '../../db/database.js';
import type { AuthorizationLedger } from './chain.js';
import { finishPayment, type StoredPayment, takeUnsettled } from './claims.js';
import type { Facilitator } from './facilitator.js';
import type { Payment } from './payment.js';
import { reconcileTaken } from './reconcile.js';
import type { Requirements } from './requirements.js';

/** What settling a payment came to, recorded in its row. */
export type SettleEnd =
  | { readonly paid: true; readonly transaction: string; readonly network: string }
  | { readonly paid: false; readonly certain: boolean; readonly reason: string };

/** What settling a claimed payment needs. */
export interface SettleDeps {
  readonly db: Queryable;
  /** Null when none is configured: nothing can be settled. */
  readonly facilitator: Facilitator | null;
  /** The token's record of authorizations; null when no RPC URL is configured. */
  readonly ledger: AuthorizationLedger | null;
  readonly clock: () => Date;
}

/**
 * Settle claimed payment `claimId` (already `settling`) and record the outcome. When
 * the facilitator gives no usable answer, or refuses, the chain says whether the
 * transfer landed anyway (docs/decisions.md, "x402: a lost settlement answer"); only
 * what the chain cannot tell yet stays uncertain (`certain: false`, the row `unknown`).
 * `keepResult`: a paid row keeps the result stored with it, for a retry.
 */
export async function settleClaimed(
  deps: SettleDeps,
  claimId: string,
  payment: Payment,
  requirements: Requirements,
  keepResult: boolean,
): Promise<SettleEnd> {
  const { db, facilitator, ledger } = deps;
  const settled =
    facilitator === null
      ? ({ ok: false, kind: 'unavailable', reason: 'no facilitator' } as const)
      : await facilitator.settle(payment, requirements);
  if (settled.ok) {
    await finishPayment(db, claimId, {
      state: 'settled',
      transaction: settled.transaction,
      keepResult,
    });
    return { paid: true, transaction: settled.transaction, network: settled.network };
  }
  const reason = `settle ${settled.kind}: ${settled.reason}`;
  if (settled.kind === 'rejected' && ledger === null) {
    await finishPayment(db, claimId, { state: 'failed', error: reason });
    return { paid: false, certain: true, reason };
  }
  const found = await reconcileTaken(
    db,
    ledger,
    {
      id: claimId,
      payer: payment.payer,
      nonce: payment.nonce,
      validBefore: Number(payment.validBefore),
    },
    Math.floor(deps.clock().getTime() / 1000),
    keepResult,
  );
  if (found.kind === 'paid') {
    return { paid: true, transaction: found.transaction, network: requirements.network };
  }
  if (found.kind === 'expired') return { paid: false, certain: true, reason };
  if (settled.kind === 'rejected' && found.kind === 'open') {
    // The facilitator said no and nothing is on chain: refused, nothing moved.
    await takeUnsettled(db, claimId, 0);
    await finishPayment(db, claimId, { state: 'failed', error: reason });
    return { paid: false, certain: true, reason };
  }
  return { paid: false, certain: false, reason };
}

/** What became of a payment presented again whose settlement had no known outcome. */
export type EarlierEnd =
  /** Paid: read on chain, or settled now (`again`). */
  | {
      readonly kind: 'paid';
      readonly transaction: string;
      readonly network: string;
      readonly again: boolean;
    }
  /** Another request holds it (settling it now), or it is not waiting for an outcome. */
  | { readonly kind: 'busy' }
  /** Never paid and no longer payable: the row is `released`. */
  | { readonly kind: 'expired' }
  /** Still not known (the chain could not tell, or it is not the payer's own payment to settle again). */
  | { readonly kind: 'unknown'; readonly reason: string | null }
  /** Settled again and not paid: `end` says whether that is certain. */
  | { readonly kind: 'unpaid'; readonly end: SettleEnd & { readonly paid: false } };

/**
 * A claimed payment presented again while its row is `unknown` or a stale `settling`:
 * taken (one request gets it), read on chain, and, when `own` is the payer's own
 * payment still unpaid and payable, settled again (the chain takes an authorization
 * once, however many times it is submitted). Shared by the x402 door's retries and the
 * retries of x402 v1 jobs.
 */
export async function settleEarlier(
  deps: SettleDeps,
  row: Pick<
    StoredPayment,
    'id' | 'payer' | 'nonce' | 'validBefore' | 'state' | 'stale' | 'network'
  >,
  own: Payment | null,
  requirements: Requirements,
  keepResult: boolean,
): Promise<EarlierEnd> {
  const { db, ledger } = deps;
  if (!(row.state === 'unknown' || row.stale) || !(await takeUnsettled(db, row.id))) {
    return { kind: 'busy' };
  }
  const now = Math.floor(deps.clock().getTime() / 1000);
  const found = await reconcileTaken(db, ledger, row, now, keepResult);
  if (found.kind === 'paid') {
    return { kind: 'paid', transaction: found.transaction, network: row.network, again: false };
  }
  if (found.kind === 'expired') return { kind: 'expired' };
  if (own === null || found.kind === 'unknown') {
    return { kind: 'unknown', reason: found.kind === 'unknown' ? found.reason : null };
  }
  // Still unpaid and payable, and the payer asks again: settle it again.
  if (!(await takeUnsettled(db, row.id, 0))) return { kind: 'busy' };
  const end = await settleClaimed(deps, row.id, own, requirements, keepResult);
  return end.paid
    ? { kind: 'paid', transaction: end.transaction, network: end.network, again: true }
    : { kind: 'unpaid', end };
}
