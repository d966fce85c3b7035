import { dollars } from '../doors/x402/terms.js';
import {
  creditsFor,
  PAID_TIERS,
  PLANLESS_TIER,
  TIERS,
  type TierPlan,
  type TierPlans,
} from '../metering/tiers.js';
import type { AnyRoute } from '../registry/types.js';
import {
  allowance,
  CREDIT_PRICE,
  CREDITS_PER_USD,
  creditsOf,
  monthly,
  priceOf,
  TOPUP_PACKS_USD,
} from './catalog.js';
import { grouped, html } from './html.js';
import { layout } from './layout.js';

export interface PricingInput {
  readonly plans: TierPlans;
  readonly routes: readonly AnyRoute[];
}

/**
 * The tiers shown, in the table's order: the spec's four, every tier but the planless
 * one (a live key without a plan, which the page describes as prepaid credits).
 */
export const SHOWN_TIERS = TIERS.filter((tier) => tier !== PLANLESS_TIER);

function rate(plan: TierPlan): string {
  return `${grouped(plan.perMinute)} per minute`;
}

/** `/pricing`: the plans with subscribe buttons, the top-up packs, per-route prices. */
export function pricingPage(input: PricingInput): string {
  const { plans } = input;
  const cheapest = Math.min(...input.routes.flatMap((route) => route.prices.map((p) => p.amount)));
  const rows = SHOWN_TIERS.map((tier) => {
    const plan = plans[tier];
    return html`<tr><th scope="row">${tier}</th><td>${monthly(plan)}</td><td>${allowance(plan)}</td><td>${rate(plan)}</td><td><code>${plan.env === 'test' ? 'mk_test_' : 'mk_live_'}</code></td></tr>
`;
  });
  const buttons = PAID_TIERS.map(
    (tier) =>
      html`<button type="submit" name="tier" value="${tier}">Subscribe to ${tier} (${monthly(plans[tier])})</button>`,
  );
  const prices = input.routes.map(
    (
      route,
    ) => html`<tr><td><code>GET ${route.path}</code></td><td>${priceOf(route)}</td><td>${creditsOf(route)}</td></tr>
`,
  );
  const body = html`<h1>Pricing</h1>
<p class="lead">Pay per call with no account (x402), or with a key: free sandbox calls to try, then prepaid credits or a monthly plan. Every door has the same prices and the same receipts.</p>

<h2 id="tiers">Plans</h2>
<table>
<thead><tr><th scope="col">tier</th><th scope="col">price</th><th scope="col">included</th><th scope="col">rate limit</th><th scope="col">key</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
<p>One call of any route is one unit of a plan's allowance. Beyond it, purchased credits pay the route's price (1 credit = ${CREDIT_PRICE}, at least 1 credit a call). Allowances refresh when the monthly renewal is paid. Payments are non-refundable: see the <a href="/terms">terms</a>.</p>

<h2 id="subscribe">Subscribe</h2>
<p>A plan is set on a key: <a href="/developers#key">mint one</a> first (a live key, <code>mk_live_</code>; a test key that subscribes becomes live), paste it here, and pay at checkout. You come back to the developer page with the plan applied. A key holds one subscription at a time.</p>
<form id="subscribe-form" method="post">
<label for="subscribe-key">Live key</label>
<input id="subscribe-key" name="key" type="password" autocomplete="off" spellcheck="false" required data-key>
<p>${buttons}</p>
</form>
<div id="subscribe-result" aria-live="polite"></div>
<noscript><p class="muted">Subscribing from this page needs JavaScript: <code>POST /api/dev/subscribe?key=…&amp;tier=pro</code> answers the checkout address.</p></noscript>

<h2 id="topup">Top-up packs</h2>
<p>Credits for a live key without a plan, or beyond a plan's allowance; they do not expire with the month.</p>
<table>
<thead><tr><th scope="col">pack</th><th scope="col">credits</th><th scope="col">calls at ${dollars(cheapest)}</th></tr></thead>
<tbody>
${TOPUP_PACKS_USD.map(
  (
    usd,
  ) => html`<tr><td>$${usd}</td><td>${grouped(usd * CREDITS_PER_USD)}</td><td>${grouped(Math.floor((usd * CREDITS_PER_USD) / creditsFor(cheapest)))}</td></tr>
`,
)}</tbody>
</table>
<p><a href="/developers#topup">Top up a key</a> on the developer page.</p>

<h2 id="routes">Price of each route</h2>
<table>
<caption class="muted">From the route registry, the same as <a href="/catalog">/catalog</a> and the 402 terms.</caption>
<thead><tr><th scope="col">route</th><th scope="col">price per call</th><th scope="col">credits per call</th></tr></thead>
<tbody>
${prices}</tbody>
</table>
<p><code>GET /buy/signal</code> is free. x402 payments settle the exact price in USDC per call.</p>`;
  return layout(
    {
      path: '/pricing',
      title: 'Pricing',
      description: 'Plans, top-up packs and the price of each route.',
    },
    body,
  );
}
