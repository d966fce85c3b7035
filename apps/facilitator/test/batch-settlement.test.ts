import { randomBytes } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import { HTTPFacilitatorClient } from '@x402/core/http';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, Price } from '@x402/core/types';
import {
  BATCH_SETTLEMENT_DOMAIN,
  type BatchSettlementDepositPayload,
  type BatchSettlementVoucherPayload,
  type ChannelConfig,
  claimBatchTypes,
  refundTypes,
  toClientEvmSigner,
  voucherTypes,
} from '@x402/evm';
import {
  BatchSettlementEvmScheme as BatchSettlementClientScheme,
  type BatchSettlementDepositStrategy,
  computeChannelId,
} from '@x402/evm/batch-settlement/client';
import {
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme as BatchSettlementServerScheme,
} from '@x402/evm/batch-settlement/server';
import {
  type Abi,
  type Address,
  decodeErrorResult,
  domainSeparator,
  encodeAbiParameters,
  type Hex,
  hashTypedData,
  isHash,
  keccak256,
  parseAbiParameters,
  parseEventLogs,
  toBytes,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BATCH_SETTLEMENT,
  BATCH_SETTLEMENT_ADDRESS,
  DEV_CHAIN_ID,
  DEV_FACILITATOR,
  DEV_PAYER,
  DEV_RECEIVER_AUTHORIZER,
  type DevWalletClient,
  ERC3009_DEPOSIT_COLLECTOR,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  type PaymentStack,
  PERMIT2_DEPOSIT_COLLECTOR,
  PERMIT2_DEPOSIT_COLLECTOR_ADDRESS,
  startPaymentStack,
} from '../src/index.js';
import { facilitatorBody, post } from './helpers.js';

/**
 * The `batch-settlement` scheme on the local stack, end to end with the official packages
 * only: the payer is `x402Client` with the batch-settlement client scheme, the resource server
 * is `x402ResourceServer` with the batch-settlement server scheme and its channel manager,
 * and both talk to the stack's facilitator over HTTP. Then the contract on its own, without
 * the facilitator's checks in front. The payer's withdrawal, which moves the chain's clock
 * past the wall clock, comes last.
 */

const RESOURCE = 'http://127.0.0.1/buy/batch';
/** A call costs 0.001 test USDC… */
const PRICE = 1_000n;
/** …and the server asks for a first deposit of ten calls (its default `minDeposit`). */
const DEPOSIT = 10n * PRICE;

/**
 * The batch contract's ABI with the collectors' errors (and `collect`), so a revert from any
 * of them is decoded by name.
 */
const ABI = [
  ...BATCH_SETTLEMENT.abi,
  ...ERC3009_DEPOSIT_COLLECTOR.abi.filter(
    (item) => item.type === 'error' || (item.type === 'function' && item.name === 'collect'),
  ),
  ...PERMIT2_DEPOSIT_COLLECTOR.abi.filter((item) => item.type === 'error'),
] as Abi;

const DOMAIN = {
  ...BATCH_SETTLEMENT_DOMAIN,
  chainId: DEV_CHAIN_ID,
  verifyingContract: BATCH_SETTLEMENT_ADDRESS,
} as const;

let stack: PaymentStack;
let facilitator: HTTPFacilitatorClient;
let serverScheme: BatchSettlementServerScheme;
/** The official resource server with the official batch-settlement server scheme. */
let server: x402ResourceServer;
/** The server's channel manager: claims, settles and refunds through the facilitator. */
let manager: BatchSettlementChannelManager;
let payerWallet: DevWalletClient;
let facilitatorWallet: DevWalletClient;
const unexpected: unknown[] = [];

beforeAll(async () => {
  stack = await startPaymentStack({ onError: (error) => unexpected.push(error) });
  facilitator = new HTTPFacilitatorClient({ url: stack.facilitatorUrl });
  serverScheme = new BatchSettlementServerScheme(stack.payTo);
  server = new x402ResourceServer(facilitator).register(stack.network, serverScheme);
  // Reads GET /supported: the batch-settlement kind and its `extra.receiverAuthorizer`.
  await server.initialize();
  manager = serverScheme.createChannelManager(facilitator, stack.network, stack.asset);
  payerWallet = stack.chain.walletClient(DEV_PAYER);
  facilitatorWallet = stack.chain.walletClient(DEV_FACILITATOR);
});

afterAll(async () => {
  await stack?.close();
  expect(unexpected).toEqual([]);
});

