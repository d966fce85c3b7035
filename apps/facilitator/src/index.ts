export {
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_MNEMONIC,
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_RECEIVER_AUTHORIZER,
  type DevAccount,
} from './accounts.js';
export { createFacilitatorApp, type FacilitatorAppOptions } from './app.js';
export {
  type ChainOptions,
  type DevWalletClient,
  devChain,
  type LocalChain,
  startChain,
} from './chain.js';
export type { ChildMessage } from './child-protocol.js';
export {
  BATCH_SETTLEMENT,
  BATCH_SETTLEMENT_ADDRESS,
  DEV_CHAIN_ID,
  DEV_NETWORK,
  DEV_NETWORK_V1,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_DECIMALS,
  DEV_TOKEN_DEPLOYMENT_ADDRESS,
  DEV_TOKEN_EIP712,
  ERC3009_DEPOSIT_COLLECTOR,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  MULTICALL3_ADDRESS,
  PERMIT2,
  PERMIT2_ADDRESS,
  PERMIT2_DEPOSIT_COLLECTOR,
  PERMIT2_DEPOSIT_COLLECTOR_ADDRESS,
  TEST_USDC,
  UPTO_PERMIT2_PROXY,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from './contracts.js';
export { createX402Facilitator } from './facilitator.js';
export {
  DEV_PAYER_START_BALANCE,
  type PaymentStack,
  type PaymentStackInfo,
  type PaymentStackOptions,
  startPaymentStack,
} from './stack.js';
