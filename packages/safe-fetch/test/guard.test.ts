import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createConnectGuard, type LookupFunction } from '../src/index.js';

/** A resolver answering from a table; names not in it do not resolve. */
function table(answers: Record<string, readonly string[]>): LookupFunction {
  return (hostname, _options, callback) => {
    const found = answers[hostname];
    if (found === undefined) {
      callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
      return;
    }
    const addresses: LookupAddress[] = found.map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    callback(null, addresses);
  };
}

const lookup = table({
  'public.example': ['93.184.215.14'],
  'mixed.example': ['93.184.215.14', '127.0.0.1'],
  'private.example': ['10.0.0.1'],
  'v6.example': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'loop.example': ['127.0.0.1'],
});

describe('createConnectGuard', () => {
  it('gives the one checked address of a public name', async () => {
    const guard = createConnectGuard({ lookup });
    expect(await guard.check('public.example', 443)).toStrictEqual({
      ok: true,
      address: '93.184.215.14',
      family: 4,
    });
    expect(await guard.check('v6.example', 443)).toMatchObject({ ok: true, family: 6 });
  });

  it('refuses exactly what the fetcher refuses: private answers, mixed answers, local names, literals, ports', async () => {
    const guard = createConnectGuard({ lookup });
    for (const [host, port] of [
      ['private.example', 443],
      ['mixed.example', 443],
      ['localhost', 443],
      ['db.internal', 443],
      ['127.0.0.1', 443],
      ['169.254.169.254', 443],
      ['public.example', 22],
    ] as const) {
      expect([host, port, (await guard.check(host, port)).ok]).toStrictEqual([host, port, false]);
      expect(await guard.check(host, port)).toMatchObject({ error: 'blocked_ssrf' });
    }
    // The resolved address never appears in the message.
    const refused = await guard.check('private.example', 443);
    expect(refused).toMatchObject({ message: expect.stringContaining('a private address') });
    expect(JSON.stringify(refused)).not.toContain('10.0.0.1');
  });

  it('fails a name that does not resolve as dns_failure', async () => {
    const guard = createConnectGuard({ lookup });
    expect(await guard.check('missing.example', 443)).toMatchObject({ error: 'dns_failure' });
  });

  it('opens an allowlisted loopback pair, and only on its port', async () => {
    const guard = createConnectGuard({ lookup, testOnlyAllow: '127.0.0.1:44300' });
    expect(await guard.check('loop.example', 44300)).toMatchObject({
      ok: true,
      address: '127.0.0.1',
    });
    expect(await guard.check('127.0.0.1', 44300)).toMatchObject({ ok: true });
    expect(await guard.check('loop.example', 44301)).toMatchObject({ error: 'blocked_ssrf' });
  });

  it('bounds a resolver that never answers', async () => {
    const guard = createConnectGuard({ lookup: () => {}, timeoutMs: 20 });
    expect(await guard.check('public.example', 443)).toMatchObject({ error: 'timeout' });
  });
});
