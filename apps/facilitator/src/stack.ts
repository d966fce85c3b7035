import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPermit2ApprovalTx } from '@x402/evm/upto/client';
import type { Address } from 'viem';
import {
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_RECEIVER_AUTHORIZER,
  type DevAccount,
} from './accounts.js';
import { createFacilitatorApp, type FacilitatorAppOptions } from './app.js';
import { closeServer, type DevWalletClient, type LocalChain, startChain } from './chain.js';
import {
  BATCH_SETTLEMENT_ADDRESS,
  DEV_CHAIN_ID,
  DEV_NETWORK,
  DEV_NETWORK_V1,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_EIP712,
  PERMIT2_ADDRESS,
  TEST_USDC,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from './contracts.js';
import { deployContracts } from './deploy.js';
import { createX402Facilitator } from './facilitator.js';

/** What the payer holds when the stack starts: 1,000 test USDC. */
export const DEV_PAYER_START_BALANCE = 1_000_000_000n;

export interface PaymentStackOptions {
  /** The facilitator's HTTP port. Default 0: a free port. */
  readonly port?: number;
  /** The chain's JSON-RPC port. Default 0: a free port. */
  readonly chainPort?: number;
  /** Where both listen. Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * Test USDC minted at start, in atomic units, by address. Default: 1,000 USDC
   * (`DEV_PAYER_START_BALANCE`) to `DEV_PAYER`. Given, it replaces the default: `{}` funds
   * nobody.
   */
  readonly fund?: Readonly<Record<Address, bigint>>;
  /** Told of every unexpected facilitator failure (answered 500). Default: a line on stderr. */
  readonly onError?: FacilitatorAppOptions['onError'];
}

/** Where a running stack is and what it pays with: all of it plain data, for another process. */
export type PaymentStackInfo = Pick<
  PaymentStack,
  | 'rpcUrl'
  | 'facilitatorUrl'
  | 'network'
  | 'networkV1'
  | 'chainId'
  | 'asset'
  | 'extra'
  | 'payTo'
  | 'payer'
  | 'permit2'
  | 'uptoProxy'
  | 'facilitatorAddress'
>;

/** A running development payment stack: a local chain with test USDC and a facilitator. */
export interface PaymentStack {
  /** The chain's HTTP JSON-RPC URL, for other processes. */
  readonly rpcUrl: string;
  /** The facilitator's base URL: `POST {url}/verify`, `POST {url}/settle`, `GET {url}/supported`. */
  readonly facilitatorUrl: string;
  /** The CAIP-2 network of v2 payment terms. */
  readonly network: typeof DEV_NETWORK;
  /** The v1 name of the same network. */
  readonly networkV1: typeof DEV_NETWORK_V1;
  readonly chainId: typeof DEV_CHAIN_ID;
  /** The test USDC contract: the `asset` of payment terms. */
  readonly asset: Address;
  /** The token's EIP-712 domain: the `extra` of payment terms. */
  readonly extra: typeof DEV_TOKEN_EIP712;
  /** The payee of development payment terms. */
  readonly payTo: Address;
  /**
   * The funded development wallet that pays. It has approved Permit2 on the token without
   * limit when the stack starts, as a wallet does once before its first `upto` payment.
   */
  readonly payer: DevAccount;
  /** Permit2's canonical address, where the stack has our Permit2 (the payer's approved spender). */
  readonly permit2: Address;
  /** The x402 upto proxy, which the facilitator calls to settle `upto` payments. */
  readonly uptoProxy: Address;
  /** The x402 batch-settlement contract, which holds `batch-settlement` channels. */
  readonly batchSettlement: Address;
  /**
   * The facilitator's receiver authorizer for `batch-settlement` (`extra.receiverAuthorizer` in
   * `GET /supported`): it signs the claims and refunds of channels that name it.
   */
  readonly receiverAuthorizer: Address;
  /** The address that submits settlements (it pays their gas). */
  readonly facilitatorAddress: Address;
  /** The chain itself, with its in-process provider and viem clients. */
  readonly chain: LocalChain;
  /** The test USDC balance of `address`, in atomic units. */
  balanceOf(address: Address): Promise<bigint>;
  /** Mint `amount` atomic units of test USDC to `address`; resolves once mined. */
  mint(address: Address, amount: bigint): Promise<void>;
  /** Stop the facilitator and the chain. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Start the development payment stack: a fresh local chain (chain id 8453), the test USDC
 * token at `DEV_TOKEN_ADDRESS` (USDC's address on Base) with Multicall3 beside it, the payer funded, and the
 * facilitator HTTP API on the official x402 facilitator code. Everything listens on
 * 127.0.0.1 (free ports unless given). Development and tests only.
 *
 * @example
 * const stack = await startPaymentStack();
 * await fetch(`${stack.facilitatorUrl}/supported`);
 * await stack.close();
 */
export async function startPaymentStack(options: PaymentStackOptions = {}): Promise<PaymentStack> {
  const host = options.host ?? '127.0.0.1';
  const chain = await startChain({ port: options.chainPort ?? 0, host });
  try {
    await deployContracts(chain);
    const deployer = chain.walletClient(DEV_DEPLOYER);

    async function mint(address: Address, amount: bigint): Promise<void> {
      const hash = await deployer.writeContract({
        address: DEV_TOKEN_ADDRESS,
        abi: TEST_USDC.abi,
        functionName: 'mint',
        args: [address, amount],
      });
      const receipt = await deployer.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success')
        throw new Error(`minting to \`${address}\` failed (${hash})`);
    }

    async function balanceOf(address: Address): Promise<bigint> {
      return (await chain.publicClient.readContract({
        address: DEV_TOKEN_ADDRESS,
        abi: TEST_USDC.abi,
        functionName: 'balanceOf',
        args: [address],
      })) as bigint;
    }

    const fund = options.fund ?? { [DEV_PAYER.address]: DEV_PAYER_START_BALANCE };
    for (const [address, amount] of Object.entries(fund)) await mint(address as Address, amount);
    await approvePermit2(chain.walletClient(DEV_PAYER));

    const facilitator = createX402Facilitator(chain.walletClient(DEV_FACILITATOR));
    const app = createFacilitatorApp(
      facilitator,
      options.onError ? { onError: options.onError } : {},
    );
    const server = createServer(app);
    server.listen(options.port ?? 0, host);
    try {
      await once(server, 'listening');
    } catch (error) {
      await closeServer(server).catch(() => {});
      throw error;
    }
    const { address, port } = server.address() as AddressInfo;

    let closing: Promise<void> | undefined;
    return {
      rpcUrl: chain.rpcUrl,
      facilitatorUrl: `http://${address}:${port}`,
      network: DEV_NETWORK,
      networkV1: DEV_NETWORK_V1,
      chainId: DEV_CHAIN_ID,
      asset: DEV_TOKEN_ADDRESS,
      extra: DEV_TOKEN_EIP712,
      payTo: DEV_PAY_TO,
      payer: DEV_PAYER,
      permit2: PERMIT2_ADDRESS,
      uptoProxy: UPTO_PERMIT2_PROXY_ADDRESS,
      batchSettlement: BATCH_SETTLEMENT_ADDRESS,
      receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address,
      facilitatorAddress: DEV_FACILITATOR.address,
      chain,
      balanceOf,
      mint,
      close() {
        closing ??= closeServer(server).finally(() => chain.close());
        return closing;
      },
    };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/**
 * The one-time on-chain approval a wallet sends before its first Permit2 payment: the
 * transaction the official upto client builds (`createPermit2ApprovalTx`), an unlimited
 * `approve(Permit2)` on the test token, signed and paid for (gas) by the wallet itself.
 * The official upto client signs no approval of its own unless the payment terms declare
 * the `eip2612GasSponsoring` extension, and the facilitator refuses a payer whose
 * allowance is short (`permit2_allowance_required`).
 */
async function approvePermit2(wallet: DevWalletClient): Promise<void> {
  const hash = await wallet.sendTransaction(createPermit2ApprovalTx(DEV_TOKEN_ADDRESS));
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') {
    throw new Error(`\`${wallet.account.address}\` could not approve Permit2 (${hash})`);
  }
}
