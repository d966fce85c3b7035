import { x402Client, x402HTTPClient } from '@x402/core/client';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import {
  extractDiscoveryInfo,
  extractDiscoveryInfoV1,
  type QueryDiscoveryExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from '@x402/extensions/bazaar';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { PaymentRequirementsSchema } from 'x402/types';
import { decodeBase64Json } from '../../src/doors/x402/base64-json.js';
import { bazaarExtension } from '../../src/doors/x402/bazaar.js';
import {
  acceptEntry,
  challenge,
  challengeBody,
  challengeHeader,
  paymentRequiredV2,
  requirementsFor,
  v1AcceptEntry,
  v1FacilitatorRequirements,
  v2Accept,
} from '../../src/doors/x402/requirements.js';
import { dollars, routePaymentMetadata } from '../../src/doors/x402/terms.js';
import { REGISTRY } from '../../src/registry/index.js';
import { BASE_URL, EVERY_PRICE, LEGACY_TERMS, route, TERMS } from './terms.js';

const fetchRoute = route('fetch');
const pro = fetchRoute.prices.find((price) => price.tier === 'pro');
if (pro === undefined) throw new Error('fetch has a pro tier');

/** The v2 header as the official client reads it off a 402. */
function officialDecode(header: string, body: unknown = {}) {
  const client = new x402HTTPClient(new x402Client());
  return client.getPaymentRequiredResponse(
    (name) => (name === 'PAYMENT-REQUIRED' ? header : null),
    body,
  );
}

describe('the v1 accept entry', () => {
  it('carries the spec fields and the v1 client fields, network as CAIP-2 by default', () => {
    const entry = v1AcceptEntry(requirementsFor(fetchRoute, pro, BASE_URL, TERMS));
    expect(entry).toStrictEqual({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '12000',
      price: '$0.012',
      asset: TERMS.asset,
      payTo: TERMS.payTo,
      maxAmountRequired: '12000',
      resource: 'https://storefront.example/buy/fetch',
      description: fetchRoute.description,
      mimeType: 'application/json',
      maxTimeoutSeconds: 60,
      outputSchema: {
        input: {
          type: 'http',
          method: 'GET',
          discoverable: true,
          queryParams: fetchRoute.params,
        },
        output: fetchRoute.response,
      },
      extra: { tier: 'pro', includes: pro.includes, name: 'USD Coin', version: '2' },
    });
    expect(acceptEntry(fetchRoute, pro, BASE_URL, TERMS)).toStrictEqual(entry);
  });

  it.each(EVERY_PRICE)(
    '%s: passes x402@1.2.0 PaymentRequirementsSchema with legacy names, and not without',
    (_, entry, price) => {
      const legacy = v1AcceptEntry(requirementsFor(entry, price, BASE_URL, LEGACY_TERMS));
      const parsed = PaymentRequirementsSchema.safeParse(legacy);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(parsed.data).toMatchObject({
        network: 'base',
        maxAmountRequired: String(price.amount),
        payTo: TERMS.payTo,
        asset: TERMS.asset,
        extra: { name: 'USD Coin', version: '2' },
      });
      // The frozen v1 client refuses CAIP-2 ids (x402.md §1): this is why the switch exists.
      const caip2 = v1AcceptEntry(requirementsFor(entry, price, BASE_URL, TERMS));
      expect(PaymentRequirementsSchema.safeParse(caip2).success).toBe(false);
    },
  );

  it('names the chain base-sepolia on eip155:84532 with legacy names', () => {
    const terms = { ...LEGACY_TERMS, network: 'eip155:84532' };
    expect(v1AcceptEntry(requirementsFor(fetchRoute, pro, BASE_URL, terms)).network).toBe(
      'base-sepolia',
    );
  });

  it('refuses legacy names on a chain v1 has no name for', () => {
    expect(() =>
      requirementsFor(fetchRoute, pro, BASE_URL, { ...LEGACY_TERMS, network: 'eip155:1' }),
    ).toThrow(/x402 v1 has no name for `eip155:1`/);
  });

  it('gives the facilitator the v1 name even when the body shows CAIP-2', () => {
    const requirements = requirementsFor(fetchRoute, pro, BASE_URL, TERMS);
    expect(v1FacilitatorRequirements(requirements)).toStrictEqual({
      ...v1AcceptEntry(requirements),
      network: 'base',
    });
    const mainnet = requirementsFor(fetchRoute, pro, BASE_URL, { ...TERMS, network: 'eip155:1' });
    expect(() => v1FacilitatorRequirements(mainnet)).toThrow(/no name for `eip155:1`/);
  });

  it('uses the token domain the terms give', () => {
    const terms = { ...TERMS, token: { name: 'USDC', version: '2' } };
    const requirements = requirementsFor(fetchRoute, pro, BASE_URL, terms);
    expect(v1AcceptEntry(requirements).extra).toMatchObject({ name: 'USDC', version: '2' });
    expect(v2Accept(requirements).extra).toMatchObject({ name: 'USDC', version: '2' });
  });
});

describe('the 402 body', () => {
  it('is our error shape around x402 v1 with the one entry of the selected tier', () => {
    const body = challengeBody(fetchRoute, pro, BASE_URL, TERMS, 'payment_required', 'Pay');
    expect(body).toStrictEqual({
      ok: false,
      error: 'payment_required',
      message: 'Pay',
      x402Version: 1,
      accepts: [acceptEntry(fetchRoute, pro, BASE_URL, TERMS)],
    });
  });

  it('is read by the official v2 client when no header is present', () => {
    const body = challengeBody(fetchRoute, pro, BASE_URL, TERMS, 'payment_mismatch', 'amount');
    expect(officialDecode('', body)).toStrictEqual(body);
  });
});

describe('the PAYMENT-REQUIRED header', () => {
  it.each(EVERY_PRICE)(
    '%s: the official client decodes it to the same terms',
    (_, entry, price) => {
      const requirements = requirementsFor(entry, price, BASE_URL, TERMS);
      const { body, header } = challenge(requirements, 'payment_required', 'Payment required');
      const decoded = officialDecode(header, body);
      expect(decoded).toStrictEqual(paymentRequiredV2(requirements, 'Payment required'));
      expect(PaymentRequiredV2Schema.safeParse(decoded).success).toBe(true);
      expect(decoded).toMatchObject({
        x402Version: 2,
        error: 'Payment required',
        resource: {
          url: `${BASE_URL}${entry.path}`,
          description: entry.description,
          mimeType: 'application/json',
        },
        accepts: [
          {
            scheme: 'exact',
            network: 'eip155:8453',
            amount: String(price.amount),
            asset: TERMS.asset,
            payTo: TERMS.payTo,
            maxTimeoutSeconds: 60,
            extra: { name: 'USD Coin', version: '2', tier: price.tier, includes: price.includes },
          },
        ],
      });
      // The body's entry describes the same payment.
      const [v1] = body.accepts;
      const [v2] = (decoded as { accepts: { amount: string; asset: string; payTo: string }[] })
        .accepts;
      expect([v1.amount, v1.asset, v1.payTo]).toStrictEqual([v2?.amount, v2?.asset, v2?.payTo]);
    },
  );

  it('names the chain by CAIP-2 even with legacy names on', () => {
    const header = challengeHeader(fetchRoute, pro, BASE_URL, LEGACY_TERMS, 'Pay');
    const decoded = decodeBase64Json(header);
    expect(
      decoded.ok && (decoded.value as { accepts: { network: string }[] }).accepts[0]?.network,
    ).toBe('eip155:8453');
  });

  it.each(REGISTRY.map((entry) => [entry.name, entry] as const))(
    '%s: stays small enough for a client that caps response headers at 16 KiB',
    (_, entry) => {
      for (const price of entry.prices) {
        expect(
          challengeHeader(entry, price, BASE_URL, TERMS, 'Payment required').length,
        ).toBeLessThan(8 * 1024);
      }
    },
  );
});

describe('the bazaar extension', () => {
  // The official validator compiles without format support and warns once per `format`
  // (`date-time`) in our answer schemas; anything else it says would be news.
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    const other = warn.mock.calls.filter(
      ([text]) => !/^unknown format "date-time"/.test(String(text)),
    );
    warn.mockRestore();
    expect(other).toStrictEqual([]);
  });

  it.each(REGISTRY.map((entry) => [entry.name, entry] as const))(
    '%s: the official validator and extractor accept it',
    (_, entry) => {
      const extension = bazaarExtension(entry);
      const asOfficial = extension as unknown as QueryDiscoveryExtension;
      expect(
        validateDiscoveryExtensionSpec(extension as unknown as Record<string, unknown>),
      ).toStrictEqual({ valid: true });
      expect(validateDiscoveryExtension(asOfficial)).toStrictEqual({ valid: true });

      // What a facilitator with a Bazaar catalogs from a v2 payment that echoes the extension.
      const [price] = entry.prices;
      if (price === undefined) throw new Error('a route has a price');
      const requirements = requirementsFor(entry, price, BASE_URL, TERMS);
      const required = paymentRequiredV2(requirements, 'Payment required');
      const payload = {
        x402Version: 2,
        resource: required.resource,
        accepted: v2Accept(requirements),
        payload: {},
        extensions: required.extensions,
      } as unknown as PaymentPayload;
      const found = extractDiscoveryInfo(payload, v2Accept(requirements) as never);
      expect(found).toMatchObject({
        resourceUrl: `${BASE_URL}${entry.path}`,
        method: 'GET',
        x402Version: 2,
        description: entry.description,
        discoveryInfo: extension.info,
      });

      // And from a v1 payment: the accept entry's outputSchema.
      const v1 = extractDiscoveryInfoV1(v1FacilitatorRequirements(requirements) as never);
      expect(v1).toMatchObject({
        input: { type: 'http', method: 'GET', queryParams: entry.params },
        output: { type: 'json', example: entry.response },
      });
    },
  );

  it.each(REGISTRY.map((entry) => [entry.name, entry] as const))(
    "%s: the example query passes the route's own checks",
    (_name, entry) => {
      const example = entry.example.query;
      expect(entry.check(example)).toMatchObject({ ok: true });
      expect(bazaarExtension(entry).info.input.queryParams).toStrictEqual(example);
    },
  );

  it('fails the official validator when the example breaks the query schema', () => {
    const extension = bazaarExtension(fetchRoute);
    const broken = {
      ...extension,
      info: { ...extension.info, input: { ...extension.info.input, queryParams: { nope: '1' } } },
    } as unknown as QueryDiscoveryExtension;
    expect(validateDiscoveryExtension(broken).valid).toBe(false);
  });
});

