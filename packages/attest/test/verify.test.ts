import { canonicalize } from '@storefront/core';
import { verifyMessage as ethersVerify } from 'ethers';
import { verifyMessage as viemVerify } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  ATTEST_SCHEME,
  createSigner,
  generatePrivateKey,
  parseMessage,
  verifyReceipt,
} from '../src/index.js';
import {
  flipChar,
  OTHER_PRIVATE_KEY,
  signedResult,
  signedResultV1,
  TEST_ADDRESS,
  TEST_PRIVATE_KEY,
} from './helpers.js';

type Result = ReturnType<typeof signedResult>;

/** A receipt of each scheme: today's, and one issued before the route line. */
const BOTH = [
  ['storefront-attest/3', signedResult],
  ['storefront-attest/1', signedResultV1],
] as const;

/** What the three independent verifiers say about a result against a pinned address. */
async function threeVerdicts(result: Result, pinned: string) {
  const { message } = result.attestation.verify;
  const { signature } = result.attestation;
  let ethers: boolean;
  try {
    ethers = ethersVerify(message, signature).toLowerCase() === pinned.toLowerCase();
  } catch {
    ethers = false;
  }
  let viem: boolean;
  try {
    viem = await viemVerify({
      address: pinned as `0x${string}`,
      message,
      signature: signature as `0x${string}`,
    });
  } catch {
    viem = false;
  }
  return { ours: verifyReceipt(result, pinned).valid, ethers, viem };
}

const clone = (value: Result): Result => structuredClone(value);

