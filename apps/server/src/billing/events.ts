import type { Database, Queryable } from '../db/database.js';
import {
  isPaidTier,
  PAID_TIERS,
  type PaidTier,
  PLANLESS_TIER,
  type TierPlan,
  type TierPlans,
} from '../metering/tiers.js';
import {
  findCheckout,
  findSubscription,
  lapseEndedPlans,
  type SubscriptionRecord,
} from './store.js';

/**
 * A processor event after its signature was verified: Stripe's event object (`id`,
 * `type`, `created` in Unix seconds, `data.object`). Only the fields read below are
 * relied on, and each is read where both older and newer Stripe API versions put it.
 */
export interface ProcessorEvent {
  readonly id: string;
  readonly type: string;
  readonly created: number;
  readonly data: { readonly object: Record<string, unknown> };
}

/** What applying an event did. */
export interface EventOutcome {
  /** True when the event id had been processed before: nothing was done again. */
  readonly duplicate: boolean;
  /** `applied: …` or `ignored: …`, as recorded in `webhook_events`. */
  readonly outcome: string;
}

/**
 * Apply one verified event exactly once: its id is claimed in `webhook_events` and
 * whatever it grants is written in the same transaction, so a second delivery (however
 * concurrent: it waits on the first one's claim) finds the claim and changes nothing,
 * and a failure leaves no claim, so the processor's retry applies it.
 */
export async function applyEvent(
  db: Database,
  event: ProcessorEvent,
  processor: 'stripe' | 'development',
  plans: TierPlans,
): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO webhook_events (id, type, processor, created, outcome)
       VALUES ($1, $2, $3, to_timestamp($4), 'processing')
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [event.id, event.type, processor, event.created],
    );
    if (claimed.rows.length === 0) {
      const { rows } = await tx.query<{ outcome: string }>(
        'SELECT outcome FROM webhook_events WHERE id = $1',
        [event.id],
      );
      return { duplicate: true, outcome: rows[0]?.outcome ?? 'unknown' };
    }
    const outcome = await dispatch(tx, event, plans);
    await tx.query('UPDATE webhook_events SET outcome = $2 WHERE id = $1', [event.id, outcome]);
    return { duplicate: false, outcome };
  });
}

async function dispatch(tx: Queryable, event: ProcessorEvent, plans: TierPlans): Promise<string> {
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutCompleted(tx, event, object, plans);
    case 'invoice.paid':
      return invoicePaid(tx, event, object, plans);
    case 'invoice.payment_failed':
      return invoiceFailed(tx, event, object);
    case 'customer.subscription.updated':
      return subscriptionUpdated(tx, event, object);
    case 'customer.subscription.deleted':
      return subscriptionDeleted(tx, event, object);
    default:
      return `ignored: ${event.type} is not handled`;
  }
}

// ---- checkout ----------------------------------------------------------------------

