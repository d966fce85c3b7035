import type Stripe from 'stripe';

let loading: Promise<typeof Stripe> | undefined;

/**
 * The `stripe` package, loaded on first use: it is a large module graph, and the
 * service starts without it until a webhook arrives or a Stripe checkout is opened.
 */
export function loadStripe(): Promise<typeof Stripe> {
  loading ??= import('stripe').then((module) => module.default);
  return loading;
}