describe('routePaymentMetadata', () => {
  it("gives the spec's route-level metadata in its order", () => {
    const metadata = routePaymentMetadata(TERMS);
    expect(metadata).toStrictEqual({
      protocols: ['x402'],
      scheme: 'exact',
      currency: 'USDC',
      testnet: false,
      facilitator: 'https://facilitator.example',
      x402Version: 1,
      maxTimeoutSeconds: 60,
      network: 'eip155:8453',
      asset: TERMS.asset,
      payTo: TERMS.payTo,
    });
    expect(Object.keys(metadata).slice(0, 7)).toStrictEqual([
      'protocols',
      'scheme',
      'currency',
      'testnet',
      'facilitator',
      'x402Version',
      'maxTimeoutSeconds',
    ]);
  });

  it('says testnet for the development token and leaves out an unset facilitator', () => {
    const metadata = routePaymentMetadata({ ...TERMS, testnet: true, facilitatorUrl: null });
    expect(metadata.testnet).toBe(true);
    expect('facilitator' in metadata).toBe(false);
  });
});

describe('dollars', () => {
  it.each([
    [3000, '$0.003'],
    [12000, '$0.012'],
    [1_000_000, '$1'],
    [1_500_000, '$1.5'],
    [1, '$0.000001'],
    [0, '$0'],
  ])('writes %i atomic units as %s', (amount, expected) => {
    expect(dollars(amount)).toBe(expected);
    expect(dollars(BigInt(amount))).toBe(expected);
  });
});
