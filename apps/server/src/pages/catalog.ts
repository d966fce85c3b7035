import { dollars } from '../doors/x402/terms.js';
import { creditsFor, type TierPlan, UNITS_PER_CREDIT } from '../metering/tiers.js';
import type { AnyRoute } from '../registry/types.js';
import { grouped, type Html, html, prose } from './html.js';

/** A route's price points: `$0.003 (fetch) / $0.006 (plus) / …`, or the one price. */
export function priceOf(route: AnyRoute): string {
  if (route.prices.length === 1) return dollars(route.prices[0]?.amount ?? 0);
  return route.prices.map((price) => `${dollars(price.amount)} (${price.tier})`).join(' / ');
}

/** A route's cost in credits on a key: `3 / 6 / 12`, or the one number. */
export function creditsOf(route: AnyRoute): string {
  return route.prices.map((price) => String(creditsFor(price.amount))).join(' / ');
}

function productRow(route: AnyRoute, describe: boolean): Html {
  const row = html`<tr><td><code>${route.name}</code></td><td><code>GET ${route.path}</code></td><td>${priceOf(route)}</td><td>${route.title}</td></tr>
`;
  return describe
    ? html`${row}<tr class="muted"><td></td><td colspan="3">${prose(route.description)}</td></tr>
`
    : row;
}

/** The paid routes with tool name, path, price points and title (and descriptions). */
export function productTable(routes: readonly AnyRoute[], describe = true): Html {
  return html`<table>
<caption class="muted">Prices per call, from the route registry (the same as <a href="/catalog">/catalog</a> and the 402 terms).</caption>
<thead><tr><th scope="col">tool</th><th scope="col">route</th><th scope="col">price</th><th scope="col">what</th></tr></thead>
<tbody>
${routes.map((route) => productRow(route, describe))}</tbody>
</table>`;
}

/** The monthly allowance of a plan in words. */
export function allowance(plan: TierPlan): string {
  if (plan.pays.includes('sandbox')) return `${grouped(plan.included ?? 0)} calls in all`;
  if (plan.pays.includes('unmetered')) return 'unmetered';
  if (plan.included === null) return 'none (purchased credits only)';
  return `${grouped(plan.included)} calls a month`;
}

/** A plan's price in words. */
export function monthly(plan: TierPlan): string {
  return plan.monthlyUsd === 0 ? '$0' : `$${grouped(plan.monthlyUsd)} a month`;
}

/**
 * Suggested top-up packs in dollars; `POST /api/dev/topup` takes any amount from
 * `TOPUP_MIN_USD` to `TOPUP_MAX_USD` (`billing/plans.ts`).
 */
export const TOPUP_PACKS_USD = [10, 50, 200] as const;

/** Credits one dollar buys (USDC has 6 decimals; 1 credit = {@link UNITS_PER_CREDIT} units). */
export const CREDITS_PER_USD = 1_000_000 / UNITS_PER_CREDIT;

/** What one credit is worth, as `$0.001`. */
export const CREDIT_PRICE = dollars(UNITS_PER_CREDIT);
