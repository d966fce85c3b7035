import { HTTPFacilitatorClient } from '@x402/core/http';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { x402UptoPermit2ProxyABI } from '@x402/evm';
import { getPermit2AllowanceReadParams } from '@x402/evm/upto/client';
import { UptoEvmScheme } from '@x402/evm/upto/server';
import { type Address, type Hex, isHash, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEV_FACILITATOR,
  DEV_PAY_TO,
  DEV_TOKEN_ADDRESS,
  type PaymentStack,
  startPaymentStack,
  TEST_USDC,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from '../src/index.js';
import {
  facilitatorBody,
  post,
  randomPermit2Nonce,
  signUptoAuthorization,
  signUptoPayment,
  type UptoAuthorization,
  uptoPayment,
} from './helpers.js';

/** A page of a crawl costs 0.001 test USDC. */
const PAGE_PRICE = 1_000n;
/** The client authorizes up to 50 pages… */
const MAX_PAGES = 50n;
/** …and the crawl delivers 37. */
const DELIVERED_PAGES = 37n;
const MAXIMUM = MAX_PAGES * PAGE_PRICE;
const DELIVERED = DELIVERED_PAGES * PAGE_PRICE;

let stack: PaymentStack;
let facilitator: HTTPFacilitatorClient;
/** The official resource server with the official upto server scheme, as a service would run it. */
let server: x402ResourceServer;
let verifyUrl: string;
let settleUrl: string;
const unexpected: unknown[] = [];

beforeAll(async () => {
  stack = await startPaymentStack({ onError: (error) => unexpected.push(error) });
  verifyUrl = `${stack.facilitatorUrl}/verify`;
  settleUrl = `${stack.facilitatorUrl}/settle`;
  facilitator = new HTTPFacilitatorClient({ url: stack.facilitatorUrl });
  server = new x402ResourceServer(facilitator).register(stack.network, new UptoEvmScheme());
  // Reads GET /supported: the upto kind and its `extra.facilitatorAddress`.
  await server.initialize();
});

afterAll(async () => {
  await stack?.close();
});

/** The official server scheme's terms for up to `maximum` atomic units of the test token. */
async function uptoTerms(maximum: bigint): Promise<PaymentRequirements> {
  const [requirements] = await server.buildPaymentRequirements({
    scheme: 'upto',
    network: stack.network,
    payTo: stack.payTo,
    price: { amount: maximum.toString(), asset: stack.asset, extra: { ...stack.extra } },
    maxTimeoutSeconds: 60,
  });
  if (!requirements) throw new Error('the server built no payment requirements');
  return requirements;
}

/** The same terms with `amount` set to what is to be charged: the settle-time requirements. */
function chargeOf(requirements: PaymentRequirements, amount: bigint): PaymentRequirements {
  return { ...requirements, amount: amount.toString() };
}

/** The payer's and the payee's test USDC balances. */
async function balances(): Promise<[bigint, bigint]> {
  return [await stack.balanceOf(stack.payer.address), await stack.balanceOf(stack.payTo)];
}

function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** A hand-made authorization from the payer for `terms`, valid for a minute unless overridden. */
function authorizationFor(
  terms: PaymentRequirements,
  overrides: Partial<UptoAuthorization> = {},
): UptoAuthorization {
  return {
    from: stack.payer.address,
    permitted: { token: stack.asset, amount: terms.amount },
    spender: UPTO_PERMIT2_PROXY_ADDRESS,
    nonce: randomPermit2Nonce(),
    deadline: (nowSeconds() + 60n).toString(),
    witness: { to: stack.payTo, facilitator: stack.facilitatorAddress, validAfter: '0' },
    ...overrides,
  };
}

describe('the payment terms of the official upto server scheme', () => {
  test('a price in dollars: `amount` is the maximum in atomic units; `extra` names the token, Permit2 and the facilitator', async () => {
    const [requirements] = await server.buildPaymentRequirements({
      scheme: 'upto',
      network: stack.network,
      payTo: stack.payTo,
      price: '$0.05',
      maxTimeoutSeconds: 300,
    });
    expect(requirements).toEqual({
      scheme: 'upto',
      network: 'eip155:8453',
      amount: '50000',
      asset: DEV_TOKEN_ADDRESS,
      payTo: DEV_PAY_TO,
      maxTimeoutSeconds: 300,
      extra: {
        name: 'USD Coin',
        version: '2',
        assetTransferMethod: 'permit2',
        facilitatorAddress: DEV_FACILITATOR.address,
      },
    });
  });

  test('a price as an asset amount: the same terms', async () => {
    expect(await uptoTerms(MAXIMUM)).toEqual({
      scheme: 'upto',
      network: 'eip155:8453',
      amount: MAXIMUM.toString(),
      asset: DEV_TOKEN_ADDRESS,
      payTo: DEV_PAY_TO,
      maxTimeoutSeconds: 60,
      extra: {
        name: 'USD Coin',
        version: '2',
        assetTransferMethod: 'permit2',
        facilitatorAddress: DEV_FACILITATOR.address,
      },
    });
  });
});

describe('an upto payment for 50 pages, settled for the 37 delivered', () => {
  let terms: PaymentRequirements;
  let payload: PaymentPayload;

  beforeAll(async () => {
    terms = await uptoTerms(MAXIMUM);
    payload = await signUptoPayment(stack.payer.privateKey, terms);
  });

  test('the official client signs a Permit2 transfer of at most the maximum, to the payee, through the proxy, for this facilitator', () => {
    const { permit2Authorization } = payload.payload as { permit2Authorization: UptoAuthorization };
    expect(payload.accepted).toEqual(terms);
    expect(permit2Authorization).toMatchObject({
      from: stack.payer.address,
      permitted: { token: stack.asset, amount: MAXIMUM.toString() },
      spender: UPTO_PERMIT2_PROXY_ADDRESS,
      witness: { to: stack.payTo, facilitator: DEV_FACILITATOR.address, validAfter: '0' },
    });
    // The deadline is the terms' maxTimeoutSeconds from now.
    const deadline = BigInt(permit2Authorization.deadline);
    expect(deadline).toBeGreaterThan(nowSeconds() + 30n);
    expect(deadline).toBeLessThanOrEqual(nowSeconds() + 60n);
  });

  test('verifies against the maximum', async () => {
    expect(await facilitator.verify(payload, terms)).toEqual({
      isValid: true,
      payer: stack.payer.address,
    });
  });

  test('settles for 37 pages: the payee gets exactly that, the payer pays exactly that', async () => {
    const [payerBefore, payeeBefore] = await balances();
    // The official resource server's way: the maximum's terms, and the amount to charge.
    const settled = await server.settlePayment(payload, terms, undefined, undefined, {
      amount: DELIVERED.toString(),
    });
    expect(settled).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: stack.payer.address,
      amount: DELIVERED.toString(),
    });
    expect(await balances()).toEqual([payerBefore - DELIVERED, payeeBefore + DELIVERED]);

    expect(isHash(settled.transaction)).toBe(true);
    const receipt = await stack.chain.publicClient.getTransactionReceipt({
      hash: settled.transaction as Hex,
    });
    expect(receipt).toMatchObject({
      status: 'success',
      from: DEV_FACILITATOR.address.toLowerCase(),
    });
    expect(receipt.to?.toLowerCase()).toBe(UPTO_PERMIT2_PROXY_ADDRESS.toLowerCase());
    const transfers = parseEventLogs({
      abi: TEST_USDC.abi,
      logs: receipt.logs,
      eventName: 'Transfer',
    });
    expect(transfers.map((log) => log.args)).toEqual([
      { from: stack.payer.address, to: stack.payTo, value: DELIVERED },
    ]);
    const settledEvents = parseEventLogs({ abi: x402UptoPermit2ProxyABI, logs: receipt.logs });
    expect(settledEvents.map((log) => log.eventName)).toEqual(['Settled']);
  });

  test('the same payment again: refused as a spent nonce, and nothing moves', async () => {
    const before = await balances();
    expect(await post(verifyUrl, facilitatorBody(payload, terms))).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'permit2_invalid_nonce', payer: stack.payer.address },
    });
    const settle = await post(settleUrl, facilitatorBody(payload, chargeOf(terms, PAGE_PRICE)));
    expect(settle).toMatchObject({
      status: 200,
      body: {
        success: false,
        errorReason: 'permit2_invalid_nonce',
        errorMessage: expect.stringContaining('already used'),
        transaction: '',
      },
    });
    expect(await balances()).toEqual(before);
  });
});

