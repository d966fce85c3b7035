/**
 * The MCP door, driven by the MCP SDK's own client over a listening server: tools from
 * the registry, calls metered through the same pipeline as the HTTP key door, receipts
 * that verify, and the refusals a client meets.
 */

import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { verifyReceipt } from '@storefront/attest';
import { sha256Hex } from '@storefront/core';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TEXT_MAX_CHARS } from '../src/doors/mcp/result.js';
import { PAYMENT_TERMS_SCHEMA } from '../src/doors/mcp/tools.js';
import { extractRoute } from '../src/registry/extract/index.js';
import { REGISTRY } from '../src/registry/index.js';
import { notarizeRoute } from '../src/registry/notarize/index.js';
import { MCP_SLICE_CHARS } from '../src/registry/slice.js';
import { mcpRoutes } from '../src/routes/mcp.js';
import type { RunningServer } from '../src/server.js';
import { testApp } from './helpers.js';
import { type AuditNet, startAuditNet } from './hosts.js';
import { ADMIN_TOKEN } from './keys.js';
import { listeningServer } from './listening.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;

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

/** An SDK client connected to the server's `/mcp`, with `key` as its bearer when given. */
async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: 'storefront-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function admin(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A live key with `credits` credits (prepaid plan). */
async function liveKey(credits: number): Promise<{ key: string; keyId: string }> {
  const minted = (await (
    await fetch(`${server.url}/api/dev/keys?live=true`, { method: 'POST' })
  ).json()) as {
    key: string;
    keyId: string;
  };
  if (credits > 0)
    expect((await admin(`/admin/keys/${minted.keyId}/credits`, { credits })).status).toBe(200);
  return minted;
}

