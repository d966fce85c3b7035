import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { MCP_REGISTRY_NAME, MCP_SERVER } from '../src/mcp-identity.js';
import { SERVER_JSON_SCHEMA, serverJson, serverJsonText } from '../src/server-json.js';

const root = resolve(import.meta.dirname, '../../..');
const committed = readFileSync(join(root, 'server.json'), 'utf8');

/**
 * What the MCP registry's `server.schema.json` (2025-12-11) requires of a server with a
 * remote, written from its published rules (the schema itself is not fetched in tests):
 * `name`, `description` and `version` required; the name `namespace/server` in
 * reverse-DNS form, 3–200 characters; description and title 1–100 characters; a
 * specific version (no range, not `latest`); each remote a `streamable-http` or `sse`
 * transport whose `url` is an http(s) URL template; each header a named input;
 * `variables` maps of inputs.
 */
const INPUT = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    default: { type: 'string' },
    placeholder: { type: 'string' },
    value: { type: 'string' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    choices: { type: 'array', items: { type: 'string' } },
  },
};
const VARIABLES = { type: 'object', additionalProperties: INPUT };
const REGISTRY_RULES = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string', pattern: '^https://' },
    name: {
      type: 'string',
      minLength: 3,
      maxLength: 200,
      pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
    },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      not: { anyOf: [{ const: 'latest' }, { pattern: '^[\\^~<>=]|\\.[x*](\\.|$)' }] },
    },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^https?://[^\\s]+$' },
          headers: {
            type: 'array',
            items: {
              allOf: [
                INPUT,
                {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string' }, variables: VARIABLES },
                },
              ],
            },
          },
          variables: VARIABLES,
        },
      },
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(REGISTRY_RULES);

/** Every `{name}` a template uses is defined in `variables`. */
function undefinedVariables(template: string, variables: Record<string, unknown> = {}): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)]
    .map((match) => match[1]!)
    .filter((name) => !(name in variables));
}

describe('server.json', () => {
  it('the committed file is what the script generates', () => {
    const printed = execFileSync(
      process.execPath,
      ['--conditions=@storefront/source', '--import', 'tsx', 'scripts/server-json.ts'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(printed).toBe(serverJsonText(pkg.version));
    expect(committed).toBe(printed);
  });

  it('follows the registry schema’s rules', () => {
    const doc = JSON.parse(committed);
    const ok = validate(doc);
    expect(validate.errors ?? []).toStrictEqual([]);
    expect(ok).toBe(true);
    expect(doc.$schema).toBe(SERVER_JSON_SCHEMA);
    expect(doc.$schema).toBe(
      'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    );
  });

  it('names the service, its version and one streamable-http remote with a required, secret key', () => {
    const doc = serverJson(pkg.version);
    expect(doc.name).toBe(MCP_REGISTRY_NAME);
    expect(doc.title).toBe(MCP_SERVER.title);
    expect(doc.description).toBe(MCP_SERVER.description);
    expect(doc.version).toBe(pkg.version);
    expect(doc.remotes).toHaveLength(1);
    const [remote] = doc.remotes;
    expect(remote?.type).toBe('streamable-http');
    expect(remote?.url.endsWith('/mcp')).toBe(true);
    expect(undefinedVariables(remote!.url, remote!.variables)).toStrictEqual([]);
    const auth = remote?.headers.find((header) => header.name === 'Authorization');
    expect(auth).toMatchObject({ isRequired: true, isSecret: true, value: 'Bearer {api_key}' });
    expect(undefinedVariables(auth!.value, auth!.variables)).toStrictEqual([]);
    expect(auth?.variables.api_key).toMatchObject({ isRequired: true, isSecret: true });
  });

  it('the check refuses what the registry refuses', () => {
    const good = serverJson(pkg.version);
    const bad = [
      { ...good, description: 'x'.repeat(101) },
      { ...good, name: 'storefront' },
      { ...good, name: 'com.example/store front' },
      { ...good, version: '^1.0.0' },
      { ...good, version: 'latest' },
      { ...good, remotes: [{ ...good.remotes[0]!, url: '{base_url}/mcp' }] },
      { ...good, remotes: [{ ...good.remotes[0]!, type: 'websocket' }] },
      { ...good, remotes: [{ ...good.remotes[0]!, headers: [{ isSecret: true }] }] },
      { name: good.name, version: good.version },
    ];
    for (const doc of bad) expect(validate(doc), JSON.stringify(doc).slice(0, 120)).toBe(false);
    expect(undefinedVariables('https://{host}/{path}', { host: {} })).toStrictEqual(['path']);
  });
});
