import type { AnyRoute, JsonSchema } from '../../registry/types.js';

/**
 * The x402 v2 `bazaar` discovery extension of a paid route, so facilitators that run a
 * discovery catalog (the Bazaar) can list it. The shape is the one `@x402/extensions`
 * 2.27.0 declares for an HTTP GET resource with query parameters, after its server
 * extension has filled in the method (`declareDiscoveryExtension` +
 * `bazaarResourceServerExtension.enrichDeclaration`; spec `specs/extensions/bazaar.md`):
 *
 * - `info` is the discovery data: `input` says how to call the route (type `http`,
 *   method `GET`, an example query in `queryParams`), `output` the answer's format;
 * - `schema` is a JSON Schema (draft 2020-12) that `info` must satisfy; it carries the
 *   route's query schema under `input.queryParams` and its answer schema under
 *   `output.example`. The facilitator validates `info` against it and catalogs `info`.
 */
export interface BazaarExtension {
  readonly info: {
    readonly input: {
      readonly type: 'http';
      readonly method: 'GET';
      /** An example query the route accepts (the Bazaar shows it as a sample call). */
      readonly queryParams?: Readonly<Record<string, string>>;
    };
    readonly output: { readonly type: 'json' };
  };
  readonly schema: JsonSchema;
}

const EXAMPLE_URL = 'https://example.com/';

/**
 * One example query per route, the sample call a catalog shows. Each passes its route's
 * own checks (a test holds every registry route to that); a route missing here is
 * declared without an example, which the extension's schema allows.
 */
export const EXAMPLE_QUERIES: Readonly<Record<string, Readonly<Record<string, string>>>> =
  Object.freeze({
    fetch: { url: EXAMPLE_URL },
    extract: { url: EXAMPLE_URL, schema: 'title,price:number' },
    markdown: { url: EXAMPLE_URL },
    metadata: { url: EXAMPLE_URL },
    links: { url: EXAMPLE_URL },
    robots: { domain: 'example.com' },
    diff: { url: EXAMPLE_URL, prevHash: `0x${'0'.repeat(64)}` },
    notarize: { url: EXAMPLE_URL },
    headers: { url: EXAMPLE_URL },
    table: { url: EXAMPLE_URL },
    feed: { url: 'https://example.com/feed.xml' },
    availability: { url: EXAMPLE_URL },
    validate: { url: 'https://example.com/data.json', schema: 'name:string' },
    map: { url: EXAMPLE_URL },
    crawl: { url: EXAMPLE_URL, limit: '5' },
    seo: { url: EXAMPLE_URL },
    pdf: { url: 'https://example.com/report.pdf' },
    dns: { domain: 'example.com' },
    tls: { domain: 'example.com' },
  });

/** The `bazaar` extension of `route` (see {@link BazaarExtension}). */
export function bazaarExtension(route: AnyRoute): BazaarExtension {
  const example = Object.hasOwn(EXAMPLE_QUERIES, route.name)
    ? EXAMPLE_QUERIES[route.name]
    : undefined;
  return {
    info: {
      input: {
        type: 'http',
        method: 'GET',
        ...(example === undefined ? {} : { queryParams: example }),
      },
      output: { type: 'json' },
    },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'http' },
            method: { type: 'string', enum: ['GET'] },
            queryParams: { ...route.params, type: 'object' },
          },
          required: ['type', 'method'],
          additionalProperties: false,
        },
        output: {
          type: 'object',
          properties: {
            type: { type: 'string' },
            example: { ...route.response, type: 'object' },
          },
          required: ['type'],
        },
      },
      required: ['input'],
    },
  };
}