/** The official server scheme's terms for one call at `price`. */
async function termsFor(price: Price = '$0.001'): Promise<PaymentRequirements> {
  const [requirements] = await server.buildPaymentRequirements({
    scheme: 'batch-settlement',
    network: stack.network,
    payTo: stack.payTo,
    price,
    maxTimeoutSeconds: 60,
  });
  if (!requirements) throw new Error('the server built no payment requirements');
  return requirements;
}

/** A paying client: the official batch-settlement client scheme for the payer, on its own channel (`salt`). */
function payerClient(salt: Hex, depositStrategy?: BatchSettlementDepositStrategy) {
  const scheme = new BatchSettlementClientScheme(
    // The signer reads the chain: a client without local state recovers its channel from it.
    toClientEvmSigner(privateKeyToAccount(DEV_PAYER.privateKey), stack.chain.publicClient as never),
    { salt, ...(depositStrategy ? { depositStrategy } : {}) },
  );
  return { scheme, client: new x402Client().register('eip155:*', scheme) };
}

/**
 * One paid call as an HTTP resource server runs it: the client pays, the server verifies
 * (through the facilitator, or on its own from fresh channel state), serves, and settles; the
 * client reads the settlement response (the `PAYMENT-RESPONSE` header).
 */
async function paidCall(client: x402Client, requirements: PaymentRequirements) {
  const payload = await client.createPaymentPayload({
    x402Version: 2,
    resource: { url: RESOURCE },
    accepts: [requirements],
  });
  const verified = await server.verifyPayment(payload, requirements);
  if (!verified.isValid) return { payload, verified };
  const settled = await server.settlePayment(payload, requirements);
  await client.handlePaymentResponse({
    paymentPayload: payload,
    requirements,
    settleResponse: settled,
  });
  return { payload, verified, settled };
}

function randomSalt(): Hex {
  return toHex(randomBytes(32));
}

async function channelOf(channelId: Hex): Promise<{ balance: bigint; totalClaimed: bigint }> {
  const [balance, totalClaimed] = (await stack.chain.publicClient.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: BATCH_SETTLEMENT.abi,
    functionName: 'channels',
    args: [channelId],
  })) as [bigint, bigint];
  return { balance, totalClaimed };
}

/** What the contract has claimed for the payee in the test token, and paid out of it. */
async function payeeLedger(): Promise<{ totalClaimed: bigint; totalSettled: bigint }> {
  const [totalClaimed, totalSettled] = (await stack.chain.publicClient.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: BATCH_SETTLEMENT.abi,
    functionName: 'receivers',
    args: [stack.payTo, stack.asset],
  })) as [bigint, bigint];
  return { totalClaimed, totalSettled };
}

async function read(functionName: string, args: readonly unknown[]): Promise<unknown> {
  return stack.chain.publicClient.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: BATCH_SETTLEMENT.abi,
    functionName,
    args,
  });
}

/** The payer's, the payee's and the batch contract's test USDC. */
async function balances(): Promise<{ payer: bigint; payee: bigint; contract: bigint }> {
  return {
    payer: await stack.balanceOf(DEV_PAYER.address),
    payee: await stack.balanceOf(stack.payTo),
    contract: await stack.balanceOf(BATCH_SETTLEMENT_ADDRESS),
  };
}

