import type { Address, Hex } from 'viem';

/** A development wallet: its address and the private key that signs for it. */
export interface DevAccount {
  readonly address: Address;
  readonly privateKey: Hex;
}

/**
 * DEVELOPMENT ONLY. The mnemonic every development account derives from (BIP-44
 * `m/44'/60'/0'/0/i`). It is public, being in this repository, so whatever these accounts
 * hold on a real chain belongs to whoever takes it first: never send them real funds.
 * `test/accounts.test.ts` checks that each account below derives from it.
 */
export const DEV_MNEMONIC =
  'gain audit bread drill soda shallow cloth fetch trial abstract below country' as const;

/** Index 0: deploys the test token (at nonce 0) and is its only minter. */
export const DEV_DEPLOYER: DevAccount = Object.freeze({
  address: '0x3729e2d9Bb971B2c42822c756FBbEDaDfe2477E9',
  privateKey: '0x1591752cfe66df1f41b04391c88f180d332c718a3cf06285217987247a87f7f2',
});

/** Index 1: the facilitator's wallet, which submits settlements and pays their gas. */
export const DEV_FACILITATOR: DevAccount = Object.freeze({
  address: '0xD2C54527daA40a37cB2F3c72CcFbA585172a46Ce',
  privateKey: '0x1fbe2e66efcb1318d3da87e29cc12c508a5ac1e6d7394e44e144a814746c4246',
});

/** Index 2: the paying wallet, funded with test USDC when the stack starts. */
export const DEV_PAYER: DevAccount = Object.freeze({
  address: '0x778CFbB6e8637DD387F5880b7E213cb5c0f35742',
  privateKey: '0x45d4492ef3d8f9eb5becfa7b35c23f8bc7c952d89b990d8e732ccc4ec1d83230',
});

/** Index 3: the payee, the `payTo` of development payment terms. */
export const DEV_PAY_TO: Address = '0x259417dC19D232a1f097f15D14486b2D83c49bD2';

/**
 * Index 4: the facilitator's receiver authorizer for `batch-settlement`. `GET /supported`
 * advertises its address as `extra.receiverAuthorizer`; a resource server without a signer
 * of its own names it in its channels, and the facilitator signs their claims and refunds
 * with it. It only signs (it sends no transactions), so it holds no ether. Its key is as
 * public as the others: anyone can authorize claims and refunds for channels that name it,
 * which is why only development channels may.
 */
export const DEV_RECEIVER_AUTHORIZER: DevAccount = Object.freeze({
  address: '0x0A7655736b8bb724a0E07E7d140874987D99222C',
  privateKey: '0xde9a942f9dbb4387747b4070120afc7d52c298bf2e37e971a57e3206d73da20c',
});
