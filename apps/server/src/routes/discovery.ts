import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode, httpStatusOf } from '@storefront/core';
import { Router } from 'express';
import type { AppDeps } from '../deps.js';
import { termsOf } from '../doors/index.js';
import { type McpTool, toolsOf } from '../doors/mcp/tools.js';
import { bazaarExtension, mcpBazaarExtension } from '../doors/x402/bazaar.js';
import { acceptEntry } from '../doors/x402/requirements.js';
import { dollars, type RoutePaymentMetadata, routePaymentMetadata } from '../doors/x402/terms.js';
import { jobsCatalog, jobsOpenApi } from '../jobs/discovery.js';
import { MCP_PATH } from '../mcp-identity.js';
import { creditsFor, PAID_TIERS } from '../metering/tiers.js';
import { CHARGE_RULES } from '../pipeline/charge.js';
import { runsOnThread } from '../pipeline/work.js';
import type { AnyRoute } from '../registry/types.js';

/** The service's version tag (spec "Versioning"). */
export const VERSION_TAG = 'storefront/1';

/**
 * When a route answers 503, and that nothing is charged then: an undeliverable result
 * (before-charging routes), a page past the product thread's bounds (routes whose
 * product runs on a thread), or an x402 facilitator that could not be reached.
 */
function unavailable(route: AnyRoute): string {
  const reasons = [
    ...(failureStatus(route) === 503 ? ['an undeliverable result'] : []),
    ...(runsOnThread(route)
      ? [
          'page_too_complex: processing the page passed the deadline or the memory bound of a product thread',
        ]
      : []),
    'facilitator_unavailable: the x402 facilitator could not be reached (see Retry-After)',
    'draining: the instance is shutting down and admits no new calls (see Retry-After)',
  ];
  return `Answered before charging, nothing taken: ${reasons.join('; or ')}.`;
}

function pricesOf(route: AnyRoute) {
  return route.prices.map((price) => ({
    tier: price.tier,
    amount: String(price.amount),
    price: dollars(price.amount),
    credits: creditsFor(price.amount),
    includes: price.includes,
  }));
}

/**
 * What `status` means in the published error table (`/catalog` `errors`, the core
 * README): docs/decisions.md, "One HTTP status per error code".
 */
export const ERROR_STATUS_RULE =
  'A number is the HTTP status of every answer carrying the code, on every route; such an answer is never charged. `result` marks an upstream or product failure reported inside a result ({ok:false, error}): its status is the route’s `failureStatus`, 200 where the route delivers failures (charged or not by its rule) and 503 where it answers an undeliverable result before charging.';

/** The HTTP status of a route's `ok:false` results carrying a result code. */
function failureStatus(route: AnyRoute): 200 | 503 {
  return CHARGE_RULES[route.chargeRule].failureStatus;
}

/** The codes a paid route can answer with HTTP `status`, by the one table. */
export function codesAnswered(route: AnyRoute, status: number): ErrorCode[] {
  const beforeCharging = failureStatus(route) === 503;
  return ERROR_CATALOGUE.filter((entry) => {
    if (entry.origin === 'upstream' || entry.origin === 'product') {
      return httpStatusOf(entry.code, beforeCharging) === status;
    }
    if (httpStatusOf(entry.code, beforeCharging) !== status) return false;
    switch (entry.code) {
      case 'not_found':
        return route.notFound !== undefined;
      case 'page_too_complex':
        return runsOnThread(route);
      case 'method_not_allowed':
        return false; // answered to other methods, never to GET
      default:
        return true;
    }
  }).map((entry) => entry.code);
}

/** One catalog row, generated from the registry entry. */
function catalogRoute(route: AnyRoute, base: string) {
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
            '`extract` naming fields (a structured record): pro; else `format=markdown` or `links=1`: plus; else fetch, which includes `extract=1` (description and word count).',
        }
      : {}),
    chargeRule: route.chargeRule,
    charging: CHARGE_RULES[route.chargeRule].failure,
    failureStatus: failureStatus(route),
    ...(route.notFound === undefined ? {} : { notFound: route.notFound }),
    output: route.response,
  };
}

/** Whether the x402 door takes payments: a facilitator is configured to verify and settle them. */
export function x402Live(deps: Pick<AppDeps, 'config'>): boolean {
  return deps.config.payment.facilitatorUrl !== null;
}