/** Send a contract call from `wallet` (simulated first, so a revert is named) and wait for it. */
async function send(
  wallet: DevWalletClient,
  address: Address,
  functionName: string,
  args: readonly unknown[],
): Promise<Hex> {
  const { request } = await wallet.simulateContract({ address, abi: ABI, functionName, args });
  const hash = await wallet.writeContract(request);
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

/** The custom error (or `revert("…")` reason) a simulated call reverted with. */
async function revertOf(
  wallet: DevWalletClient,
  address: Address,
  functionName: string,
  args: readonly unknown[],
): Promise<string> {
  const error = await wallet.simulateContract({ address, abi: ABI, functionName, args }).then(
    () => {
      throw new Error(`\`${functionName}\` succeeded`);
    },
    (thrown: unknown) => thrown,
  );
  const data = revertData(error);
  if (data === undefined) throw error;
  const decoded = decodeErrorResult({ abi: ABI, data });
  return decoded.errorName === 'Error' ? String(decoded.args?.[0]) : decoded.errorName;
}

/** The first revert data (`0x…`) along an error's chain of causes. */
function revertData(error: unknown): Hex | undefined {
  for (
    let current = error;
    current instanceof Object;
    current = (current as { cause?: unknown }).cause
  ) {
    const { data } = current as { data?: unknown };
    if (typeof data === 'string' && data.startsWith('0x')) return data as Hex;
  }
  return undefined;
}

/** The terms the channel manager sends its claims, settlements and refunds with. */
function managerTerms(): PaymentRequirements {
  return {
    scheme: 'batch-settlement',
    network: stack.network,
    asset: stack.asset,
    amount: '0',
    payTo: stack.payTo,
    maxTimeoutSeconds: 0,
    extra: {},
  };
}

/** A `claim` request to the facilitator, as the channel manager sends one. */
function claimPayload(
  claims: { channel: ChannelConfig; maxClaimableAmount: bigint; signature: Hex; total: bigint }[],
): PaymentPayload {
  return {
    x402Version: 2,
    accepted: managerTerms(),
    payload: {
      type: 'claim',
      claims: claims.map((claim) => ({
        voucher: {
          channel: claim.channel,
          maxClaimableAmount: claim.maxClaimableAmount.toString(),
        },
        signature: claim.signature,
        totalClaimed: claim.total.toString(),
      })),
    },
  };
}

function settlePayload(): PaymentPayload {
  return {
    x402Version: 2,
    accepted: managerTerms(),
    payload: { type: 'settle', receiver: stack.payTo, token: stack.asset },
  };
}

describe('/supported and the server’s terms', () => {
  test('the facilitator advertises its receiver authorizer; the official server scheme puts it in its terms', async () => {
    const supported = await facilitator.getSupported();
    expect(supported.kinds).toContainEqual({
      x402Version: 2,
      scheme: 'batch-settlement',
      network: 'eip155:8453',
      extra: { receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address },
    });
    expect(await termsFor()).toEqual({
      scheme: 'batch-settlement',
      network: 'eip155:8453',
      amount: PRICE.toString(),
      asset: stack.asset,
      payTo: stack.payTo,
      maxTimeoutSeconds: 60,
      extra: {
        name: 'USD Coin',
        version: '2',
        receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address,
        withdrawDelay: 900,
        minDeposit: DEPOSIT.toString(),
      },
    });
  });
});

describe('a channel: one deposit, then vouchers; claimed, settled and refunded by the server', () => {
  const salt = randomSalt();
  let payer: ReturnType<typeof payerClient>;
  let terms: PaymentRequirements;
  let config: ChannelConfig;
  let channelId: Hex;
  /** Each call's payload, in order. */
  const payloads: PaymentPayload[] = [];
  let start: Awaited<ReturnType<typeof balances>>;

  beforeAll(async () => {
    payer = payerClient(salt);
    terms = await termsFor();
    config = payer.scheme.buildChannelConfig(terms);
    channelId = computeChannelId(config, stack.network);
    start = await balances();
  });

  test('the first call deposits ten calls’ worth through the ERC-3009 collector, with a voucher for one call', async () => {
    const { payload, verified, settled } = await paidCall(payer.client, terms);
    payloads.push(payload);
    expect(verified).toMatchObject({ isValid: true, payer: DEV_PAYER.address });
    const deposit = payload.payload as unknown as BatchSettlementDepositPayload;
    expect(deposit).toMatchObject({
      type: 'deposit',
      channelConfig: {
        payer: DEV_PAYER.address,
        payerAuthorizer: DEV_PAYER.address,
        receiver: stack.payTo,
        receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address,
        token: stack.asset,
        withdrawDelay: 900,
        salt,
      },
      voucher: { channelId, maxClaimableAmount: PRICE.toString() },
      deposit: { amount: DEPOSIT.toString() },
    });
    expect(deposit.deposit.authorization.erc3009Authorization).toBeDefined();
    // The contract names the channel as the official client does.
    expect(await read('getChannelId', [config])).toBe(channelId);

    expect(settled).toMatchObject({ success: true, network: 'eip155:8453' });
    expect(isHash(settled?.transaction ?? '')).toBe(true);
    const receipt = await stack.chain.publicClient.getTransactionReceipt({
      hash: settled?.transaction as Hex,
    });
    expect(receipt.from).toBe(DEV_FACILITATOR.address.toLowerCase());
    expect(receipt.to).toBe(BATCH_SETTLEMENT_ADDRESS.toLowerCase());
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });
    expect(await balances()).toEqual({
      payer: start.payer - DEPOSIT,
      payee: start.payee,
      contract: start.contract + DEPOSIT,
    });
  });

  test('four more calls are vouchers only: cumulative ceilings of 2 to 5 calls, nothing moves on chain', async () => {
    for (let call = 2n; call <= 5n; call++) {
      const { payload, verified, settled } = await paidCall(payer.client, terms);
      payloads.push(payload);
      expect(verified.isValid).toBe(true);
      const voucher = payload.payload as unknown as BatchSettlementVoucherPayload;
      expect(voucher.type).toBe('voucher');
      expect(voucher.voucher.maxClaimableAmount).toBe((call * PRICE).toString());
      expect(settled).toMatchObject({ success: true, transaction: '' });
    }
    expect(await serverScheme.getStorage().get(channelId)).toMatchObject({
      chargedCumulativeAmount: (5n * PRICE).toString(),
      signedMaxClaimable: (5n * PRICE).toString(),
    });
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });
    expect((await balances()).payee).toBe(start.payee);
  });

  test('claim and settle move exactly the five calls to the payee', async () => {
    const before = await balances();
    const ledger = await payeeLedger();
    const { claims, settle } = await manager.claimAndSettle();
    expect(claims).toHaveLength(1);
    expect(claims[0]?.vouchers).toBe(1);
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 5n * PRICE });
    expect(await payeeLedger()).toEqual({
      totalClaimed: ledger.totalClaimed + 5n * PRICE,
      totalSettled: ledger.totalSettled + 5n * PRICE,
    });
    expect(await balances()).toEqual({
      payer: before.payer,
      payee: before.payee + 5n * PRICE,
      contract: before.contract - 5n * PRICE,
    });
    const receipt = await stack.chain.publicClient.getTransactionReceipt({
      hash: settle?.transaction as Hex,
    });
    const [settled] = parseEventLogs({ abi: ABI, eventName: 'Settled', logs: receipt.logs });
    expect(settled?.args).toMatchObject({
      receiver: stack.payTo,
      token: stack.asset,
      sender: DEV_FACILITATOR.address,
      amount: 5n * PRICE,
    });
  });

  test('a voucher above the channel’s balance is refused, by the server and by the facilitator', async () => {
    // A client that may not top up: a call of 10 times the price needs 15 calls’ worth of
    // a channel holding 10, so it signs a voucher-only payment over the balance.
    const refusing = payerClient(salt, () => false);
    const expensive = await termsFor({
      amount: DEPOSIT.toString(),
      asset: stack.asset,
      extra: { ...stack.extra },
    });
    const before = await balances();
    const { payload, verified, settled } = await paidCall(refusing.client, expensive);
    const voucher = payload.payload as unknown as BatchSettlementVoucherPayload;
    expect(voucher.type).toBe('voucher');
    expect(voucher.voucher.maxClaimableAmount).toBe((5n * PRICE + DEPOSIT).toString());
    expect(verified).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_exceeds_balance',
    });
    expect(settled).toBeUndefined();
    expect(await facilitator.verify(payload, expensive)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_exceeds_balance',
    });
    expect(await balances()).toEqual(before);
  });

  test('a voucher cannot be redeemed twice: replayed, claimed lower, or claimed again', async () => {
    const before = await balances();
    const ledger = await payeeLedger();
    const [, , third, , fifth] = payloads as [
      PaymentPayload,
      PaymentPayload,
      PaymentPayload,
      PaymentPayload,
      PaymentPayload,
    ];
    const thirdVoucher = (third.payload as unknown as BatchSettlementVoucherPayload).voucher;
    const fifthVoucher = (fifth.payload as unknown as BatchSettlementVoucherPayload).voucher;

    // The resource server: the voucher's ceiling is not its charged total plus this call.
    expect(await server.verifyPayment(third, terms)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_amount_mismatch',
    });
    // The facilitator: 3 calls' ceiling is below the 5 claimed on chain.
    expect(await facilitator.verify(third, terms)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_below_claimed',
    });
    // The chain: a claim of 3 calls after 5 reverts (the facilitator simulates it first).
    const lower = await facilitator.settle(
      claimPayload([
        {
          channel: config,
          maxClaimableAmount: 3n * PRICE,
          signature: thirdVoucher.signature,
          total: 3n * PRICE,
        },
      ]),
      managerTerms(),
    );
    expect(lower).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
    });
    // The last voucher claimed again: the total is already 5 calls, the claim moves nothing,
    // and there is nothing to settle.
    const again = await facilitator.settle(
      claimPayload([
        {
          channel: config,
          maxClaimableAmount: 5n * PRICE,
          signature: fifthVoucher.signature,
          total: 5n * PRICE,
        },
      ]),
      managerTerms(),
    );
    expect(again.success).toBe(true);
    expect(await facilitator.settle(settlePayload(), managerTerms())).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_nothing_to_settle',
    });
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 5n * PRICE });
    expect(await payeeLedger()).toEqual(ledger);
    expect(await balances()).toEqual(before);
  });

  test('a refund returns the unclaimed rest to the payer, after claiming what was charged since', async () => {
    for (let call = 0; call < 2; call++) {
      const { verified } = await paidCall(payer.client, terms);
      expect(verified.isValid).toBe(true);
    }
    const before = await balances();
    const results = await manager.refund([channelId]);
    expect(results).toEqual([{ channel: channelId, transaction: expect.any(String) }]);
    // Seven calls charged: the two since the last claim are claimed in the same transaction,
    // and the three calls' worth left goes back to the payer.
    expect(await channelOf(channelId)).toEqual({ balance: 7n * PRICE, totalClaimed: 7n * PRICE });
    expect(await read('refundNonce', [channelId])).toBe(1n);
    expect(await balances()).toEqual({
      payer: before.payer + 3n * PRICE,
      payee: before.payee,
      contract: before.contract - 3n * PRICE,
    });
    expect(await serverScheme.getStorage().get(channelId)).toBeUndefined();

    await manager.settle();
    // In all: the payer paid seven calls, the payee got them, the contract keeps nothing.
    expect(await balances()).toEqual({
      payer: start.payer - 7n * PRICE,
      payee: start.payee + 7n * PRICE,
      contract: start.contract,
    });
  });
});

