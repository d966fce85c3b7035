import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '@storefront/core';
import { verifyMessage as ethersVerify } from 'ethers';
import { describe, expect, it } from 'vitest';
import { verifyReceipt } from '../src/index.js';
import { TEST_ADDRESS, VECTOR_INPUT, vectorSigner } from './helpers.js';

const dir = join(import.meta.dirname, 'fixtures/vector-v1');

describe('storefront-attest/1 test vector', () => {
  const attestation = vectorSigner().sign(VECTOR_INPUT.text, {
    url: VECTOR_INPUT.url,
    status: VECTOR_INPUT.status,
    fetchedAt: VECTOR_INPUT.fetchedAt,
  });

  it('signs exactly the documented message', async () => {
    await expect(attestation.verify.message).toMatchFileSnapshot(join(dir, 'message.txt'));
  });

  it('produces the golden attestation (RFC 6979 signatures are deterministic)', async () => {
    await expect(`${JSON.stringify(attestation, null, 2)}\n`).toMatchFileSnapshot(
      join(dir, 'attestation.json'),
    );
  });

  it('keeps the input text golden so sha256sum of it gives contentHash', () => {
    const text = readFileSync(join(dir, 'text.txt'), 'utf8');
    expect(text).toBe(VECTOR_INPUT.text);
    expect(sha256Hex(text)).toBe(attestation.contentHash);
  });

  it('verifies with plain ethers and with our verifier', () => {
    expect(ethersVerify(attestation.verify.message, attestation.signature)).toBe(TEST_ADDRESS);
    const verdict = verifyReceipt({ text: VECTOR_INPUT.text, attestation }, TEST_ADDRESS);
    expect(verdict.valid).toBe(true);
  });
});

describe('MESSAGE_TEMPLATE', () => {
  it('has the same lines, in the same order, as a built message', async () => {
    const { MESSAGE_TEMPLATE } = await import('../src/index.js');
    const message = readFileSync(join(dir, 'message.txt'), 'utf8').split('\n');
    const label = (line: string) => line.split(':')[0];
    expect(MESSAGE_TEMPLATE.map(label)).toStrictEqual(message.map(label));
  });
});
