import type { Queryable } from '../../db/database.js';
import type { AuthorizationLedger } from './chain.js';
import { finishPayment, type StoredPayment, takeUnsettled, unsettledPayments } from './claims.js';

/**
 * Finding out what became of a settlement whose answer was lost (docs/decisions.md,
 * "x402: a lost settlement answer"): the token's own record of the authorization is the
 * truth, and the row is made to say it.
 */

/**
 * Seconds past `validBefore` before an unused authorization counts as expired: a
 * transfer mined just before its `validBefore` may reach the node read a few blocks late.
 */
export const EXPIRY_MARGIN_SECONDS = 30;

/** What reconciling a payment found, and recorded. */
export type Reconciled =
  /** Paid on chain: the row is `settled` with its transaction. */
  | { readonly kind: 'paid'; readonly transaction: string }
  /** Never paid and no longer payable: the row is `released`. */
  | { readonly kind: 'expired' }
  /** Not paid yet, and still payable until `validBefore`: the row is `unknown`. */
  | { readonly kind: 'open' }
  /** The chain could not tell: the row is `unknown`. */
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * Read the chain for payment `row`, which the caller has taken (`settling`), and record
 * what it says. `keepResult`: a paid row keeps its stored result for a retry.
 */
export async function reconcileTaken(
  db: Queryable,
  ledger: AuthorizationLedger | null,
  row: Pick<StoredPayment, 'id' | 'payer' | 'nonce' | 'validBefore'>,
  nowSeconds: number,
  keepResult: boolean,
): Promise<Reconciled> {
  const unknown = async (reason: string): Promise<Reconciled> => {
    await finishPayment(db, row.id, { state: 'unknown', error: reason });
    return { kind: 'unknown', reason };
  };
  if (ledger === null) return unknown('settlement outcome unknown; no X402_RPC_URL to read it');
  let found: Awaited<ReturnType<AuthorizationLedger['authorization']>>;
  try {
    found = await ledger.authorization(row.payer, row.nonce);
  } catch (error) {
    return unknown(`settlement outcome unknown; the chain could not be read: ${message(error)}`);
  }
  if (found.state === 'used') {
    await finishPayment(db, row.id, {
      state: 'settled',
      transaction: found.transaction,
      keepResult,
    });
    return { kind: 'paid', transaction: found.transaction };
  }
  if (found.state === 'unclear') return unknown(found.reason);
  if (nowSeconds > row.validBefore + EXPIRY_MARGIN_SECONDS) {
    await finishPayment(db, row.id, { state: 'released', error: 'expired unsettled' });
    return { kind: 'expired' };
  }
  await finishPayment(db, row.id, { state: 'unknown', error: 'settlement not on chain yet' });
  return { kind: 'open' };
}

/** What one reconciliation sweep did. */
export interface SweepCounts {
  readonly paid: number;
  readonly expired: number;
  readonly open: number;
  readonly unknown: number;
}

/**
 * Settle the books of every payment whose settlement outcome is unknown, without
 * waiting for its payer to retry: each is taken (one instance gets it), read on chain
 * and recorded. A paid one keeps its result for the payer's retry.
 */
export async function reconcilePayments(
  db: Queryable,
  ledger: AuthorizationLedger | null,
  clock: () => Date = () => new Date(),
): Promise<SweepCounts> {
  const counts = { paid: 0, expired: 0, open: 0, unknown: 0 };
  if (ledger === null) return counts;
  for (const row of await unsettledPayments(db)) {
    if (!(await takeUnsettled(db, row.id))) continue;
    const now = Math.floor(clock().getTime() / 1000);
    const done = await reconcileTaken(db, ledger, row, now, true);
    counts[done.kind] += 1;
  }
  return counts;
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
