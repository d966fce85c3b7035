import { randomBytes } from 'node:crypto';
import type { ProcessorEvent } from './events.js';
import { checkoutMetadata } from './processor.js';
import type { CheckoutRecord, SubscriptionRecord } from './store.js';
import { loadStripe } from './stripe-module.js';

/**
 * Events of the development processor, in Stripe's event format (the fields the
 * webhook reads, where the pinned Stripe API version puts them), so that the webhook
 * cannot tell them from Stripe's but by the secret that signs them.
 */

/** One month of the development processor: 30 days. */
export const DEV_PERIOD_SECONDS = 30 * 86_400;

function event(
  id: string,
  type: string,
  object: Record<string, unknown>,
  created: number,
): ProcessorEvent & Record<string, unknown> {
  return {
    id,
    object: 'event',
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

function unix(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function devId(prefix: string): string {
  return `${prefix}_dev_${randomBytes(12).toString('hex')}`;
}

/** The ids a paid development checkout gives its subscription and customer. */
export interface DevSubscriptionIds {
  readonly subscription: string;
  readonly customer: string;
}

/**
 * The events of paying `checkout` at `now`: `checkout.session.completed`, and for a
 * subscription its first `invoice.paid` (billing reason `subscription_create`). Event
 * ids are derived from the checkout, so paying twice sends the same events again.
 */
export function paidCheckoutEvents(
  checkout: CheckoutRecord,
  now: Date,
): { events: ProcessorEvent[]; ids: DevSubscriptionIds | null } {
  const created = unix(now);
  const suffix = checkout.id.replace(/^cs_dev_/, '');
  const metadata = checkoutMetadata(checkout.keyId, checkout.purchase);
  const ids =
    checkout.purchase.kind === 'subscription'
      ? { subscription: `sub_dev_${suffix}`, customer: `cus_dev_${suffix}` }
      : null;
  const session = {
    id: checkout.id,
    object: 'checkout.session',
    mode: ids === null ? 'payment' : 'subscription',
    status: 'complete',
    payment_status: 'paid',
    amount_total: checkout.purchase.amountCents,
    currency: 'usd',
    client_reference_id: checkout.keyId,
    customer: ids?.customer ?? null,
    subscription: ids?.subscription ?? null,
    metadata,
    created,
  };
  const events: ProcessorEvent[] = [
    event(`evt_dev_${suffix}_completed`, 'checkout.session.completed', session, created),
  ];
  if (ids !== null) {
    events.push(
      event(
        `evt_dev_${suffix}_invoice`,
        'invoice.paid',
        invoiceObject({
          id: `in_dev_${suffix}`,
          subscription: ids.subscription,
          customer: ids.customer,
          metadata,
          reason: 'subscription_create',
          start: created,
          amountCents: checkout.purchase.amountCents,
          status: 'paid',
        }),
        created,
      ),
    );
  }
  return { events, ids };
}

/** What the development processor can do to a subscription, as Stripe would report it. */
export const DEV_SUBSCRIPTION_ACTIONS = ['renew', 'fail', 'cancel', 'resume', 'end'] as const;
export type DevSubscriptionAction = (typeof DEV_SUBSCRIPTION_ACTIONS)[number];

/**
 * The event of `action` on `sub` at `now`: `renew` pays the next period
 * (`invoice.paid`, `subscription_cycle`, starting where the current one ends), `fail`
 * fails that payment (`invoice.payment_failed`), `cancel` and `resume` set and clear
 * `cancel_at_period_end` (`customer.subscription.updated`), `end` deletes it now
 * (`customer.subscription.deleted`).
 */
export function subscriptionEvent(
  sub: SubscriptionRecord,
  action: DevSubscriptionAction,
  amountCents: number,
  now: Date,
): ProcessorEvent {
  const created = unix(now);
  const metadata = { keyId: sub.keyId ?? '', kind: 'subscription', tier: sub.tier };
  const periodEnd = sub.currentPeriodEnd ? unix(new Date(sub.currentPeriodEnd)) : created;
  const customer = sub.id.replace(/^sub_/, 'cus_');
  if (action === 'renew' || action === 'fail') {
    return event(
      devId('evt'),
      action === 'renew' ? 'invoice.paid' : 'invoice.payment_failed',
      invoiceObject({
        id: devId('in'),
        subscription: sub.id,
        customer,
        metadata,
        reason: 'subscription_cycle',
        start: periodEnd,
        amountCents,
        status: action === 'renew' ? 'paid' : 'open',
      }),
      created,
    );
  }
  const object = {
    id: sub.id,
    object: 'subscription',
    customer,
    status: action === 'end' ? 'canceled' : 'active',
    cancel_at_period_end: action === 'cancel',
    cancel_at: action === 'cancel' ? periodEnd : null,
    canceled_at: action === 'resume' ? null : created,
    ended_at: action === 'end' ? created : null,
    metadata,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${sub.id.replace(/^sub_/, '')}`,
          object: 'subscription_item',
          current_period_start: periodEnd - DEV_PERIOD_SECONDS,
          current_period_end: periodEnd,
        },
      ],
    },
  };
  return event(
    devId('evt'),
    action === 'end' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
    object,
    created,
  );
}

function invoiceObject(input: {
  id: string;
  subscription: string;
  customer: string;
  metadata: Record<string, string>;
  reason: 'subscription_create' | 'subscription_cycle';
  start: number;
  amountCents: number;
  status: 'paid' | 'open';
}): Record<string, unknown> {
  const period = { start: input.start, end: input.start + DEV_PERIOD_SECONDS };
  return {
    id: input.id,
    object: 'invoice',
    billing_reason: input.reason,
    customer: input.customer,
    status: input.status,
    amount_due: input.amountCents,
    amount_paid: input.status === 'paid' ? input.amountCents : 0,
    currency: 'usd',
    // The invoice's own period is the one before the billed one (Stripe's convention).
    period_start: input.start,
    period_end: input.start,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: input.subscription, metadata: input.metadata },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${input.id.replace(/^in_/, '')}`,
          object: 'line_item',
          amount: input.amountCents,
          period,
          metadata: input.metadata,
        },
      ],
    },
  };
}

/**
 * Deliver `event` to the webhook at `url` as Stripe does: the JSON body, signed in
 * `Stripe-Signature` (`t=<unix>,v1=<HMAC-SHA256(secret, "<t>.<body>")>`) with `secret`.
 * Resolves to the webhook's status and body.
 */
export async function deliverEvent(
  url: string,
  secret: string,
  event: ProcessorEvent,
): Promise<{ status: number; body: string }> {
  const Stripe = await loadStripe();
  // Stripe's own events name the API version they were rendered with.
  const { id, object, ...rest } = event as ProcessorEvent & Record<string, unknown>;
  const payload = JSON.stringify({ id, object, api_version: Stripe.API_VERSION, ...rest }, null, 2);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': header,
      'user-agent': 'Storefront development processor',
    },
    body: payload,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.text() };
}
