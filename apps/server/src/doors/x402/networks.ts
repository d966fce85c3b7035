/**
 * Chain names of the two x402 generations. Version 2 names a chain by its CAIP-2 id
 * (`eip155:8453`); version 1 used short names (`base`), and its frozen client
 * (`x402-fetch` 1.2.0) and facilitator path accept only those (x402.md §1, §3).
 */

/**
 * The v1 name of each chain Storefront can take payments on. Only Base and Base Sepolia:
 * the service prices in USDC, and these are the chains whose USDC the terms describe.
 */
export const V1_NETWORK_NAMES: Readonly<Record<string, string>> = Object.freeze({
  'eip155:8453': 'base',
  'eip155:84532': 'base-sepolia',
});

/** The v1 name of CAIP-2 chain `network`, or null when version 1 has none for it. */
export function v1NetworkName(network: string): string | null {
  return Object.hasOwn(V1_NETWORK_NAMES, network) ? (V1_NETWORK_NAMES[network] ?? null) : null;
}

/**
 * The CAIP-2 id of a network as a payment names it: a v1 name we know becomes its
 * CAIP-2 id, anything else is returned unchanged (so a comparison with the terms
 * reports exactly what was sent).
 */
export function caip2Network(name: string): string {
  for (const [caip2, v1] of Object.entries(V1_NETWORK_NAMES)) {
    if (v1 === name) return caip2;
  }
  return name;
}
