import { StorefrontError } from '@storefront/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAllowList } from '../src/allow-list.js';
import { createFetcher, parseAllowList } from '../src/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('parseAllowList', () => {
  it('reads comma- and space-separated host:port pairs, IPv6 in brackets', () => {
    expect(parseAllowList('127.0.0.1:43123,[::1]:43124  127.0.0.2:50000,\n')).toStrictEqual([
      { ip: '127.0.0.1', port: 43123 },
      { ip: '::1', port: 43124 },
      { ip: '127.0.0.2', port: 50000 },
    ]);
    expect(parseAllowList('')).toStrictEqual([]);
    expect(parseAllowList(' , ')).toStrictEqual([]);
  });

  it('normalises IPv6 spellings', () => {
    expect(parseAllowList('[0:0:0:0:0:0:0:1]:2000')).toStrictEqual([{ ip: '::1', port: 2000 }]);
  });

  it.each([
    ['10.0.0.1:43123', 'loopback'],
    ['8.8.8.8:43123', 'loopback'],
    ['localhost:43123', 'loopback'],
    ['[::ffff:127.0.0.1]:43123', 'loopback'],
    ['0.0.0.0:43123', 'loopback'],
    ['127.0.0.1', 'like'],
    ['127.0.0.1:', 'like'],
    ['127.0.0.1:*', 'like'],
    ['127.0.0.0/8:43123', 'loopback'],
    ['::1:43123', 'like'],
    ['[127.0.0.1]:43123', 'IPv6'],
    ['127.0.0.1:80', '1024 to 65535'],
    ['127.0.0.1:1023', '1024 to 65535'],
    ['127.0.0.1:65536', '1024 to 65535'],
    ['127.0.0.1:0', '1024 to 65535'],
  ])('refuses %s', (value, words) => {
    expect(() => parseAllowList(value)).toThrow(StorefrontError);
    expect(() => parseAllowList(value)).toThrow(words);
  });
});

describe('the allowlist given to createFetcher', () => {
  it('accepts entries as objects or as the SAFE_FETCH_ALLOW string', async () => {
    await createFetcher({ testOnlyAllow: [{ ip: '127.0.0.1', port: 43123 }] }).close();
    await createFetcher({ testOnlyAllow: '127.0.0.1:43123' }).close();
  });

  it.each([
    [{ ip: '192.168.1.10', port: 43123 }],
    [{ ip: 'localhost', port: 43123 }],
    [{ ip: '127.0.0.1', port: 443 }],
    [{ ip: '127.0.0.1', port: 43123.5 }],
    [{ ip: '::1', port: '43123' }],
    [null],
  ])('throws for the entry %j', (entry) => {
    expect(() => createFetcher({ testOnlyAllow: [entry as never] })).toThrow(StorefrontError);
  });

  it('throws when NODE_ENV is production and the list is not empty', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(() => createFetcher({ testOnlyAllow: '127.0.0.1:43123' })).toThrow(
      'Expected no `testOnlyAllow` entries when `NODE_ENV` is `production`, got 1',
    );
    expect(() => createFetcher({ testOnlyAllow: [{ ip: '127.0.0.1', port: 43123 }] })).toThrow(
      StorefrontError,
    );
  });

  it('allows an empty list in production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    await createFetcher({ testOnlyAllow: '' }).close();
    await createFetcher({ testOnlyAllow: [] }).close();
    await createFetcher().close();
  });

  it('matches exact resolved (IP, port) pairs only', () => {
    const allow = createAllowList('127.0.0.1:43123 [::1]:43124', 'test');
    expect(allow.has('127.0.0.1', 43123)).toBe(true);
    expect(allow.has('0:0:0:0:0:0:0:1', 43124)).toBe(true);
    expect(allow.has('127.0.0.1', 43124)).toBe(false);
    expect(allow.has('127.0.0.2', 43123)).toBe(false);
    expect(allow.has('::ffff:127.0.0.1', 43123)).toBe(false);
    expect(allow.has('not an ip', 43123)).toBe(false);
    expect(allow.hasPort(43124)).toBe(true);
    expect(allow.hasPort(80)).toBe(false);
  });
});
