import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex, sliceText } from '@storefront/core';
import { verifyMessage as ethersVerify } from 'ethers';
import { verifyMessage as viemVerify } from 'viem';
import { describe, expect, it } from 'vitest';
import { type Attestation, MESSAGE_TEMPLATE, parseMessage, verifyReceipt } from '../src/index.js';
import { signV1, TEST_ADDRESS, VECTOR_INPUT, VECTOR_PAGE, vectorSigner } from './helpers.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const meta = {
  url: VECTOR_INPUT.url,
  status: VECTOR_INPUT.status,
  fetchedAt: VECTOR_INPUT.fetchedAt,
};

describe('storefront-attest/3 test vector', () => {
  const dir = join(fixtures, 'vector-v3');
  const attestation = vectorSigner().sign(VECTOR_INPUT.text, {
    route: VECTOR_INPUT.route,
    ...meta,
    page: VECTOR_PAGE,
  });

  it('signs exactly the documented message', async () => {
    await expect(attestation.verify.message).toMatchFileSnapshot(join(dir, 'message.txt'));
    expect(attestation.verify.message.split('\n')).toContain(
      'page:content;page-verdict/1;642;shell:noscript',
    );
  });

  it('produces the golden attestation (RFC 6979 signatures are deterministic)', async () => {
    await expect(`${JSON.stringify(attestation, null, 2)}\n`).toMatchFileSnapshot(
      join(dir, 'attestation.json'),
    );
    expect(attestation.keyId).toBe(`storefront-attest/3:${TEST_ADDRESS}`);
  });

  it('keeps the input text golden so sha256sum of it gives contentHash', () => {
    const text = readFileSync(join(dir, 'text.txt'), 'utf8');
    expect(text).toBe(VECTOR_INPUT.text);
    expect(sha256Hex(text)).toBe(attestation.contentHash);
  });

  it('verifies with plain ethers, with viem and with our verifier', async () => {
    const { message } = attestation.verify;
    expect(ethersVerify(message, attestation.signature)).toBe(TEST_ADDRESS);
    expect(
      await viemVerify({
        address: TEST_ADDRESS,
        message,
        signature: attestation.signature as `0x${string}`,
      }),
    ).toBe(true);
    const verdict = verifyReceipt(
      { text: VECTOR_INPUT.text, page: VECTOR_PAGE, attestation },
      TEST_ADDRESS,
    );
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.route).toBe('markdown');
    expect(verdict.covered).toContain('page');
  });

  it('refuses a page verdict edited after signing', () => {
    const edited = { ...VECTOR_PAGE, verdict: 'challenge' };
    const verdict = verifyReceipt(
      { text: VECTOR_INPUT.text, page: edited, attestation },
      TEST_ADDRESS,
    );
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.envelope).toBe(false);
    expect(verdict.problems).toStrictEqual([
      'The result’s page verdict differs from the signed one.',
    ]);
  });
});

describe('storefront-attest/3 test vector of a slice', () => {
  const dir = join(fixtures, 'vector-v3-slice');
  const part = sliceText(VECTOR_INPUT.text, 7, 10);
  const slice = {
    offset: part.offset,
    length: part.length,
    total: part.total,
    wholeHash: sha256Hex(VECTOR_INPUT.text),
  };
  const shown = { ...slice, next: part.offset + part.length };
  const attestation = vectorSigner().sign(part.text, {
    route: VECTOR_INPUT.route,
    ...meta,
    page: VECTOR_PAGE,
    slice,
  });

  it('signs the part and where it sits in the whole, exactly as documented', async () => {
    expect(part.text).toBe('Storefront');
    await expect(attestation.verify.message).toMatchFileSnapshot(join(dir, 'message.txt'));
    await expect(`${JSON.stringify(attestation, null, 2)}\n`).toMatchFileSnapshot(
      join(dir, 'attestation.json'),
    );
    expect(attestation.verify.message.split('\n')).toContain(
      `slice:7;10;${part.total};${sha256Hex(VECTOR_INPUT.text)}`,
    );
    expect(attestation.contentHash).toBe(sha256Hex('Storefront'));
  });

  it('verifies with plain ethers and with our verifier, which compares the slice', () => {
    expect(ethersVerify(attestation.verify.message, attestation.signature)).toBe(TEST_ADDRESS);
    const verdict = verifyReceipt(
      { text: part.text, page: VECTOR_PAGE, slice: shown, attestation },
      TEST_ADDRESS,
    );
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.covered).toContain('slice');
    expect(verdict.signed?.slice).toStrictEqual(slice);
  });

  it.each([
    ['a moved offset', { ...shown, offset: 6, next: 16 }],
    ['another whole', { ...shown, wholeHash: sha256Hex('another page') }],
    ['a wrong next', { ...shown, next: null }],
    ['a longer total', { ...shown, total: part.total + 1 }],
    ['an extra field', { ...shown, note: 'x' }],
  ])('refuses a slice with %s', (_what, edited) => {
    const verdict = verifyReceipt(
      { text: part.text, page: VECTOR_PAGE, slice: edited, attestation },
      TEST_ADDRESS,
    );
    expect(verdict.valid).toBe(false);
    expect(verdict.problems).toStrictEqual(['The result’s slice differs from the signed one.']);
  });

  it('refuses a slice that no message signed, and a whole text passed off as the part', () => {
    const whole = vectorSigner().sign(VECTOR_INPUT.text, { route: VECTOR_INPUT.route, ...meta });
    const unsigned = verifyReceipt(
      { text: VECTOR_INPUT.text, slice: shown, attestation: whole },
      TEST_ADDRESS,
    );
    expect(unsigned.problems).toStrictEqual(['The result’s slice is not in the signed message.']);
    const swapped = verifyReceipt(
      { text: VECTOR_INPUT.text, slice: shown, attestation },
      TEST_ADDRESS,
    );
    expect(swapped.valid).toBe(false);
    expect(swapped.checks.contentHash).toBe(false);
  });
});