async function balanceOf(key: string): Promise<Body> {
  const res = await fetch(`${server.url}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return (await res.json()) as Body;
}

async function pinnedKey(): Promise<string> {
  const res = await fetch(`${server.url}/.well-known/service-attestation`);
  return ((await res.json()) as { address: string }).address;
}

describe('the MCP door', () => {
  it('lists one tool per paid route, in registry order, and the crawl job tool, without a key', async () => {
    const client = await connect();
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toStrictEqual([
      ...REGISTRY.map((route) => route.name),
      'crawl_job',
    ]);
    const tools = listed.slice(0, REGISTRY.length);
    for (const tool of tools) {
      const route = REGISTRY.find((r) => r.name === tool.name);
      expect(tool.title).toBe(route?.title);
      expect(tool.description).toMatch(/\$0\.\d+/);
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        properties: route?.params.properties,
      });
      expect(tool.outputSchema).toMatchObject({
        type: 'object',
        anyOf: [{ type: 'object' }, PAYMENT_TERMS_SCHEMA],
      });
      expect(tool.annotations).toStrictEqual({
        title: route?.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
    }
    await client.close();
  });

  it('calls every tool with a key: the HTTP body in structuredContent, the text block, a receipt that verifies, the catalog price in credits', async () => {
    const { key } = await liveKey(1000);
    const client = await connect(key);
    const pinned = await pinnedKey();
    // Every route's own example call (its registry folder) and what it costs.
    for (const { name, example } of REGISTRY) {
      const args = example.call(site);
      const before = (await balanceOf(key)).credits as number;
      const result = await client.callTool({ name, arguments: args });
      expect([name, result.isError ?? false]).toStrictEqual([name, false]);
      const body = result.structuredContent as Body;
      expect([name, body.ok]).toStrictEqual([name, true]);
      // The text block is the text, and where it is a part of a longer one, how to read on.
      const blocks = result.content as { type: string; text: string }[];
      expect(blocks.map((block) => block.type)).toStrictEqual(['text']);
      expect(blocks[0]?.text.startsWith(body.text as string)).toBe(true);
      if (body.slice === undefined || (body.slice as Body).next === null) {
        expect(blocks[0]?.text).toBe(body.text);
      }
      const verification = verifyReceipt(body, pinned);
      expect([name, verification.problems]).toStrictEqual([name, []]);
      const after = (await balanceOf(key)).credits as number;
      expect([name, before - after]).toStrictEqual([name, example.credits]);
    }
    const extract = await client.callTool({
      name: 'extract',
      arguments: extractRoute.example.call(site),
    });
    expect((extract.structuredContent as Body).delivered).toBe('mcp');
    await client.close();
  }, 60_000);

  it('gives the same text and contentHash over HTTP and MCP for the same page', async () => {
    const { key } = await liveKey(100);
    const url = site.url('/wiki');
    const http = await fetch(`${server.url}/buy/markdown?url=${encodeURIComponent(url)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const overHttp = (await http.json()) as Body;
    const client = await connect(key);
    const overMcp = (
      await client.callTool({ name: 'markdown', arguments: { url, maxChars: 10_000_000 } })
    ).structuredContent as Body;
    expect(overMcp.text).toBe(overHttp.text);
    expect((overMcp.attestation as Body).contentHash).toBe(
      (overHttp.attestation as Body).contentHash,
    );
    // Within the default budget, the part names the same whole.
    const budgeted = (await client.callTool({ name: 'markdown', arguments: { url } }))
      .structuredContent as Body;
    expect((budgeted.slice as Body).wholeHash).toBe((overHttp.attestation as Body).contentHash);
    await client.close();
  });

  it('answers a long text within the default budget, says how to read on, and the parts verify', async () => {
    const { key } = await liveKey(100);
    const url = site.url('/long');
    const http = await fetch(`${server.url}/buy/markdown?url=${encodeURIComponent(url)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const whole = ((await http.json()) as Body).text as string;
    const total = Array.from(whole).length;
    expect(total).toBeGreaterThan(MCP_SLICE_CHARS);
    const client = await connect(key);
    const pinned = await pinnedKey();
    const first = await client.callTool({ name: 'markdown', arguments: { url } });
    const body = first.structuredContent as Body;
    expect(body.slice).toStrictEqual({
      offset: 0,
      length: MCP_SLICE_CHARS,
      total,
      wholeHash: sha256Hex(whole),
      next: MCP_SLICE_CHARS,
    });
    const block = (first.content as { text: string }[])[0]?.text ?? '';
    expect(block.startsWith(body.text as string)).toBe(true);
    expect(block).toContain(`Characters 0 to ${MCP_SLICE_CHARS} of ${total}.`);
    expect(block).toContain(`offset=${MCP_SLICE_CHARS} for the next part`);
    expect(verifyReceipt(body, pinned).problems).toStrictEqual([]);
    // The next call, as the notice says: the same arguments and the offset it names.
    const rest = (
      await client.callTool({
        name: 'markdown',
        arguments: { url, offset: MCP_SLICE_CHARS, maxChars: 1_000_000 },
      })
    ).structuredContent as Body;
    expect(rest.slice).toMatchObject({
      offset: MCP_SLICE_CHARS,
      next: null,
      wholeHash: sha256Hex(whole),
    });
    expect(verifyReceipt(rest, pinned).problems).toStrictEqual([]);
    expect(`${body.text as string}${rest.text as string}`).toBe(whole);
    // A typed record is signed whole: the budget does not apply to it.
    const record = (await client.callTool({ name: 'fetch', arguments: { url, extract: 'title' } }))
      .structuredContent as Body;
    expect(record.ok).toBe(true);
    expect(record.slice).toBeUndefined();
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === 'markdown')?.description).toContain(
      'at most 20,000 characters',
    );
    await client.close();
  });

  it('answers a page served in the content’s place as an isError result that says what to do next', async () => {
    const { key } = await liveKey(100);
    const client = await connect(key);
    const result = await client.callTool({
      name: 'markdown',
      arguments: { url: site.url('/challenge') },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/^not_content: The page is a challenge page, not the content \(/);
    expect(text).toContain('Nothing was charged.');
    expect(text).toContain('Call again later, or read another URL.');
    expect((await balanceOf(key)).credits).toBe(100);
    await client.close();
  });

  it('answers a tool call without a key with the x402 terms as an isError result (HTTP 200), and a bad key with HTTP 401', async () => {
    const client = await connect();
    // Listed first, so the client checks the result against the tool's outputSchema.
    await client.listTools();
    const result = await client.callTool({ name: 'notarize', arguments: { content: 'x' } });
    expect(result.isError).toBe(true);
    const terms = result.structuredContent as {
      x402Version: number;
      error: string;
      accepts: { scheme: string; amount: string }[];
      resource: { url: string };
    };
    expect(terms.x402Version).toBe(2);
    expect(terms.error).toBe(
      'The notarize tool costs $0.008 per call; pay with x402 in params._meta["x402/payment"] or send an API key as `Authorization: Bearer <key>`',
    );
    expect(terms.accepts[0]).toMatchObject({ scheme: 'exact', amount: '8000' });
    expect(terms.resource.url).toContain('/buy/notarize');
    // The x402 MCP transport: the first text block is the same object as JSON.
    const blocks = result.content as { type: string; text: string }[];
    expect(JSON.parse(blocks[0]?.text ?? '')).toStrictEqual(terms);
    expect(blocks[1]?.text).toMatch(/^payment_required: /);
    expect(blocks[1]?.text).toContain('_meta["x402/payment"]');
    expect(blocks[1]?.text).toContain('/api/dev/keys');
    await client.close();
    const raw = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer not-a-key',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'notarize', arguments: { content: 'x' } },
      }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer realm="storefront"/);
    const body = (await raw.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error.code).toBeLessThan(-30_000);
    expect(body.error.code).toBeGreaterThan(-32_000);
    expect(body.error.message).toContain('/api/dev/keys');
    const unknown = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer mk_live_nope' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'notarize' },
      }),
    });
    expect(unknown.status).toBe(401);
  });

  it('answers an exhausted sandbox key with an isError result and charges nothing', async () => {
    const minted = (await (
      await fetch(`${server.url}/api/dev/keys`, { method: 'POST' })
    ).json()) as {
      key: string;
      keyId: string;
    };
    await server.db.query('UPDATE api_keys SET sandbox_remaining = 0 WHERE key_id = $1', [
      minted.keyId,
    ]);
    const before = await balanceOf(minted.key);
    const client = await connect(minted.key);
    const result = await client.callTool({ name: 'notarize', arguments: { content: 'x' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/^sandbox_exhausted: .*Nothing was charged\. .*\/api\/dev\/keys/);
    expect(await balanceOf(minted.key)).toStrictEqual(before);
    await client.close();
  });

  it('answers bad arguments and an unknown tool with isError results naming what to fix', async () => {
    const { key } = await liveKey(100);
    const client = await connect(key);
    const bad = await client.callTool({ name: 'fetch', arguments: { url: 'ftp://example.com/' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toMatch(/^invalid_params: `url`: /);
    const missing = await client.callTool({ name: 'nope', arguments: {} });
    expect(missing.isError).toBe(true);
    expect((await balanceOf(key)).credits).toBe(100);
    await client.close();
  });

  it('refuses an argument named __proto__ like any unknown name, charging nothing', async () => {
    const { key } = await liveKey(100);
    const client = await connect(key);
    for (const name of ['__proto__', 'constructor']) {
      // JSON.parse makes `__proto__` an own name, as a client's JSON on the wire does.
      const args = JSON.parse(
        `{"${name}": "1", "url": ${JSON.stringify(site.url('/product'))}}`,
      ) as Record<string, unknown>;
      const result = await client.callTool({ name: 'fetch', arguments: args });
      expect(result.isError, name).toBe(true);
      expect((result.content as { text: string }[])[0]?.text).toMatch(
        new RegExp(`^invalid_params: \`${name}\`: Unknown parameter`),
      );
    }
    expect((await balanceOf(key)).credits).toBe(100);
    await client.close();
  });

  it('answers a tools/call whose params have the wrong shape with -32602 naming the field', async () => {
    const { key } = await liveKey(100);
    const client = await connect(key);
    for (const params of [
      { name: 5, arguments: { content: 'x' } },
      { name: 'notarize', arguments: ['content', 'x'] },
      { name: 'notarize', arguments: 'content=x' },
      { arguments: { content: 'x' } },
    ]) {
      const label = JSON.stringify(params);
      const error = await client
        .request({ method: 'tools/call', params } as never, CallToolResultSchema)
        .then(
          () => null,
          (thrown: unknown) => thrown,
        );
      expect(error, label).toBeInstanceOf(McpError);
      expect((error as McpError).code, label).toBe(ErrorCode.InvalidParams);
      const message = (error as McpError).message;
      expect(message, label).toMatch(
        /Invalid tools\/call params: `params\.(name|arguments)`: expected /,
      );
      expect(message, label).not.toMatch(/Internal error|"code"|\[\s*\{/);
    }
    // Without params at all, over raw HTTP: the same answer, with the request's id.
    const raw = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'no-params', method: 'tools/call' }),
    });
    expect(raw.status).toBe(200);
    const body = (await raw.json()) as { id: string; error: { code: number; message: string } };
    expect(body.id).toBe('no-params');
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Invalid tools\/call params: `params`: expected object/);
    expect((await balanceOf(key)).credits).toBe(100);
    await client.close();
  });

  it('refuses a JSON-RPC batch that holds a tools/call, with a key or without, before any work', async () => {
    const { key } = await liveKey(100);
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'notarize', arguments: { content: `batched ${id}` } },
    });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (const authorization of [undefined, `Bearer ${key}`, 'Bearer mk_live_nope']) {
      for (const batch of [[call(2)], [list, call(3)], [call(4), call(5)]]) {
        const res = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(authorization === undefined ? {} : { authorization }),
          },
          body: JSON.stringify(batch),
        });
        const label = `${authorization ?? 'no key'} ${JSON.stringify(batch).slice(0, 80)}`;
        expect(res.status, label).toBe(400);
        const body = (await res.json()) as { error: { code: number; message: string } };
        expect(body.error.code, label).toBe(-32600);
        expect(body.error.message, label).toMatch(/tools\/call cannot be sent in a JSON-RPC batch/);
      }
    }
    expect((await balanceOf(key)).credits).toBe(100);
  });

  it('succeeds exactly N times for 5N concurrent calls on a key funded for N', async () => {
    const n = 4;
    const credits = n * 8; // notarize costs $0.008: 8 credits.
    const { key } = await liveKey(credits);
    const clients = await Promise.all(Array.from({ length: 5 }, () => connect(key)));
    const results = await Promise.all(
      Array.from({ length: 5 * n }, (_, i) =>
        (clients[i % clients.length] as Client).callTool({
          name: 'notarize',
          arguments: { content: `call ${i}` },
        }),
      ),
    );
    const ok = results.filter((r) => r.isError !== true);
    expect(ok.length).toBe(n);
    for (const refused of results.filter((r) => r.isError === true)) {
      expect((refused.content as { text: string }[])[0]?.text).toMatch(/^insufficient_credits: /);
    }
    expect((await balanceOf(key)).credits).toBe(0);
    for (const client of clients) await client.close();
  }, 60_000);
});

