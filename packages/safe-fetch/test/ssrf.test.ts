import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAllowList } from '../src/allow-list.js';
import { createConnector } from '../src/connector.js';
import {
  checkUrl,
  createFetcher,
  type Fetcher,
  type LookupFunction,
  MAX_URL_LENGTH,
} from '../src/index.js';
import { type Fixture, openSockets, startHttpFixture } from './fixture-server.js';

/** A resolver that answers from a table and fails everything else with ENOTFOUND. */
function stubLookup(
  table: Record<string, readonly string[]>,
  calls: string[] = [],
): LookupFunction {
  return (hostname, _options, callback) => {
    calls.push(hostname);
    const answers = table[hostname];
    setImmediate(() => {
      if (answers === undefined) {
        const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
        });
        callback(error, []);
        return;
      }
      callback(
        null,
        answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    });
  };
}

let fixture: Fixture;
/** A loopback server nothing may reach; every test here ends with zero connections to it. */
let canary: Fixture;
let fetcher: Fetcher;
const lookupCalls: string[] = [];

beforeAll(async () => {
  fixture = await startHttpFixture({
    '/': (req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`host=${req.headers.host}`);
    },
  });
  canary = await startHttpFixture({ '/': (_req, res) => res.end('canary reached') });
  fetcher = createFetcher({
    testOnlyAllow: fixture.allow,
    timeoutMs: 2000,
    lookup: stubLookup(
      {
        'fixture.test': ['127.0.0.1'],
        'public.test': ['93.184.216.34'],
        'mixed.test': ['93.184.216.34', '127.0.0.1'],
        'mixed6.test': ['2606:4700::1111', '::1'],
        'metadata.test': ['169.254.169.254'],
        'mapped.test': ['::ffff:127.0.0.1'],
        'compat.test': ['::8.8.8.8'],
        'empty.test': [],
      },
      lookupCalls,
    ),
  });
});

afterAll(async () => {
  await fetcher.close();
  expect(canary.connections).toBe(0);
  await fixture.close();
  await canary.close();
  expect(await openSockets()).toStrictEqual([]);
});