describe('malformed batch-settlement requests', () => {
  test('a voucher whose amount is not a number, or a claim over uint128: 400 naming the field, not a failure', async () => {
    const payer = payerClient(randomSalt());
    const terms = await termsFor();
    const payload = await payer.client.createPaymentPayload({
      x402Version: 2,
      resource: { url: RESOURCE },
      accepts: [terms],
    });
    const deposit = payload.payload as unknown as BatchSettlementDepositPayload;
    const broken = {
      ...payload,
      payload: { ...deposit, voucher: { ...deposit.voucher, maxClaimableAmount: 'lots' } },
    };
    expect(
      await post(`${stack.facilitatorUrl}/verify`, facilitatorBody(broken, terms)),
    ).toMatchObject({
      status: 400,
      body: {
        isValid: false,
        invalidReason: 'invalid_payload',
        invalidMessage: expect.stringContaining(
          'paymentPayload.payload.voucher.maxClaimableAmount',
        ),
      },
    });
    const claim = claimPayload([
      {
        channel: deposit.channelConfig,
        maxClaimableAmount: 2n ** 128n,
        signature: deposit.voucher.signature,
        total: 1n,
      },
    ]);
    expect(
      await post(`${stack.facilitatorUrl}/settle`, facilitatorBody(claim, managerTerms())),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        errorReason: 'invalid_payload',
        errorMessage: expect.stringContaining('claims.0.voucher.maxClaimableAmount'),
      },
    });
    const unknown = { ...claim, payload: { type: 'withdraw' } };
    expect(
      await post(`${stack.facilitatorUrl}/settle`, facilitatorBody(unknown, managerTerms())),
    ).toMatchObject({
      status: 400,
      body: { errorReason: 'invalid_payload', errorMessage: expect.stringContaining('type') },
    });
  });
});