describe('verifyReceipt', () => {
  it('accepts a fresh receipt, and agrees with ethers and viem', async () => {
    const result = signedResult('some page text');
    const verdict = verifyReceipt(result, TEST_ADDRESS);
    expect(verdict).toStrictEqual({
      valid: true,
      checks: { contentHash: true, signature: true, pinnedKey: true, envelope: true, fields: null },
      route: 'fetch',
      rule: null,
      covered: ['text', 'url', 'status', 'fetchedAt'],
      uncovered: [],
      signed: parseMessage(result.attestation.verify.message),
      signer: TEST_ADDRESS,
      keyId: `${ATTEST_SCHEME}:${TEST_ADDRESS}`,
      problems: [],
      notes: [],
    });
    expect(await threeVerdicts(result, TEST_ADDRESS)).toStrictEqual({
      ours: true,
      ethers: true,
      viem: true,
    });
  });

  it('fails in all three verifiers when the signed route line is changed', async () => {
    const result = clone(signedResult('{"a":1}', TEST_PRIVATE_KEY, 'metadata'));
    const { verify } = result.attestation;
    expect(verify.message).toContain('\nroute:metadata\n');
    for (const route of ['headers', 'echo']) {
      const tampered = {
        ...result,
        attestation: {
          ...result.attestation,
          verify: {
            ...verify,
            message: verify.message.replace('route:metadata', `route:${route}`),
          },
        },
      };
      expect(await threeVerdicts(tampered, TEST_ADDRESS)).toStrictEqual({
        ours: false,
        ethers: false,
        viem: false,
      });
      const verdict = verifyReceipt(tampered, TEST_ADDRESS);
      expect(verdict.checks).toMatchObject({ contentHash: true, signature: false });
      expect(verdict.signed?.route).toBe(route);
    }
  });

  it.each(BOTH)('accepts a %s receipt, and agrees with ethers and viem', async (_scheme, sign) => {
    expect(await threeVerdicts(sign('a receipt'), TEST_ADDRESS)).toStrictEqual({
      ours: true,
      ethers: true,
      viem: true,
    });
  });

  it('notes a scheme-1 route told from the shape, and nothing for a message that does not parse', () => {
    const data = { title: 'T', counts: { jsonLd: 0 }, openGraph: {} };
    const old = { ...signedResultV1(canonicalize(data)), data };
    expect(verifyReceipt(old, TEST_ADDRESS).valid).toBe(true);
    expect(verifyReceipt(old, TEST_ADDRESS).notes).toStrictEqual([
      "This storefront-attest/1 receipt names no route: /buy/metadata was told from the result's shape.",
    ]);
    expect(verifyReceipt(old, TEST_ADDRESS, { route: 'metadata' }).notes).toStrictEqual([]);
    const broken = clone(old);
    broken.attestation = {
      ...broken.attestation,
      verify: { ...broken.attestation.verify, message: 'storefront-attest/9\nx' },
    };
    const verdict = verifyReceipt(broken, TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.notes).toStrictEqual([]);
  });

  it('accepts {text, attestation} alone, with no envelope to compare', () => {
    const { text, attestation } = signedResult();
    const verdict = verifyReceipt({ text, attestation }, TEST_ADDRESS);
    expect(verdict.valid).toBe(true);
    expect(verdict.checks.envelope).toBeNull();
  });

  it('fails when one byte of text changes (ethers and viem still see a good signature)', async () => {
    const result = clone(signedResult('abcdef'));
    result.text = flipChar(result.text, 3);
    const verdict = verifyReceipt(result, TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.checks).toMatchObject({ contentHash: false, signature: true, pinnedKey: true });
  });

  it.each([0, 25, 100])(
    'fails in all three verifiers when byte %i of verify.message changes',
    async (index) => {
      const result = clone(signedResult());
      const { verify } = result.attestation;
      result.attestation = {
        ...result.attestation,
        verify: { ...verify, message: flipChar(verify.message, index) },
      };
      expect(await threeVerdicts(result, TEST_ADDRESS)).toStrictEqual({
        ours: false,
        ethers: false,
        viem: false,
      });
    },
  );

  it.each([2, 40, 129])(
    'fails in all three verifiers when byte %i of the signature changes',
    async (index) => {
      const result = clone(signedResult());
      result.attestation = {
        ...result.attestation,
        signature: flipChar(result.attestation.signature, index),
      };
      expect(await threeVerdicts(result, TEST_ADDRESS)).toStrictEqual({
        ours: false,
        ethers: false,
        viem: false,
      });
    },
  );

  it('fails in all three verifiers when one byte of the pinned address changes', async () => {
    const pinned = flipChar(TEST_ADDRESS.toLowerCase(), 10);
    const verdict = verifyReceipt(signedResult(), pinned);
    expect(verdict.checks).toMatchObject({ contentHash: true, signature: true, pinnedKey: false });
    expect(await threeVerdicts(signedResult(), pinned)).toStrictEqual({
      ours: false,
      ethers: false,
      viem: false,
    });
  });

  it('fails a receipt signed by another key, even when `address` claims ours', () => {
    const result = clone(signedResult('x', OTHER_PRIVATE_KEY));
    result.attestation = {
      ...result.attestation,
      address: TEST_ADDRESS,
      keyId: `${ATTEST_SCHEME}:${TEST_ADDRESS}`,
    };
    const verdict = verifyReceipt(result, TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.signature).toBe(false);
    expect(verdict.checks.pinnedKey).toBe(false);
  });

  it.each([
    ['url', (r: Result) => ({ ...r, url: 'https://evil.example/' })],
    ['status', (r: Result) => ({ ...r, status: 404 })],
    ['fetchedAt', (r: Result) => ({ ...r, fetchedAt: '2030-01-01T00:00:00.000Z' })],
  ])('fails when the result’s %s differs from the signed one, and says which', (field, tamper) => {
    const verdict = verifyReceipt(tamper(signedResult()), TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.envelope).toBe(false);
    expect(verdict.problems).toStrictEqual([
      `The result’s ${field} differs from the signed message.`,
    ]);
  });

  it('compares only the envelope fields a result has', () => {
    const { fetchedAt: _absent, ...withoutTime } = signedResult();
    const verdict = verifyReceipt(withoutTime, TEST_ADDRESS);
    expect(verdict.checks.envelope).toBe(true);
    expect(verdict.covered).toStrictEqual(['text', 'url', 'status']);
  });

  it('fails when contentHash is changed to match a tampered text', () => {
    const result = clone(signedResult('original'));
    result.text = 'tampered';
    result.attestation = { ...result.attestation, contentHash: '0x' + '0'.repeat(64) };
    expect(verifyReceipt(result, TEST_ADDRESS).checks.contentHash).toBe(false);
  });

  it('fails a changed keyId or nonce; a keyId must carry its own message’s scheme', () => {
    const a = clone(signedResult());
    a.attestation = { ...a.attestation, keyId: `storefront-attest/1:${TEST_ADDRESS}` };
    expect(verifyReceipt(a, TEST_ADDRESS).checks.signature).toBe(false);
    expect(verifyReceipt(a, TEST_ADDRESS).problems).toStrictEqual([
      `\`keyId\` should be storefront-attest/3:${TEST_ADDRESS}.`,
    ]);
    const old = clone(signedResultV1());
    old.attestation = { ...old.attestation, keyId: `storefront-attest/3:${TEST_ADDRESS}` };
    expect(verifyReceipt(old, TEST_ADDRESS).checks.signature).toBe(false);
    const b = clone(signedResult());
    b.attestation = { ...b.attestation, nonce: '0x' + 'f'.repeat(32) };
    expect(verifyReceipt(b, TEST_ADDRESS).checks.signature).toBe(false);
  });

  it.each([
    null,
    7,
    'text',
    [],
    {},
    { text: 1 },
    { text: 'x', attestation: 'y' },
    { text: 'x', attestation: { verify: null } },
  ])('answers (does not throw) for malformed input %j', (input) => {
    const verdict = verifyReceipt(input, TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.problems.length).toBeGreaterThan(0);
  });

  it.each(BOTH)(
    'pins by address: a storefront-attest/3 document verifies %s receipts, retired keys before their retirement',
    (_scheme, sign) => {
      const retiredKey = OTHER_PRIVATE_KEY;
      const old = sign('old receipt', retiredKey);
      const retiredAddress = createSigner(retiredKey).address;
      const doc = {
        scheme: ATTEST_SCHEME,
        alg: 'EIP-191-personal_sign',
        keyId: `${ATTEST_SCHEME}:${TEST_ADDRESS}`,
        address: TEST_ADDRESS,
        retired: [
          {
            keyId: `${ATTEST_SCHEME}:${retiredAddress}`,
            address: retiredAddress,
            retiredAt: '2100-01-01T00:00:00.000Z',
          },
        ],
      };
      expect(doc.keyId.startsWith('storefront-attest/3:')).toBe(true);
      expect(verifyReceipt(sign(), doc).valid).toBe(true);
      expect(verifyReceipt(old, doc).valid).toBe(true);
      const afterRetirement = {
        ...doc,
        retired: [{ ...doc.retired[0]!, retiredAt: '2000-01-01T00:00:00.000Z' }],
      };
      expect(verifyReceipt(old, afterRetirement).checks.pinnedKey).toBe(false);
    },
  );

  it('throws on a pinned value that is not an address (misuse)', () => {
    expect(() => verifyReceipt(signedResult(), 'not-an-address')).toThrow(/pinned address/);
    expect(() => verifyReceipt(signedResult(), [])).toThrow(/at least one/);
  });
});