/** Build every discovery document from the registry. */
export function discovery(deps: AppDeps) {
  const base = deps.config.publicBaseUrl;
  const terms = termsOf(deps);
  const { plans, registry } = deps;
  // The spec's route-level payment metadata, the same for every route.
  const payment = routePaymentMetadata(terms);

  const tiers = Object.values(plans).map((plan) => ({
    tier: plan.tier,
    env: plan.env,
    keyPrefix: plan.env === 'test' ? 'mk_test_' : 'mk_live_',
    monthlyUsd: plan.monthlyUsd,
    included: plan.included,
    perMinute: plan.perMinute,
    inFlight: plan.inFlight,
  }));

  const catalog = {
    version: 1,
    service: 'storefront',
    versionTag: VERSION_TAG,
    routes: registry.map((route) => catalogRoute(route, base)),
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
    jobs: jobsCatalog(registry, base),
    methods:
      'Paid routes answer GET only; any other method (HEAD included) is answered 405 method_not_allowed with Allow: GET, before payment, admission or work.',
    errorStatus: ERROR_STATUS_RULE,
    errors: ERROR_CATALOGUE.map((entry) => ({
      code: entry.code,
      origin: entry.origin,
      status: entry.status,
      meaning: entry.meaning,
    })),
  };

  const manifest = {
    name: 'Storefront',
    description:
      'Deterministic, signed web-data products over HTTP: page text, typed extract, markdown, metadata, links, AI-crawler audit, change proof, notarization, security headers, tables, feeds, availability and JSON validation.',
    version: VERSION_TAG,
    serviceVersion: deps.version,
    baseUrl: base,
    // Only the doors that answer: x402 once a facilitator settles its payments.
    doors: {
      ...(x402Live(deps)
        ? {
            x402: {
              ...payment,
              headers: { v1: 'X-PAYMENT', v2: 'PAYMENT-SIGNATURE' },
              responseHeaders: { v1: 'X-PAYMENT-RESPONSE', v2: 'PAYMENT-RESPONSE' },
            },
          }
        : {}),
      apiKey: {
        scheme: 'bearer',
        header: 'Authorization: Bearer <key>',
        issue: `${base}/api/dev/keys`,
        balance: `${base}/api/dev/balance`,
        usage: `${base}/api/dev/usage`,
        subscribe: `${base}/api/dev/subscribe`,
        topup: `${base}/api/dev/topup`,
        tiers,
      },
      mcp: {
        endpoint: `${base}/mcp`,
        transport: 'streamable-http',
        auth: 'Authorization: Bearer <key> on tools/call; initialize and tools/list are free',
        tools: registry.map((route) => route.name),
      },
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
    routes: registry.map((route) => ({
      name: route.name,
      path: route.path,
      prices: pricesOf(route),
      chargeRule: route.chargeRule,
    })),
  };

  const wellKnownX402 = {
    version: 1,
    x402Version: 1,
    resources: registry.map((route) => `${base}${route.path}`),
    openapi: `${base}/openapi.json`,
    discovery: `${base}/x402/discovery`,
    payment,
  };

  const tools = toolsOf(registry);
  const items = [
    ...registry.map((route) => ({
      resource: `${base}${route.path}`,
      type: 'http',
      x402Version: 1,
      accepts: route.prices.map((price) => acceptEntry(route, price, base, terms)),
      metadata: { name: route.name, title: route.title, chargeRule: route.chargeRule, payment },
      // The v2 discovery extension, as x402 indexes (the Bazaar, x402scan) read it: the
      // route's input (query parameters) and output schema.
      extensions: { bazaar: bazaarExtension(route) },
    })),
    // Each route's MCP tool, paid with x402 inside MCP at the route's prices: the
    // extension's MCP form, one item per tool on the one `/mcp` URL.
    ...registry.map((route, i) => ({
      resource: `${base}${MCP_PATH}`,
      type: 'mcp',
      x402Version: 1,
      accepts: route.prices.map((price) => acceptEntry(route, price, base, terms)),
      metadata: {
        name: route.name,
        title: route.title,
        chargeRule: route.chargeRule,
        tool: route.name,
        payment,
      },
      extensions: { bazaar: mcpBazaarExtension(route, tools[i] as McpTool) },
    })),
  ];
  const x402Discovery = {
    x402Version: 1,
    items,
    pagination: { limit: items.length, offset: 0, total: items.length },
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
    error: {
      enum: ERROR_CATALOGUE.filter((entry) => entry.status === 402).map((entry) => entry.code),
    },
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

function jsonResponse(description: string, schema: unknown, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema } },
  };
}

