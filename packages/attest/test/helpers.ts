import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@storefront/core';
import { Wallet } from 'ethers';
import {
  type Attestation,
  buildMessage,
  createSigner,
  HOW_TO_VERIFY,
  parseMessage,
} from '../src/index.js';

/** Hardhat's well-known development account #0: never holds value anywhere. */
export const TEST_PRIVATE_KEY =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const TEST_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** Hardhat account #1, used as "some other key". */
export const OTHER_PRIVATE_KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

export const VECTOR_INPUT = {
  route: 'markdown',
  text: 'Hello, Storefront.\nThis line is signed too.',
  url: 'https://example.com/article?id=7',
  status: 200,
  fetchedAt: '2026-01-02T03:04:05.678Z',
  signedAt: '2026-01-02T03:04:06.000Z',
  nonceBytes: '000102030405060708090a0b0c0d0e0f',
} as const;

/** The page verdict the scheme-3 vector binds. */
export const VECTOR_PAGE = {
  verdict: 'content',
  rubric: 'page-verdict/1',
  words: 642,
  signals: ['shell:noscript'],
} as const;

/** A signer whose clock and nonce are fixed, so its output is a reproducible vector. */
export function vectorSigner() {
  return createSigner(TEST_PRIVATE_KEY, {
    clock: () => new Date(VECTOR_INPUT.signedAt),
    random: (size) => Buffer.from(VECTOR_INPUT.nonceBytes, 'hex').subarray(0, size),
  });
}

/** A signed result shaped like a service response (a `/buy/fetch` page, by default). */
export function signedResult(text = 'page text', privateKey = TEST_PRIVATE_KEY, route = 'fetch') {
  const meta = { url: 'https://example.com/', status: 200, fetchedAt: '2026-03-04T05:06:07.000Z' };
  const attestation = createSigner(privateKey).sign(text, { route, ...meta });
  return { ok: true, ...meta, text, attestation };
}

/**
 * A receipt exactly as signers issued them under `storefront-attest/1` (no route line,
 * keyId `storefront-attest/1:<address>`): the old format, rebuilt here because the
 * signer now issues scheme 3 only. `test/fixtures/vector-v1` pins it byte for byte.
 */
export function signV1(
  text: string,
  meta: { url: string; status: number | null; fetchedAt: string },
  options: { privateKey?: string; nonce?: string; signedAt?: string } = {},
): Attestation {
  const wallet = new Wallet(options.privateKey ?? TEST_PRIVATE_KEY);
  const contentHash = sha256Hex(text);
  const nonce = options.nonce ?? `0x${randomBytes(16).toString('hex')}`;
  const message = buildMessage({
    scheme: 'storefront-attest/1',
    route: null,
    contentHash,
    ...meta,
    nonce,
  });
  return {
    keyId: `storefront-attest/1:${wallet.address}`,
    alg: 'EIP-191-personal_sign',
    address: wallet.address,
    contentHash,
    nonce,
    signedAt: options.signedAt ?? '2026-03-04T05:06:08.000Z',
    signature: wallet.signMessageSync(message),
    verify: { message, howTo: HOW_TO_VERIFY },
  };
}

/** A whole result of `storefront-attest/1`: what {@link signedResult} gave before scheme 2. */
export function signedResultV1(text = 'page text', privateKey = TEST_PRIVATE_KEY) {
  const meta = { url: 'https://example.com/', status: 200, fetchedAt: '2026-03-04T05:06:07.000Z' };
  return { ok: true, ...meta, text, attestation: signV1(text, meta, { privateKey }) };
}

/** Change one character of a string at `index` (to a different one). */
export function flipChar(value: string, index: number): string {
  const ch = value[index];
  const replacement = ch === 'a' ? 'b' : ch === '0' ? '1' : ch === '1' ? '2' : 'a';
  return value.slice(0, index) + replacement + value.slice(index + 1);
}

/** The same result, its receipt signed again (scheme 2) for `route`, with the same envelope. */
export function resigned<T extends Record<string, unknown>>(result: T, route: string): T {
  const { verify } = result.attestation as Attestation;
  const signed = parseMessage(verify.message);
  if (signed === null) throw new Error('resigned: the receipt has no well-formed message');
  const { url, status, fetchedAt } = signed;
  const attestation = createSigner(TEST_PRIVATE_KEY).sign(result.text as string, {
    route,
    url,
    status,
    fetchedAt,
  });
  return { ...result, attestation };
}