async function checkoutCompleted(
  tx: Queryable,
  event: ProcessorEvent,
  session: Record<string, unknown>,
  plans: TierPlans,
): Promise<string> {
  const sessionId = text(session.id);
  const paid = text(session.payment_status);
  if (paid !== 'paid' && paid !== 'no_payment_required') {
    return `ignored: checkout ${sessionId} is not paid yet (${paid ?? 'no payment_status'})`;
  }
  const meta = record(session.metadata);
  const stored = sessionId === null ? null : await findCheckout(tx, sessionId, { lock: true });
  if (stored?.state === 'completed') return `ignored: checkout ${sessionId} was already completed`;
  const keyId = stored?.keyId ?? text(meta.keyId);
  if (keyId === null || !(await keyExists(tx, keyId))) {
    return `ignored: checkout ${sessionId} names no known key`;
  }
  const mode = text(session.mode);
  let outcome: string;
  if (mode === 'payment') {
    const credits =
      stored?.purchase.kind === 'credits' ? stored.purchase.credits : wholeNumber(meta.credits);
    if (credits === null || credits <= 0) return `ignored: checkout ${sessionId} names no credits`;
    await tx.query('UPDATE api_keys SET credits = credits + $2 WHERE key_id = $1', [
      keyId,
      credits,
    ]);
    await ledgerGrant(tx, keyId, 'billing/topup', credits, 'credits', event.id);
    outcome = `applied: ${credits} credits to ${keyId}`;
  } else if (mode === 'subscription') {
    const tier = stored?.purchase.kind === 'subscription' ? stored.purchase.tier : meta.tier;
    const subscriptionId = idOf(session.subscription);
    if (!isPaidTier(tier) || subscriptionId === null) {
      return `ignored: checkout ${sessionId} names no tier or subscription`;
    }
    let sub = await findSubscription(tx, subscriptionId, { lock: true });
    if (sub?.status === 'ended') {
      outcome = `ignored: subscription ${subscriptionId} had already ended; nothing granted`;
    } else {
      sub ??= await insertSubscription(tx, subscriptionId, keyId, tier, text(session.customer));
      if (sub.grants > 0) {
        // A renewal of this subscription arrived first and granted a later period.
        outcome = `applied: subscription ${subscriptionId} recorded; its allowance was already granted`;
      } else {
        // A cancellation that arrived before its checkout still holds.
        const endsAt = sub.status === 'canceling' ? sub.endsAt : null;
        await grantPlan(
          tx,
          sub,
          keyId,
          tier,
          plans[tier],
          'billing/subscribe',
          event.id,
          null,
          endsAt,
        );
        outcome = `applied: ${keyId} on ${tier}`;
      }
    }
  } else {
    return `ignored: checkout ${sessionId} has mode ${mode ?? 'none'}`;
  }
  if (stored !== null) {
    await tx.query("UPDATE checkouts SET state = 'completed', completed_at = now() WHERE id = $1", [
      stored.id,
    ]);
  }
  return outcome;
}

// ---- invoices ----------------------------------------------------------------------

async function invoicePaid(
  tx: Queryable,
  event: ProcessorEvent,
  invoice: Record<string, unknown>,
  plans: TierPlans,
): Promise<string> {
  const found = await invoiceSubscription(tx, invoice);
  if (typeof found === 'string') return found;
  const sub = found;
  if (sub.status === 'ended' || sub.keyId === null) {
    return `ignored: subscription ${sub.id} has ended`;
  }
  const period = invoicePeriod(invoice);
  const reason = text(invoice.billing_reason);
  if (period !== null) {
    await tx.query(
      `UPDATE subscriptions SET
         paid_through = greatest(paid_through, $2),
         current_period_end = greatest(current_period_end, $2),
         updated_at = now()
       WHERE id = $1`,
      [sub.id, period.end],
    );
  }
  if (reason === 'subscription_create') {
    // The checkout grants the first period; its invoice only says when it ends.
    if (period !== null) {
      await tx.query(
        'UPDATE subscriptions SET granted_through = greatest(granted_through, $2) WHERE id = $1',
        [sub.id, period.end],
      );
    }
    return `applied: first invoice of ${sub.id} recorded (the checkout grants its allowance)`;
  }
  if (reason !== 'subscription_cycle') {
    return `applied: invoice of ${sub.id} (${reason ?? 'no billing_reason'}) recorded; nothing granted`;
  }
  if (period === null) return `ignored: renewal of ${sub.id} names no period`;
  if (sub.grantedThrough !== null && period.end <= new Date(sub.grantedThrough)) {
    return `ignored: the period of this renewal of ${sub.id} was already granted`;
  }
  // A key holds one plan: a renewal of a subscription the key has since left (it
  // subscribed again after this one's plan ended) is recorded but changes nothing.
  const holder = await tx.query<{ subscription_id: string | null }>(
    'SELECT subscription_id FROM api_keys WHERE key_id = $1 FOR UPDATE',
    [sub.keyId],
  );
  const current = holder.rows[0]?.subscription_id ?? null;
  if (current !== null && current !== sub.id) {
    const other = await findSubscription(tx, current);
    if (other !== null && other.status !== 'ended') {
      return `ignored: ${sub.keyId} is now on subscription ${current}; this renewal of ${sub.id} grants nothing`;
    }
  }
  // A renewal paid after a failed payment resumes the plan; a cancellation stays.
  const endsAt = sub.status === 'canceling' ? sub.endsAt : null;
  await grantPlan(
    tx,
    sub,
    sub.keyId,
    sub.tier,
    plans[sub.tier],
    'billing/renew',
    event.id,
    period.end,
    endsAt,
  );
  return `applied: allowance of ${sub.keyId} refreshed (${sub.tier}, through ${period.end.toISOString()})`;
}

