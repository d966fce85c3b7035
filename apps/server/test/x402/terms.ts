import type { Terms } from '../../src/doors/x402/terms.js';
import { REGISTRY } from '../../src/registry/index.js';
import type { AnyRoute } from '../../src/registry/types.js';

/** USDC on Base. */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The service's base URL in these tests. */
export const BASE_URL = 'https://storefront.example';

/** Mainnet terms with CAIP-2 names in the body (the default). */
export const TERMS: Terms = Object.freeze({
  network: 'eip155:8453',
  asset: BASE_USDC,
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  facilitatorUrl: 'https://facilitator.example',
  legacyNetworkNames: false,
  testnet: false,
});

/** The same terms with v1 network names in the body. */
export const LEGACY_TERMS: Terms = Object.freeze({ ...TERMS, legacyNetworkNames: true });

/** A registry route by name. */
export function route(name: string): AnyRoute {
  const found = REGISTRY.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`No route ${name}`);
  return found;
}

/** Every (route, price tier) pair of the registry, for `it.each`. */
export const EVERY_PRICE = REGISTRY.flatMap((entry) =>
  entry.prices.map((price) => [`${entry.name} ${price.tier}`, entry, price] as const),
);
