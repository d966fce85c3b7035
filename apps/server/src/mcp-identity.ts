/**
 * Who the MCP endpoint says it is, in one place: the `serverInfo` of `initialize`, the
 * discovery blob of `GET /mcp` and `/.well-known/mcp.json`, and the MCP registry's
 * `server.json` all read these.
 */
export const MCP_SERVER = {
  /** `Implementation.name` (serverInfo) and the blob's `name`. */
  name: 'storefront',
  title: 'Storefront',
  /** At most 100 characters: the MCP registry's limit for `description`. */
  description:
    'Signed, deterministic web data as tools: page text, markdown, metadata, links, tables, feeds.',
} as const;

/**
 * The server's name in the MCP registry (reverse-DNS namespace / server). A placeholder
 * under `example.com` (RFC 2606) until the service has a domain of its own: the registry
 * publishes a `com.<domain>/…` name only after DNS or HTTP verification of that domain,
 * so this one can never be published by mistake (docs/decisions.md, "server.json").
 */
export const MCP_REGISTRY_NAME = 'com.example/storefront';

/** The MCP transport the endpoint speaks. */
export const MCP_TRANSPORT = 'streamable-http';

/** The endpoint's path under the public base URL. */
export const MCP_PATH = '/mcp';

/**
 * The MCP protocol revision of the stateless era the endpoint serves beside the legacy
 * one: no `initialize`, the version and client capabilities in each request's `_meta`,
 * `server/discover`, and the `Mcp-Method` / `Mcp-Name` headers.
 */
export const MCP_MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The config block MCP clients (Claude Code, Cursor, …) read for a remote server. */
export function mcpClientConfig(base: string, key = '<key>') {
  return {
    mcpServers: {
      [MCP_SERVER.name]: {
        type: 'http',
        url: `${base}${MCP_PATH}`,
        headers: { Authorization: `Bearer ${key}` },
      },
    },
  };
}