describe('upto payments that must not pass', () => {
  test('settling more than the maximum: refused, and the payment still settles within it', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const payload = await signUptoPayment(stack.payer.privateKey, terms);
    const before = await balances();
    const tooMuch = await post(settleUrl, facilitatorBody(payload, chargeOf(terms, MAXIMUM + 1n)));
    expect(tooMuch).toMatchObject({
      status: 200,
      body: {
        success: false,
        errorReason: 'invalid_upto_evm_payload_settlement_exceeds_amount',
        transaction: '',
      },
    });
    expect(await balances()).toEqual(before);
    // Nothing was spent: the whole maximum can still be charged, once.
    const full = await post(settleUrl, facilitatorBody(payload, chargeOf(terms, MAXIMUM)));
    expect(full.body).toMatchObject({ success: true, amount: MAXIMUM.toString() });
    expect(await balances()).toEqual([before[0] - MAXIMUM, before[1] + MAXIMUM]);
  });

  test('a signature over another maximum: refused as an invalid signature, and nothing moves', async () => {
    const terms = await uptoTerms(PAGE_PRICE);
    const payload = await signUptoPayment(stack.payer.privateKey, terms);
    const { permit2Authorization } = payload.payload as { permit2Authorization: UptoAuthorization };
    // Signed for 1 page; the payment now claims (and the terms ask) 50.
    const biggerTerms = { ...terms, amount: MAXIMUM.toString() };
    const tampered = {
      ...payload,
      accepted: biggerTerms,
      payload: {
        ...payload.payload,
        permit2Authorization: {
          ...permit2Authorization,
          permitted: { ...permit2Authorization.permitted, amount: MAXIMUM.toString() },
        },
      },
    };
    const before = await balances();
    expect(await post(verifyUrl, facilitatorBody(tampered, biggerTerms))).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'invalid_permit2_signature' },
    });
    expect(await post(settleUrl, facilitatorBody(tampered, biggerTerms))).toMatchObject({
      status: 200,
      body: { success: false, errorReason: 'invalid_permit2_signature', transaction: '' },
    });
    expect(await balances()).toEqual(before);
  });

  test('a signature by another key than the payer’s: refused', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const forged = await signUptoAuthorization(generatePrivateKey(), authorizationFor(terms));
    expect(await post(verifyUrl, facilitatorBody(uptoPayment(forged, terms), terms))).toMatchObject(
      {
        body: { isValid: false, invalidReason: 'invalid_permit2_signature' },
      },
    );
  });

  test('an expired deadline: refused, and nothing moves', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const expired = await signUptoAuthorization(
      stack.payer.privateKey,
      authorizationFor(terms, { deadline: (nowSeconds() - 60n).toString() }),
    );
    const body = facilitatorBody(uptoPayment(expired, terms), terms);
    const before = await balances();
    expect(await post(verifyUrl, body)).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'permit2_deadline_expired' },
    });
    expect(
      await post(settleUrl, facilitatorBody(body.paymentPayload, chargeOf(terms, PAGE_PRICE))),
    ).toMatchObject({
      status: 200,
      body: { success: false, errorReason: 'permit2_deadline_expired', transaction: '' },
    });
    expect(await balances()).toEqual(before);
  });

  test('a payment bound to another facilitator: refused', async () => {
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const terms = await uptoTerms(MAXIMUM);
    const otherTerms = { ...terms, extra: { ...terms.extra, facilitatorAddress: elsewhere } };
    const payload = await signUptoPayment(stack.payer.privateKey, otherTerms);
    expect(await post(verifyUrl, facilitatorBody(payload, otherTerms))).toMatchObject({
      body: { isValid: false, invalidReason: 'upto_facilitator_mismatch' },
    });
  });

  test('a payee other than the terms’: refused', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const otherPayee = { ...terms, payTo: privateKeyToAccount(generatePrivateKey()).address };
    const payload = await signUptoPayment(stack.payer.privateKey, otherPayee);
    expect(await post(verifyUrl, facilitatorBody(payload, terms))).toMatchObject({
      body: { isValid: false, invalidReason: 'invalid_permit2_recipient_mismatch' },
    });
  });

  test('a wallet that never approved Permit2 (and terms without gas sponsoring): permit2_allowance_required', async () => {
    const key = generatePrivateKey();
    await stack.mint(privateKeyToAccount(key).address, MAXIMUM);
    const terms = await uptoTerms(MAXIMUM);
    const payload = await signUptoPayment(key, terms);
    expect(await post(verifyUrl, facilitatorBody(payload, terms))).toMatchObject({
      body: { isValid: false, invalidReason: 'permit2_allowance_required' },
    });
  });

  test('an upto payload without its witness: 400, naming the field', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const payload = await signUptoPayment(stack.payer.privateKey, terms);
    const { permit2Authorization } = payload.payload as {
      permit2Authorization: Record<string, unknown>;
    };
    const { witness: _witness, ...withoutWitness } = permit2Authorization;
    const broken = {
      ...payload,
      payload: { ...payload.payload, permit2Authorization: withoutWitness },
    };
    expect(await post(verifyUrl, facilitatorBody(broken, terms))).toMatchObject({
      status: 400,
      body: {
        isValid: false,
        invalidReason: 'invalid_payload',
        invalidMessage: expect.stringContaining('permit2Authorization.witness'),
      },
    });
  });
});

