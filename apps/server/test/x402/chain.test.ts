/**
 * The token's record of authorizations, read from a local chain: the ledger answers with
 * what the chain says at the time it is asked, even right after an earlier lookup.
 */
import { randomBytes } from 'node:crypto';
import {
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_TOKEN_EIP712,
  type PaymentStack,
  startPaymentStack,
  TEST_USDC,
} from '@storefront/facilitator';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationLedger, chainLedger } from '../../src/doors/x402/chain.js';

let stack: PaymentStack;
let ledger: AuthorizationLedger;

beforeAll(async () => {
  stack = await startPaymentStack();
  ledger = chainLedger(stack.rpcUrl, stack.network, stack.asset);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const nonce = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** Move 1 atomic unit from the payer with an EIP-3009 authorization under `id`; resolves once mined. */
async function transfer(id: Hex): Promise<Hex> {
  const payer = stack.chain.walletClient(DEV_PAYER);
  const message = {
    from: DEV_PAYER.address,
    to: DEV_PAY_TO,
    value: 1n,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 600),
    nonce: id,
  };
  const signature = await payer.signTypedData({
    domain: { ...DEV_TOKEN_EIP712, chainId: stack.chainId, verifyingContract: stack.asset },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message,
  });
  const hash = await payer.writeContract({
    address: stack.asset,
    abi: TEST_USDC.abi,
    functionName: 'transferWithAuthorization',
    args: [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      signature,
    ],
  });
  const receipt = await payer.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

describe('the chain ledger', () => {
  it('finds an unused authorization unused, and a used one with its transaction', async () => {
    const id = nonce();
    expect(await ledger.authorization(DEV_PAYER.address, id)).toStrictEqual({ state: 'unused' });
    const hash = await transfer(id);
    expect(await ledger.authorization(DEV_PAYER.address, id)).toStrictEqual({
      state: 'used',
      transaction: hash,
    });
  }, 30_000);

  it('finds a transfer mined right after an earlier lookup (no answer is reused)', async () => {
    // A lookup of a used authorization reads the block number; the next transfer is
    // mined in a later block, and is looked up at once.
    const first = nonce();
    await transfer(first);
    expect(await ledger.authorization(DEV_PAYER.address, first)).toMatchObject({ state: 'used' });
    const second = nonce();
    expect(await ledger.authorization(DEV_PAYER.address, second)).toStrictEqual({
      state: 'unused',
    });
    const hash = await transfer(second);
    expect(await ledger.authorization(DEV_PAYER.address, second)).toStrictEqual({
      state: 'used',
      transaction: hash,
    });
  }, 30_000);
});
