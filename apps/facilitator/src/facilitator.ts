import { x402Facilitator } from '@x402/core/facilitator';
import type { Network } from '@x402/core/types';
import {
  type AuthorizerSigner,
  type FacilitatorEvmSigner,
  toFacilitatorEvmSigner,
} from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_RECEIVER_AUTHORIZER, type DevAccount } from './accounts.js';
import type { DevWalletClient } from './chain.js';
import { DEV_NETWORK, DEV_NETWORK_V1 } from './contracts.js';
import { UptoEvmSchemeWithNonceCheck } from './upto-scheme.js';

/**
 * How long a settlement waits for its receipt. The local chain mines each transaction as it
 * arrives, so this bounds only a chain that stopped answering.
 */
const CONFIRMATION_TIMEOUT_MS = 30_000;

/**
 * The official x402 facilitator (`@x402/core`) with the official EVM schemes (`@x402/evm`),
 * for the local chain only, settled by `wallet` (which pays the gas):
 * - `exact` (EIP-3009): v2 payments on `eip155:8453` and v1 payments on `base`;
 * - `upto` (Permit2 through the x402 upto proxy): v2 on `eip155:8453`. `/supported` gives
 *   `wallet`'s address as `extra.facilitatorAddress`: the client binds it into its signature
 *   and only that account may settle. At verify, `paymentRequirements.amount` is the signed
 *   maximum; at settle, it is the amount to charge (at most the maximum, 0 for nothing).
 *   A replayed payment is answered `permit2_invalid_nonce` (see `UptoEvmSchemeWithNonceCheck`).
 * - `batch-settlement` (a deposit into a channel of the x402 batch-settlement contract, then
 *   cumulative vouchers; claims, settlement and refunds sent by the resource server's channel
 *   manager): v2 on `eip155:8453`. `/supported` gives `authorizer`'s address as
 *   `extra.receiverAuthorizer`: a resource server without a receiver-authorizer key of its own
 *   names it in its channels, and this facilitator signs their claims and refunds with it for
 *   whoever asks. That is no authentication, which the official scheme asks of a facilitator
 *   that advertises an authorizer; here the authorizer's key is public (`DEV_MNEMONIC`), so
 *   anyone could sign the same on their own (docs/decisions.md, "Batch settlement on the local
 *   stack").
 *
 * The schemes are registered one by one rather than through `registerExactEvmScheme`, which
 * also registers every other v1 network name (polygon, avalanche, …): `/supported` then
 * listed networks this chain cannot settle.
 */
export function createX402Facilitator(
  wallet: DevWalletClient,
  authorizer: DevAccount = DEV_RECEIVER_AUTHORIZER,
): x402Facilitator {
  const signer = facilitatorSigner(wallet);
  return new x402Facilitator()
    .register(DEV_NETWORK, new ExactEvmScheme(signer))
    .register(DEV_NETWORK, new UptoEvmSchemeWithNonceCheck(signer))
    .register(DEV_NETWORK, new BatchSettlementEvmScheme(signer, authorizerSigner(authorizer)))
    .registerV1(
      // v1 network names are not CAIP-2; the official registration casts them the same way.
      DEV_NETWORK_V1 as unknown as Network,
      new ExactEvmSchemeV1(signer),
    );
}

/**
 * The x402 EVM signer interface over one viem wallet client (reads and writes). The
 * wallet sends its transactions one after the other: sent as they come, a settlement
 * that reaches ganache 7.9.2 (instant mining) while the account's previous one is being
 * mined can stay in its queue for good, and every later settlement from the account
 * waits behind it until its confirmation timeout (seen within ten settlements at four in
 * flight; in turn, 400 of 400 settled).
 */
export function facilitatorSigner(wallet: DevWalletClient): FacilitatorEvmSigner {
  const inTurn = oneAtATime();
  return toFacilitatorEvmSigner(
    {
      address: wallet.account.address,
      getCode: (args) => wallet.getCode(args),
      readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as never),
      verifyTypedData: (args) => wallet.verifyTypedData(args as never),
      writeContract: (args) =>
        inTurn(() => wallet.writeContract({ ...args, args: args.args ?? [] } as never)),
      sendTransaction: (args) => inTurn(() => wallet.sendTransaction(args as never)),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    },
    { confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS },
  );
}

/** The EIP-712 signer the batch-settlement scheme signs claims and refunds with. */
export function authorizerSigner(account: DevAccount): AuthorizerSigner {
  const local = privateKeyToAccount(account.privateKey);
  return {
    address: local.address,
    signTypedData: (args) => local.signTypedData(args as never),
  };
}

/** Run the tasks handed to the returned function one after the other, in the order given. */
function oneAtATime(): <R>(task: () => Promise<R>) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = last.then(task);
    last = run.catch(() => {});
    return run;
  };
}
