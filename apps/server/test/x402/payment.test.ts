import { decodePaymentSignatureHeader } from '@x402/core/http';
import { describe, expect, it } from 'vitest';
import { encodeBase64Json } from '../../src/doors/x402/base64-json.js';
import {
  CLOCK_SKEW_SECONDS,
  checkPayment,
  MAX_PAYMENT_HEADER_CHARS,
  type PaymentHeader,
  parsePaymentHeader,
  readPayment,
} from '../../src/doors/x402/payment.js';
import { requirementsFor } from '../../src/doors/x402/requirements.js';
import {
  fittingFields,
  handMade,
  nowSeconds,
  officialV1Header,
  officialV2Header,
  PAYER,
  rawPayment,
} from './payments.js';
import { BASE_URL, route, TERMS } from './terms.js';

const fetchRoute = route('fetch');
const [fetchTier, , proTier] = fetchRoute.prices;
if (fetchTier === undefined || proTier === undefined) throw new Error('fetch has three tiers');
const requirements = requirementsFor(fetchRoute, proTier, BASE_URL, TERMS);

describe('payments signed by the official clients', () => {
  it('reads an X-PAYMENT from x402@1.2.0 and finds it fits the terms', async () => {
    const header = await officialV1Header(requirements);
    const read = readPayment({ 'x-payment': header });
    if (read === null || !read.ok) throw new Error(`not read: ${JSON.stringify(read)}`);
    const { payment } = read;
    expect(payment).toMatchObject({
      version: 1,
      header: 'X-PAYMENT',
      scheme: 'exact',
      network: 'eip155:8453',
      payer: PAYER.address,
      to: TERMS.payTo,
      value: 12000n,
      accepted: null,
    });
    expect(payment.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(payment.raw).toStrictEqual(JSON.parse(Buffer.from(header, 'base64').toString()));
    expect(checkPayment(payment, requirements, nowSeconds())).toBeNull();
  });

  it('reads a PAYMENT-SIGNATURE from @x402/core 2.27.0 and finds it fits the terms', async () => {
    const header = await officialV2Header(requirements);
    const read = readPayment({ 'payment-signature': header });
    if (read === null || !read.ok) throw new Error(`not read: ${JSON.stringify(read)}`);
    const { payment } = read;
    expect(payment).toMatchObject({
      version: 2,
      header: 'PAYMENT-SIGNATURE',
      scheme: 'exact',
      network: 'eip155:8453',
      payer: PAYER.address,
      value: 12000n,
      accepted: { amount: '12000', asset: TERMS.asset, payTo: TERMS.payTo },
    });
    expect(payment.raw).toStrictEqual(decodePaymentSignatureHeader(header));
    expect(checkPayment(payment, requirements, nowSeconds())).toBeNull();
  });

  it("refuses the official client's payment for another tier's price", async () => {
    const cheaper = requirementsFor(fetchRoute, fetchTier, BASE_URL, TERMS);
    const read = readPayment({ 'payment-signature': await officialV2Header(cheaper) });
    if (read === null || !read.ok) throw new Error('not read');
    expect(checkPayment(read.payment, requirements, nowSeconds())).toStrictEqual({
      error: 'payment_mismatch',
      message: 'accepted.amount: expected 12000, got "3000"',
    });
  });
});

describe('readPayment', () => {
  const v1 = encodeBase64Json(rawPayment(1, requirements, fittingFields(requirements)));
  const v2 = encodeBase64Json(rawPayment(2, requirements, fittingFields(requirements)));

  it('is null when neither header is present', () => {
    expect(readPayment({ authorization: 'Bearer mk_test_x' })).toBeNull();
    expect(readPayment(() => undefined)).toBeNull();
  });

  it('prefers PAYMENT-SIGNATURE when both are sent', () => {
    const read = readPayment({ 'x-payment': v1, 'payment-signature': v2 });
    expect(read?.ok && read.payment.version).toBe(2);
  });

  it('reads through a getter given lower-case names', () => {
    const read = readPayment((name) => (name === 'x-payment' ? v1 : null));
    expect(read?.ok && read.payment.header).toBe('X-PAYMENT');
  });

  it('refuses a header sent twice', () => {
    expect(readPayment({ 'x-payment': [v1, v1] })).toStrictEqual({
      ok: false,
      error: 'payment_invalid',
      message: 'X-PAYMENT was sent 2 times; send one payment',
    });
  });

  it('accepts unpadded base64 and lower-cases the nonce', () => {
    const fields = { ...fittingFields(requirements), nonce: `0x${'AB'.repeat(32)}` };
    const text = encodeBase64Json(rawPayment(1, requirements, fields)).replace(/=+$/, '');
    const read = parsePaymentHeader('X-PAYMENT', text);
    expect(read.ok && read.payment.nonce).toBe(`0x${'ab'.repeat(32)}`);
  });
});

describe('parsePaymentHeader refuses what is not a payment', () => {
  const good = fittingFields(requirements);
  const encode = (value: unknown) => encodeBase64Json(value);
  const v1With = (change: Record<string, unknown>) => {
    const raw = rawPayment(1, requirements, good) as { payload: { authorization: object } };
    return encode({
      ...raw,
      payload: { ...raw.payload, authorization: { ...raw.payload.authorization, ...change } },
    });
  };

  it.each<[string, PaymentHeader, string, RegExp]>([
    [
      'a header over the size cap',
      'X-PAYMENT',
      'A'.repeat(MAX_PAYMENT_HEADER_CHARS + 1),
      /X-PAYMENT is 12289 characters long; at most 12288 are read/,
    ],
    ['an empty header', 'X-PAYMENT', '', /but it is empty/],
    ['not base64', 'X-PAYMENT', 'not base64!', /is not standard base64/],
    ['base64url', 'X-PAYMENT', 'eyJ4Ijoi-_8ifQ', /is not standard base64/],
    ['base64 with a bad tail', 'X-PAYMENT', 'eyJ4IjoxfR', /is not well-formed base64/],
    ['not UTF-8', 'X-PAYMENT', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64'), /not UTF-8/],
    ['not JSON', 'X-PAYMENT', Buffer.from('{x402Version:1').toString('base64'), /is not JSON/],
    ['a JSON array', 'X-PAYMENT', encode([1]), /must be base64 of a JSON object/],
    [
      'a v2 payload in X-PAYMENT',
      'X-PAYMENT',
      encode(rawPayment(2, requirements, good)),
      /Expected `x402Version` 1 in X-PAYMENT, got 2/,
    ],
    [
      'a v1 payload in PAYMENT-SIGNATURE',
      'PAYMENT-SIGNATURE',
      encode(rawPayment(1, requirements, good)),
      /Expected `x402Version` 2 in PAYMENT-SIGNATURE, got 1/,
    ],
    [
      'v2 without accepted',
      'PAYMENT-SIGNATURE',
      encode({ ...rawPayment(2, requirements, good), accepted: undefined }),
      /Expected `accepted` to be an object, got nothing/,
    ],
    [
      'v1 without a network',
      'X-PAYMENT',
      encode({ ...rawPayment(1, requirements, good), network: '' }),
      /Expected `network` to be a non-empty string, got ""/,
    ],
    [
      'no authorization (another kind of payload)',
      'X-PAYMENT',
      encode({ ...rawPayment(1, requirements, good), payload: { transaction: 'AAAA' } }),
      /Expected `payload.authorization` to be an object, got nothing/,
    ],
    [
      'a short nonce',
      'X-PAYMENT',
      v1With({ nonce: '0x1234' }),
      /Expected `payload.authorization.nonce` to be 0x followed by 64 hex digits, got "0x1234"/,
    ],
    [
      'a nonce that is not hex',
      'X-PAYMENT',
      v1With({ nonce: `0x${'zz'.repeat(32)}` }),
      /payload.authorization.nonce/,
    ],
    [
      'a value given as a number',
      'X-PAYMENT',
      v1With({ value: 12000 }),
      /Expected `payload.authorization.value` to be a decimal integer string, got 12000/,
    ],
    ['a negative value', 'X-PAYMENT', v1With({ value: '-1' }), /payload.authorization.value/],
    ['a fractional value', 'X-PAYMENT', v1With({ value: '1.5' }), /payload.authorization.value/],
    [
      'a value past uint256',
      'X-PAYMENT',
      v1With({ value: (1n << 256n).toString() }),
      /Expected `payload.authorization.value` to be at most 2\^256 - 1/,
    ],
    [
      'a payer that is not an address',
      'X-PAYMENT',
      v1With({ from: '0x1234' }),
      /Expected `payload.authorization.from` to be an address/,
    ],
    [
      'a validBefore that is not a number',
      'X-PAYMENT',
      v1With({ validBefore: 'soon' }),
      /payload.authorization.validBefore/,
    ],
    [
      'a short signature',
      'X-PAYMENT',
      encode({
        ...rawPayment(1, requirements, good),
        payload: { ...(rawPayment(1, requirements, good).payload as object), signature: '0xabcd' },
      }),
      /Expected `payload.signature` to be a hex signature of at least 65 bytes/,
    ],
  ])('%s', (_, header, value, message) => {
    const read = parsePaymentHeader(header, value);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error).toBe('payment_invalid');
    expect(read.message).toMatch(message);
  });
});

describe('checkPayment', () => {
  const now = nowSeconds();
  const check = (
    version: 1 | 2,
    change: Parameters<typeof handMade>[2],
    options?: Parameters<typeof checkPayment>[3],
  ) => checkPayment(handMade(version, requirements, change, now), requirements, now, options);

  it.each([1, 2] as const)('passes a v%i payment that fits exactly', (version) => {
    expect(check(version, {})).toBeNull();
  });

  it('compares addresses without regard to case', () => {
    expect(
      check(2, {
        to: TERMS.payTo.toLowerCase(),
        payTo: TERMS.payTo.toUpperCase().replace('0X', '0x'),
      }),
    ).toBeNull();
    expect(check(2, { asset: TERMS.asset.toLowerCase() })).toBeNull();
  });

  it.each<[string, 1 | 2, Parameters<typeof handMade>[2], string]>([
    ['another scheme', 2, { scheme: 'upto' }, 'scheme: expected exact, got "upto"'],
    [
      'another chain (v2)',
      2,
      { network: 'eip155:84532' },
      'network: expected eip155:8453, got "eip155:84532"',
    ],
    [
      'another chain (v1 name)',
      1,
      { network: 'base-sepolia' },
      'network: expected eip155:8453, got "eip155:84532"',
    ],
    [
      'an unknown v1 name',
      1,
      { network: 'polygon' },
      'network: expected eip155:8453, got "polygon"',
    ],
    ['a v1 name in v2', 2, { network: 'base' }, 'network: expected eip155:8453, got "base"'],
    [
      'another asset accepted',
      2,
      { asset: `0x${'1'.repeat(40)}` },
      `accepted.asset: expected ${TERMS.asset}, got "0x${'1'.repeat(40)}"`,
    ],
    [
      'another payee accepted',
      2,
      { payTo: `0x${'2'.repeat(40)}` },
      `accepted.payTo: expected ${TERMS.payTo}, got "0x${'2'.repeat(40)}"`,
    ],
    [
      'another amount accepted',
      2,
      { amount: '12001' },
      'accepted.amount: expected 12000, got "12001"',
    ],
    [
      'an authorization to another address (v1)',
      1,
      { to: `0x${'3'.repeat(40)}` },
      `payload.authorization.to: expected ${TERMS.payTo}, got "0x${'3'.repeat(40)}"`,
    ],
    [
      'an authorization to another address than accepted (v2)',
      2,
      { to: `0x${'3'.repeat(40)}` },
      `payload.authorization.to: expected ${TERMS.payTo}, got "0x${'3'.repeat(40)}"`,
    ],
    [
      'an underpayment',
      1,
      { value: '11999' },
      'payload.authorization.value: expected 12000 (tier pro, $0.012), got 11999',
    ],
    [
      'an overpayment',
      2,
      { value: '12001' },
      'payload.authorization.value: expected 12000 (tier pro, $0.012), got 12001',
    ],
  ])('refuses %s as a mismatch naming the field', (_, version, change, message) => {
    expect(check(version, change)).toStrictEqual({ error: 'payment_mismatch', message });
  });

  it('refuses v1 payments on a chain v1 has no name for', () => {
    const mainnet = requirementsFor(fetchRoute, proTier, BASE_URL, {
      ...TERMS,
      network: 'eip155:1',
    });
    const payment = handMade(1, mainnet, { network: 'eip155:1' }, now);
    expect(checkPayment(payment, mainnet, now)).toMatchObject({
      error: 'payment_mismatch',
      message: expect.stringMatching(/^x402Version: version 1 has no name for eip155:1/),
    });
    expect(checkPayment(handMade(2, mainnet, {}, now), mainnet, now)).toBeNull();
  });

  it.each<[string, Parameters<typeof handMade>[2], string | null]>([
    ['starting now', { validAfter: String(now) }, null],
    [
      'starting in the future',
      { validAfter: String(now + 5) },
      `validAfter ${now + 5} is 5 s in the future`,
    ],
    ['ending in 6 s', { validBefore: String(now + 6) }, null],
    [
      'ending in 5 s',
      { validBefore: String(now + 5) },
      `validBefore ${now + 5} is 5 s from now; at least 6 s are needed to settle`,
    ],
    ['ended', { validBefore: String(now - 2) }, `validBefore ${now - 2} passed 2 s ago`],
    [
      'ending at the timeout plus the clock skew',
      { validBefore: String(now + 60 + CLOCK_SKEW_SECONDS) },
      null,
    ],
    [
      'ending a second later',
      { validBefore: String(now + 61 + CLOCK_SKEW_SECONDS) },
      `validBefore ${now + 61 + CLOCK_SKEW_SECONDS} is ${61 + CLOCK_SKEW_SECONDS} s from now; the terms allow at most 60 s (maxTimeoutSeconds)`,
    ],
    [
      'valid for a year',
      { validBefore: String(now + 365 * 86_400) },
      `validBefore ${now + 365 * 86_400} is ${365 * 86_400} s from now; the terms allow at most 60 s (maxTimeoutSeconds)`,
    ],
  ])('checks the window of an authorization %s', (_, change, message) => {
    expect(check(2, change)).toStrictEqual(
      message === null ? null : { error: 'payment_expired', message },
    );
  });

  it('tolerates a few seconds of clock skew, not minutes', () => {
    expect(CLOCK_SKEW_SECONDS).toBeGreaterThan(0);
    expect(CLOCK_SKEW_SECONDS).toBeLessThanOrEqual(30);
  });

  it('asks for a longer remaining validity when told to', () => {
    const change = { validBefore: String(now + 10) };
    expect(check(1, change)).toBeNull();
    expect(check(1, change, { minValiditySeconds: 12 })).toStrictEqual({
      error: 'payment_expired',
      message: `validBefore ${now + 10} is 10 s from now; at least 12 s are needed to settle`,
    });
  });

  it('reports a mismatch before the window', () => {
    expect(check(2, { value: '1', validBefore: String(now - 100) })?.error).toBe(
      'payment_mismatch',
    );
  });
});

describe('checkPayment binds a v2 payment to its call', () => {
  const now = nowSeconds();
  /** A v2 payment for `requirements` with its decoded payload changed by `change`. */
  function altered(change: (raw: Record<string, unknown>) => void) {
    const raw = rawPayment(2, requirements, fittingFields(requirements, now));
    change(raw);
    const read = parsePaymentHeader('PAYMENT-SIGNATURE', encodeBase64Json(raw));
    if (!read.ok) throw new Error(read.message);
    return checkPayment(read.payment, requirements, now);
  }

  it('refuses a payment signed for another resource of the same price', () => {
    const problem = altered((raw) => {
      raw.resource = { url: `${BASE_URL}/buy/links` };
    });
    expect(problem?.error).toBe('payment_mismatch');
    expect(problem?.message).toMatch(/^resource\.url: this payment was signed for .*\/buy\/links/);
  });

  it('refuses a payment that names no resource', () => {
    const problem = altered((raw) => {
      delete raw.resource;
    });
    expect(problem?.message).toMatch(/^resource\.url: this payment was signed for null/);
  });

  it.each<[string, (accepted: Record<string, unknown>) => void, RegExp]>([
    [
      'another tier',
      (a) => {
        a.extra = { ...(a.extra as object), tier: 'fetch' };
      },
      /^accepted\.extra\.tier: expected pro/,
    ],
    [
      'another token domain',
      (a) => {
        a.extra = { ...(a.extra as object), name: 'Fake' };
      },
      /^accepted\.extra\.name/,
    ],
    ['no extra', (a) => delete a.extra, /^accepted\.extra\./],
    [
      'another timeout',
      (a) => {
        a.maxTimeoutSeconds = 3600;
      },
      /^accepted\.maxTimeoutSeconds: expected 60, got 3600/,
    ],
  ])('refuses accepted terms with %s', (_, change, message) => {
    const problem = altered((raw) => change(raw.accepted as Record<string, unknown>));
    expect(problem?.error).toBe('payment_mismatch');
    expect(problem?.message).toMatch(message);
  });

  it('reads the payer’s payment-identifier id, and ignores an invalid one', () => {
    const raw = rawPayment(2, requirements, fittingFields(requirements, now));
    raw.extensions = {
      'payment-identifier': { info: { required: false, id: 'pay_0123456789abcdef' } },
    };
    const read = parsePaymentHeader('PAYMENT-SIGNATURE', encodeBase64Json(raw));
    expect(read.ok && read.payment.paymentId).toBe('pay_0123456789abcdef');
    raw.extensions = { 'payment-identifier': { info: { required: false, id: 'short' } } };
    const invalid = parsePaymentHeader('PAYMENT-SIGNATURE', encodeBase64Json(raw));
    expect(invalid.ok && invalid.payment.paymentId).toBe(null);
  });
});
