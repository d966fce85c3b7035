import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { StripeConfig } from '../config.js';
import type { PaidTier } from '../metering/tiers.js';
import { loadStripe } from './stripe-module.js';

/** What a checkout sells. */
export type Purchase =
  | { readonly kind: 'subscription'; readonly tier: PaidTier; readonly amountCents: number }
  | { readonly kind: 'credits'; readonly credits: number; readonly amountCents: number };

/** A checkout to open for a key. */
export interface CheckoutRequest {
  readonly keyId: string;
  readonly purchase: Purchase;
  /** Where the processor sends the browser once paid. */
  readonly successUrl: string;
  /** Where the processor sends the browser when the buyer gives up. */
  readonly cancelUrl: string;
}

/** An opened checkout: the processor's session id and the page to pay on. */
export interface Checkout {
  readonly id: string;
  readonly url: string;
}

/** The payment processor of subscriptions and credit packs. */
export interface PaymentProcessor {
  readonly kind: 'stripe' | 'development';
  /** The secret every webhook's `Stripe-Signature` is checked with. */
  readonly webhookSecret: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
}

/**
 * The metadata a checkout carries (on the session, and on the subscription it creates,
 * so that every later event of the subscription names its key): the key's public id,
 * never the key, and what was bought.
 */
export function checkoutMetadata(keyId: string, purchase: Purchase): Record<string, string> {
  return purchase.kind === 'subscription'
    ? { keyId, kind: 'subscription', tier: purchase.tier }
    : { keyId, kind: 'credits', credits: String(purchase.credits) };
}

/** Options of {@link stripeProcessor}. */
export interface StripeProcessorOptions {
  /** Another API address (tests run a loopback stand-in); default Stripe's. */
  readonly apiBase?: URL;
}

/**
 * Stripe Checkout: a session in `subscription` mode for a tier (its configured price,
 * or an inline monthly price from the tier table) and in `payment` mode for a credit
 * pack (an inline one-time price).
 */
export function stripeProcessor(
  config: StripeConfig,
  options: StripeProcessorOptions = {},
): PaymentProcessor {
  const base = options.apiBase;
  let client: Stripe | undefined;
  const stripe = async (): Promise<Stripe> => {
    if (client !== undefined) return client;
    const StripeClient = await loadStripe();
    client = new StripeClient(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 15_000,
      telemetry: false,
      ...(base === undefined
        ? {}
        : {
            host: base.hostname,
            port: base.port,
            protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }),
    });
    return client;
  };
  return {
    kind: 'stripe',
    webhookSecret: config.webhookSecret,
    async createCheckout(request) {
      const { purchase, keyId } = request;
      const metadata = checkoutMetadata(keyId, purchase);
      let session: Stripe.Checkout.Session;
      if (purchase.kind === 'subscription') {
        const price = config.prices[purchase.tier];
        session = await (await stripe()).checkout.sessions.create({
          mode: 'subscription',
          line_items: [
            price === undefined
              ? {
                  price_data: {
                    currency: 'usd',
                    unit_amount: purchase.amountCents,
                    recurring: { interval: 'month' },
                    product_data: { name: `Storefront ${purchase.tier} (monthly)` },
                  },
                  quantity: 1,
                }
              : { price, quantity: 1 },
          ],
          client_reference_id: keyId,
          metadata,
          subscription_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        });
      } else {
        session = await (await stripe()).checkout.sessions.create({
          mode: 'payment',
          line_items: [
            {
              price_data: {
                currency: 'usd',
                unit_amount: purchase.amountCents,
                product_data: {
                  name: `${purchase.credits.toLocaleString('en-US')} Storefront credits`,
                },
              },
              quantity: 1,
            },
          ],
          client_reference_id: keyId,
          metadata,
          payment_intent_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        });
      }
      if (session.url === null) {
        throw new Error(`Stripe opened checkout session ${session.id} without a URL`);
      }
      return { id: session.id, url: session.url };
    },
  };
}

/**
 * The development processor: a checkout is a page of this service
 * (`/dev-checkout/<id>`) whose Pay button sends the webhook Stripe would send, signed
 * with a secret made for this process.
 */
export function developmentProcessor(base: string): PaymentProcessor {
  const webhookSecret = `whsec_dev_${randomBytes(24).toString('base64url')}`;
  return {
    kind: 'development',
    webhookSecret,
    async createCheckout() {
      const id = `cs_dev_${randomBytes(12).toString('hex')}`;
      return { id, url: `${base}/dev-checkout/${id}` };
    },
  };
}
