import type { PaymentConfig } from '../config.js';
import type { AnyRoute, PriceTier } from './types.js';

/** Seconds a payer has to complete a payment (spec "Limits"). */
export const MAX_TIMEOUT_SECONDS = 60;

/** The EIP-712 domain of USDC, which an x402 v1 client needs to sign an authorization. */
const USDC_DOMAIN = { name: 'USD Coin', version: '2' } as const;

/** Payment terms with the receiving address resolved. */
export interface Terms extends Omit<PaymentConfig, 'payTo'> {
  readonly payTo: string;
}

/** A price in USDC atomic units as the spec's dollar string: 3000 → `$0.003`. */
export function dollars(amount: number): string {
  const whole = Math.floor(amount / 1_000_000);
  const fraction = String(amount % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? `$${whole}` : `$${whole}.${fraction}`;
}

/** One x402 v1 accept entry: the spec's fields plus those a v1 client requires (x402.md §1). */
export function acceptEntry(
  route: AnyRoute,
  price: PriceTier,
  baseUrl: string,
  terms: Terms,
): Record<string, unknown> {
  const amount = String(price.amount);
  return {
    scheme: 'exact',
    network: terms.network,
    amount,
    price: dollars(price.amount),
    asset: terms.asset,
    payTo: terms.payTo,
    maxAmountRequired: amount,
    resource: `${baseUrl}${route.path}`,
    description: route.description,
    mimeType: 'application/json',
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    outputSchema: {
      input: { type: 'http', method: 'GET', discoverable: true, queryParams: route.params },
      output: route.response,
    },
    extra: { tier: price.tier, includes: price.includes, ...USDC_DOMAIN },
  };
}

/** The 402 challenge body: x402 v1 `{x402Version, error, accepts}` inside our error shape. */
export function challenge(
  route: AnyRoute,
  prices: readonly PriceTier[],
  baseUrl: string,
  terms: Terms,
  error: 'payment_required' | 'sandbox_exhausted' | 'insufficient_credits',
  message: string,
): Record<string, unknown> {
  return {
    ok: false,
    error,
    message,
    x402Version: 1,
    accepts: prices.map((price) => acceptEntry(route, price, baseUrl, terms)),
  };
}