describe('URL checks before any connection', () => {
  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'gopher://example.com/',
    'ws://example.com/',
  ])('refuses the scheme of %s as invalid_url', async (url) => {
    const result = await fetcher.fetch(url);
    expect(result).toMatchObject({ ok: false, error: 'invalid_url', redirects: [] });
    if (!result.ok) expect(result.message).toMatch(/http or https/);
  });

  it.each(['not a url', '/relative/path', '', 'http://', 'http://exa mple.com/'])(
    'refuses the unparseable %j as invalid_url',
    async (url) => {
      expect(await fetcher.fetch(url)).toMatchObject({ ok: false, error: 'invalid_url' });
    },
  );

  it('refuses userinfo as invalid_url without repeating the credentials', async () => {
    const result = await fetcher.fetch('http://user:s3cret@example.com/');
    expect(result).toMatchObject({ ok: false, error: 'invalid_url' });
    expect(JSON.stringify(result)).not.toContain('s3cret');
    expect(await fetcher.fetch('https://user@example.com/')).toMatchObject({
      error: 'invalid_url',
    });
  });

  it('refuses URLs longer than 2048 characters as invalid_url', async () => {
    const url = `http://example.com/${'a'.repeat(MAX_URL_LENGTH)}`;
    const result = await fetcher.fetch(url);
    expect(result).toMatchObject({ ok: false, error: 'invalid_url' });
    if (!result.ok) expect(result.message).toContain('2048');
    // Normalisation can lengthen a URL (spaces become %20); the parsed length counts too.
    const spaced = `http://example.com/${' x'.repeat(700)}`;
    expect(spaced.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
    expect(await fetcher.fetch(spaced)).toMatchObject({ error: 'invalid_url' });
  });

  it.each([
    'http://localhost/',
    'http://LOCALHOST:8080/',
    'http://localhost./',
    'http://api.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/computeMetadata/v1/',
  ])('refuses the local name in %s as blocked_ssrf with a clear message', async (url) => {
    const result = await fetcher.fetch(url);
    expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf' });
    if (!result.ok) expect(result.message).toMatch(/local and internal names/);
  });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://0x7f.1/', '127.0.0.1'],
  ])('normalises the IPv4 spelling %s and refuses it as blocked_ssrf', async (url, ip) => {
    const result = await fetcher.fetch(url);
    expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf', url: `http://${ip}/` });
  });

  it.each([
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '[::1]',
    '[::]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:169.254.169.254]',
    '[fd00:ec2::254]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    '[2001::1]',
    '[fe80::1]',
  ])('refuses the IPv6 literal %s as blocked_ssrf', async (host) => {
    expect(await fetcher.fetch(`http://${host}/`)).toMatchObject({
      ok: false,
      error: 'blocked_ssrf',
    });
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://168.63.129.16/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://198.18.0.1/',
  ])('refuses the private, metadata or special address in %s as blocked_ssrf', async (url) => {
    expect(await fetcher.fetch(url)).toMatchObject({ ok: false, error: 'blocked_ssrf' });
  });

  it.each([
    'http://example.com:22/',
    'http://example.com:6379/',
    'https://example.com:8000/',
    'http://93.184.216.34:25/',
  ])('refuses the port of %s as blocked_ssrf', async (url) => {
    const result = await fetcher.fetch(url);
    expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf' });
    if (!result.ok) expect(result.message).toMatch(/^Port `\d+` is not allowed/);
  });

  it('answers checkUrl the same way, with the default ports', () => {
    expect(checkUrl('https://example.com/a?b#c')).toMatchObject({ ok: true });
    expect(checkUrl('http://example.com:8443/')).toMatchObject({ ok: true });
    expect(checkUrl('http://example.com:3000/')).toMatchObject({ error: 'blocked_ssrf' });
    expect(checkUrl('http://example.com:3000/', { allowedPorts: [3000] })).toMatchObject({
      ok: true,
    });
    expect(checkUrl('ftp://example.com/')).toMatchObject({ error: 'invalid_url' });
    expect(checkUrl('http://[::ffff:7f00:1]/')).toMatchObject({ error: 'blocked_ssrf' });
    expect(checkUrl(42 as unknown as string)).toMatchObject({ error: 'invalid_url' });
  });
});

