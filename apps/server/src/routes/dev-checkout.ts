import { createHash } from 'node:crypto';
import { type Response, Router } from 'express';
import {
  DEV_SUBSCRIPTION_ACTIONS,
  type DevSubscriptionAction,
  deliverEvent,
  paidCheckoutEvents,
  subscriptionEvent,
} from '../billing/dev-events.js';
import type { ProcessorEvent } from '../billing/events.js';
import { centsToUsd } from '../billing/plans.js';
import {
  type CheckoutRecord,
  findCheckout,
  findSubscription,
  type SubscriptionRecord,
} from '../billing/store.js';
import type { AppDeps } from '../deps.js';
import { escapeHtml } from '../pages/html.js';
import { WEBHOOK_PATH } from './billing.js';

const CSS = `
body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.6rem}.note{border-left:4px solid #d80;padding:.2rem .8rem;background:#fff8ee}
dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{font-weight:600}dd{margin:0}
form{margin:.8rem 0}form span{display:block;color:#555;font-size:.9rem}
button{font:inherit;padding:.5rem 1.4rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;

/** The pages' Content-Security-Policy: the one style element, forms posting back here only. */
export const DEV_CHECKOUT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CHECKOUT_ID = /^cs_dev_[0-9a-f]{24}$/;
const SUBSCRIPTION_ID = /^sub_dev_[0-9a-f]{24}$/;

/**
 * The development processor's pages (never mounted with Stripe configured, and
 * production refuses to start without Stripe): `GET /dev-checkout/<id>` shows what is
 * bought with a Pay button; `POST /dev-checkout/<id>/pay` sends the webhook Stripe
 * would send, signed, to this service's own webhook over HTTP, then sends the browser
 * to /developers. `GET /dev-checkout/subscriptions/<id>` shows a subscription with a
 * button per action; `POST /dev-checkout/subscriptions/<id>/<action>` sends a renewal
 * (`renew`), a failed renewal (`fail`), a cancellation at period end (`cancel`), its
 * undoing (`resume`) or the subscription's end (`end`).
 */
export function devCheckoutRoutes(deps: AppDeps): Router {
  const router = Router();
  const { processor } = deps;
  if (processor.kind !== 'development') return router;
  const { plans } = deps;
  const webhook = `${deps.selfUrl}${WEBHOOK_PATH}`;

  const deliver = async (events: readonly ProcessorEvent[]): Promise<string | null> => {
    for (const event of events) {
      try {
        const answer = await deliverEvent(webhook, processor.webhookSecret, event);
        if (answer.status !== 200) return `the webhook answered ${answer.status}: ${answer.body}`;
      } catch (error) {
        return `the webhook could not be reached at ${webhook}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return null;
  };

  router.get('/dev-checkout/:id', async (req, res) => {
    const checkout = CHECKOUT_ID.test(req.params.id)
      ? await findCheckout(deps.db, req.params.id)
      : null;
    if (checkout === null || checkout.processor !== 'development') {
      page(res, 404, 'Checkout not found', notFoundBody());
      return;
    }
    page(res, 200, 'Development checkout', checkoutBody(checkout));
  });

  router.post('/dev-checkout/:id/pay', async (req, res) => {
    const checkout = CHECKOUT_ID.test(req.params.id)
      ? await findCheckout(deps.db, req.params.id)
      : null;
    if (checkout === null || checkout.processor !== 'development') {
      page(res, 404, 'Checkout not found', notFoundBody());
      return;
    }
    // Paying again re-sends the same events (same ids): the webhook applies them once.
    const { events } = paidCheckoutEvents(checkout, deps.clock());
    const problem = await deliver(events);
    if (problem !== null) {
      page(res, 502, 'Payment not recorded', failedBody(problem));
      return;
    }
    const { purchase } = checkout;
    res.redirect(
      303,
      purchase.kind === 'subscription'
        ? `/developers?upgraded=${purchase.tier}`
        : `/developers?topup=${purchase.credits}`,
    );
  });

  router.get('/dev-checkout/subscriptions/:id', async (req, res) => {
    const sub = SUBSCRIPTION_ID.test(req.params.id)
      ? await findSubscription(deps.db, req.params.id)
      : null;
    if (sub === null) {
      page(res, 404, 'Subscription not found', notFoundBody());
      return;
    }
    page(res, 200, 'Development subscription', subscriptionBody(sub));
  });

  router.post('/dev-checkout/subscriptions/:id/:action', async (req, res) => {
    const action = req.params.action as DevSubscriptionAction;
    const sub =
      SUBSCRIPTION_ID.test(req.params.id) &&
      (DEV_SUBSCRIPTION_ACTIONS as readonly string[]).includes(action)
        ? await findSubscription(deps.db, req.params.id)
        : null;
    if (sub === null) {
      page(res, 404, 'Subscription not found', notFoundBody());
      return;
    }
    const event = subscriptionEvent(sub, action, plans[sub.tier].monthlyUsd * 100, deps.clock());
    const problem = await deliver([event]);
    if (problem !== null) {
      page(res, 502, 'Event not recorded', failedBody(problem));
      return;
    }
    res.redirect(303, `/developers?subscription=${action}`);
  });

  return router;
}

