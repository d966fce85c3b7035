import type { Address } from 'viem';
import { DEV_DEPLOYER } from './accounts.js';
import type { LocalChain } from './chain.js';
import {
  BATCH_SETTLEMENT,
  BATCH_SETTLEMENT_ADDRESS,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_DEPLOYMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  MULTICALL3,
  MULTICALL3_ADDRESS,
  PERMIT2,
  PERMIT2_ADDRESS,
  PERMIT2_DEPOSIT_COLLECTOR,
  PERMIT2_DEPOSIT_COLLECTOR_ADDRESS,
  TEST_USDC,
  UPTO_PERMIT2_PROXY,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from './contracts.js';

/**
 * Put the stack's contracts on a fresh chain: the test token, deployed by `DEV_DEPLOYER` as its
 * first transaction (at `DEV_TOKEN_DEPLOYMENT_ADDRESS`) and its code then moved to
 * `DEV_TOKEN_ADDRESS`, USDC's address on Base, where the official x402 clients look for USDC;
 * Multicall3's code written at its canonical address (the x402 facilitator's diagnosis of a
 * failed simulation reads through Multicall3); for the `upto` scheme our Permit2 and the
 * x402 upto proxy, and for `batch-settlement` our channel contract and its two deposit
 * collectors, written at the addresses `@x402/evm` hard-codes. No deployment can reach
 * these addresses here (they come from other deployers' keys and CREATE2 salts); Multicall3,
 * Permit2, the proxy, the channel contract and the collectors keep no constructor state, so
 * their runtime code alone is the whole contract. The token's code carries its immutable
 * minter and computes its EIP-712 domain from its own address, so it works unchanged at its
 * new address; its constructor writes no storage, so nothing is left behind.
 * @returns the token's address
 */
export async function deployContracts(chain: LocalChain): Promise<Address> {
  const deployer = chain.walletClient(DEV_DEPLOYER);
  const hash = await deployer.deployContract({ abi: TEST_USDC.abi, bytecode: TEST_USDC.bytecode });
  const receipt = await deployer.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || receipt.contractAddress == null) {
    throw new Error(`the test token's deployment failed (transaction ${hash})`);
  }
  if (receipt.contractAddress.toLowerCase() !== DEV_TOKEN_DEPLOYMENT_ADDRESS.toLowerCase()) {
    // Only a chain that already had transactions from the deployer gets here.
    throw new Error(
      `the test token landed at \`${receipt.contractAddress}\`, expected \`${DEV_TOKEN_DEPLOYMENT_ADDRESS}\`: ` +
        'it must be the deployer’s first transaction on a fresh chain',
    );
  }
  const code = await chain.publicClient.getCode({ address: DEV_TOKEN_DEPLOYMENT_ADDRESS });
  if (code === undefined) throw new Error('the test token has no code after its deployment');
  await chain.provider.request({
    method: 'evm_setAccountCode',
    params: [DEV_TOKEN_ADDRESS, code],
  } as never);
  // One token on the chain: the deployment's copy goes.
  await chain.provider.request({
    method: 'evm_setAccountCode',
    params: [DEV_TOKEN_DEPLOYMENT_ADDRESS, '0x'],
  } as never);
  for (const [address, contract] of [
    [MULTICALL3_ADDRESS, MULTICALL3],
    [PERMIT2_ADDRESS, PERMIT2],
    [UPTO_PERMIT2_PROXY_ADDRESS, UPTO_PERMIT2_PROXY],
    [BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT],
    [ERC3009_DEPOSIT_COLLECTOR_ADDRESS, ERC3009_DEPOSIT_COLLECTOR],
    [PERMIT2_DEPOSIT_COLLECTOR_ADDRESS, PERMIT2_DEPOSIT_COLLECTOR],
  ] as const) {
    await chain.provider.request({
      method: 'evm_setAccountCode',
      params: [address, contract.deployedBytecode],
    } as never);
  }
  return DEV_TOKEN_ADDRESS;
}