describe('address check at connect time', () => {
  it('refuses a name when any of its answers is not public (mixed DNS answer)', async () => {
    const result = await fetcher.fetch('http://mixed.test/');
    expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf', url: 'http://mixed.test/' });
    // The resolved address stays out of the message.
    if (!result.ok) {
      expect(result.message).toBe(
        'Refused to connect to `mixed.test`: it resolves to a loopback address',
      );
    }
    expect(await fetcher.fetch('https://mixed6.test/')).toMatchObject({ error: 'blocked_ssrf' });
  });

  it.each([
    ['metadata.test', 'a cloud metadata address'],
    ['mapped.test', 'a loopback address'],
    ['compat.test', 'an IPv4-compatible IPv6 address'],
  ])('refuses %s, which resolves to %s', async (host, words) => {
    const result = await fetcher.fetch(`http://${host}/`);
    expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf' });
    if (!result.ok) expect(result.message).toContain(words);
  });

  it('refuses a name that resolves to a listening loopback server, which sees no connection', async () => {
    const calls: string[] = [];
    const local = createFetcher({
      allowedPorts: [canary.port],
      lookup: stubLookup({ 'rebind.test': ['127.0.0.1'] }, calls),
    });
    try {
      const result = await local.fetch(`http://rebind.test:${canary.port}/`);
      expect(result).toMatchObject({ ok: false, error: 'blocked_ssrf' });
      expect(calls).toStrictEqual(['rebind.test']);
      expect(canary.connections).toBe(0);
    } finally {
      await local.close();
    }
  });

  it('refuses the fixture itself when no allowlist is given', async () => {
    const plain = createFetcher({ allowedPorts: [fixture.port] });
    try {
      const before = fixture.connections;
      expect(await plain.fetch(fixture.url())).toMatchObject({ ok: false, error: 'blocked_ssrf' });
      expect(fixture.connections).toBe(before);
    } finally {
      await plain.close();
    }
  });

  it('connects to the checked address only, keeping the name in the Host header', async () => {
    lookupCalls.length = 0;
    const result = await fetcher.fetch(`http://fixture.test:${fixture.port}/`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(new TextDecoder().decode(result.doc.bytes)).toBe(`host=fixture.test:${fixture.port}`);
    // One lookup per connection: the socket goes to the address that was checked.
    expect(lookupCalls).toStrictEqual(['fixture.test']);
  });

  it('opens exactly the allowlisted pair: the same port on another loopback address is refused', async () => {
    expect(await fetcher.fetch(`http://127.0.0.2:${fixture.port}/`)).toMatchObject({
      ok: false,
      error: 'blocked_ssrf',
    });
    expect(await fetcher.fetch(`http://[::1]:${fixture.port}/`)).toMatchObject({
      error: 'blocked_ssrf',
    });
  });

  it('maps a name with no answers, or an ENOTFOUND, to dns_failure', async () => {
    const missing = await fetcher.fetch('http://nope.invalid/');
    expect(missing).toMatchObject({ ok: false, error: 'dns_failure', url: 'http://nope.invalid/' });
    if (!missing.ok)
      expect(missing.message).toBe('Host `nope.invalid` did not resolve (ENOTFOUND)');
    expect(await fetcher.fetch('http://empty.test/')).toMatchObject({ error: 'dns_failure' });
  });

  it('treats a resolver that throws or never answers as a failure, not a crash', async () => {
    const throwing = createFetcher({
      timeoutMs: 300,
      lookup: () => {
        throw Object.assign(new Error('boom'), { code: 'EAI_FAIL' });
      },
    });
    const silent = createFetcher({ timeoutMs: 300, lookup: () => {} });
    try {
      expect(await throwing.fetch('http://a.test/')).toMatchObject({ error: 'dns_failure' });
      // The 300 ms deadline covers the lookup: a resolver that never answers ends as a timeout.
      expect(await silent.fetch('http://a.test/')).toMatchObject({ error: 'timeout' });
    } finally {
      await throwing.close();
      await silent.close();
    }
  });
});

describe('the connector on its own', () => {
  // net.connect skips lookup for IP literals, so the connector must judge literals too,
  // even if a caller skipped the early URL check.
  const connector = createConnector({
    allowedPorts: new Set([80, 443]),
    allow: createAllowList(undefined, 'test'),
    lookup: stubLookup({}),
    timeoutMs: 1000,
  });
  const connect = (hostname: string, port = '', protocol = 'http:') =>
    new Promise<Error | null>((resolve) => {
      connector({ hostname, host: hostname, port, protocol }, (error, socket) => {
        socket?.destroy();
        resolve(error);
      });
    });

  it.each(['127.0.0.1', '[::1]', '::ffff:127.0.0.1', '169.254.169.254', '10.1.2.3', '0.0.0.0'])(
    'refuses the literal %s',
    async (hostname) => {
      const error = await connect(hostname);
      expect(error).toMatchObject({ code: 'ERR_SAFE_FETCH_BLOCKED' });
    },
  );

  it('refuses ports outside the policy and protocols other than http(s)', async () => {
    expect(await connect('93.184.216.34', '22')).toMatchObject({
      message: 'Port `22` is not allowed',
    });
    expect(await connect('93.184.216.34', '80', 'ftp:')).toMatchObject({
      code: 'ERR_SAFE_FETCH_BLOCKED',
    });
  });

  it('passes resolver failures through', async () => {
    expect(await connect('nowhere.test')).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('accepts stubs that answer with one address string', async () => {
    const single = createConnector({
      allowedPorts: new Set([80]),
      allow: createAllowList(undefined, 'test'),
      lookup: ((_host: string, _options: unknown, callback: (...args: unknown[]) => void) =>
        callback(null, '127.0.0.1', 4)) as unknown as LookupFunction,
      timeoutMs: 1000,
    });
    const error = await new Promise<Error | null>((resolve) => {
      single({ hostname: 'x.test', host: 'x.test', port: '', protocol: 'http:' }, (e, socket) => {
        socket?.destroy();
        resolve(e);
      });
    });
    expect(error).toMatchObject({ code: 'ERR_SAFE_FETCH_BLOCKED' });
  });
});
