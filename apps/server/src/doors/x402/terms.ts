/**
 * The service's x402 payment terms and the facts every 402 shares: the payment
 * timeout, the token's EIP-712 domain and the dollar form of a price (spec "Payment
 * terms", "Limits"; x402.md).
 */

/** Seconds a payer has to complete a payment (spec "Limits": payment timeout 60 s). */
export const MAX_TIMEOUT_SECONDS = 60;

/** A token's EIP-712 domain name and version: what a payer signs the authorization under. */
export interface TokenDomain {
  readonly name: string;
  readonly version: string;
}

/**
 * The EIP-712 domain of USDC on Base, which an x402 client needs to sign a
 * `TransferWithAuthorization` (x402.md §2). The development token uses the same one.
 */
export const USDC_DOMAIN: TokenDomain = Object.freeze({ name: 'USD Coin', version: '2' });

/** The payment terms of every 402 this service answers (from `config.payment`). */
export interface Terms {
  /** CAIP-2 chain id, e.g. `eip155:8453`. */
  readonly network: string;
  /** Token contract address (USDC). */
  readonly asset: string;
  /** Receiving address. */
  readonly payTo: string;
  /** The facilitator named in the terms; null when none is configured. */
  readonly facilitatorUrl: string | null;
  /**
   * Write the v1 network name (`base`) in the JSON body's accept entry instead of the
   * CAIP-2 id, for the frozen v1 client, which refuses CAIP-2 ids (x402.md §1).
   */
  readonly legacyNetworkNames: boolean;
  /** Whether the asset is the development chain's test token rather than real USDC. */
  readonly testnet: boolean;
  /** The token's EIP-712 domain; {@link USDC_DOMAIN} when absent. */
  readonly token?: TokenDomain;
}

/** A price in USDC atomic units (6 decimals) as the spec's dollar string: 3000 → `$0.003`. */
export function dollars(amount: number | bigint): string {
  const atomic = BigInt(amount);
  const whole = atomic / 1_000_000n;
  const fraction = String(atomic % 1_000_000n)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? `$${whole}` : `$${whole}.${fraction}`;
}

/** The route-level payment metadata of the spec's "Payment terms", plus where to pay. */
export interface RoutePaymentMetadata {
  readonly protocols: readonly ['x402'];
  readonly scheme: 'exact';
  readonly currency: 'USDC';
  readonly testnet: boolean;
  /** Absent when no facilitator is configured (development without one). */
  readonly facilitator?: string;
  readonly x402Version: 1;
  readonly maxTimeoutSeconds: number;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
}

/**
 * The spec's route-level payment metadata: protocols, scheme, currency, testnet,
 * facilitator, x402Version and maxTimeoutSeconds, in the spec's order, followed by the
 * chain, token and payee every route shares.
 */
export function routePaymentMetadata(terms: Terms): RoutePaymentMetadata {
  return {
    protocols: ['x402'],
    scheme: 'exact',
    currency: 'USDC',
    testnet: terms.testnet,
    ...(terms.facilitatorUrl === null ? {} : { facilitator: terms.facilitatorUrl }),
    x402Version: 1,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    network: terms.network,
    asset: terms.asset,
    payTo: terms.payTo,
  };
}
