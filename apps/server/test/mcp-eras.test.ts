/**
 * Both MCP protocol eras from one `POST /mcp`, driven by the official clients over a
 * listening server: the v2 client (`@modelcontextprotocol/client`) speaking the stateless
 * 2026-07-28 revision (`server/discover`, the `_meta` envelope, the `Mcp-Method` /
 * `Mcp-Name` headers, cache hints, JSON Schema 2020-12), and the SDK 1.x client speaking
 * 2025-11-25 (`initialize` first) beside it, against the same server, key and tools.
 */

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { verifyReceipt } from '@storefront/attest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_KEY_REQUIRED, MCP_LIST_TTL_MS } from '../src/doors/mcp/server.js';
import { JSON_SCHEMA_2020_12 } from '../src/doors/mcp/tools.js';
import { REGISTRY } from '../src/registry/index.js';
import type { RunningServer } from '../src/server.js';
import { type AuditNet, startAuditNet } from './hosts.js';
import { creditsAt, listeningServer, liveKeyAt, pinnedAddressAt } from './listening.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;

const MODERN = '2026-07-28';

let site: Site;
let net: AuditNet;
let server: RunningServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  site = await startSite();
  net = await startAuditNet();
  ({ server, stop } = await listeningServer({
    SAFE_FETCH_ALLOW: `${site.allow},${net.tls.allow}`,
    DNS_RESOLVER: net.dns.server,
    TLS_AUDIT_PORT: String(net.tls.port),
  }));
  // The tools are called within their deadlines: the product threads (and pdf.js) load first.
  await server.ready();
}, 90_000);

afterAll(async () => {
  await stop?.();
  await site?.close();
  await net?.close();
});

const mcpUrl = () => new URL(`${server.url}/mcp`);