describe('nothing delivered', () => {
  test('settling 0: success without a transaction, nothing moves, and the signature expires unused', async () => {
    const terms = await uptoTerms(MAXIMUM);
    const payload = await signUptoPayment(stack.payer.privateKey, terms);
    const before = await balances();
    expect(await facilitator.settle(payload, chargeOf(terms, 0n))).toMatchObject({
      success: true,
      transaction: '',
      amount: '0',
    });
    expect(await balances()).toEqual(before);
  });
});

describe('a wallet that never approved Permit2, with the eip2612GasSponsoring extension declared', () => {
  test('the official client adds a signed EIP-2612 approval; the facilitator approves and settles in one transaction', async () => {
    const key = generatePrivateKey();
    const wallet: Address = privateKeyToAccount(key).address;
    // Test USDC but no ether: this wallet could not send an approval itself.
    await stack.mint(wallet, MAXIMUM);
    const terms = await uptoTerms(MAXIMUM);
    const payload = await signUptoPayment(key, terms, {
      extensions: { eip2612GasSponsoring: { info: { version: '1' }, schema: {} } },
      publicClient: stack.chain.publicClient,
    });
    expect(payload.extensions).toMatchObject({
      eip2612GasSponsoring: {
        info: {
          from: wallet,
          asset: stack.asset,
          spender: stack.permit2,
          amount: MAXIMUM.toString(),
        },
      },
    });
    expect(await facilitator.verify(payload, terms)).toMatchObject({ isValid: true });
    const payeeBefore = await stack.balanceOf(stack.payTo);
    const settled = await facilitator.settle(payload, chargeOf(terms, DELIVERED));
    expect(settled).toMatchObject({ success: true, amount: DELIVERED.toString() });
    expect(await stack.balanceOf(wallet)).toBe(MAXIMUM - DELIVERED);
    expect(await stack.balanceOf(stack.payTo)).toBe(payeeBefore + DELIVERED);
    // The approval was for the maximum; Permit2 spent what was charged.
    const allowance = await stack.chain.publicClient.readContract(
      getPermit2AllowanceReadParams({ tokenAddress: stack.asset, ownerAddress: wallet }),
    );
    expect(allowance).toBe(MAXIMUM - DELIVERED);
    const receipt = await stack.chain.publicClient.getTransactionReceipt({
      hash: settled.transaction as Hex,
    });
    const proxyEvents = parseEventLogs({ abi: x402UptoPermit2ProxyABI, logs: receipt.logs });
    expect(proxyEvents.map((log) => log.eventName)).toEqual(['SettledWithPermit']);
  });
});

test('after all of these, nothing was unexpected', () => {
  expect(unexpected).toEqual([]);
});