describe('a deposit through Permit2', () => {
  test('the official client signs a Permit2 transfer to the Permit2 collector, bound to the channel; it lands in the channel', async () => {
    const payer = payerClient(randomSalt());
    const terms = await termsFor({
      amount: PRICE.toString(),
      asset: stack.asset,
      extra: { ...stack.extra, assetTransferMethod: 'permit2' },
    });
    const channelId = computeChannelId(payer.scheme.buildChannelConfig(terms), stack.network);
    const before = await balances();
    const { payload, verified, settled } = await paidCall(payer.client, terms);
    expect(verified.isValid).toBe(true);
    const deposit = payload.payload as unknown as BatchSettlementDepositPayload;
    expect(deposit.deposit.authorization.permit2Authorization).toMatchObject({
      from: DEV_PAYER.address,
      permitted: { token: stack.asset, amount: DEPOSIT.toString() },
      spender: PERMIT2_DEPOSIT_COLLECTOR_ADDRESS,
      witness: { channelId },
    });
    expect(settled?.success).toBe(true);
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });
    expect(await balances()).toEqual({
      payer: before.payer - DEPOSIT,
      payee: before.payee,
      contract: before.contract + DEPOSIT,
    });

    // The server claims its call and hands the rest back.
    await manager.claimAndSettle();
    await manager.refund([channelId]);
    expect(await channelOf(channelId)).toEqual({ balance: PRICE, totalClaimed: PRICE });
    expect(await balances()).toEqual({
      payer: before.payer - PRICE,
      payee: before.payee + PRICE,
      contract: before.contract,
    });
  });
});

