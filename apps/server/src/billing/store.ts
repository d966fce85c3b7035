import type { Queryable } from '../db/database.js';
import { PAID_TIERS, type PaidTier, PLANLESS_TIER, UNMETERED_TIERS } from '../metering/tiers.js';
import type { Purchase } from './processor.js';

/** A checkout as stored when it was opened. */
export interface CheckoutRecord {
  readonly id: string;
  readonly processor: 'stripe' | 'development';
  readonly keyId: string;
  readonly purchase: Purchase;
  readonly url: string;
  readonly state: 'open' | 'completed';
}

interface CheckoutRow {
  id: string;
  processor: 'stripe' | 'development';
  key_id: string;
  kind: 'subscription' | 'credits';
  tier: PaidTier | null;
  credits: string | number | null;
  amount_cents: string | number;
  url: string;
  state: 'open' | 'completed';
}

function checkoutOf(row: CheckoutRow): CheckoutRecord {
  const amountCents = Number(row.amount_cents);
  return {
    id: row.id,
    processor: row.processor,
    keyId: row.key_id,
    purchase:
      row.kind === 'subscription'
        ? { kind: 'subscription', tier: row.tier ?? PAID_TIERS[0], amountCents }
        : { kind: 'credits', credits: Number(row.credits), amountCents },
    url: row.url,
    state: row.state,
  };
}

/** Record a checkout the processor opened. */
export async function saveCheckout(
  db: Queryable,
  checkout: Omit<CheckoutRecord, 'state'>,
): Promise<void> {
  const { purchase } = checkout;
  await db.query(
    `INSERT INTO checkouts (id, processor, key_id, kind, tier, credits, amount_cents, url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      checkout.id,
      checkout.processor,
      checkout.keyId,
      purchase.kind,
      purchase.kind === 'subscription' ? purchase.tier : null,
      purchase.kind === 'credits' ? purchase.credits : null,
      purchase.amountCents,
      checkout.url,
    ],
  );
}

/** The checkout `id`; null when this service never opened it. */
export async function findCheckout(
  db: Queryable,
  id: string,
  options: { lock?: boolean } = {},
): Promise<CheckoutRecord | null> {
  const { rows } = await db.query<CheckoutRow>(
    `SELECT id, processor, key_id, kind, tier, credits, amount_cents, url, state
       FROM checkouts WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? checkoutOf(rows[0]) : null;
}

/** A subscription as the processor's events described it. */
export interface SubscriptionRecord {
  readonly id: string;
  readonly keyId: string | null;
  readonly tier: PaidTier;
  readonly status: 'active' | 'canceling' | 'past_due' | 'ended';
  readonly currentPeriodEnd: string | null;
  readonly paidThrough: string | null;
  readonly grantedThrough: string | null;
  readonly grants: number;
  readonly endsAt: string | null;
  readonly lastEventAt: string | null;
}

interface SubscriptionRow {
  id: string;
  key_id: string | null;
  tier: PaidTier;
  status: 'active' | 'canceling' | 'past_due' | 'ended';
  current_period_end: Date | string | null;
  paid_through: Date | string | null;
  granted_through: Date | string | null;
  grants: number;
  ends_at: Date | string | null;
  last_event_at: Date | string | null;
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function subscriptionOf(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    tier: row.tier,
    status: row.status,
    currentPeriodEnd: iso(row.current_period_end),
    paidThrough: iso(row.paid_through),
    grantedThrough: iso(row.granted_through),
    grants: row.grants,
    endsAt: iso(row.ends_at),
    lastEventAt: iso(row.last_event_at),
  };
}

const SUBSCRIPTION_COLUMNS =
  'id, key_id, tier, status, current_period_end, paid_through, granted_through, grants, ends_at, last_event_at';

/** The subscription `id`, locked for the transaction when `lock`; null when unknown. */
export async function findSubscription(
  db: Queryable,
  id: string,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRecord | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? subscriptionOf(rows[0]) : null;
}

/**
 * The key's subscription that still holds (or will hold) its plan: not ended, and its
 * end, if any, still ahead. Null when there is none.
 */
export async function liveSubscriptionOf(
  db: Queryable,
  keyId: string,
): Promise<SubscriptionRecord | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
      WHERE key_id = $1 AND status <> 'ended' AND (ends_at IS NULL OR ends_at > now())
      ORDER BY created_at DESC LIMIT 1`,
    [keyId],
  );
  return rows[0] ? subscriptionOf(rows[0]) : null;
}

/**
 * Write down every plan whose end has passed (or only `keyId`'s): the key goes to the
 * planless tier of the tier table (`prepaid`) with no allowance, a ledger row `lapsed`
 * records the allowance it had left, and a subscription that was cancelling has ended.
 * Purchased credits stay. Admission already treats such a key as planless from the
 * moment its plan ends; this makes it visible in the ledger. Returns the keys it changed.
 */
export async function lapseEndedPlans(
  db: Queryable,
  keyId: string | null = null,
): Promise<string[]> {
  const { rows } = await db.query<{ key_id: string }>(
    `WITH due AS (
       SELECT key_id, tier, included_remaining, subscription_id FROM api_keys
        WHERE plan_ends_at <= now() AND ($1::text IS NULL OR key_id = $1)
        FOR UPDATE
     ), keys AS (
       UPDATE api_keys a SET tier = $2, included_remaining = 0, plan_ends_at = NULL
         FROM due d WHERE a.key_id = d.key_id
       RETURNING a.key_id
     ), subs AS (
       UPDATE subscriptions s SET status = 'ended', updated_at = now()
         FROM due d WHERE s.id = d.subscription_id AND s.status = 'canceling'
       RETURNING s.id
     )
     INSERT INTO ledger (key_id, route, price, units, source, outcome, finished_at)
     SELECT key_id, 'billing/lapse', 0, included_remaining,
            CASE WHEN tier = ANY ($3::text[]) THEN 'unmetered' ELSE 'included' END, 'lapsed', now()
       FROM due
     RETURNING key_id`,
    [keyId, PLANLESS_TIER, UNMETERED_TIERS],
  );
  return rows.map((row) => row.key_id);
}

/** One day of a key's usage. */
export interface UsageDay {
  /** UTC day, `YYYY-MM-DD`. */
  readonly date: string;
  /** Charged calls. */
  readonly calls: number;
  /** Credits those calls spent (calls paid from an allowance or unmetered spend none). */
  readonly credits: number;
}

/** Days in the usage history. */
export const USAGE_DAYS = 30;

/** The key's charged calls and spent credits per UTC day, the last {@link USAGE_DAYS} days, oldest first. */
export async function usageByDay(db: Queryable, keyId: string, now: Date): Promise<UsageDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: USAGE_DAYS }, (_, i) =>
    new Date(today - (USAGE_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const { rows } = await db.query<{
    day: string;
    calls: string | number;
    credits: string | number;
  }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
            count(*) AS calls,
            coalesce(sum(units) FILTER (WHERE source = 'credits'), 0) AS credits
       FROM ledger
      WHERE key_id = $1 AND charged AND created_at >= $2
      GROUP BY 1`,
    [keyId, new Date(today - (USAGE_DAYS - 1) * 86_400_000).toISOString()],
  );
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((date) => {
    const row = byDay.get(date);
    return { date, calls: Number(row?.calls ?? 0), credits: Number(row?.credits ?? 0) };
  });
}
