/**
 * Response provenance and x402 offers and receipts, checked the way a client that is
 * not ours checks them: the `response-provenance` hash recomputed with other RFC 8785
 * implementations (`json-canonicalize`, `canonicalize`) from nothing but the answer and
 * the request the client sent, and the offers and receipts verified with
 * `@x402/extensions/offer-receipt`'s own functions against the keys the service
 * publishes. Real parts: the local chain and facilitator, the service on real sockets,
 * the official x402 clients (v2 `@x402/fetch`, v1 `x402-fetch`, batch-settlement) and
 * the MCP SDK client.
 */
import { createHash } from 'node:crypto';
import { fc, test as property } from '@fast-check/vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { canonicalize as coreCanonicalize } from '@storefront/core';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import {
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  findAcceptsObjectFromSignedOffer,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureEIP712,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from '@x402/extensions/offer-receipt';
import { wrapFetchWithPayment } from '@x402/fetch';
import erdtman from 'canonicalize';
import { canonicalize as cyberphone } from 'json-canonicalize';
import { createPublicClient, createWalletClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base as baseChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch';
import { registerSigner } from '../src/db/signer-keys.js';
import { offerReceiptKeys, signedReceipt } from '../src/doors/x402/offer-receipt.js';
import { dataVintageOf, queryInputs, responseHash } from '../src/pipeline/provenance.js';
import type { RunningServer } from '../src/server.js';
import { listeningServer, liveKeyAt, paymentEnv } from './listening.js';
import { type Claim, expectReceipts, published, rederive } from './x402/offer-receipt-checks.js';
import { officialV2Payer } from './x402/payments.js';

/** The proposal's normative worked vector (PR #3304 at 760e85e9). */
const WORKED = {
  fixedPoint: {
    endpoint: '/v1/echo-sum',
    inputs: { a: 2, b: 3 },
    result: { sum: 5 },
    method: 'sum = a + b, integer addition',
    dataVintage: '2026-07',
  },
  canonical:
    '{"dataVintage":"2026-07","endpoint":"/v1/echo-sum","inputs":{"a":2,"b":3},"method":"sum = a + b, integer addition","result":{"sum":5}}',
  hash: 'sha256:81ea1f2227fd9df5b868954e6d26d091810352f148dade483b260844788ede03',
};

describe('the fixed point and its hash', () => {
  it('reproduces the proposal’s worked vector byte for byte, with ours and two other RFC 8785 libraries', () => {
    const { fixedPoint, canonical, hash } = WORKED;
    expect(Buffer.byteLength(canonical, 'utf8')).toBe(134);
    for (const jcs of [coreCanonicalize, erdtman, cyberphone]) {
      expect(jcs(fixedPoint)).toBe(canonical);
    }
    expect(`sha256:${createHash('sha256').update(canonical).digest('hex')}`).toBe(hash);
    expect(responseHash(fixedPoint)).toBe(hash);
    // The same fixed point with its members in another order hashes the same.
    const { dataVintage, result, method, inputs, endpoint } = fixedPoint;
    expect(responseHash({ result, dataVintage, inputs, method, endpoint })).toBe(hash);
  });

  it('maps a query to inputs as the proposal’s normative table says', () => {
    expect(queryInputs('q=a+b')).toStrictEqual({ q: 'a b' });
    expect(queryInputs('q=a%2Bb')).toStrictEqual({ q: 'a+b' });
    expect(queryInputs('q=a%20b')).toStrictEqual({ q: 'a b' });
    expect(queryInputs('flag')).toStrictEqual({ flag: '' });
    expect(queryInputs('a=1&a=2')).toStrictEqual({ a: ['1', '2'] });
    expect(queryInputs('')).toStrictEqual({});
    expect(queryInputs('n=42')).toStrictEqual({ n: '42' });
    expect(queryInputs('x=caf%C3%A9&x=%E2%82%AC&y==')).toStrictEqual({
      x: ['café', '€'],
      y: '=',
    });
    // Malformed: no claim is made.
    expect(queryInputs('x=%ZZ')).toBeNull();
    expect(queryInputs('x=%FF')).toBeNull();
    expect(queryInputs('x=%4')).toBeNull();
  });

  property.prop([fc.jsonValue({ maxDepth: 6 })], { numRuns: 300 })(
    'our JCS agrees with two other RFC 8785 implementations on any JSON value',
    (value) => {
      // -0 is JSON's 0; a lone surrogate has no RFC 8785 form (I-JSON), which ours refuses.
      const mine = coreCanonicalize(value as never);
      expect(cyberphone(value as never)).toBe(mine);
      expect(erdtman(value)).toBe(mine);
    },
  );

  it('dates a result by the UTC day its sources were read (GVP-FixedPoint/2 grammar)', () => {
    const now = new Date('2027-01-02T03:04:05.000Z');
    expect(dataVintageOf({ fetchedAt: '2026-11-30T23:59:59.999Z' }, now)).toBe('2026-11-30');
    expect(dataVintageOf({ fetchedAt: '2026-12-01T00:30:00+02:00' }, now)).toBe('2026-11-30');
    // An answer without a read time (ok:false) is dated when it was answered.
    expect(dataVintageOf({ ok: false }, now)).toBe('2027-01-02');
    expect(dataVintageOf({ fetchedAt: 'yesterday' }, now)).toBe('2027-01-02');
  });
});

let stack: PaymentStack;
let server: RunningServer;
let stopServer: () => Promise<void>;

beforeAll(async () => {
  stack = await startPaymentStack();
  ({ server, stop: stopServer } = await listeningServer({
    ...paymentEnv(stack),
    // The JSON body names the chain `base` for the v1 client; v2 clients read the header.
    X402_LEGACY_NETWORK_NAMES: 'true',
  }));
  await server.ready();
}, 120_000);

afterAll(async () => {
  await stopServer?.();
  await stack?.close();
}, 60_000);

function inputsOf(url: URL): Record<string, string | string[]> {
  const inputs: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const had = inputs[name];
    inputs[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return inputs;
}

/** The claim in an answer's `Response-Provenance` header. */
function headerClaim(res: Response): Claim {
  const value = res.headers.get('response-provenance');
  expect(value).not.toBeNull();
  return JSON.parse(Buffer.from(value as string, 'base64').toString('utf8')) as Claim;
}

/**
 * Check an HTTP answer's claim as a requesting client does, and that a one-byte edit of
 * the body's result is caught.
 */
function expectVerified(url: URL, bodyText: string, claim: Claim): void {
  expect(claim.fixedPointVersion).toBe('GVP-FixedPoint/2');
  expect(claim.resultCarriage).toBe('body');
  expect(claim.dataVintage).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const inputs = inputsOf(url);
  expect(rederive(url.pathname, inputs, JSON.parse(bodyText), claim)).toBe(claim.responseHash);
  // The body with `extensions` removed is the body: there is none.
  expect(Object.hasOwn(JSON.parse(bodyText) as object, 'extensions')).toBe(false);
  // One byte of the result changed: the hash no longer re-derives.
  const at = bodyText.indexOf('"text":"') + 8;
  const edited = `${bodyText.slice(0, at)}${bodyText[at] === 'A' ? 'B' : 'A'}${bodyText.slice(at + 1)}`;
  expect(edited.length).toBe(bodyText.length);
  expect(rederive(url.pathname, inputs, JSON.parse(edited), claim)).not.toBe(claim.responseHash);
  // So does the same result asked with other inputs.
  expect(rederive(url.pathname, { ...inputs, x: '1' }, JSON.parse(bodyText), claim)).not.toBe(
    claim.responseHash,
  );
}

/** The provenance claim in a settlement response's extensions. */
function settlementClaim(settlement: SettleResponse): Claim {
  const claim = (settlement.extensions as Record<string, unknown> | undefined)?.[
    'response-provenance'
  ] as Claim | undefined;
  expect(claim).toBeDefined();
  return claim as Claim;
}

describe('response provenance and offer-receipt, door by door', () => {
  it('the key door: the claim re-derives from the answer and the request, and fails on a one-byte edit', async () => {
    const key = await liveKeyAt(server.url, 100);
    const url = new URL(`${server.url}/buy/notarize?content=provenance+check%21+caf%C3%A9`);
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const claim = headerClaim(res);
    expect(claim.method).toContain('/buy/notarize');
    expectVerified(url, text, claim);
    // The same answer re-derives with the third implementation too.
    const fixed = {
      endpoint: url.pathname,
      inputs: inputsOf(url),
      result: JSON.parse(text),
      method: claim.method,
      dataVintage: claim.dataVintage,
    };
    expect(
      `sha256:${createHash('sha256')
        .update(erdtman(fixed) as string)
        .digest('hex')}`,
    ).toBe(claim.responseHash);
  });

  it('makes no claim on the answer to a malformed query, and still delivers it', async () => {
    const key = await liveKeyAt(server.url, 100);
    const res = await fetch(`${server.url}/buy/notarize?content=%FF`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
    expect(res.headers.get('response-provenance')).toBeNull();
  });

  it('signs offers beside the terms of a 402, in both forms, verified with the package', async () => {
    const keys = await published(server.url);
    const res = await fetch(`${server.url}/buy/notarize?content=offers`);
    expect(res.status).toBe(402);
    const terms = decodePaymentRequiredHeader(res.headers.get('payment-required') as string);
    const offers = extractOffersFromPaymentRequired(terms);
    // One EIP-712 and one JWS offer per accept entry (exact, batch-settlement).
    expect(offers.length).toBe(terms.accepts.length * 2);
    for (const offer of offers) {
      expect(findAcceptsObjectFromSignedOffer(offer, terms.accepts)).toBeDefined();
      if (offer.format === 'eip712') {
        const { signer, payload } = await verifyOfferSignatureEIP712(offer as EIP712SignedOffer);
        expect(signer.toLowerCase()).toBe(keys.eip712Address.toLowerCase());
        expect(payload.resourceUrl).toBe(terms.resource.url);
      } else {
        const payload = await verifyOfferSignatureJWS(offer as JWSSignedOffer, keys.jwk);
        expect(payload.resourceUrl).toBe(terms.resource.url);
      }
    }
    // The v1 face (the JSON body) carries the offers of its one entry.
    const body = (await res.json()) as { extensions: Record<string, { info: { offers: [] } }> };
    expect(body.extensions['offer-receipt']?.info.offers.length).toBe(2);

    // The key door's 402 with terms (a live key without credits) carries them too.
    const broke = await liveKeyAt(server.url, 0);
    const refused = await fetch(`${server.url}/buy/notarize?content=offers`, {
      headers: { authorization: `Bearer ${broke}` },
    });
    expect(refused.status).toBe(402);
    const keyTerms = decodePaymentRequiredHeader(refused.headers.get('payment-required') as string);
    expect(extractOffersFromPaymentRequired(keyTerms).length).toBe(keyTerms.accepts.length * 2);
  });

  it('x402 v2 (@x402/fetch): the claim in PAYMENT-RESPONSE and the header agree and re-derive; the receipt verifies in both forms', async () => {
    const keys = await published(server.url);
    const pay = wrapFetchWithPayment(fetch, officialV2Payer(DEV_PAYER.privateKey));
    const url = new URL(`${server.url}/buy/notarize?content=paid+v2`);
    const res = await pay(url);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') as string);
    expect(settlement.success).toBe(true);
    const claim = settlementClaim(settlement);
    expect(claim).toStrictEqual(headerClaim(res));
    expectVerified(url, text, claim);
    // The package's client reads the receipt from the answer.
    expect(extractReceiptFromResponse(res)?.format).toBe('eip712');
    await expectReceipts(settlement, keys, `${server.url}/buy/notarize`);
  }, 60_000);

  it('x402 v1 (x402-fetch 1.2.0, X-PAYMENT): the same claim and receipts in X-PAYMENT-RESPONSE', async () => {
    const keys = await published(server.url);
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_PAYER.privateKey as Hex),
      chain: baseChain,
      transport: viemHttp(stack.rpcUrl),
    });
    const pay = wrapFetchWithPaymentV1(fetch, wallet as never);
    const url = new URL(`${server.url}/buy/notarize?content=paid+v1`);
    const res = await pay(url.href);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const settlement = JSON.parse(
      Buffer.from(res.headers.get('x-payment-response') as string, 'base64').toString('utf8'),
    ) as SettleResponse;
    expect(settlement).toMatchObject({ success: true, network: 'base' });
    const claim = settlementClaim(settlement);
    expect(claim).toStrictEqual(headerClaim(res));
    expectVerified(url, text, claim);
    await expectReceipts(settlement, keys, `${server.url}/buy/notarize`);
  }, 60_000);

  it('x402 batch-settlement: a voucher-paid result carries the same claim and receipts', async () => {
    const keys = await published(server.url);
    const account = privateKeyToAccount(DEV_PAYER.privateKey as Hex);
    const chain = createPublicClient({ transport: viemHttp(stack.rpcUrl) });
    const client = new x402Client().setSpendControls(false).register(
      stack.network,
      new BatchSettlementEvmScheme(toClientEvmSigner(account, chain as never), {
        salt: `0x${'7e'.repeat(32)}`,
      }),
    );
    const pay = wrapFetchWithPayment(fetch, client);
    for (const word of ['one', 'two']) {
      const url = new URL(`${server.url}/buy/notarize?content=batch+${word}`);
      const res = await pay(url);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') as string);
      const claim = settlementClaim(settlement);
      expect(claim).toStrictEqual(headerClaim(res));
      expectVerified(url, text, claim);
      await expectReceipts(settlement, keys, `${server.url}/buy/notarize`);
    }
  }, 120_000);

  it('MCP with a key: the claim in _meta re-derives over the route’s path, the arguments and structuredContent', async () => {
    const key = await liveKeyAt(server.url, 100);
    const client = new Client({ name: 'provenance-check', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const args = { content: 'asked over MCP' };
    const result = (await client.callTool({ name: 'notarize', arguments: args })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    const claim = result._meta?.['response-provenance'] as Claim;
    const body = result.structuredContent as Record<string, unknown>;
    expect(rederive('/buy/notarize', args, body, claim)).toBe(claim.responseHash);
    const edited = { ...body, text: `${String(body.text).slice(0, -1)}!` };
    expect(rederive('/buy/notarize', args, edited, claim)).not.toBe(claim.responseHash);
    await client.close();
  });

  it('x402 inside MCP: offers with the terms; the claim and the receipts in _meta["x402/payment-response"]', async () => {
    const keys = await published(server.url);
    const client = new Client({ name: 'provenance-x402', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const args = { content: 'paid over MCP' };
    const asked = (await client.callTool({ name: 'notarize', arguments: args })) as CallToolResult;
    const terms = asked.structuredContent as unknown as PaymentRequired;
    const offers = extractOffersFromPaymentRequired(terms);
    expect(offers.length).toBe(terms.accepts.length * 2);
    const eip712 = offers.find((o) => o.format === 'eip712') as EIP712SignedOffer;
    expect((await verifyOfferSignatureEIP712(eip712)).signer.toLowerCase()).toBe(
      keys.eip712Address.toLowerCase(),
    );
    const payment = await officialV2Payer(DEV_PAYER.privateKey).createPaymentPayload(terms);
    const paid = (await client.callTool({
      name: 'notarize',
      arguments: args,
      _meta: { 'x402/payment': payment },
    })) as CallToolResult;
    expect(paid.isError).toBeUndefined();
    const settlement = paid._meta?.['x402/payment-response'] as SettleResponse;
    const claim = settlementClaim(settlement);
    expect(claim).toStrictEqual(paid._meta?.['response-provenance']);
    const body = paid.structuredContent as Record<string, unknown>;
    expect(rederive('/buy/notarize', args, body, claim)).toBe(claim.responseHash);
    expect(rederive('/buy/notarize', args, { ...body, ok: false }, claim)).not.toBe(
      claim.responseHash,
    );
    await expectReceipts(settlement, keys, `${server.url}/buy/notarize`);
    await client.close();
  }, 60_000);
});

describe('offer-receipt keys after a rotation', () => {
  it('publishes a retired signer key’s offer-receipt keys, so its receipts still verify', async () => {
    // Receipts signed with the keys of a signer key that is later retired.
    const old = offerReceiptKeys(`0x${'11'.repeat(32)}`);
    const subject = {
      resourceUrl: `${server.url}/buy/notarize`,
      payer: DEV_PAYER.address,
      network: 'eip155:8453',
      transaction: `0x${'ab'.repeat(32)}`,
    };
    const signed = await signedReceipt(old, subject);
    // A rotation as the service records it: the old key, then the current one again.
    await registerSigner(server.db, '0x00000000000000000000000000000000000000aa', 'k', {
      offerReceipt: { eip712: old.eip712.address, jws: old.jws.jwk },
    });
    const current = await published(server.url);
    await registerSigner(server.db, server.signer.address, server.signer.keyId, {
      offerReceipt: { eip712: current.eip712Address, jws: current.jwk as never },
    });

    const attestation = (await (
      await fetch(`${server.url}/.well-known/service-attestation`)
    ).json()) as {
      offerReceipt: {
        eip712: { address: string };
        retired: { eip712: { address: string }; jws: { kid: string; jwksKid: string } }[];
      };
    };
    // The current keys are unchanged; the old ones are listed as retired, once.
    expect(attestation.offerReceipt.eip712.address).toBe(current.eip712Address);
    const retired = attestation.offerReceipt.retired.filter(
      (r) => r.eip712.address === old.eip712.address,
    );
    expect(retired).toHaveLength(1);
    expect(retired[0]?.jws.kid).toBe(old.jws.kid);
    const { keys } = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as {
      keys: {
        kid: string;
        kty: string;
        crv: string;
        x: string;
        status: string;
        purpose?: string;
      }[];
    };
    const jwk = keys.find((key) => key.kid === retired[0]?.jws.jwksKid);
    expect(jwk).toMatchObject({ status: 'retired', purpose: 'x402-offer-receipt' });

    // The old receipts verify against what is published, with the package's own checks.
    const eip712 = signed.info.receipts.find((r) => r.format === 'eip712') as EIP712SignedReceipt;
    const jws = signed.info.receipts.find((r) => r.format === 'jws') as JWSSignedReceipt;
    const recovered = await verifyReceiptSignatureEIP712(eip712);
    expect(recovered.signer.toLowerCase()).toBe(retired[0]?.eip712.address.toLowerCase());
    const publishedJwk = { kty: jwk?.kty, crv: jwk?.crv, x: jwk?.x } as never;
    expect(await verifyReceiptSignatureJWS(jws, publishedJwk)).toMatchObject(subject);
    // Not against the current key.
    await expect(verifyReceiptSignatureJWS(jws, current.jwk as never)).rejects.toThrow();
  });
});