describe('storefront-attest/2 test vector: receipts issued before scheme 3', () => {
  const dir = join(fixtures, 'vector-v2');
  const issued = JSON.parse(readFileSync(join(dir, 'attestation.json'), 'utf8')) as Attestation;
  const text = readFileSync(join(dir, 'text.txt'), 'utf8');

  it('still verifies, with its scheme-2 keyId, against the same pinned address', () => {
    const verdict = verifyReceipt({ text, attestation: issued }, TEST_ADDRESS);
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.keyId).toBe(`storefront-attest/2:${TEST_ADDRESS}`);
    expect(verdict.signed).toMatchObject({
      scheme: 'storefront-attest/2',
      route: 'markdown',
      page: null,
    });
    expect(readFileSync(join(dir, 'message.txt'), 'utf8')).toBe(issued.verify.message);
  });

  it('cannot carry a page or a slice line: those came with scheme 3', () => {
    for (const line of ['page:content;page-verdict/1;1;', `slice:0;1;2;${sha256Hex('ab')}`]) {
      const lines = issued.verify.message.split('\n');
      lines.splice(lines.length - 1, 0, line);
      expect(parseMessage(lines.join('\n'))).toBeNull();
    }
  });

  it('shows a page verdict that no message signed as a failure', () => {
    const verdict = verifyReceipt({ text, page: VECTOR_PAGE, attestation: issued }, TEST_ADDRESS);
    expect(verdict.valid).toBe(false);
    expect(verdict.problems).toStrictEqual([
      'The result’s page verdict is not in the signed message.',
    ]);
  });
});

describe('storefront-attest/1 test vector: receipts issued before scheme 2', () => {
  const dir = join(fixtures, 'vector-v1');
  const issued = JSON.parse(readFileSync(join(dir, 'attestation.json'), 'utf8')) as Attestation;
  const text = readFileSync(join(dir, 'text.txt'), 'utf8');

  it('still verifies, with its scheme-1 keyId, against the same pinned address', () => {
    const verdict = verifyReceipt({ text, attestation: issued }, TEST_ADDRESS);
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.keyId).toBe(`storefront-attest/1:${TEST_ADDRESS}`);
    expect(verdict.signed).toMatchObject({ scheme: 'storefront-attest/1', route: null });
  });

  it('is the format the test helper rebuilds old receipts in, byte for byte', () => {
    const rebuilt = signV1(VECTOR_INPUT.text, meta, {
      nonce: `0x${VECTOR_INPUT.nonceBytes}`,
      signedAt: VECTOR_INPUT.signedAt,
    });
    expect(rebuilt).toStrictEqual(issued);
    expect(readFileSync(join(dir, 'message.txt'), 'utf8')).toBe(issued.verify.message);
  });

  it('parses back to its fields, and a route line cannot be slipped into it', () => {
    const fields = parseMessage(issued.verify.message);
    expect(fields).toMatchObject({ scheme: 'storefront-attest/1', route: null, ...meta });
    const [first, ...rest] = issued.verify.message.split('\n');
    expect(parseMessage([first, 'route:markdown', ...rest].join('\n'))).toBeNull();
  });
});

describe('MESSAGE_TEMPLATE', () => {
  it('has the same lines, in the same order, as a built scheme-3 message with every line', () => {
    const message = readFileSync(join(fixtures, 'vector-v3-slice/message.txt'), 'utf8').split('\n');
    const label = (line: string) => line.split(':')[0];
    expect(MESSAGE_TEMPLATE.map(label)).toStrictEqual(message.map(label));
  });
});
