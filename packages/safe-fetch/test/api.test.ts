import { readFileSync } from 'node:fs';
import {
  UPSTREAM_ERROR_CODES as CORE_UPSTREAM_ERROR_CODES,
  StorefrontError,
  URL_MAX_CHARS,
} from '@storefront/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  createFetcher,
  DEFAULT_ALLOWED_PORTS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  DRAIN_LIMIT_BYTES,
  type Fetcher,
  MAX_URL_LENGTH,
  UPSTREAM_ERROR_CODES,
  type UpstreamErrorCode,
} from '../src/index.js';
import { closedPort, type Fixture, openSockets, startHttpFixture } from './fixture-server.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'DEFAULT_ALLOWED_PORTS',
      'DEFAULT_MAX_BODY_BYTES',
      'DEFAULT_MAX_REDIRECTS',
      'DEFAULT_TIMEOUT_MS',
      'DEFAULT_USER_AGENT',
      'DRAIN_LIMIT_BYTES',
      'MAX_URL_LENGTH',
      'UPSTREAM_ERROR_CODES',
      'checkUrl',
      'classifyAddress',
      'createConnectGuard',
      'createFetcher',
      'parseAllowList',
    ]);
  });

  it('has the documented defaults', () => {
    expect(DEFAULT_ALLOWED_PORTS).toStrictEqual([80, 443, 8080, 8443]);
    expect(Object.isFrozen(DEFAULT_ALLOWED_PORTS)).toBe(true);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
    expect(DEFAULT_TIMEOUT_MS).toBe(5000);
    expect(DEFAULT_MAX_REDIRECTS).toBe(10);
    expect(MAX_URL_LENGTH).toBe(2048);
    expect(DRAIN_LIMIT_BYTES).toBe(128 * 1024);
    expect(DEFAULT_USER_AGENT).toBe('Storefront/1 (+https://storefront.example/bot)');
  });

  it('takes its codes and its URL limit from core', () => {
    expect(UPSTREAM_ERROR_CODES).toStrictEqual([
      ...CORE_UPSTREAM_ERROR_CODES.filter(
        (code) => code !== 'body_too_large' && code !== 'upstream_http_error',
      ),
      'internal_error',
    ]);
    expect(Object.isFrozen(UPSTREAM_ERROR_CODES)).toBe(true);
    expect(MAX_URL_LENGTH).toBe(URL_MAX_CHARS);
  });

  it('documents every error code in the README table, and no other', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Error codes'), readme.indexOf('## Limits'));
    const documented = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(documented).toStrictEqual([...UPSTREAM_ERROR_CODES]);
  });
});

describe('misuse throws StorefrontError', () => {
  it.each([
    [{ timeoutMs: 0 }],
    [{ timeoutMs: 1.5 }],
    [{ timeoutMs: '5000' }],
    [{ maxBodyBytes: 0 }],
    [{ maxBodyBytes: 2 ** 31 }],
    [{ maxRedirects: -1 }],
    [{ maxRedirects: 21 }],
    [{ allowedPorts: [0] }],
    [{ allowedPorts: '80' }],
    [{ userAgent: '' }],
    [{ userAgent: 'a\r\nx-injected: 1' }],
    [{ lookup: 'dns' }],
    [{ timeout: 5000 }],
    [{ testOnlyAllow: 42 }],
  ])('for the options %j', (options) => {
    expect(() => createFetcher(options as never)).toThrow(StorefrontError);
  });

  it('for options that are not an object', () => {
    expect(() => createFetcher(null as never)).toThrow(
      'Expected options to be an object, got `null`',
    );
  });

  it('for bad per-request options, and for a closed fetcher', async () => {
    const fetcher = createFetcher();
    await expect(fetcher.fetch('http://a.example/', { method: 'PUT' as never })).rejects.toThrow(
      'Expected `method` to be `GET`, `HEAD` or `POST`, got `PUT`',
    );
    await expect(fetcher.fetch('http://a.example/', { body: 'no' as never })).rejects.toThrow(
      'Expected `body` to be a boolean, got `string`',
    );
    await expect(
      fetcher.fetch('http://a.example/', { headers: { Host: 'evil.example' } }),
    ).rejects.toThrow('Header `host` is set by the fetcher and cannot be given');
    await expect(
      fetcher.fetch('http://a.example/', { headers: { 'accept-encoding': 'zstd' } }),
    ).rejects.toBeInstanceOf(StorefrontError);
    await expect(
      fetcher.fetch('http://a.example/', { headers: { 'x-a': 'b\r\nx-b: c' } }),
    ).rejects.toBeInstanceOf(StorefrontError);
    await expect(
      fetcher.fetch('http://a.example/', { headers: { 'bad name': 'x' } }),
    ).rejects.toBeInstanceOf(StorefrontError);
    await expect(fetcher.fetch('http://a.example/', { timeoutMs: 0 })).rejects.toThrow(
      'Expected `timeoutMs` to be a positive integer, got `0`',
    );
    await fetcher.close();
    await fetcher.close();
    await expect(fetcher.fetch('http://a.example/')).rejects.toThrow(
      'Expected an open fetcher, got one that was closed',
    );
  });
});

describe('every upstream error code can be produced', () => {
  let fixture: Fixture;
  let fetcher: Fetcher;
  let dead: number;

  beforeAll(async () => {
    fixture = await startHttpFixture({
      '/loop': (_req, res) => {
        res.writeHead(302, { location: '/loop' });
        res.end();
      },
      '/hop': (req, res) => {
        const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
        res.writeHead(302, { location: `/hop?n=${n + 1}` });
        res.end();
      },
      '/hang': () => {},
      '/reset': (req) => req.socket.destroy(),
      '/chained': (_req, res) => {
        res.writeHead(200, { 'content-encoding': 'br, br' });
        res.end();
      },
    });
    dead = await closedPort();
    fetcher = createFetcher({
      testOnlyAllow: `${fixture.allow},127.0.0.1:${dead}`,
      timeoutMs: 300,
      lookup: (hostname, _options, callback) => {
        if (hostname === 'gone.test') {
          callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
        } else if (hostname === 'broken.test') {
          callback(new Error('resolver exploded'), []);
        } else {
          callback(null, [{ address: '127.0.0.1', family: 4 }]);
        }
      },
    });
  });

  afterAll(async () => {
    await fetcher.close();
    await fixture.close();
    expect(await openSockets()).toStrictEqual([]);
  });

  const scenarios: Record<UpstreamErrorCode, () => string> = {
    invalid_url: () => 'ftp://example.com/',
    blocked_ssrf: () => 'http://127.0.0.1/',
    dns_failure: () => 'http://gone.test/',
    timeout: () => fixture.url('/hang'),
    connection_refused: () => `http://127.0.0.1:${dead}/`,
    connection_reset: () => fixture.url('/reset'),
    tls_error: () => `https://127.0.0.1:${fixture.port}/`,
    protocol_error: () => fixture.url('/chained'),
    redirect_loop: () => fixture.url('/loop'),
    too_many_redirects: () => fixture.url('/hop?n=0'),
    internal_error: () => 'http://broken.test/',
  };

  it.each(UPSTREAM_ERROR_CODES.map((code) => [code]))('produces %s', async (code) => {
    const result = await fetcher.fetch(scenarios[code]());
    expect(result).toMatchObject({ ok: false, error: code });
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });
});