/** The v2 client on `/mcp`, pinned to 2026-07-28, with `key` as its bearer when given. */
async function connect(key?: string): Promise<Client> {
  const client = new Client(
    { name: 'storefront-tests-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** The SDK 1.x client on the same `/mcp` (protocol 2025-11-25, `initialize` first). */
async function connectLegacy(key?: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'storefront-tests-v1', version: '1.0.0' });
  await client.connect(
    new LegacyTransport(mcpUrl(), {
      requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const liveKey = (credits: number) => liveKeyAt(server.url, credits);

const creditsOf = (key: string) => creditsAt(server.url, key);

const pinnedKey = () => pinnedAddressAt(server.url);

/** The `_meta` envelope of a 2026-07-28 request. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One raw 2026-07-28 POST: the message with the envelope, and the headers given. */
async function post(
  message: { id: number | string; method: string; params?: Body },
  headers: Record<string, string>,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      ...message,
      params: { ...message.params, _meta: ENVELOPE },
    }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const PAID_TOOLS = REGISTRY.map((route) => route.name);

describe('protocol 2026-07-28 with the official v2 client', () => {
  it('negotiates 2026-07-28 through server/discover: no initialize, the server named in every result', async () => {
    const client = await connect();
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getProtocolEra()).toBe('modern');
    const discovered = client.getDiscoverResult();
    expect(discovered?.supportedVersions).toStrictEqual([MODERN]);
    // Tools, and the MCP Tasks extension the crawl job runs under (test/mcp-tasks.test.ts).
    expect(discovered?.capabilities).toStrictEqual({
      tools: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(client.getServerVersion()).toMatchObject({ name: 'storefront', title: 'Storefront' });
    expect(client.getInstructions()).toContain('/jobs/crawl');
    await client.close();
    // On the wire: the discover result carries the cache fields and names the server.
    const raw = await post(
      { id: 1, method: 'server/discover' },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    );
    expect(raw.status).toBe(200);
    expect(raw.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN],
      ttlMs: MCP_LIST_TTL_MS,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'storefront' } },
    });
  });

  it('lists the paid tools with cache hints, JSON Schema 2020-12 schemas and the receipt required in outputSchema', async () => {
    const client = await connect();
    const listed = await client.listTools();
    expect(listed.ttlMs).toBe(MCP_LIST_TTL_MS);
    expect(listed.cacheScope).toBe('public');
    // The crawl job is listed last, as on the legacy era (a task of the Tasks extension).
    expect(listed.tools.map((tool) => tool.name)).toStrictEqual([...PAID_TOOLS, 'crawl_job']);
    for (const tool of listed.tools.slice(0, PAID_TOOLS.length)) {
      const route = REGISTRY.find((r) => r.name === tool.name);
      expect(tool.inputSchema).toMatchObject({
        $schema: JSON_SCHEMA_2020_12,
        type: 'object',
        properties: route?.params.properties,
      });
      const output = tool.outputSchema as { $schema: string; anyOf: { required?: string[] }[] };
      expect(output.$schema).toBe(JSON_SCHEMA_2020_12);
      expect(output.anyOf[0]?.required).toContain('attestation');
      expect(output.anyOf[1]?.required).toStrictEqual(['x402Version', 'accepts']);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    await client.close();
  });

  it('calls every paid tool with a key: the result checked against its outputSchema, a receipt that verifies, the catalog price in credits', async () => {
    const key = await liveKey(1000);
    const client = await connect(key);
    // Listed first: the client checks each result against the tool's outputSchema.
    await client.listTools();
    const pinned = await pinnedKey();
    for (const { name, example } of REGISTRY) {
      const before = await creditsOf(key);
      const result = await client.callTool({ name, arguments: example.call(site) });
      expect([name, result.isError ?? false]).toStrictEqual([name, false]);
      const body = result.structuredContent as Body;
      expect([name, body.ok]).toStrictEqual([name, true]);
      // The one answer that names its door: the call came through the MCP door.
      if (name === 'extract') expect(body.delivered).toBe('mcp');
      expect([name, verifyReceipt(body, pinned).problems]).toStrictEqual([name, []]);
      expect([name, before - (await creditsOf(key))]).toStrictEqual([name, example.credits]);
    }
    await client.close();
  }, 60_000);

  it('answers a call without a key with the x402 terms as an isError result, and charges nothing', async () => {
    const client = await connect();
    await client.listTools();
    const result = await client.callTool({ name: 'notarize', arguments: { content: 'x' } });
    expect(result.isError).toBe(true);
    const terms = result.structuredContent as {
      x402Version: number;
      accepts: { scheme: string; amount: string }[];
      resource: { url: string };
    };
    expect(terms.x402Version).toBe(2);
    expect(terms.accepts[0]).toMatchObject({ scheme: 'exact', amount: '8000' });
    expect(terms.resource.url).toBe(`${server.url}/buy/notarize`);
    const blocks = result.content as { type: string; text: string }[];
    expect(JSON.parse(blocks[0]?.text ?? '')).toStrictEqual(terms);
    expect(blocks[1]?.text).toMatch(/^payment_required: .*Nothing was charged\./);
    await client.close();
  });

  it('refuses a key that is not valid with HTTP 401, WWW-Authenticate and the key error', async () => {
    const client = await connect('mk_live_not-a-key');
    await expect(
      client.callTool({ name: 'notarize', arguments: { content: 'x' } }),
    ).rejects.toSatisfy((error) => error instanceof SdkHttpError && error.status === 401);
    await client.close();
    const raw = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer mk_live_not-a-key',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'notarize',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'notarize', arguments: { content: 'x' }, _meta: ENVELOPE },
      }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer realm="storefront"/);
    const body = (await raw.json()) as { id: number; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 4, error: { code: MCP_KEY_REQUIRED } });
    expect(body.error.message).toContain('/api/dev/keys');
  });

  it('refuses a request whose Mcp-Method or Mcp-Name header is missing or disagrees with the body, before any work', async () => {
    const key = await liveKey(100);
    const call = {
      id: 'h',
      method: 'tools/call',
      params: { name: 'notarize', arguments: { content: 'headers' } },
    };
    const auth = { authorization: `Bearer ${key}`, 'mcp-protocol-version': MODERN };
    const cases: [string, Record<string, string>, RegExp][] = [
      ['no Mcp-Method', { 'mcp-name': 'notarize' }, /Mcp-Method header is absent/],
      [
        'another Mcp-Method',
        { 'mcp-method': 'tools/list', 'mcp-name': 'notarize' },
        /Mcp-Method header names tools\/list/,
      ],
      ['no Mcp-Name', { 'mcp-method': 'tools/call' }, /Mcp-Name header is absent/],
      [
        'another Mcp-Name',
        { 'mcp-method': 'tools/call', 'mcp-name': 'fetch' },
        /params\.name="notarize" but the Mcp-Name header names "fetch"/,
      ],
      [
        'another MCP-Protocol-Version',
        {
          'mcp-method': 'tools/call',
          'mcp-name': 'notarize',
          'mcp-protocol-version': '2025-11-25',
        },
        /MCP-Protocol-Version header names 2025-11-25/,
      ],
    ];
    for (const [label, headers, message] of cases) {
      const res = await post(call, { ...auth, ...headers });
      expect([label, res.status]).toStrictEqual([label, 400]);
      const error = res.body.error as { code: number; message: string };
      expect([label, error.code]).toStrictEqual([label, -32020]);
      expect(error.message, label).toMatch(message);
      expect(res.body.id, label).toBe('h');
    }
    expect(await creditsOf(key)).toBe(100);
    // The same call with its headers right runs, and a base64 Mcp-Name is read as its value.
    const encoded = `=?base64?${Buffer.from('notarize').toString('base64')}?=`;
    const ok = await post(call, { ...auth, 'mcp-method': 'tools/call', 'mcp-name': encoded });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { ok: true },
    });
    expect(await creditsOf(key)).toBe(92);
  });

  it('refuses a revision it does not serve, and names the ones it does', async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2099-01-01',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/list',
        params: {
          _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
        },
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      id: 5,
      error: { code: -32022, data: { supported: [MODERN], requested: '2099-01-01' } },
    });
  });

  it('answers tools/call params of the wrong shape with -32602 naming the field, not a schema dump', async () => {
    const res = await post(
      { id: 6, method: 'tools/call', params: { name: 'notarize', arguments: ['content'] } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'notarize' },
    );
    const error = res.body.error as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid tools\/call params: `params\.arguments`: expected /);
    expect(error.message).not.toMatch(/\[\s*\{|"code"/);
  });

  it('answers crawl_job and tasks/get -32021 to a client that does not declare the Tasks extension (the v2 client alone does not); nothing is charged', async () => {
    const key = await liveKey(100);
    const client = await connect(key);
    await expect(
      client.callTool({ name: 'crawl_job', arguments: { url: site.shop.url('/'), limit: 2 } }),
    ).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    await client.close();
    const get = await post(
      { id: 7, method: 'tasks/get', params: { taskId: 'job_000000000000000000000000' } },
      {
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tasks/get',
        'mcp-name': 'job_000000000000000000000000',
      },
    );
    expect(get.body.error).toMatchObject({ code: -32021 });
    // tasks/result is the 2025-11-25 Tasks' own; the extension removed it.
    const result = await post(
      { id: 8, method: 'tasks/result', params: { taskId: 'job_000000000000000000000000' } },
      {
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tasks/result',
      },
    );
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: -32601 });
    expect(await creditsOf(key)).toBe(100);
  });

  it('reports an unknown tool as an isError result, as on the legacy era', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'nope', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^Unknown tool `nope`/);
    await expect(client.discover()).resolves.toMatchObject({ supportedVersions: [MODERN] });
    await client.close();
  });
});

