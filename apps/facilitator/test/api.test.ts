import { expect, test } from 'vitest';
import * as facilitator from '../src/index.js';

test('the public exports are exactly these', () => {
  expect(Object.keys(facilitator).sort()).toEqual([
    'BATCH_SETTLEMENT',
    'BATCH_SETTLEMENT_ADDRESS',
    'DEV_CHAIN_ID',
    'DEV_DEPLOYER',
    'DEV_FACILITATOR',
    'DEV_MNEMONIC',
    'DEV_NETWORK',
    'DEV_NETWORK_V1',
    'DEV_PAYER',
    'DEV_PAYER_START_BALANCE',
    'DEV_PAY_TO',
    'DEV_RECEIVER_AUTHORIZER',
    'DEV_TOKEN_ADDRESS',
    'DEV_TOKEN_DECIMALS',
    'DEV_TOKEN_DEPLOYMENT_ADDRESS',
    'DEV_TOKEN_EIP712',
    'ERC3009_DEPOSIT_COLLECTOR',
    'ERC3009_DEPOSIT_COLLECTOR_ADDRESS',
    'MULTICALL3_ADDRESS',
    'PERMIT2',
    'PERMIT2_ADDRESS',
    'PERMIT2_DEPOSIT_COLLECTOR',
    'PERMIT2_DEPOSIT_COLLECTOR_ADDRESS',
    'TEST_USDC',
    'UPTO_PERMIT2_PROXY',
    'UPTO_PERMIT2_PROXY_ADDRESS',
    'createFacilitatorApp',
    'createX402Facilitator',
    'devChain',
    'startChain',
    'startPaymentStack',
  ]);
});
