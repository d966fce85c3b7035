import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { type Hex, isHash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEV_PAY_TO, type PaymentStack, startPaymentStack } from '../src/index.js';
import { facilitatorBody, post, signPayment, v1Requirements, v2Requirements } from './helpers.js';

let stack: PaymentStack;
let verifyUrl: string;
let settleUrl: string;
const unexpected: unknown[] = [];

beforeAll(async () => {
  stack = await startPaymentStack({ onError: (error) => unexpected.push(error) });
  verifyUrl = `${stack.facilitatorUrl}/verify`;
  settleUrl = `${stack.facilitatorUrl}/settle`;
});

afterAll(async () => {
  await stack?.close();
});

/** The payer's and the payee's test USDC balances. */
async function balances(): Promise<[bigint, bigint]> {
  return [await stack.balanceOf(stack.payer.address), await stack.balanceOf(stack.payTo)];
}

/** The transaction of a settlement, read back from the chain. */
async function receiptOf(hash: unknown) {
  expect(isHash(hash as string), `a transaction hash, got ${String(hash)}`).toBe(true);
  return stack.chain.publicClient.getTransactionReceipt({ hash: hash as Hex });
}

describe('an x402 v2 payment signed by the official client', () => {
  const amount = 10_000n;
  let payload: PaymentPayload;
  let body: ReturnType<typeof facilitatorBody>;

  beforeAll(async () => {
    const requirements = v2Requirements(stack, amount);
    payload = await signPayment(stack.payer.privateKey, 2, requirements);
    body = facilitatorBody(payload, requirements);
  });

  test('verifies', async () => {
    const answer = await post(verifyUrl, body);
    expect(answer).toMatchObject({
      status: 200,
      body: { isValid: true, payer: stack.payer.address },
    });
  });

  test('settles on chain: the payer pays exactly the amount, the payee gets it', async () => {
    const [payerBefore, payeeBefore] = await balances();
    const answer = await post(settleUrl, body);
    expect(answer).toMatchObject({
      status: 200,
      body: { success: true, network: 'eip155:8453', payer: stack.payer.address },
    });
    expect((await receiptOf(answer.body.transaction)).status).toBe('success');
    expect(await balances()).toEqual([payerBefore - amount, payeeBefore + amount]);
  });

  test('the same payment again: refused with the reason, and nothing moves', async () => {
    const before = await balances();
    const verify = await post(verifyUrl, body);
    expect(verify).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'invalid_exact_evm_nonce_already_used' },
    });
    const settle = await post(settleUrl, body);
    expect(settle).toMatchObject({
      status: 200,
      body: {
        success: false,
        errorReason: 'invalid_exact_evm_nonce_already_used',
        errorMessage: expect.stringContaining('authorization is used or canceled'),
        transaction: '',
      },
    });
    // One short line, not a library's multi-line dump.
    expect(settle.body.errorMessage).not.toContain('\n');
    expect(await balances()).toEqual(before);
  });
});

describe('an x402 v1 payment (network "base") signed by the official client', () => {
  const amount = 5_000n;
  let body: ReturnType<typeof facilitatorBody>;

  beforeAll(async () => {
    const requirements = v1Requirements(stack, amount);
    const payload = await signPayment(stack.payer.privateKey, 1, requirements);
    expect(payload).toMatchObject({ x402Version: 1, scheme: 'exact', network: 'base' });
    body = facilitatorBody(payload, requirements);
  });

  test('verifies and settles, moving exactly the amount', async () => {
    expect(await post(verifyUrl, body)).toMatchObject({ status: 200, body: { isValid: true } });
    const [payerBefore, payeeBefore] = await balances();
    const settle = await post(settleUrl, body);
    expect(settle).toMatchObject({ status: 200, body: { success: true, network: 'base' } });
    expect((await receiptOf(settle.body.transaction)).status).toBe('success');
    expect(await balances()).toEqual([payerBefore - amount, payeeBefore + amount]);
  });

  test('settled again: a reason code, not the raw error text, and nothing moves', async () => {
    const before = await balances();
    const settle = await post(settleUrl, body);
    expect(settle).toMatchObject({
      status: 200,
      body: {
        success: false,
        errorReason: 'invalid_exact_evm_nonce_already_used',
        errorMessage: expect.stringContaining('authorization is used or canceled'),
      },
    });
    expect(await balances()).toEqual(before);
  });
});

