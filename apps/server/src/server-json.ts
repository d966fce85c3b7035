import { MCP_PATH, MCP_REGISTRY_NAME, MCP_SERVER, MCP_TRANSPORT } from './mcp-identity.js';

/** The MCP registry's schema the generated `server.json` follows. */
export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * The repository's `server.json` for the MCP registry: the remote endpoint of any
 * deployment (its host is a URL variable, since each operator runs their own) and the
 * bearer key it needs. `version` is the service's version (`apps/server/package.json`).
 * `scripts/server-json.ts` writes it; a test keeps the committed file equal to this.
 */
export function serverJson(version: string) {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: MCP_REGISTRY_NAME,
    title: MCP_SERVER.title,
    description: MCP_SERVER.description,
    version,
    remotes: [
      {
        type: MCP_TRANSPORT,
        url: `https://{host}${MCP_PATH}`,
        variables: {
          host: {
            description: 'Host name of the Storefront deployment to connect to',
            isRequired: true,
            placeholder: 'storefront.example.com',
          },
        },
        headers: [
          {
            name: 'Authorization',
            description:
              'A Storefront API key as a bearer token: POST https://<host>/api/dev/keys mints one',
            isRequired: true,
            isSecret: true,
            value: 'Bearer {api_key}',
            variables: {
              api_key: {
                description: 'The key (mk_test_… or mk_live_…)',
                isRequired: true,
                isSecret: true,
              },
            },
          },
        ],
      },
    ],
  };
}

/** The file's bytes: two-space JSON and a final newline. */
export function serverJsonText(version: string): string {
  return `${JSON.stringify(serverJson(version), null, 2)}\n`;
}
