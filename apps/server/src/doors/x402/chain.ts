import { Contract, JsonRpcProvider, Network } from 'ethers';

/**
 * What the token itself says about an authorization: the truth about a payment whose
 * settlement answer was lost (docs/decisions.md, "x402: a lost settlement answer").
 * An EIP-3009 token records every `(authorizer, nonce)` it has used or canceled
 * (`authorizationState`) and emits `AuthorizationUsed` when a transfer consumed one.
 */

/** What the chain says about one authorization. */
export type AuthorizationState =
  /** Used by a transfer: the payer paid, in `transaction`. */
  | { readonly state: 'used'; readonly transaction: string }
  /** Not used (yet): nothing moved. */
  | { readonly state: 'unused' }
  /**
   * Marked used, but no transfer of it was found in the recent blocks (canceled by the
   * payer, or used longer ago than the search reaches): not counted as paid.
   */
  | { readonly state: 'unclear'; readonly reason: string };

/** Reads authorizations of one token on one chain. */
export interface AuthorizationLedger {
  /** Throws when the chain cannot be read (the answer is then still unknown). */
  authorization(payer: string, nonce: string): Promise<AuthorizationState>;
}

/**
 * Blocks searched back for the transfer of a used authorization: a payment is valid
 * for 60 s and is looked at within minutes of its settlement, and 10,000 blocks are
 * over five hours of Base.
 */
export const TRANSFER_SEARCH_BLOCKS = 10_000;

const TOKEN_ABI = [
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
];

/** The authorizations of token `asset` on chain `network` (CAIP-2 `eip155:<id>`), read over `rpcUrl`. */
export function chainLedger(rpcUrl: string, network: string, asset: string): AuthorizationLedger {
  const chainId = Number(network.replace(/^eip155:/, ''));
  // A static network: no detection round trip, and no retry loop when the node is down.
  // No request cache: by default ethers answers a request from one made in the last 250 ms,
  // so a block number read for an earlier payment ended the search before a transfer that
  // landed since, and `authorizationState` could repeat an earlier "unused". The ledger is
  // read for what the chain says now.
  const provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  const token = new Contract(asset, TOKEN_ABI, provider);
  return {
    async authorization(payer, nonce) {
      const used = (await token.getFunction('authorizationState')(payer, nonce)) as boolean;
      if (!used) return { state: 'unused' };
      const latest = await provider.getBlockNumber();
      const filter = token.filters.AuthorizationUsed?.(payer, nonce);
      if (filter === undefined) throw new Error('the token ABI has no AuthorizationUsed event');
      const logs = await token.queryFilter(
        filter,
        Math.max(0, latest - TRANSFER_SEARCH_BLOCKS),
        latest,
      );
      const log = logs.at(-1);
      if (log === undefined) {
        return {
          state: 'unclear',
          reason: `authorization used, but no AuthorizationUsed event in the last ${TRANSFER_SEARCH_BLOCKS} blocks`,
        };
      }
      return { state: 'used', transaction: log.transactionHash };
    },
  };
}

/** The ledger of the service's token, or null when no RPC URL is configured. */
export function ledgerFor(
  rpcUrl: string | null,
  network: string,
  asset: string,
): AuthorizationLedger | null {
  return rpcUrl === null ? null : chainLedger(rpcUrl, network, asset);
}
