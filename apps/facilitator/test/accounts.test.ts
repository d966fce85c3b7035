import { getContractAddress, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import {
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_MNEMONIC,
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_RECEIVER_AUTHORIZER,
  DEV_TOKEN_DEPLOYMENT_ADDRESS,
} from '../src/index.js';

describe('development accounts', () => {
  test.each([
    ['DEV_DEPLOYER', 0, DEV_DEPLOYER],
    ['DEV_FACILITATOR', 1, DEV_FACILITATOR],
    ['DEV_PAYER', 2, DEV_PAYER],
    ['DEV_RECEIVER_AUTHORIZER', 4, DEV_RECEIVER_AUTHORIZER],
  ] as const)('%s is index %i of DEV_MNEMONIC, key and address', (_name, index, account) => {
    const derived = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
    expect(account.address).toBe(derived.address);
    expect(account.privateKey).toBe(toHex(derived.getHdKey().privateKey as Uint8Array));
  });

  test('DEV_PAY_TO is index 3 of DEV_MNEMONIC', () => {
    expect(DEV_PAY_TO).toBe(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 3 }).address);
  });

  test("DEV_TOKEN_DEPLOYMENT_ADDRESS is the deployer's first contract (nonce 0)", () => {
    expect(DEV_TOKEN_DEPLOYMENT_ADDRESS).toBe(
      getContractAddress({ from: DEV_DEPLOYER.address, nonce: 0n }),
    );
  });
});