describe('tools come from the registry', () => {
  it('lists a route added to a registry as a tool, with no MCP code changed', async () => {
    const t = await testApp();
    try {
      const copy = { ...notarizeRoute, name: 'notarize-copy', path: '/buy/notarize-copy' };
      const app = express().use(mcpRoutes({ ...t.deps, registry: [...REGISTRY, copy] }));
      const listed = await request(app)
        .post('/mcp')
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(listed.status).toBe(200);
      const names = (listed.body.result.tools as { name: string }[]).map((tool) => tool.name);
      expect(names).toStrictEqual([
        ...REGISTRY.map((route) => route.name),
        'notarize-copy',
        'crawl_job',
      ]);
    } finally {
      await t.dispose();
    }
  });

  it('cuts a long text block with a notice, while structuredContent keeps the whole text', async () => {
    const { toolResult } = await import('../src/doors/mcp/result.js');
    const text = 'a'.repeat(MCP_TEXT_MAX_CHARS + 10);
    const result = toolResult(
      {
        kind: 'delivered',
        body: { ok: true, url: 'u', text },
        headers: {},
        ok: true,
        error: null,
        message: null,
        charge: 'charged',
      },
      'm',
    );
    const block = (result.content[0] as { text: string }).text;
    expect(block.startsWith('a'.repeat(MCP_TEXT_MAX_CHARS - 1))).toBe(true);
    expect(block).toContain(`Cut at ${MCP_TEXT_MAX_CHARS} of ${text.length} characters`);
    expect((result.structuredContent as Body).text).toBe(text);
  });
});

