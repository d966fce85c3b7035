import { ERROR_CODES } from '@storefront/core';
import { Router } from 'express';
import type { AppDeps } from '../app.js';
import { creditsFor, tierPlans } from '../metering/tiers.js';
import { REGISTRY } from '../registry/index.js';
import { acceptEntry, dollars, MAX_TIMEOUT_SECONDS } from '../registry/terms.js';
import type { ChargeRule, RouteEntry } from '../registry/types.js';
import { termsOf } from './buy.js';

/** The service's version tag (spec "Versioning"). */
export const VERSION_TAG = 'storefront/1';

/** What each charge rule means, in the words the catalog publishes. */
export const CHARGE_RULES: Readonly<Record<ChargeRule, string>> = {
  'per-attempt':
    'Charged per attempt: an ok:false result (upstream failure) is delivered and charged.',
  'free-on-failure': 'An ok:false result is delivered and not charged.',
  'before-charging': 'An undeliverable result is answered with HTTP 503 before charging.',
  'always-delivered':
    'A down or failing host is still ok:true (data.up false) and charged; ok:false means the probe could not be performed and is not charged.',
};

/** When a route answers 503: undeliverable results, and pages past the product thread's bounds. */
function unavailable(route: RouteEntry<never>): string {
  const tooComplex =
    'page_too_complex: processing the page passed the deadline or the memory bound of a product thread';
  if (route.compute === undefined) return 'Undeliverable; answered before charging.';
  return route.chargeRule === 'before-charging'
    ? `Undeliverable, or ${tooComplex}; answered before charging.`
    : `${tooComplex}; answered before charging.`;
}

function pricesOf(route: RouteEntry<never>) {
  return route.prices.map((price) => ({
    tier: price.tier,
    amount: String(price.amount),
    price: dollars(price.amount),
    credits: creditsFor(price.amount),
    includes: price.includes,
  }));
}

/** One catalog row, generated from the registry entry. */
function catalogRoute(route: RouteEntry<never>, base: string) {
  const properties = (route.params.properties ?? {}) as Record<string, unknown>;
  return {
    name: route.name,
    method: 'GET',
    path: route.path,
    url: `${base}${route.path}`,
    title: route.title,
    description: route.description,
    params: properties,
    required: route.params.required,
    prices: pricesOf(route),
    ...(route.name === 'fetch'
      ? {
          tierSelection:
            '`extract` present: pro; else `format=markdown` or `links=1`: plus; else fetch.',
        }
      : {}),
    chargeRule: route.chargeRule,
    charging: CHARGE_RULES[route.chargeRule],
    output: route.response,
  };
}

