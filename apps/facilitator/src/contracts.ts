import {
  BATCH_SETTLEMENT_ADDRESS as OFFICIAL_BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS as OFFICIAL_ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  PERMIT2_ADDRESS as OFFICIAL_PERMIT2_ADDRESS,
  x402UptoPermit2ProxyAddress,
} from '@x402/evm';
import type { Abi, Address, Hex } from 'viem';
import erc3009DepositCollectorArtifact from './contracts/ERC3009DepositCollector.json' with {
  type: 'json',
};
import multicall3Artifact from './contracts/Multicall3.json' with { type: 'json' };
import permit2Artifact from './contracts/Permit2.json' with { type: 'json' };
import permit2DepositCollectorArtifact from './contracts/Permit2DepositCollector.json' with {
  type: 'json',
};
import testUsdcArtifact from './contracts/TestUSDC.json' with { type: 'json' };
import batchSettlementArtifact from './contracts/X402BatchSettlement.json' with { type: 'json' };
import uptoProxyArtifact from './contracts/X402UptoPermit2Proxy.json' with { type: 'json' };

/** What the stack needs of a compiled contract (`scripts/compile-contracts.ts` writes more). */
export interface DeployableContract {
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

/** The test token, compiled from `src/contracts/TestUSDC.sol`. */
export const TEST_USDC = testUsdcArtifact as DeployableContract;

/** The Multicall3 subset, compiled from `src/contracts/Multicall3.sol`. */
export const MULTICALL3 = multicall3Artifact as DeployableContract;

/** Our Permit2 subset (signature transfers with a witness), from `src/contracts/Permit2.sol`. */
export const PERMIT2 = permit2Artifact as DeployableContract;

/** The x402 `upto` settlement contract, from `src/contracts/X402UptoPermit2Proxy.sol`. */
export const UPTO_PERMIT2_PROXY = uptoProxyArtifact as DeployableContract;

/** The x402 `batch-settlement` channel contract, from `src/contracts/X402BatchSettlement.sol`. */
export const BATCH_SETTLEMENT = batchSettlementArtifact as DeployableContract;

/** The batch-settlement deposit collector for ERC-3009, from `src/contracts/ERC3009DepositCollector.sol`. */
export const ERC3009_DEPOSIT_COLLECTOR = erc3009DepositCollectorArtifact as DeployableContract;

/** The batch-settlement deposit collector for Permit2, from `src/contracts/Permit2DepositCollector.sol`. */
export const PERMIT2_DEPOSIT_COLLECTOR = permit2DepositCollectorArtifact as DeployableContract;

/**
 * Permit2's canonical address, as `@x402/evm` hard-codes it: the upto client signs for this
 * verifying contract and the payer approves it on the token, so the stack writes its Permit2
 * code here.
 */
export const PERMIT2_ADDRESS: Address = OFFICIAL_PERMIT2_ADDRESS;

/**
 * The x402 upto proxy's address, as `@x402/evm` hard-codes it: the client names it as the
 * Permit2 spender and the facilitator calls `settle` on it, so the stack writes the proxy's
 * code here.
 */
export const UPTO_PERMIT2_PROXY_ADDRESS: Address = x402UptoPermit2ProxyAddress;

/**
 * The x402 batch-settlement contract's address, as `@x402/evm` hard-codes it: channel ids,
 * vouchers, claims and refunds are EIP-712 signatures for this verifying contract, and the
 * facilitator sends deposits, claims, settlements and refunds here, so the stack writes
 * `X402BatchSettlement`'s code at this address.
 */
export const BATCH_SETTLEMENT_ADDRESS: Address = OFFICIAL_BATCH_SETTLEMENT_ADDRESS;

/**
 * The ERC-3009 deposit collector's address, as `@x402/evm` hard-codes it: the payer signs a
 * `ReceiveWithAuthorization` to it, and the facilitator names it in `deposit`.
 */
export const ERC3009_DEPOSIT_COLLECTOR_ADDRESS: Address =
  OFFICIAL_ERC3009_DEPOSIT_COLLECTOR_ADDRESS;

/**
 * The Permit2 deposit collector's address, as `@x402/evm` 2.27.0 hard-codes it (in its
 * batch-settlement constants, which the package does not export): the payer's Permit2
 * signature names it as spender. `test/batch-settlement.test.ts` checks the official client
 * signs for it.
 */
export const PERMIT2_DEPOSIT_COLLECTOR_ADDRESS: Address =
  '0x4020425FAf3B746C082C2f942b4E5159887B0005';

/**
 * Where the test token lives on the local chain: the address of USDC on Base (chain 8453),
 * so that the official x402 clients, which pay only their default assets unless told
 * otherwise, take the test token for USDC on this chain and pay it as shipped. Only the
 * local chain has the test token there: it is test money, worth nothing.
 */
export const DEV_TOKEN_ADDRESS: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/**
 * Where the test token is deployed before its code moves to {@link DEV_TOKEN_ADDRESS}: the
 * first contract `DEV_DEPLOYER` creates (nonce 0) on a fresh chain. `test/stack.test.ts`
 * checks the deployment lands here.
 */
export const DEV_TOKEN_DEPLOYMENT_ADDRESS: Address = '0xAAFc735aed381b3E35547cBdA8477E130720689B';

/**
 * The canonical Multicall3 address on every public EVM chain; the x402 facilitator and viem
 * look for it there, so the stack installs its code at this address.
 */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The token's EIP-712 domain name and version: the `extra` of x402 payment terms. */
export const DEV_TOKEN_EIP712 = Object.freeze({ name: 'USD Coin', version: '2' } as const);

/** The token has 6 decimals, like USDC: 1 USDC is 1_000_000 atomic units. */
export const DEV_TOKEN_DECIMALS = 6;

/** The chain id of the local chain: Base's, so the x402 networks `eip155:8453` and `base` apply. */
export const DEV_CHAIN_ID = 8453;

/** The CAIP-2 id of the local chain, the network of v2 payment terms. */
export const DEV_NETWORK = 'eip155:8453' as const;

/** The x402 v1 name of the same chain. */
export const DEV_NETWORK_V1 = 'base' as const;