describe('machine authorization: OAuth client credentials on the same keys', () => {
  const mcpUrl = () => new URL(`${server.url}/mcp`);

  it('publishes RFC 9728 metadata for /mcp and RFC 8414 metadata of its authorization server', async () => {
    const resource = (await (
      await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as Body;
    expect(resource).toMatchObject({
      resource: `${server.url}/mcp`,
      authorization_servers: [server.url],
      bearer_methods_supported: ['header'],
    });
    const issuer = (await (
      await fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json()) as Body;
    expect(issuer).toMatchObject({
      issuer: server.url,
      token_endpoint: `${server.url}/oauth/token`,
      grant_types_supported: ['client_credentials'],
    });
  });

  it("the SDK's ClientCredentialsProvider gets a token for a key and calls a tool on the key's credits", async () => {
    const { key, keyId } = await liveKey(100);
    const provider = new ClientCredentialsProvider({
      clientId: keyId,
      clientSecret: key,
      expectedIssuer: server.url,
    });
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const token = provider.tokens()?.access_token ?? '';
    expect(token).toMatch(/^mk_at_/);
    const client = new Client({ name: 'storefront-machine', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const before = (await balanceOf(key)).credits as number;
    const result = await client.callTool({ name: 'notarize', arguments: { content: 'machine' } });
    expect(result.isError).toBeUndefined();
    const body = result.structuredContent as Body;
    expect(verifyReceipt(body, await pinnedKey()).valid).toBe(true);
    expect(before - ((await balanceOf(key)).credits as number)).toBe(8);
    await client.close();
    // The same token on the HTTP key door, and for the key's balance.
    const http = await fetch(`${server.url}/buy/notarize?content=machine`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(http.status).toBe(200);
    expect(http.headers.get('storefront-charge')).toBe('credits;credits=8');
    expect((await balanceOf(token)).credits).toBe(before - 16);
  });

  it('refuses a wrong secret, another grant, and a revoked key’s token', async () => {
    const { key, keyId } = await liveKey(100);
    const token = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const wrong = await token(
      `grant_type=client_credentials&client_id=${keyId}&client_secret=mk_live_${'x'.repeat(43)}`,
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    const basicWrong = await token('grant_type=client_credentials', {
      authorization: `Basic ${Buffer.from(`key_other:${key}`).toString('base64')}`,
    });
    expect(basicWrong.status).toBe(401);
    expect(basicWrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const grant = await token(`grant_type=password&client_id=${keyId}&client_secret=${key}`);
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });

    const ok = await token('grant_type=client_credentials', {
      authorization: `Basic ${Buffer.from(`${keyId}:${key}`).toString('base64')}`,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const issued = (await ok.json()) as {
      access_token: string;
      token_type: string;
      expires_in: number;
    };
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await admin(`/admin/keys/${keyId}/revoke`, {})).status).toBe(200);
    const call = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${issued.access_token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'notarize', arguments: { content: 'x' } },
      }),
    });
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    // An edited token is no token.
    const edited = `${issued.access_token.slice(0, -1)}${issued.access_token.endsWith('A') ? 'B' : 'A'}`;
    const res = await fetch(`${server.url}/buy/notarize?content=x`, {
      headers: { authorization: `Bearer ${edited}` },
    });
    expect(res.status).toBe(401);
  });
});

describe('crawl jobs as MCP tasks', () => {
  it('runs a crawl job as a task: created, polled with tasks/get, its result with the signed manifest, charged per page', async () => {
    const { key } = await liveKey(1000);
    const client = await connect(key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'crawl_job');
    expect(tool?.execution).toStrictEqual({ taskSupport: 'required' });
    const before = (await balanceOf(key)).credits as number;
    const messages: { type: string; task?: { taskId: string; status: string } }[] = [];
    let result: Record<string, unknown> | null = null;
    for await (const message of client.experimental.tasks.callToolStream(
      {
        name: 'crawl_job',
        arguments: { url: site.shop.url('/'), limit: 3, format: 'markdown' },
        task: { ttl: 60_000 },
      },
      CallToolResultSchema,
    )) {
      messages.push(message as never);
      if (message.type === 'result') result = message.result as Record<string, unknown>;
    }
    expect(messages[0]?.type).toBe('taskCreated');
    const taskId = messages[0]?.task?.taskId ?? '';
    expect(taskId).toMatch(/^job_[0-9a-f]{24}$/);
    const view = result?.structuredContent as Body;
    expect(view).toMatchObject({ jobId: taskId, status: 'completed' });
    expect(view.manifest).toBeTypeOf('object');
    const delivered = view.completed as number;
    expect(delivered).toBeGreaterThan(0);
    expect(before - ((await balanceOf(key)).credits as number)).toBe(delivered * 5);
    // The task is the job: the same key reads it over HTTP, another key cannot see it.
    const http = await fetch(`${server.url}/jobs/${taskId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await http.json()) as Body).status).toBe('completed');
    const other = await connect((await liveKey(0)).key);
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await other.close();
    await client.close();
  }, 90_000);

  it('refuses bad arguments and a key that cannot cover the limit with a JSON-RPC error naming the code; nothing is reserved', async () => {
    const { key } = await liveKey(4);
    const client = await connect(key);
    const start = (args: Record<string, unknown>) =>
      client.request(
        {
          method: 'tools/call',
          params: { name: 'crawl_job', arguments: args, task: { ttl: 60_000 } },
        },
        CallToolResultSchema,
      );
    await expect(start({ url: 'not a url', limit: 3 })).rejects.toThrow(
      /invalid_params: Invalid crawl job \(`url`: .+\)\. Nothing was charged\./,
    );
    await expect(start({ url: site.shop.url('/'), limit: 3 })).rejects.toThrow(
      /insufficient_credits: A crawl of up to 3 pages reserves 3 × 5 credits/,
    );
    expect((await balanceOf(key)).credits).toBe(4);
    await client.close();
  });

  it('says how to call it when called without a task, and needs a key', async () => {
    const { key } = await liveKey(100);
    const client = await connect(key);
    const plain = await client.callTool({
      name: 'crawl_job',
      arguments: { url: site.shop.url('/'), limit: 2 },
    });
    expect(plain.isError).toBe(true);
    expect((plain.content as { text: string }[])[0]?.text).toContain('params.task');
    expect((await balanceOf(key)).credits).toBe(100);
    await client.close();
    const keyless = await connect();
    await expect(
      keyless.callTool({ name: 'crawl_job', arguments: { url: site.shop.url('/') } }),
    ).rejects.toMatchObject({ code: 401 });
    await keyless.close();
  });
});