/** The error body with `error` narrowed to the codes an answer can carry. */
function errorOf(codes: readonly ErrorCode[]) {
  return {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      { type: 'object', properties: { error: { enum: [...codes] } } },
    ],
  };
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/** What each error status of a paid route means; the codes come from the one table. */
const ERROR_ANSWERS: readonly (readonly [number, string])[] = [
  [400, 'Invalid parameters; nothing is asked or charged.'],
  [401, 'Malformed, unknown or revoked API key.'],
  [404, 'The content a parameter names does not exist in the fetched page; not charged.'],
  [
    429,
    'Rate limit of the key’s plan (rate_limited: calls per minute; too_many_in_flight: calls at once); see Retry-After and RateLimit-* headers. Nothing is charged.',
  ],
  [500, 'A fault of the service; nothing is charged.'],
];

/** The responses of one paid operation, every error status with the codes it carries. */
function paidResponses(route: AnyRoute) {
  const responses: Record<string, unknown> = {
    '200': jsonResponse(
      failureStatus(route) === 200
        ? `The result, with a signed receipt when ok is true. An ok:false result carries one of: ${codesAnswered(route, 200).join(', ')}.`
        : 'The result, with a signed receipt.',
      route.response,
    ),
  };
  for (const [status, description] of ERROR_ANSWERS) {
    const codes = codesAnswered(route, status);
    if (codes.length === 0) continue;
    const text = status === 404 && route.notFound !== undefined ? route.notFound : description;
    responses[String(status)] = jsonResponse(
      text,
      errorOf(codes),
      status === 429 ? RETRY_AFTER : undefined,
    );
  }
  responses['402'] = jsonResponse(
    'Payment required, or a payment refused before any work (mismatch, expired, replayed, rejected) or one that could not be settled: x402 v1 terms in the body, x402 v2 terms in the PAYMENT-REQUIRED header (also for a used-up sandbox or a key without credits).',
    { $ref: '#/components/schemas/PaymentRequired' },
    {
      'PAYMENT-REQUIRED': {
        description: 'The same terms as x402 v2 PaymentRequired, base64 JSON.',
        schema: { type: 'string' },
      },
    },
  );
  const unavailableCodes = codesAnswered(route, 503);
  if (unavailableCodes.length > 0) {
    responses['503'] = jsonResponse(unavailable(route), errorOf(unavailableCodes), RETRY_AFTER);
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** What a paid path answers to methods other than GET. */
const METHODS_RULE =
  'Only GET: any other method on this path (HEAD, POST, PUT, PATCH, DELETE, OPTIONS that is not a CORS preflight) is answered 405 method_not_allowed with `Allow: GET`, before payment, admission or work.';

/** OpenAPI 3.1 of the paid routes and the key routes, from the registry. */
function openApi(deps: AppDeps, payment: RoutePaymentMetadata) {
  const paths: Record<string, unknown> = {};
  for (const route of deps.registry) {
    const properties = (route.params.properties ?? {}) as Record<string, { description?: string }>;
    const required = (route.params.required ?? []) as string[];
    const cheapest = route.prices[0];
    paths[route.path] = {
      description: METHODS_RULE,
      'x-other-methods': { $ref: '#/components/responses/MethodNotAllowed' },
      get: {
        operationId: route.name,
        summary: route.title,
        description: `${route.description}\n\n${CHARGE_RULES[route.chargeRule].failure}`,
        tags: ['products'],
        security: [{}, { apiKey: [] }],
        parameters: Object.entries(properties).map(([name, schema]) => ({
          name,
          in: 'query',
          required: required.includes(name),
          ...(schema.description ? { description: schema.description } : {}),
          schema,
        })),
        responses: paidResponses(route),
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
  Object.assign(paths, jobsOpenApi(deps.registry, payment));
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
  const keyParam = {
    name: 'key',
    in: 'query',
    description: 'The API key (or send it as `Authorization: Bearer <key>`).',
    schema: { type: 'string', pattern: '^mk_(test|live)_[0-9A-Za-z]{43}$' },
  };
  const checkoutErrors = {
    '400': jsonResponse('Bad or missing parameter, or a key this purchase is not for.', {
      $ref: '#/components/schemas/Error',
    }),
    '401': jsonResponse('Malformed, unknown or revoked key.', {
      $ref: '#/components/schemas/Error',
    }),
  };
  paths['/api/dev/subscribe'] = {
    post: {
      operationId: 'subscribe',
      summary: 'Open a checkout for a monthly plan; paid, the key is set to the tier (live)',
      tags: ['billing'],
      parameters: [
        keyParam,
        {
          name: 'tier',
          in: 'query',
          required: true,
          schema: { enum: [...PAID_TIERS] },
        },
      ],
      responses: {
        '200': jsonResponse('`{ok, tier, url, usd, checkoutId}`: `url` is the checkout page.', {
          type: 'object',
        }),
        ...checkoutErrors,
      },
    },
  };
  paths['/api/dev/topup'] = {
    post: {
      operationId: 'topup',
      summary: 'Open a checkout for a credit pack of a live key (1 credit = $0.001)',
      tags: ['billing'],
      parameters: [
        keyParam,
        {
          name: 'usd',
          in: 'query',
          required: true,
          description: 'Dollars, from 5 to 1000, at most two decimals.',
          schema: { type: 'string', pattern: '^\\d{1,4}(\\.\\d{1,2})?$' },
        },
      ],
      responses: {
        '200': jsonResponse('`{ok, url, usd, credits, checkoutId}`: `url` is the checkout page.', {
          type: 'object',
        }),
        ...checkoutErrors,
      },
    },
  };
  paths['/api/dev/usage'] = {
    get: {
      operationId: 'usage',
      summary: 'Charged calls and spent credits of the bearer key per UTC day, last 30 days',
      tags: ['keys'],
      security: [{ apiKey: [] }],
      responses: {
        '200': jsonResponse('`{ok, days: [{date, calls, credits}]}`, oldest first.', {
          type: 'object',
        }),
        '401': jsonResponse('Missing, unknown or revoked key.', {
          $ref: '#/components/schemas/Error',
        }),
      },
    },
  };
  // The transparency log of every receipt (routes/log.ts): free, unauthenticated.
  const log = (operationId: string, summary: string, description: string, type: string) => ({
    get: {
      operationId,
      summary,
      tags: ['log'],
      responses: {
        '200': {
          description,
          content: {
            [type]: { schema: { type: type.startsWith('application/json') ? 'object' : 'string' } },
          },
        },
        '404': jsonResponse('Not in the log (yet).', { $ref: '#/components/schemas/Error' }),
      },
    },
  });
  paths['/log/checkpoint'] = log(
    'logCheckpoint',
    'The log’s current checkpoint',
    'A C2SP tlog-checkpoint in a signed note (Ed25519), signed with the key published as `log.vkey` in `/.well-known/service-attestation`.',
    'text/plain',
  );
  paths['/log/proof'] = log(
    'logProof',
    'A receipt’s inclusion proof, by its hash (`?receipt=<sha256 hex of its log entry>`, optional `&size=`)',
    '`{ok, receipt, index, size, entry, checkpoint, proof}`: the audit path (base64 hashes, RFC 9162) from the entry to the checkpoint.',
    'application/json',
  );
  paths['/log/consistency'] = log(
    'logConsistency',
    'The consistency proof between two tree sizes (`?old=<m>&new=<n>`)',
    '`{ok, old, new, proof}` (RFC 9162 §2.1.4).',
    'application/json',
  );
  const tile = log(
    'logTile',
    'A C2SP tlog-tiles tile (`tile/<L>/<N>[.p/<W>]`) or entry bundle (`tile/entries/<N>[.p/<W>]`)',
    'The tile’s hashes, or the bundle’s length-prefixed entries; full ones are immutable.',
    'application/octet-stream',
  );
  paths['/log/tile/{path}'] = {
    get: {
      ...tile.get,
      parameters: [
        {
          name: 'path',
          in: 'path',
          required: true,
          description: '`<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`; slashes are part of it',
          schema: { type: 'string' },
        },
      ],
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
      responses: {
        MethodNotAllowed: jsonResponse(METHODS_RULE, errorOf(['method_not_allowed']), {
          Allow: { description: 'Always `GET`.', schema: { const: 'GET' } },
        }),
      },
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
      res.json(body);
    });
  serve('/catalog', docs.catalog);
  serve('/manifest', docs.manifest);
  serve('/.well-known/x402', docs.wellKnownX402);
  serve('/x402/discovery', docs.x402Discovery);
  serve('/openapi.json', docs.openapi);
  return router;
}