async function invoiceFailed(
  tx: Queryable,
  _event: ProcessorEvent,
  invoice: Record<string, unknown>,
): Promise<string> {
  const found = await invoiceSubscription(tx, invoice);
  if (typeof found === 'string') return found;
  const sub = found;
  if (sub.status === 'ended' || sub.keyId === null) {
    return `ignored: subscription ${sub.id} has ended`;
  }
  if (text(invoice.billing_reason) === 'subscription_create') {
    return `ignored: the first payment of ${sub.id} failed; nothing was granted`;
  }
  // The plan runs to the end of what was paid: the renewal's period starts where the
  // paid one ended. Nothing granted is taken back; the allowance lapses then.
  const period = invoicePeriod(invoice);
  const candidates = [sub.paidThrough ? new Date(sub.paidThrough) : null, period?.start ?? null];
  const paidThrough = candidates.reduce<Date | null>(
    (a, b) => (a === null ? b : b === null ? a : a > b ? a : b),
    null,
  );
  const endsAt = minDate(sub.endsAt ? new Date(sub.endsAt) : null, paidThrough ?? new Date());
  await tx.query(
    `UPDATE subscriptions SET status = 'past_due', ends_at = $2, updated_at = now() WHERE id = $1`,
    [sub.id, endsAt],
  );
  await endKeyPlan(tx, sub, endsAt);
  return `applied: payment for ${sub.id} failed; the ${sub.tier} plan ends ${endsAt.toISOString()}`;
}

// ---- subscriptions -----------------------------------------------------------------

async function subscriptionUpdated(
  tx: Queryable,
  event: ProcessorEvent,
  object: Record<string, unknown>,
): Promise<string> {
  const status = text(object.status);
  if (status === 'canceled' || status === 'incomplete_expired') {
    return subscriptionDeleted(tx, event, object);
  }
  const found = await eventSubscription(tx, object);
  if (typeof found === 'string') return found;
  const sub = found;
  if (sub.status === 'ended' || sub.keyId === null) {
    return `ignored: subscription ${sub.id} has ended`;
  }
  const at = new Date(event.created * 1000);
  if (sub.lastEventAt !== null && at < new Date(sub.lastEventAt)) {
    return `ignored: a newer update of ${sub.id} was already applied`;
  }
  const periodEnd = subscriptionPeriodEnd(object);
  const cancelAt = seconds(object.cancel_at);
  const canceling = object.cancel_at_period_end === true || cancelAt !== null;
  let next: { status: SubscriptionRecord['status']; endsAt: Date | null };
  if (canceling) {
    const endsAt =
      cancelAt ?? periodEnd ?? (sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd) : null);
    if (endsAt === null) return `ignored: cancellation of ${sub.id} names no period end`;
    next = { status: 'canceling', endsAt };
  } else if (status === 'active' || status === 'trialing') {
    // Resumed (or never cancelled): no end, unless a failed payment set one.
    next =
      sub.status === 'past_due'
        ? { status: 'past_due', endsAt: sub.endsAt ? new Date(sub.endsAt) : null }
        : { status: 'active', endsAt: null };
  } else {
    // past_due, unpaid, paused, incomplete: the plan runs to the end of what was paid.
    const paid = sub.paidThrough ? new Date(sub.paidThrough) : null;
    next = {
      status: 'past_due',
      endsAt: minDate(sub.endsAt ? new Date(sub.endsAt) : null, paid ?? at),
    };
  }
  await tx.query(
    `UPDATE subscriptions SET status = $2, ends_at = $3,
       current_period_end = coalesce($4, current_period_end), last_event_at = $5, updated_at = now()
     WHERE id = $1`,
    [sub.id, next.status, next.endsAt, periodEnd, at],
  );
  await endKeyPlan(tx, sub, next.endsAt);
  return next.status === 'canceling'
    ? `applied: ${sub.id} cancels at ${next.endsAt?.toISOString()}`
    : `applied: ${sub.id} is ${next.status}`;
}

