import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/client/auth.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_CORS_REQUEST_HEADERS } from '../src/http/cors.js';
import { REGISTRY } from '../src/registry/index.js';
import { testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
let base: string;

beforeAll(async () => {
  t = await testApp();
  base = t.deps.config.publicBaseUrl;
}, 60_000);
afterAll(() => t.dispose());

/** What MCP clients send when they open the optional server stream. */
const SSE = 'text/event-stream';

describe('GET /mcp', () => {
  it.each([
    ['an MCP client (SDK, Inspector, Claude Code)', SSE],
    ['a client accepting both', 'application/json, text/event-stream'],
    ['upper case', 'TEXT/EVENT-STREAM'],
  ])('Accept from %s: 405 with Allow: POST and a JSON error', async (_who, accept) => {
    const res = await request(t.app).get('/mcp').set('accept', accept);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
    expect(res.body.message).toContain(`POST JSON-RPC messages to ${base}/mcp`);
  });

  it.each([
    ['no Accept', undefined],
    ['curl', '*/*'],
    ['a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['a JSON client', 'application/json'],
  ])('%s: 200 with the discovery blob', async (_who, accept) => {
    const req = request(t.app).get('/mcp');
    if (accept !== undefined) req.set('accept', accept);
    const res = await req;
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.body.transport).toBe('streamable-http');
    expect(res.body.endpoint).toBe(`${base}/mcp`);
  });

  it('the blob says what the endpoint is, how to authenticate and which tools it has', async () => {
    const res = await request(t.app).get('/mcp').expect(200);
    expect(res.body).toMatchObject({
      name: 'storefront',
      title: 'Storefront',
      version: t.deps.version,
      // The stateless revision, then every revision an SDK 1.x client negotiates.
      protocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS],
      latestProtocolVersion: '2026-07-28',
      transport: 'streamable-http',
      endpoint: `${base}/mcp`,
      auth: {
        type: 'bearer',
        header: 'Authorization: Bearer <key>',
        requiredFor: ['tools/call'],
        issue: `${base}/api/dev/keys`,
        balance: `${base}/api/dev/balance`,
        oauth: {
          grant: 'client_credentials',
          tokenEndpoint: `${base}/oauth/token`,
          protectedResourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp`,
        },
      },
      links: {
        developers: `${base}/developers`,
        catalog: `${base}/catalog`,
        openapi: `${base}/openapi.json`,
        manifest: `${base}/manifest`,
        self: `${base}/.well-known/mcp.json`,
      },
    });
    expect(res.body.protocolVersions).toContain('2025-11-25');
    // One tool per paid route, in registry order.
    expect(res.body.tools).toStrictEqual(REGISTRY.map((route) => route.name));
  });

  it('every link in the blob is answered by this app', async () => {
    const res = await request(t.app).get('/mcp').expect(200);
    for (const url of Object.values(res.body.links as Record<string, string>)) {
      expect(url.startsWith(base), url).toBe(true);
      const linked = await request(t.app).get(url.slice(base.length));
      expect(linked.status, url).toBe(200);
    }
  });

  it('is never authenticated: a wrong key still gets the blob (no 401 to send clients into OAuth)', async () => {
    const res = await request(t.app)
      .get('/mcp')
      .set('authorization', 'Bearer mk_test_not_a_key')
      .expect(200);
    expect(res.body.endpoint).toBe(`${base}/mcp`);
    const stream = await request(t.app)
      .get('/mcp')
      .set('authorization', 'Bearer mk_test_not_a_key')
      .set('accept', SSE);
    expect(stream.status).toBe(405);
  });

  it('HEAD follows GET: headers of the blob without a body, 405 for an event stream', async () => {
    const res = await request(t.app).head('/mcp').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text ?? '').toBe('');
    const stream = await request(t.app).head('/mcp').set('accept', SSE);
    expect(stream.status).toBe(405);
    expect(stream.headers.allow).toBe('POST');
  });

  it('/.well-known/mcp.json serves the same blob whatever the Accept', async () => {
    const blob = await request(t.app).get('/mcp').expect(200);
    const wellKnown = await request(t.app)
      .get('/.well-known/mcp.json')
      .set('accept', SSE)
      .expect(200);
    expect(wellKnown.headers['content-type']).toMatch(/^application\/json/);
    expect(wellKnown.body).toStrictEqual(blob.body);
  });
});

describe('other methods on /mcp', () => {
  it('DELETE (ending a session; there are none): 405 with Allow: POST', async () => {
    const res = await request(t.app).delete('/mcp').set('mcp-session-id', 'abc');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
  });

  it.each(['PUT', 'PATCH', 'OPTIONS'] as const)(
    '%s: 405 with Allow: GET, POST and a JSON error',
    async (method) => {
      const res = await request(t.app)[method.toLowerCase() as 'put' | 'patch' | 'options']('/mcp');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, POST');
      expect(res.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
      expect(res.body.message).toContain(`\`${method} /mcp\``);
    },
  );

  it('POST is left to the MCP door: this router never answers it 405', async () => {
    const res = await request(t.app)
      .post('/mcp')
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).not.toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('CORS on /mcp', () => {
  it('a preflight of POST is granted GET and POST and the MCP request headers', async () => {
    const res = await request(t.app)
      .options('/mcp')
      .set('origin', 'https://inspector.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'authorization, content-type, mcp-protocol-version');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
    const allowed = (res.headers['access-control-allow-headers'] as string)
      .toLowerCase()
      .split(', ');
    expect(allowed).toStrictEqual(MCP_CORS_REQUEST_HEADERS.map((name) => name.toLowerCase()));
    for (const name of [
      'authorization',
      'content-type',
      'mcp-protocol-version',
      'mcp-method',
      'mcp-name',
      'mcp-session-id',
    ]) {
      expect(allowed).toContain(name);
    }
  });

  it('answers any origin and lets a script read WWW-Authenticate and Allow', async () => {
    for (const accept of ['application/json', SSE]) {
      const res = await request(t.app)
        .get('/mcp')
        .set('origin', 'https://inspector.example')
        .set('accept', accept);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const exposed = (res.headers['access-control-expose-headers'] as string).split(', ');
      expect(exposed).toContain('WWW-Authenticate');
      expect(exposed).toContain('Allow');
    }
  });
});

describe('OAuth metadata paths: the metadata, or a JSON 404, never HTML', () => {
  const PATHS = [
    '/.well-known/oauth-authorization-server/mcp',
    '/.well-known/openid-configuration',
    '/.well-known/openid-configuration/mcp',
    '/mcp/.well-known/openid-configuration',
  ];

  it.each(PATHS)(
    'GET %s: 404 not_found as JSON, pointing at the metadata and keys',
    async (path) => {
      const res = await request(t.app)
        .get(path)
        .set('accept', 'application/json')
        .set('mcp-protocol-version', LATEST_PROTOCOL_VERSION);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).not.toMatch(/<html|<!doctype/i);
      expect(JSON.parse(res.text)).toMatchObject({ ok: false, error: 'not_found' });
      expect(res.body.message).toContain(`${base}/.well-known/oauth-protected-resource/mcp`);
      expect(res.body.message).toContain(`${base}/api/dev/keys`);
      expect(res.body.requestId).toBeTypeOf('string');
    },
  );

  it.each([
    [
      '/.well-known/oauth-protected-resource',
      () => ({ resource: base, authorization_servers: [base] }),
    ],
    [
      '/.well-known/oauth-protected-resource/mcp',
      () => ({ resource: `${base}/mcp`, authorization_servers: [base] }),
    ],
    [
      '/.well-known/oauth-authorization-server',
      () => ({ issuer: base, token_endpoint: `${base}/oauth/token` }),
    ],
  ])('GET %s: the metadata as JSON', async (path, expected) => {
    const res = await request(t.app).get(path).set('accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject(expected());
  });

  it('a browser Accept gets JSON too', async () => {
    const res = await request(t.app)
      .get('/.well-known/openid-configuration')
      .set('accept', 'text/html,*/*;q=0.8');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('neighbouring paths are not taken for them', async () => {
    const res = await request(t.app).get('/.well-known/oauth-protected-resources').expect(404);
    expect(res.body.message).not.toContain('OAuth');
  });

  describe('with the MCP SDK client discovery', () => {
    let server: http.Server;
    let url: URL;

    beforeAll(async () => {
      server = http.createServer(t.app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    });
    afterAll(() => {
      server?.closeAllConnections();
      server?.close();
    });

    it('finds the protected resource metadata of /mcp', async () => {
      // The app's public address is http://storefront.test; it listens on loopback here.
      const found = await discoverOAuthProtectedResourceMetadata(url);
      expect(found.resource).toBe(`${base}/mcp`);
      expect(found.authorization_servers).toStrictEqual([base]);
    });

    it('finds the authorization server metadata: client credentials at /oauth/token', async () => {
      const found = await discoverAuthorizationServerMetadata(new URL(url.origin));
      expect(found?.token_endpoint).toBe(`${base}/oauth/token`);
      expect(found?.grant_types_supported).toStrictEqual(['client_credentials']);
    });
  });
});