describe('the contract on its own', () => {
  /**
   * A channel of the payer's with the facilitator's receiver authorizer, funded with 10,000
   * units through the ERC-3009 collector by hand: no facilitator checks in front of the
   * contract, every refusal below is the chain's.
   */
  let config: ChannelConfig;
  let channelId: Hex;
  const payer = privateKeyToAccount(DEV_PAYER.privateKey);
  const authorizer = privateKeyToAccount(DEV_RECEIVER_AUTHORIZER.privateKey);
  const stranger = privateKeyToAccount(generatePrivateKey());

  function signVoucher(maxClaimableAmount: bigint, signer = payer): Promise<Hex> {
    return signer.signTypedData({
      domain: DOMAIN,
      types: voucherTypes,
      primaryType: 'Voucher',
      message: { channelId, maxClaimableAmount },
    });
  }

  function signClaimBatch(
    entries: { maxClaimableAmount: bigint; totalClaimed: bigint }[],
    signer = authorizer,
  ): Promise<Hex> {
    return signer.signTypedData({
      domain: DOMAIN,
      types: claimBatchTypes,
      primaryType: 'ClaimBatch',
      message: { claims: entries.map((entry) => ({ channelId, ...entry })) },
    });
  }

  /** `claimWithSignature`'s arguments: one row, its voucher signed by the payer. */
  async function claimArgs(
    maxClaimableAmount: bigint,
    totalClaimed: bigint,
    options: {
      voucherSigner?: typeof payer;
      authorizerSigner?: typeof payer;
      signedTotal?: bigint;
    } = {},
  ) {
    const row = {
      voucher: { channel: config, maxClaimableAmount },
      signature: await signVoucher(maxClaimableAmount, options.voucherSigner),
      totalClaimed,
    };
    const authorization = await signClaimBatch(
      [{ maxClaimableAmount, totalClaimed: options.signedTotal ?? totalClaimed }],
      options.authorizerSigner,
    );
    return [[row], authorization] as const;
  }

  /** `deposit`'s arguments for `amount` of the payer's, through the ERC-3009 collector. */
  async function depositArgs(channel: ChannelConfig, amount: bigint) {
    const salt = BigInt(randomSalt());
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 600);
    const id = computeChannelId(channel, stack.network);
    const signature = await payer.signTypedData({
      domain: { ...stack.extra, chainId: DEV_CHAIN_ID, verifyingContract: stack.asset },
      types: {
        ReceiveWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'ReceiveWithAuthorization',
      message: {
        from: DEV_PAYER.address,
        to: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        value: amount,
        validAfter: 0n,
        validBefore,
        // The collector's nonce: the channel and a fresh salt.
        nonce: keccak256(encodeAbiParameters(parseAbiParameters('bytes32, uint256'), [id, salt])),
      },
    });
    const collectorData = encodeAbiParameters(
      parseAbiParameters('uint256, uint256, uint256, bytes'),
      [0n, validBefore, salt, signature],
    );
    return [channel, amount, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, collectorData] as const;
  }

  beforeAll(async () => {
    config = {
      payer: DEV_PAYER.address,
      payerAuthorizer: DEV_PAYER.address,
      receiver: stack.payTo,
      receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address,
      token: stack.asset,
      withdrawDelay: 900,
      salt: randomSalt(),
    };
    channelId = computeChannelId(config, stack.network);
  });

  test('names channels and hashes vouchers, claim batches and refunds as the official EIP-712 code does', async () => {
    expect(await read('DOMAIN_SEPARATOR', [])).toBe(domainSeparator({ domain: DOMAIN }));
    expect(await read('CHANNEL_CONFIG_TYPEHASH', [])).toBe(
      keccak256(
        toBytes(
          'ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)',
        ),
      ),
    );
    expect(await read('getChannelId', [config])).toBe(channelId);
    expect(await read('getVoucherDigest', [channelId, 1234n])).toBe(
      hashTypedData({
        domain: DOMAIN,
        types: voucherTypes,
        primaryType: 'Voucher',
        message: { channelId, maxClaimableAmount: 1234n },
      }),
    );
    expect(await read('getRefundDigest', [channelId, 7n, 99n])).toBe(
      hashTypedData({
        domain: DOMAIN,
        types: refundTypes,
        primaryType: 'Refund',
        message: { channelId, nonce: 7n, amount: 99n },
      }),
    );
    const [rows] = await claimArgs(3000n, 2000n);
    expect(await read('getClaimBatchDigest', [rows])).toBe(
      hashTypedData({
        domain: DOMAIN,
        types: claimBatchTypes,
        primaryType: 'ClaimBatch',
        message: { claims: [{ channelId, maxClaimableAmount: 3000n, totalClaimed: 2000n }] },
      }),
    );
  });

  test('a deposit credits its channel once: its authorization is bound to the channel and spent', async () => {
    const args = await depositArgs(config, DEPOSIT);
    // Only the settlement contract may have the collector pull a signed deposit.
    expect(
      await revertOf(facilitatorWallet, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, 'collect', [
        DEV_PAYER.address,
        stack.asset,
        DEPOSIT,
        channelId,
        args[3],
      ]),
    ).toBe('OnlySettlement');
    // The same authorization for another channel: the nonce differs, the signature fails.
    expect(
      await revertOf(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'deposit', [
        { ...config, salt: randomSalt() },
        ...args.slice(1),
      ]),
    ).toBe('FiatTokenV2: invalid signature');
    await send(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'deposit', args);
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });
    expect(await revertOf(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'deposit', args)).toBe(
      'FiatTokenV2: authorization is used or canceled',
    );
    expect(
      await revertOf(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'deposit', [
        ...(await depositArgs({ ...config, withdrawDelay: 899 }, PRICE)),
      ]),
    ).toBe('WithdrawDelayOutOfRange');
  });

  test('a claim over the balance reverts, even on a voucher that allows it', async () => {
    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(2n * DEPOSIT, DEPOSIT + 1n),
      ),
    ).toBe('ClaimExceedsBalance');
  });

  test('a claim over its voucher’s ceiling reverts', async () => {
    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(3000n, 3001n),
      ),
    ).toBe('ClaimExceedsCeiling');
  });

  test('a wrong signature reverts: the authorizer’s, or the payer’s voucher', async () => {
    // The batch signed by someone other than the channel's receiver authorizer.
    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(4000n, 4000n, { authorizerSigner: payer }),
      ),
    ).toBe('InvalidSignature');
    // The authorizer signed a total of 1000; 4000 is submitted.
    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(4000n, 4000n, { signedTotal: 1000n }),
      ),
    ).toBe('InvalidSignature');
    // The voucher signed by someone other than the payer authorizer.
    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(4000n, 4000n, { voucherSigner: stranger }),
      ),
    ).toBe('InvalidSignature');
    // Without a signature, only the receiver side may claim.
    const [rows] = await claimArgs(4000n, 4000n);
    expect(await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'claim', [rows])).toBe(
      'NotAuthorizedToClaim',
    );
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });
  });

  test('claims only raise the total: the same total again moves nothing, a lower one reverts', async () => {
    const ledger = await payeeLedger();
    const hash = await send(
      facilitatorWallet,
      BATCH_SETTLEMENT_ADDRESS,
      'claimWithSignature',
      await claimArgs(4000n, 4000n),
    );
    const logs = (await stack.chain.publicClient.getTransactionReceipt({ hash })).logs;
    expect(parseEventLogs({ abi: ABI, eventName: 'Claimed', logs })[0]?.args).toMatchObject({
      channelId,
      claimAmount: 4000n,
      newTotalClaimed: 4000n,
    });
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 4000n });
    expect(await payeeLedger()).toEqual({ ...ledger, totalClaimed: ledger.totalClaimed + 4000n });

    const again = await send(
      facilitatorWallet,
      BATCH_SETTLEMENT_ADDRESS,
      'claimWithSignature',
      await claimArgs(4000n, 4000n),
    );
    const againLogs = (await stack.chain.publicClient.getTransactionReceipt({ hash: again })).logs;
    expect(parseEventLogs({ abi: ABI, eventName: 'Claimed', logs: againLogs })).toEqual([]);
    expect(await payeeLedger()).toEqual({ ...ledger, totalClaimed: ledger.totalClaimed + 4000n });

    expect(
      await revertOf(
        facilitatorWallet,
        BATCH_SETTLEMENT_ADDRESS,
        'claimWithSignature',
        await claimArgs(4000n, 3999n),
      ),
    ).toBe('ClaimBelowClaimed');
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 4000n });
  });

  test('settle pays what was claimed once', async () => {
    const before = await balances();
    const ledger = await payeeLedger();
    const owed = ledger.totalClaimed - ledger.totalSettled;
    expect(owed).toBe(4000n);
    await send(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'settle', [stack.payTo, stack.asset]);
    expect((await balances()).payee).toBe(before.payee + owed);
    const hash = await send(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'settle', [
      stack.payTo,
      stack.asset,
    ]);
    const logs = (await stack.chain.publicClient.getTransactionReceipt({ hash })).logs;
    expect(parseEventLogs({ abi: ABI, eventName: 'Settled', logs })).toEqual([]);
    expect((await balances()).payee).toBe(before.payee + owed);
  });

  test('a signed refund: for the current nonce only, by the receiver authorizer, capped to the unclaimed balance, once', async () => {
    const signRefund = (nonce: bigint, amount: bigint, signer = authorizer) =>
      signer.signTypedData({
        domain: DOMAIN,
        types: refundTypes,
        primaryType: 'Refund',
        message: { channelId, nonce, amount },
      });
    const amount = 2n * DEPOSIT;
    expect(
      await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'refundWithSignature', [
        config,
        amount,
        1n,
        await signRefund(1n, amount),
      ]),
    ).toBe('InvalidRefundNonce');
    expect(
      await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'refundWithSignature', [
        config,
        amount,
        0n,
        await signRefund(0n, amount, payer),
      ]),
    ).toBe('InvalidSignature');
    expect(await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'refund', [config, amount])).toBe(
      'NotAuthorizedToRefund',
    );

    const before = await balances();
    const args = [config, amount, 0n, await signRefund(0n, amount)] as const;
    await send(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'refundWithSignature', args);
    // 10,000 deposited, 4,000 claimed: 6,000 back, the claimed 4,000 stay the payee's.
    expect(await balances()).toEqual({
      ...before,
      payer: before.payer + DEPOSIT - 4000n,
      contract: before.contract - (DEPOSIT - 4000n),
    });
    expect(await channelOf(channelId)).toEqual({ balance: 4000n, totalClaimed: 4000n });
    expect(await read('refundNonce', [channelId])).toBe(1n);
    expect(await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'refundWithSignature', args)).toBe(
      'InvalidRefundNonce',
    );
  });

  test('only the payer (or its authorizer) may withdraw', async () => {
    expect(
      await revertOf(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'initiateWithdraw', [config, 1n]),
    ).toBe('NotAuthorizedToWithdraw');
    expect(
      await revertOf(facilitatorWallet, BATCH_SETTLEMENT_ADDRESS, 'finalizeWithdraw', [config]),
    ).toBe('NotAuthorizedToWithdraw');
    expect(
      await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'finalizeWithdraw', [config]),
    ).toBe('WithdrawalNotPending');
  });
});