async function subscriptionDeleted(
  tx: Queryable,
  event: ProcessorEvent,
  object: Record<string, unknown>,
): Promise<string> {
  const id = text(object.id);
  if (id === null) return 'ignored: the subscription has no id';
  const endedAt = seconds(object.ended_at) ?? new Date(event.created * 1000);
  let sub = await findSubscription(tx, id, { lock: true });
  if (sub === null) {
    // Deleted before its checkout arrived: keep a tombstone, so the checkout grants nothing.
    const meta = record(object.metadata);
    const keyId = text(meta.keyId);
    // The tier is only a record here (nothing is granted): the cheapest when none is named.
    const tier = isPaidTier(meta.tier) ? meta.tier : PAID_TIERS[0];
    const known = keyId !== null && (await keyExists(tx, keyId));
    const { rows } = await tx.query(
      `INSERT INTO subscriptions (id, key_id, tier, customer, status, ends_at, last_event_at)
       VALUES ($1, $2, $3, $4, 'ended', $5, $6)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        id,
        known ? keyId : null,
        tier,
        idOf(object.customer),
        endedAt,
        new Date(event.created * 1000),
      ],
    );
    if (rows.length > 0) return `applied: ${id} ended before its checkout arrived`;
    // Its first event was being applied at the same time: end it as usual.
    sub = await findSubscription(tx, id, { lock: true });
    if (sub === null) throw new Error(`subscription ${id} vanished`);
  }
  if (sub.status === 'ended') return `ignored: ${id} had already ended`;
  await tx.query(
    `UPDATE subscriptions SET status = 'ended', ends_at = $2, last_event_at = $3, updated_at = now()
      WHERE id = $1`,
    [id, endedAt, new Date(event.created * 1000)],
  );
  sub = { ...sub, status: 'ended' };
  await endKeyPlan(tx, sub, endedAt);
  return `applied: ${id} ended ${endedAt.toISOString()}`;
}

// ---- shared ------------------------------------------------------------------------

async function keyExists(tx: Queryable, keyId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM api_keys WHERE key_id = $1', [keyId]);
  return rows.length > 0;
}

async function insertSubscription(
  tx: Queryable,
  id: string,
  keyId: string,
  tier: PaidTier,
  customer: string | null,
): Promise<SubscriptionRecord> {
  await tx.query(
    // Two first events of one subscription may race: the second waits, then finds it.
    `INSERT INTO subscriptions (id, key_id, tier, customer, status) VALUES ($1, $2, $3, $4, 'active')
     ON CONFLICT (id) DO NOTHING`,
    [id, keyId, tier, customer],
  );
  const sub = await findSubscription(tx, id, { lock: true });
  if (sub === null) throw new Error(`subscription ${id} vanished`);
  return sub;
}

/**
 * Put the key on the subscription's tier with a fresh allowance (a test key becomes
 * live: docs/decisions.md, "Billing: a test key that subscribes"), and write the grant.
 */
async function grantPlan(
  tx: Queryable,
  sub: SubscriptionRecord,
  keyId: string,
  tier: PaidTier,
  plan: TierPlan,
  route: 'billing/subscribe' | 'billing/renew',
  eventId: string,
  through: Date | null,
  endsAt: string | null = null,
): Promise<void> {
  const included = plan.included ?? 0;
  await tx.query(
    `UPDATE api_keys SET env = 'live', tier = $2, included_remaining = $3,
       subscription_id = $4, plan_ends_at = $5
     WHERE key_id = $1`,
    [keyId, tier, included, sub.id, endsAt],
  );
  await tx.query(
    `UPDATE subscriptions SET grants = grants + 1,
       granted_through = CASE WHEN $2::timestamptz IS NULL THEN granted_through
                              ELSE greatest(granted_through, $2::timestamptz) END,
       status = CASE WHEN status = 'past_due' THEN 'active' ELSE status END,
       ends_at = CASE WHEN status = 'past_due' THEN NULL ELSE ends_at END,
       updated_at = now()
     WHERE id = $1`,
    [sub.id, through],
  );
  await ledgerGrant(
    tx,
    keyId,
    route,
    included,
    plan.pays.includes('unmetered') ? 'unmetered' : 'included',
    eventId,
  );
}

async function ledgerGrant(
  tx: Queryable,
  keyId: string,
  route: string,
  units: number,
  source: 'included' | 'credits' | 'unmetered',
  eventId: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO ledger (key_id, route, price, units, source, outcome, finished_at, event_id)
     VALUES ($1, $2, 0, $3, $4, 'granted', now(), $5)`,
    [keyId, route, units, source, eventId],
  );
}

/**
 * Carry the subscription's end onto its key (when the key's plan is this
 * subscription's), and write the lapse down at once when that end has passed.
 */
async function endKeyPlan(
  tx: Queryable,
  sub: SubscriptionRecord,
  endsAt: Date | null,
): Promise<void> {
  if (sub.keyId === null) return;
  const { rows } = await tx.query(
    `UPDATE api_keys SET plan_ends_at = $3
      WHERE key_id = $1 AND subscription_id = $2 AND tier <> $4
     RETURNING key_id`,
    [sub.keyId, sub.id, endsAt, PLANLESS_TIER],
  );
  if (rows.length > 0 && endsAt !== null && endsAt.getTime() <= Date.now()) {
    await lapseEndedPlans(tx, sub.keyId);
  }
}

/**
 * The subscription an invoice belongs to, created from the invoice's subscription
 * metadata when its checkout has not arrived yet; a string says why there is none.
 */
async function invoiceSubscription(
  tx: Queryable,
  invoice: Record<string, unknown>,
): Promise<SubscriptionRecord | string> {
  const parent = record(record(invoice.parent).subscription_details);
  const line = firstLine(invoice);
  const id =
    idOf(invoice.subscription) ??
    idOf(parent.subscription) ??
    idOf(line.subscription) ??
    idOf(record(record(line.parent).subscription_item_details).subscription);
  if (id === null) return `ignored: invoice ${text(invoice.id)} is not a subscription's`;
  const meta = {
    ...record(line.metadata),
    ...record(record(invoice.subscription_details).metadata),
    ...record(parent.metadata),
  };
  return subscriptionFrom(tx, id, meta, idOf(invoice.customer));
}

/** The subscription a subscription event is about (see {@link invoiceSubscription}). */
async function eventSubscription(
  tx: Queryable,
  object: Record<string, unknown>,
): Promise<SubscriptionRecord | string> {
  const id = text(object.id);
  if (id === null) return 'ignored: the subscription has no id';
  return subscriptionFrom(tx, id, record(object.metadata), idOf(object.customer));
}

async function subscriptionFrom(
  tx: Queryable,
  id: string,
  meta: Record<string, unknown>,
  customer: string | null,
): Promise<SubscriptionRecord | string> {
  const sub = await findSubscription(tx, id, { lock: true });
  if (sub !== null) return sub;
  const keyId = text(meta.keyId);
  if (keyId === null || !isPaidTier(meta.tier) || !(await keyExists(tx, keyId))) {
    return `ignored: subscription ${id} is unknown and its metadata names no known key and tier`;
  }
  return insertSubscription(tx, id, keyId, meta.tier, customer);
}

function firstLine(invoice: Record<string, unknown>): Record<string, unknown> {
  const data = record(invoice.lines).data;
  return Array.isArray(data) ? record(data[0]) : {};
}

/** The billed period of an invoice: its first line's (the invoice's own is the previous one). */
function invoicePeriod(invoice: Record<string, unknown>): { start: Date; end: Date } | null {
  const period = record(firstLine(invoice).period);
  const start = seconds(period.start);
  const end = seconds(period.end);
  return start !== null && end !== null ? { start, end } : null;
}

/** A subscription's current period end: on the object (older APIs) or its items (newer). */
function subscriptionPeriodEnd(object: Record<string, unknown>): Date | null {
  const own = seconds(object.current_period_end);
  if (own !== null) return own;
  const items = record(object.items).data;
  if (!Array.isArray(items)) return null;
  const ends = items
    .map((item) => seconds(record(item).current_period_end))
    .filter((d) => d !== null);
  return ends.length === 0 ? null : new Date(Math.max(...ends.map((d) => d.getTime())));
}

function minDate(a: Date | null, b: Date): Date {
  return a !== null && a < b ? a : b;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** An id given as a string or as an expanded object with `id`. */
function idOf(value: unknown): string | null {
  return text(value) ?? text(record(value).id);
}

function seconds(value: unknown): Date | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? new Date(value * 1000)
    : null;
}

function wholeNumber(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
