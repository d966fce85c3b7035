import type { Address } from 'viem';
import { DEV_DEPLOYER } from './accounts.js';
import type { LocalChain } from './chain.js';
import { DEV_TOKEN_ADDRESS, MULTICALL3, MULTICALL3_ADDRESS, TEST_USDC } from './contracts.js';

/**
 * Put the stack's contracts on a fresh chain: the test token, deployed by `DEV_DEPLOYER` as its
 * first transaction so it lands at `DEV_TOKEN_ADDRESS`, and Multicall3's code written at its
 * canonical address (no deployment can reach that address here, and the x402 facilitator's
 * diagnosis of a failed simulation reads through it).
 * @returns the token's address
 */
export async function deployContracts(chain: LocalChain): Promise<Address> {
  const deployer = chain.walletClient(DEV_DEPLOYER);
  const hash = await deployer.deployContract({ abi: TEST_USDC.abi, bytecode: TEST_USDC.bytecode });
  const receipt = await deployer.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || receipt.contractAddress == null) {
    throw new Error(`the test token's deployment failed (transaction ${hash})`);
  }
  if (receipt.contractAddress.toLowerCase() !== DEV_TOKEN_ADDRESS.toLowerCase()) {
    // Only a chain that already had transactions from the deployer gets here.
    throw new Error(
      `the test token landed at \`${receipt.contractAddress}\`, expected \`${DEV_TOKEN_ADDRESS}\`: ` +
        'it must be the deployer’s first transaction on a fresh chain',
    );
  }
  await chain.provider.request({
    method: 'evm_setAccountCode',
    params: [MULTICALL3_ADDRESS, MULTICALL3.deployedBytecode],
  } as never);
  return DEV_TOKEN_ADDRESS;
}