// Last: it moves the chain's clock a withdrawal delay past the wall clock, and the official
// clients sign deposits valid for the terms' timeout from the wall clock's now.
describe('the payer withdraws after the delay', () => {
  test('the payer asks, the server claims what it charged meanwhile, and after the delay the payer takes the rest', async () => {
    const payer = payerClient(randomSalt());
    const terms = await termsFor();
    const config = payer.scheme.buildChannelConfig(terms);
    const channelId = computeChannelId(config, stack.network);
    const start = await balances();
    for (let call = 0; call < 3; call++) {
      const { verified } = await paidCall(payer.client, terms);
      expect(verified.isValid).toBe(true);
    }
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 0n });

    await send(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'initiateWithdraw', [config, DEPOSIT]);
    const [amount, initiatedAt] = (await read('pendingWithdrawals', [channelId])) as [
      bigint,
      number,
    ];
    expect(amount).toBe(DEPOSIT);
    expect(initiatedAt).toBeGreaterThan(0);
    expect(
      await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'initiateWithdraw', [config, 1n]),
    ).toBe('WithdrawalAlreadyPending');
    expect(
      await revertOf(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'finalizeWithdraw', [config]),
    ).toBe('WithdrawDelayNotElapsed');

    // The delay is the server's time to claim the three calls it served.
    await manager.claim();
    expect(await channelOf(channelId)).toEqual({ balance: DEPOSIT, totalClaimed: 3n * PRICE });

    await stack.chain.provider.request({
      method: 'evm_increaseTime',
      params: [toHex(config.withdrawDelay)],
    } as never);
    await stack.chain.provider.request({ method: 'evm_mine', params: [] } as never);
    await send(payerWallet, BATCH_SETTLEMENT_ADDRESS, 'finalizeWithdraw', [config]);
    expect(await channelOf(channelId)).toEqual({ balance: 3n * PRICE, totalClaimed: 3n * PRICE });
    expect(await read('pendingWithdrawals', [channelId])).toEqual([0n, 0]);

    await manager.settle();
    expect(await balances()).toEqual({
      payer: start.payer - 3n * PRICE,
      payee: start.payee + 3n * PRICE,
      contract: start.contract,
    });
  });
});