/** Build every discovery document from the registry. */
export function discovery(deps: AppDeps) {
  const base = deps.config.publicBaseUrl;
  const terms = termsOf(deps);
  const plans = tierPlans(deps.config.enterprisePerMinute);
  const payment = {
    protocols: ['x402'],
    x402Version: 1,
    scheme: 'exact',
    network: terms.network,
    currency: 'USDC',
    asset: terms.asset,
    payTo: terms.payTo,
    testnet: terms.network !== 'eip155:8453',
    ...(terms.facilitatorUrl === null ? {} : { facilitator: terms.facilitatorUrl }),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  };
  const tiers = Object.values(plans).map((plan) => ({
    tier: plan.tier,
    env: plan.env,
    keyPrefix: plan.env === 'test' ? 'mk_test_' : 'mk_live_',
    monthlyUsd: plan.monthlyUsd,
    included: plan.included,
    perMinute: plan.perMinute,
  }));

  const catalog = {
    version: 1,
    service: 'storefront',
    versionTag: VERSION_TAG,
    routes: REGISTRY.map((route) => catalogRoute(route, base)),
    free: [
      {
        method: 'GET',
        path: '/buy/signal',
        description: 'Free demo: signed sample data, no key or payment.',
      },
    ],
    payment,
    credits: {
      usdPerCredit: '0.001',
      rule: 'A call costs its catalog price in credits, minimum 1.',
    },
    tiers,
  };

  const manifest = {
    name: 'Storefront',
    description:
      'Deterministic, signed web-data products over HTTP: page text, typed extract, markdown, metadata, links, AI-crawler audit, change proof, notarization, security headers, tables, feeds, availability and JSON validation.',
    version: VERSION_TAG,
    serviceVersion: deps.version,
    baseUrl: base,
    doors: {
      x402: { ...payment, header: 'X-PAYMENT' },
      apiKey: {
        scheme: 'bearer',
        header: 'Authorization: Bearer <key>',
        issue: `${base}/api/dev/keys`,
        balance: `${base}/api/dev/balance`,
        tiers,
      },
      mcp: { endpoint: `${base}/mcp`, transport: 'streamable-http' },
    },
    signer: {
      keyId: deps.signer.keyId,
      address: deps.signer.address,
      alg: 'EIP-191-personal_sign',
      wellKnown: `${base}/.well-known/service-attestation`,
      verify: `${base}/x402/verify`,
    },
    links: {
      catalog: `${base}/catalog`,
      openapi: `${base}/openapi.json`,
      x402: `${base}/.well-known/x402`,
      discovery: `${base}/x402/discovery`,
    },
    routes: REGISTRY.map((route) => ({
      name: route.name,
      path: route.path,
      prices: pricesOf(route),
      chargeRule: route.chargeRule,
    })),
  };

  const wellKnownX402 = {
    version: 1,
    x402Version: 1,
    resources: REGISTRY.map((route) => `${base}${route.path}`),
    openapi: `${base}/openapi.json`,
    discovery: `${base}/x402/discovery`,
    payment,
  };

  const x402Discovery = {
    x402Version: 1,
    items: REGISTRY.map((route) => ({
      resource: `${base}${route.path}`,
      type: 'http',
      x402Version: 1,
      accepts: route.prices.map((price) => acceptEntry(route, price, base, terms)),
      metadata: { name: route.name, title: route.title, chargeRule: route.chargeRule },
    })),
    pagination: { limit: REGISTRY.length, offset: 0, total: REGISTRY.length },
  };

  return { catalog, manifest, wellKnownX402, x402Discovery, openapi: openApi(deps, payment) };
}

const ERROR_BODY = {
  type: 'object',
  required: ['ok', 'error', 'message'],
  properties: {
    ok: { const: false },
    error: { enum: [...ERROR_CODES] },
    message: { type: 'string' },
    details: {
      type: 'array',
      items: {
        type: 'object',
        properties: { param: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string' },
  },
};

const PAYMENT_REQUIRED = {
  type: 'object',
  required: ['ok', 'error', 'message', 'x402Version', 'accepts'],
  properties: {
    ok: { const: false },
    error: { enum: ['payment_required', 'sandbox_exhausted', 'insufficient_credits'] },
    message: { type: 'string' },
    x402Version: { const: 1 },
    accepts: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'scheme',
          'network',
          'amount',
          'price',
          'asset',
          'payTo',
          'maxAmountRequired',
          'resource',
        ],
        properties: {
          scheme: { const: 'exact' },
          network: { type: 'string' },
          amount: { type: 'string' },
          price: { type: 'string' },
          asset: { type: 'string' },
          payTo: { type: 'string' },
          maxAmountRequired: { type: 'string' },
          resource: { type: 'string' },
          description: { type: 'string' },
          mimeType: { type: 'string' },
          maxTimeoutSeconds: { type: 'integer' },
          outputSchema: { type: 'object' },
          extra: { type: 'object' },
        },
      },
    },
  },
};

function jsonResponse(description: string, schema: unknown) {
  return { description, content: { 'application/json': { schema } } };
}