describe('createSigner', () => {
  it('uses a fresh 128-bit nonce per receipt', () => {
    const signer = createSigner(generatePrivateKey());
    const meta = {
      route: 'fetch',
      url: 'https://a.example/',
      status: 200,
      fetchedAt: '2026-01-01T00:00:00.000Z',
    };
    const nonces = new Set(Array.from({ length: 200 }, () => signer.sign('x', meta).nonce));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^0x[0-9a-f]{32}$/);
  });

  it('signs status null as `none` for hosts that never answered', () => {
    const signer = createSigner(generatePrivateKey());
    const attestation = signer.sign('{}', {
      route: 'availability',
      url: 'https://down.example/',
      status: null,
      fetchedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(attestation.verify.message.split('\n')[4]).toBe('status:none');
    expect(
      verifyReceipt(
        { text: '{}', url: 'https://down.example/', status: null, attestation },
        signer.address,
      ).valid,
    ).toBe(true);
  });

  it.each(['', '0x12', 'zz'.repeat(32)])('refuses the private key %j', (key) => {
    expect(() => createSigner(key)).toThrow(/private key/);
  });

  it('refuses a url with a line break, which would make the message ambiguous', () => {
    const signer = createSigner(generatePrivateKey());
    expect(() =>
      signer.sign('x', {
        route: 'fetch',
        url: 'https://a.example/\nnonce:0x00',
        status: 200,
        fetchedAt: '2026-01-01T00:00:00.000Z',
      }),
    ).toThrow(/single-line/);
  });

  it.each([undefined, '', 'Markdown', '/buy/markdown', 'mark down', 'markdown\nnonce:0x00'])(
    'refuses the route %j: it must be a route name, one line of [a-z0-9-]',
    (route) => {
      const signer = createSigner(generatePrivateKey());
      const meta = {
        url: 'https://a.example/',
        status: 200,
        fetchedAt: '2026-01-01T00:00:00.000Z',
      };
      expect(() => signer.sign('x', { ...meta, route } as never)).toThrow(
        /Expected `route` as a route name/,
      );
    },
  );

  it('signs scheme 3, and its keyId follows the scheme', () => {
    const signer = createSigner(TEST_PRIVATE_KEY);
    expect(signer.keyId).toBe(`storefront-attest/3:${TEST_ADDRESS}`);
    const attestation = signedResult('x').attestation;
    expect(attestation.keyId).toBe(signer.keyId);
    expect(attestation.verify.message.split('\n').slice(0, 2)).toStrictEqual([
      ATTEST_SCHEME,
      'route:fetch',
    ]);
  });
});
