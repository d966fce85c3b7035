import {
  bazaarResourceServerExtension,
  declareDiscoveryExtension,
  type McpDiscoveryExtension,
  type QueryDiscoveryExtension,
} from '@x402/extensions/bazaar';
import type { AnyRoute } from '../../registry/types.js';

/**
 * The x402 v2 `bazaar` discovery extension of a paid route, so facilitators that run a
 * discovery catalog (the Bazaar) can list it (spec `specs/extensions/bazaar.md`). It is
 * declared by `@x402/extensions`' own `declareDiscoveryExtension` and completed by its
 * server extension's `enrichDeclaration` for a GET of the route, as
 * `x402HTTPResourceServer` does on every request:
 *
 * - `info` is the discovery data: `input` says how to call the route (type `http`,
 *   method `GET`, the route's example query in `queryParams`), `output` the answer's
 *   format;
 * - `schema` is a JSON Schema (draft 2020-12) that `info` must satisfy; it carries the
 *   route's query schema under `input.queryParams` and its answer schema under
 *   `output.example`. The facilitator validates `info` against it and catalogs `info`.
 *
 * `output` is the one part added here: the official declaration states an output only
 * with an example answer, and a route has none to give, only its answer's schema.
 */
export type BazaarExtension = QueryDiscoveryExtension;

/**
 * Each route's extension, made once: every 402 carries it, and the official declaration
 * and enrichment cost a few microseconds where the lookup costs nothing
 * (docs/decisions.md, "x402: the official server beside ours").
 */
const DECLARED = new WeakMap<AnyRoute, BazaarExtension>();

/** The `bazaar` extension of `route` (see {@link BazaarExtension}). */
export function bazaarExtension(route: AnyRoute): BazaarExtension {
  let extension = DECLARED.get(route);
  if (extension === undefined) {
    extension = declare(route);
    DECLARED.set(route, extension);
  }
  return extension;
}

function declare(route: AnyRoute): BazaarExtension {
  const { bazaar: declared } = declareDiscoveryExtension({
    input: route.example.query,
    inputSchema: route.params,
  });
  // What the official HTTP server hands the enrichment for a GET of the route.
  const request = {
    method: 'GET',
    path: route.path,
    routePattern: route.path,
    adapter: { getPath: () => route.path },
  };
  const enrich = bazaarResourceServerExtension.enrichDeclaration;
  const extension = (
    enrich === undefined ? declared : enrich(declared, request)
  ) as BazaarExtension;
  return {
    ...extension,
    info: { ...extension.info, output: { type: 'json' } },
    schema: {
      ...extension.schema,
      properties: {
        ...extension.schema.properties,
        output: {
          type: 'object',
          properties: {
            type: { type: 'string' },
            example: { type: 'object', ...route.response },
          },
          required: ['type'],
        },
      },
    },
  };
}

/** Each route's MCP tool extension, made once. */
const DECLARED_TOOLS = new WeakMap<AnyRoute, McpDiscoveryExtension>();

/**
 * The `bazaar` extension of `route`'s MCP tool, in the spec's MCP form (`input.type`
 * `mcp`, the tool's name, its input schema as `tools/list` declares it, the route's
 * example query as the example arguments, streamable HTTP), declared by
 * `@x402/extensions`' own `declareDiscoveryExtension`. A catalog tells the tool apart by
 * the pair (`/mcp`'s URL, `input.tool`).
 */
export function mcpBazaarExtension(
  route: AnyRoute,
  tool: { readonly description: string; readonly inputSchema: Record<string, unknown> },
): McpDiscoveryExtension {
  let extension = DECLARED_TOOLS.get(route);
  if (extension === undefined) {
    const { bazaar } = declareDiscoveryExtension({
      toolName: route.name,
      description: tool.description,
      transport: 'streamable-http',
      inputSchema: tool.inputSchema,
      example: route.example.query,
    });
    extension = bazaar as McpDiscoveryExtension;
    DECLARED_TOOLS.set(route, extension);
  }
  return extension;
}