describe('both eras side by side on the same /mcp', () => {
  it('serves an SDK 1.x client (2025-11-25) and the v2 client (2026-07-28) the same tools, prices and receipts', async () => {
    const key = await liveKey(100);
    const legacy = await connectLegacy(key);
    const modern = await connect(key);
    expect(legacy.getServerVersion()).toMatchObject({ name: 'storefront' });
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
    const legacyTools = (await legacy.listTools()).tools;
    const modernTools = (await modern.listTools()).tools;
    // The legacy era also offers the crawl job as a task, with schemas in the default dialect.
    expect(legacyTools.map((tool) => tool.name)).toStrictEqual([...PAID_TOOLS, 'crawl_job']);
    expect(modernTools.map((tool) => tool.name)).toStrictEqual([...PAID_TOOLS, 'crawl_job']);
    expect(legacyTools[0]?.inputSchema).not.toHaveProperty('$schema');
    expect(legacyTools.find((tool) => tool.name === 'crawl_job')?.execution).toStrictEqual({
      taskSupport: 'required',
    });
    // 2026-07-28 has no `execution`: the Tasks extension is declared in the capabilities.
    expect(modernTools.find((tool) => tool.name === 'crawl_job')).not.toHaveProperty('execution');
    for (const [i, tool] of modernTools.slice(0, PAID_TOOLS.length).entries()) {
      expect(tool.description).toBe(legacyTools[i]?.description);
    }

    const pinned = await pinnedKey();
    const args = { content: 'both eras' };
    const overLegacy = (await legacy.callTool({ name: 'notarize', arguments: args }))
      .structuredContent as Body;
    const overModern = (await modern.callTool({ name: 'notarize', arguments: args }))
      .structuredContent as Body;
    for (const body of [overLegacy, overModern]) {
      expect(verifyReceipt(body, pinned).problems).toStrictEqual([]);
    }
    expect((overModern.data as Body).contentHash).toBe((overLegacy.data as Body).contentHash);
    // notarize costs $0.008 (8 credits), once per era.
    expect(await creditsOf(key)).toBe(100 - 2 * 8);
    await legacy.close();
    await modern.close();
  });

  it('lets a v2 client that negotiates pick the newest era, and one pinned to the legacy handshake keep it', async () => {
    const auto = new Client(
      { name: 'auto', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await auto.connect(new StreamableHTTPClientTransport(mcpUrl()));
    expect(auto.getNegotiatedProtocolVersion()).toBe(MODERN);
    await auto.close();
    const legacy = new Client({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(mcpUrl()));
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toContain('crawl_job');
    await legacy.close();
  });

  it('answers a legacy task method for a job the key cannot see as not found', async () => {
    const client = await connectLegacy(await liveKey(0));
    await expect(client.experimental.tasks.getTask('job_000000000000000000000000')).rejects.toThrow(
      /not found/i,
    );
    await client.close();
  });
});

describe("the README's v2 client", () => {
  const README = join(import.meta.dirname, '../../../README.md');
  /** Where the snippet runs: inside the server package, so the v2 client resolves. */
  const SNIPPETS = join(import.meta.dirname, '../node_modules/.cache/storefront-snippets');

  /** The code block after `<!-- mcp client: <name> -->` in the README, as written. */
  function readmeSnippet(name: string): string {
    const readme = readFileSync(README, 'utf8');
    const marker = `<!-- mcp client: ${name} -->\n\`\`\`js\n`;
    const start = readme.indexOf(marker);
    if (start === -1) throw new Error(`no MCP client snippet "${name}" in the README`);
    const code = readme.slice(start + marker.length);
    return code.slice(0, code.indexOf('\n```'));
  }

  it('runs unmodified as its own process: negotiates 2026-07-28, lists the tools and pays a call with the key', async () => {
    const key = await liveKey(100);
    mkdirSync(SNIPPETS, { recursive: true });
    const file = join(mkdtempSync(join(SNIPPETS, 'run-')), 'agent.mjs');
    writeFileSync(file, readmeSnippet('@modelcontextprotocol/client'));
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve, reject) => {
        execFile(
          process.execPath,
          [file, `${server.url}/mcp`],
          { env: { PATH: process.env.PATH, STOREFRONT_KEY: key }, timeout: 60_000 },
          (error, stdout, stderr) => {
            if (error && typeof error.code !== 'number') reject(error);
            else
              resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
          },
        );
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`protocol ${MODERN} (storefront)`);
    // The paid tools and crawl_job.
    expect(lines[1]).toBe(
      `${REGISTRY.length + 1} tools, cacheable for ${MCP_LIST_TTL_MS} ms (public)`,
    );
    // notarize of "hello": the sha256 of its bytes, signed by the pinned key.
    expect(lines[2]).toMatch(
      /^notarize 0x2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824 signed by storefront-attest\/\d:0x[0-9a-fA-F]{40}$/,
    );
    expect(lines[2]).toContain(await pinnedKey());
    expect(await creditsOf(key)).toBe(100 - 8);
  }, 90_000);
});