describe('payments that must not pass', () => {
  test('a tampered amount: invalid signature, and settling it moves nothing', async () => {
    const requirements = v2Requirements(stack, 1_000n);
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    const authorization = (payload.payload as { authorization: { value: string } }).authorization;
    // The client signed 1,000; the payment now claims (and the terms ask) 2,000.
    const tampered = {
      ...payload,
      payload: { ...payload.payload, authorization: { ...authorization, value: '2000' } },
    };
    const tamperedTerms = v2Requirements(stack, 2_000n);
    const body = facilitatorBody({ ...tampered, accepted: tamperedTerms }, tamperedTerms);
    expect(await post(verifyUrl, body)).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'invalid_exact_evm_signature' },
    });
    const before = await balances();
    expect(await post(settleUrl, body)).toMatchObject({
      status: 200,
      body: { success: false, errorReason: 'invalid_exact_evm_signature', transaction: '' },
    });
    expect(await balances()).toEqual(before);
  });

  test('an amount other than the terms’: refused (the exact scheme asks the exact amount)', async () => {
    const payload = await signPayment(stack.payer.privateKey, 2, v2Requirements(stack, 1_000n));
    const answer = await post(verifyUrl, facilitatorBody(payload, v2Requirements(stack, 2_000n)));
    expect(answer.body).toMatchObject({ isValid: false });
  });

  test('a payer without funds: the precise reason, read through Multicall3', async () => {
    const requirements = v2Requirements(stack, 1_000n);
    const payload = await signPayment(generatePrivateKey(), 2, requirements);
    expect(await post(verifyUrl, facilitatorBody(payload, requirements))).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance' },
    });
  });

  test('a payment to someone else than the terms’ payTo', async () => {
    const elsewhere = {
      ...v2Requirements(stack, 1_000n),
      payTo: privateKeyToAccount(generatePrivateKey()).address,
    };
    const payload = await signPayment(stack.payer.privateKey, 2, elsewhere);
    const answer = await post(verifyUrl, facilitatorBody(payload, v2Requirements(stack, 1_000n)));
    expect(answer.body).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_recipient_mismatch',
    });
  });

  test('a network this facilitator does not settle: 200, invalid_network', async () => {
    const requirements = { ...v2Requirements(stack, 1_000n), network: 'eip155:84532' as const };
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    const verify = await post(verifyUrl, facilitatorBody(payload, requirements));
    expect(verify).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: 'invalid_network' },
    });
    const settle = await post(settleUrl, facilitatorBody(payload, requirements));
    expect(settle).toMatchObject({
      status: 200,
      body: { success: false, errorReason: 'invalid_network', network: 'eip155:84532' },
    });
  });
});

