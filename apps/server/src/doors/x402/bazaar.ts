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

/** The `bazaar` extension of `route` (see {@link BazaarExtension}). */
export function bazaarExtension(route: AnyRoute): BazaarExtension {
  const example = route.example.query;
  return {
    info: {
      input: {
        type: 'http',
        method: 'GET',
        queryParams: example,
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