/** OpenAPI 3.1 of the paid routes and the key routes, from the registry. */
function openApi(deps: AppDeps, payment: Record<string, unknown>) {
  const paths: Record<string, unknown> = {};
  for (const route of REGISTRY) {
    const properties = (route.params.properties ?? {}) as Record<string, { description?: string }>;
    const required = (route.params.required ?? []) as string[];
    const cheapest = route.prices[0];
    paths[route.path] = {
      get: {
        operationId: route.name,
        summary: route.title,
        description: `${route.description}\n\n${CHARGE_RULES[route.chargeRule]}`,
        tags: ['products'],
        security: [{}, { apiKey: [] }],
        parameters: Object.entries(properties).map(([name, schema]) => ({
          name,
          in: 'query',
          required: required.includes(name),
          ...(schema.description ? { description: schema.description } : {}),
          schema,
        })),
        responses: {
          '200': jsonResponse('The result, with a signed receipt when ok is true.', route.response),
          '400': jsonResponse('Invalid parameters; nothing is asked or charged.', {
            $ref: '#/components/schemas/Error',
          }),
          '401': jsonResponse('Malformed, unknown or revoked API key.', {
            $ref: '#/components/schemas/Error',
          }),
          '402': jsonResponse(
            'Payment required: x402 v1 terms (also for a used-up sandbox or a key without credits).',
            {
              $ref: '#/components/schemas/PaymentRequired',
            },
          ),
          '429': jsonResponse(
            'Rate limit of the key’s plan; see Retry-After and RateLimit-* headers.',
            {
              $ref: '#/components/schemas/Error',
            },
          ),
          ...(route.chargeRule === 'before-charging' || route.compute !== undefined
            ? {
                '503': jsonResponse(unavailable(route), {
                  $ref: '#/components/schemas/Error',
                }),
              }
            : {}),
        },
        'x-payment-info': {
          ...payment,
          pricingMode: 'fixed',
          price: cheapest ? dollars(cheapest.amount) : null,
          amount: cheapest ? String(cheapest.amount) : null,
          ...(route.prices.length > 1 ? { tiers: pricesOf(route) } : {}),
        },
        'x-charge-rule': route.chargeRule,
      },
    };
  }
  paths['/api/dev/keys'] = {
    post: {
      operationId: 'createKey',
      summary: 'Mint an API key (20 per IP per hour)',
      tags: ['keys'],
      parameters: [
        { name: 'live', in: 'query', schema: { enum: ['true', 'false'], default: 'false' } },
        { name: 'label', in: 'query', schema: { type: 'string', maxLength: 64 } },
      ],
      responses: {
        '201': jsonResponse('The key, shown once.', { type: 'object' }),
        '429': jsonResponse('More than 20 keys from this IP in the last hour.', {
          $ref: '#/components/schemas/Error',
        }),
      },
    },
  };
  paths['/api/dev/balance'] = {
    get: {
      operationId: 'balance',
      summary: 'Balance of the bearer key',
      tags: ['keys'],
      security: [{ apiKey: [] }],
      responses: {
        '200': jsonResponse(
          'Calls, remaining sandbox calls or credits, tier and included calls left.',
          { type: 'object' },
        ),
        '401': jsonResponse('Missing, unknown or revoked key.', {
          $ref: '#/components/schemas/Error',
        }),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Storefront',
      version: deps.version,
      description:
        'Deterministic, signed web-data products. Pay per call with x402 or use an API key.',
      'x-version-tag': VERSION_TAG,
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An mk_test_ or mk_live_ key from POST /api/dev/keys.',
        },
      },
      schemas: { Error: ERROR_BODY, PaymentRequired: PAYMENT_REQUIRED },
    },
  };
}

/** `/catalog`, `/manifest`, `/.well-known/x402`, `/x402/discovery`, `/openapi.json`. */
export function discoveryRoutes(deps: AppDeps): Router {
  const router = Router();
  const docs = discovery(deps);
  const serve = (path: string, body: unknown) =>
    router.get(path, (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.json(body);
    });
  serve('/catalog', docs.catalog);
  serve('/manifest', docs.manifest);
  serve('/.well-known/x402', docs.wellKnownX402);
  serve('/x402/discovery', docs.x402Discovery);
  serve('/openapi.json', docs.openapi);
  return router;
}