describe('malformed requests', () => {
  const cases: [string, unknown, string][] = [
    ['not JSON', '{"x402Version":', 'invalid_payload'],
    ['a JSON array', [], 'invalid_payload'],
    ['no x402Version', { paymentPayload: {}, paymentRequirements: {} }, 'invalid_x402_version'],
    [
      'x402Version 3',
      { x402Version: 3, paymentPayload: {}, paymentRequirements: {} },
      'invalid_x402_version',
    ],
    [
      'an empty payload',
      { x402Version: 2, paymentPayload: {}, paymentRequirements: {} },
      'invalid_payload',
    ],
  ];

  test.each(cases)('%s: 400 JSON on /verify and /settle', async (_case, body, reason) => {
    const verify = await post(verifyUrl, body);
    expect(verify.status).toBe(400);
    expect(verify.contentType).toMatch(/^application\/json/);
    expect(verify.body).toMatchObject({ isValid: false, invalidReason: reason });
    const settle = await post(settleUrl, body);
    expect(settle.status).toBe(400);
    expect(settle.body).toMatchObject({ success: false, errorReason: reason, transaction: '' });
  });

  test('a payload without its EIP-3009 authorization: 400, naming the field', async () => {
    const requirements = v2Requirements(stack, 1_000n);
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    const broken = {
      ...payload,
      payload: { signature: (payload.payload as { signature: string }).signature },
    };
    const answer = await post(verifyUrl, facilitatorBody(broken, requirements));
    expect(answer).toMatchObject({
      status: 400,
      body: {
        invalidReason: 'invalid_payload',
        invalidMessage: expect.stringContaining('authorization'),
      },
    });
  });

  test('terms with a non-numeric amount: 400 invalid_payment_requirements', async () => {
    const requirements = v2Requirements(stack, 1_000n);
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    const answer = await post(
      settleUrl,
      facilitatorBody(payload, { ...requirements, amount: 'ten' }),
    );
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, errorReason: 'invalid_payment_requirements' },
    });
  });

  test('a v2 payload under x402Version 1: 400 invalid_x402_version', async () => {
    const requirements = v2Requirements(stack, 1_000n);
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    const answer = await post(verifyUrl, {
      ...facilitatorBody(payload, requirements),
      x402Version: 1,
    });
    expect(answer).toMatchObject({ status: 400, body: { invalidReason: 'invalid_x402_version' } });
  });

  test('an unknown route: 404 JSON', async () => {
    const response = await fetch(`${stack.facilitatorUrl}/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  test('after all of these the facilitator still serves, and nothing was unexpected', async () => {
    expect((await fetch(`${stack.facilitatorUrl}/supported`)).status).toBe(200);
    expect(unexpected).toEqual([]);
  });
});

describe('the official HTTP facilitator client', () => {
  test('verifies and settles through this facilitator', async () => {
    const client = new HTTPFacilitatorClient({ url: stack.facilitatorUrl });
    const requirements = v2Requirements(stack, 2_500n);
    const payload = await signPayment(stack.payer.privateKey, 2, requirements);
    expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
    const before = await stack.balanceOf(DEV_PAY_TO);
    expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
    expect(await stack.balanceOf(DEV_PAY_TO)).toBe(before + 2_500n);
    expect((await client.getSupported()).kinds).toHaveLength(4);
  });
});

describe('concurrent settlements', () => {
  test('settle side by side, each once', async () => {
    const payments = await Promise.all(
      [1_001n, 1_002n, 1_003n, 1_004n].map(async (amount) => {
        const requirements = v2Requirements(stack, amount);
        return facilitatorBody(
          await signPayment(stack.payer.privateKey, 2, requirements),
          requirements,
        );
      }),
    );
    const [payerBefore, payeeBefore] = await balances();
    const answers = await Promise.all(payments.map((body) => post(settleUrl, body)));
    expect(answers.map((a) => a.body.success)).toEqual([true, true, true, true]);
    expect(new Set(answers.map((a) => a.body.transaction)).size).toBe(4);
    expect(await balances()).toEqual([payerBefore - 4_010n, payeeBefore + 4_010n]);
  });

  test('keep settling with four in flight: no settlement is left behind in the chain queue', async () => {
    const lanes = 4;
    const rounds = 10;
    const [payerBefore, payeeBefore] = await balances();
    const lane = async (n: number) => {
      const settled: boolean[] = [];
      for (let round = 0; round < rounds; round++) {
        const requirements = v2Requirements(stack, BigInt(2_000 + n));
        const body = facilitatorBody(
          await signPayment(stack.payer.privateKey, 2, requirements),
          requirements,
        );
        expect((await post(verifyUrl, body)).body.isValid).toBe(true);
        settled.push((await post(settleUrl, body)).body.success === true);
      }
      return settled;
    };
    const results = await Promise.all(Array.from({ length: lanes }, (_, n) => lane(n)));
    expect(results.flat()).toEqual(Array(lanes * rounds).fill(true));
    const total = BigInt(rounds) * (2_000n + 2_001n + 2_002n + 2_003n);
    expect(await balances()).toEqual([payerBefore - total, payeeBefore + total]);
  }, 60_000);
});