function page(res: Response, status: number, title: string, body: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', DEV_CHECKOUT_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Storefront</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`);
}

function checkoutBody(checkout: CheckoutRecord): string {
  const { purchase } = checkout;
  const what =
    purchase.kind === 'subscription'
      ? `The ${purchase.tier} plan, billed monthly`
      : `${purchase.credits.toLocaleString('en-US')} credits (1 credit = $0.001)`;
  const amount = `$${centsToUsd(purchase.amountCents)}${purchase.kind === 'subscription' ? ' per month' : ''}`;
  const paid = checkout.state === 'completed';
  return `<h1>Development checkout</h1>
<p class="note" role="note">This is the development payment processor: no money moves. With Stripe configured, checkout happens on Stripe's page instead.</p>
<dl>
<dt>Item</dt><dd>${escapeHtml(what)}</dd>
<dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
<dt>Key</dt><dd><code>${escapeHtml(checkout.keyId)}</code></dd>
<dt>Status</dt><dd>${paid ? 'Paid' : 'Open'}</dd>
</dl>
<form method="post" action="/dev-checkout/${escapeHtml(checkout.id)}/pay">
<button type="submit" aria-describedby="pay-help">${paid ? 'Pay again (applied once)' : `Pay ${escapeHtml(amount)}`}</button>
<p id="pay-help">Paying sends the signed payment webhook to this service and returns you to the developer portal.</p>
</form>
<p><a href="/developers?checkout=cancelled">Cancel and return to the developer portal</a></p>`;
}

/** What each development action sends, as its button says it. */
const ACTION_LABELS: Readonly<Record<DevSubscriptionAction, [string, string]>> = {
  renew: [
    'Renew: pay the next period',
    'invoice.paid (subscription_cycle): the allowance is refreshed',
  ],
  fail: [
    'Fail the next payment',
    'invoice.payment_failed: the plan ends when the paid period does',
  ],
  cancel: ['Cancel at period end', 'customer.subscription.updated with cancel_at_period_end'],
  resume: [
    'Resume (undo the cancellation)',
    'customer.subscription.updated without cancel_at_period_end',
  ],
  end: ['End now', 'customer.subscription.deleted: the plan ends at once'],
};

function subscriptionBody(sub: SubscriptionRecord): string {
  const rows: [string, string][] = [
    ['Subscription', sub.id],
    ['Plan', sub.tier],
    ['Key', sub.keyId ?? 'none'],
    ['Status', sub.status],
    ['Period ends', sub.currentPeriodEnd ?? 'not known yet'],
    ['Plan ends', sub.endsAt ?? 'not scheduled'],
  ];
  const forms = DEV_SUBSCRIPTION_ACTIONS.map((action, i) => {
    const [label, help] = ACTION_LABELS[action];
    return `<form method="post" action="/dev-checkout/subscriptions/${escapeHtml(sub.id)}/${action}">
<button type="submit" aria-describedby="help-${i}">${escapeHtml(label)}</button>
<span id="help-${i}">${escapeHtml(help)}</span>
</form>`;
  }).join('\n');
  return `<h1>Development subscription</h1>
<p class="note" role="note">Each button sends the signed webhook event Stripe would send, to this service's own webhook.</p>
<dl>
${rows.map(([dt, dd]) => `<dt>${escapeHtml(dt)}</dt><dd>${escapeHtml(dd)}</dd>`).join('\n')}
</dl>
${forms}
<p><a href="/developers">Return to the developer portal</a></p>`;
}

function notFoundBody(): string {
  return `<h1>Checkout not found</h1>
<p>No open development checkout has this address. Start again from the <a href="/developers">developer portal</a>.</p>`;
}

function failedBody(problem: string): string {
  return `<h1>Payment not recorded</h1>
<p role="alert">The development processor could not deliver its webhook: ${escapeHtml(problem)}</p>
<p><a href="/developers">Return to the developer portal</a></p>`;
}
