import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, DEFAULT_MAX_REDIRECTS, type Fetcher } from '../src/index.js';
import { type Fixture, openSockets, startHttpFixture } from './fixture-server.js';

let fixture: Fixture;
/** A second loopback server that only a redirect would reach; it must never be reached. */
let canary: Fixture;
let fetcher: Fetcher;

function redirect(location: string | string[], status = 302) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.statusCode = status;
    res.setHeader('location', location);
    res.end('moved');
  };
}

beforeAll(async () => {
  canary = await startHttpFixture({ '/': (_req, res) => res.end('canary reached') });
  const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
    '/final': (_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('final');
    },
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/self': redirect('/self?'),
    '/dripping-redirect': (_req, res) => {
      res.writeHead(302, { location: '/final' });
      res.flushHeaders();
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
    },
    '/self-exact': redirect('/self-exact'),
    '/no-location': (_req, res) => {
      res.statusCode = 302;
      res.end('no location');
    },
    '/multiple-choices': redirect('/final', 300),
    '/not-modified': redirect('/final', 304),
    '/two-locations': redirect(['/final', '/elsewhere']),
    '/bad-location': redirect('http://[oops/'),
    '/relative': redirect('../final#frag', 307),
    '/with-credentials': redirect('/echo'),
    '/echo': (req, res) => res.end(JSON.stringify(req.headers)),
    '/to-canary': (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` });
      res.end();
    },
  };
  // /chain/N redirects N more times, then lands on /final.
  for (let n = 0; n <= 12; n++) {
    routes[`/chain/${n}`] = redirect(
      n === 0 ? '/final' : `/chain/${n - 1}`,
      [301, 302, 303, 307, 308][n % 5],
    );
  }
  // Redirects to every kind of forbidden target.
  for (const [name, location] of FORBIDDEN) routes[`/to/${name}`] = redirect(location);
  fixture = await startHttpFixture(routes);
  fetcher = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 2000 });
});

afterAll(async () => {
  await fetcher.close();
  expect(canary.connections).toBe(0);
  await fixture.close();
  await canary.close();
  expect(await openSockets()).toStrictEqual([]);
});

const FORBIDDEN: ReadonlyArray<readonly [name: string, location: string]> = [
  ['loopback-80', 'http://127.0.0.1/'],
  ['localhost', 'http://localhost/'],
  ['ipv6-loopback', 'http://[::1]/'],
  ['ipv4-mapped', 'http://[::ffff:127.0.0.1]/'],
  ['metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['private-10', 'http://10.0.0.1/'],
  ['private-192', 'http://192.168.1.1/'],
  ['cgnat', 'http://100.64.0.1/'],
  ['metadata-v6', 'http://[fd00:ec2::254]/'],
  ['unspecified', 'http://0.0.0.0/'],
  ['nat64', 'http://[64:ff9b::7f00:1]/'],
  ['6to4', 'http://[2002:7f00:1::]/'],
  ['decimal', 'http://2130706433/'],
  ['file', 'file:///etc/passwd'],
  ['gopher', 'gopher://127.0.0.1:6379/_INFO'],
  ['userinfo', 'http://user:pass@example.com/'],
];

describe('redirects', () => {
  it(`follows exactly ${DEFAULT_MAX_REDIRECTS} redirects and reports the chain`, async () => {
    const result = await fetcher.fetch(fixture.url('/chain/9'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const chain = Array.from({ length: 10 }, (_, i) => fixture.url(`/chain/${9 - i}`));
    expect(result.doc.redirects).toStrictEqual(chain);
    expect(result.doc.url).toBe(fixture.url('/final'));
    expect(result.doc.requestedUrl).toBe(fixture.url('/chain/9'));
    expect(new TextDecoder().decode(result.doc.bytes)).toBe('final');
  });

  it('fails the 11th redirect with too_many_redirects', async () => {
    const result = await fetcher.fetch(fixture.url('/chain/10'));
    expect(result).toMatchObject({
      ok: false,
      error: 'too_many_redirects',
      status: 301,
      message: 'Stopped after 10 redirects',
      url: fixture.url('/final'),
    });
    if (!result.ok) expect(result.redirects).toHaveLength(11);
  });

  it('honours a smaller maxRedirects, and 0 means none', async () => {
    const strict = createFetcher({ testOnlyAllow: fixture.allow, maxRedirects: 0 });
    try {
      expect(await strict.fetch(fixture.url('/chain/0'))).toMatchObject({
        error: 'too_many_redirects',
      });
      expect(await strict.fetch(fixture.url('/final'))).toMatchObject({ ok: true });
    } finally {
      await strict.close();
    }
  });

  it('fails a loop with redirect_loop', async () => {
    const result = await fetcher.fetch(fixture.url('/loop-a'));
    expect(result).toMatchObject({
      ok: false,
      error: 'redirect_loop',
      status: 302,
      url: fixture.url('/loop-a'),
      redirects: [fixture.url('/loop-a'), fixture.url('/loop-b')],
    });
    expect(await fetcher.fetch(fixture.url('/self-exact'))).toMatchObject({
      error: 'redirect_loop',
    });
    // `/self` sends `/self?`, a different URL, which then redirects to itself.
    expect(await fetcher.fetch(fixture.url('/self'))).toMatchObject({
      error: 'redirect_loop',
      redirects: [fixture.url('/self'), fixture.url('/self?')],
    });
  });

  it('treats a URL that differs only by its fragment as visited', async () => {
    const result = await fetcher.fetch(`${fixture.url('/loop-a')}#start`);
    expect(result).toMatchObject({ error: 'redirect_loop' });
  });

  it('drops the body of a redirect without reading it, even one that never ends', async () => {
    // Reading the redirect's body would end at the fetch deadline as a `timeout` failure.
    const result = await fetcher.fetch(fixture.url('/dripping-redirect'));
    expect(result).toMatchObject({ ok: true, doc: { url: fixture.url('/final') } });
  });

  it('returns a redirect status without Location as the document', async () => {
    const result = await fetcher.fetch(fixture.url('/no-location'));
    expect(result).toMatchObject({ ok: true, doc: { status: 302, redirects: [] } });
    if (result.ok) expect(new TextDecoder().decode(result.doc.bytes)).toBe('no location');
  });

  it.each([
    ['/multiple-choices', 300],
    ['/not-modified', 304],
  ])('does not follow %s (status %i)', async (path, status) => {
    expect(await fetcher.fetch(fixture.url(path))).toMatchObject({ ok: true, doc: { status } });
  });

  it('resolves a relative Location against the current URL', async () => {
    const result = await fetcher.fetch(fixture.url('/relative'));
    expect(result).toMatchObject({
      ok: true,
      doc: { url: `${fixture.url('/final')}#frag`, redirects: [fixture.url('/relative')] },
    });
  });

  it('fails several Location headers with protocol_error', async () => {
    expect(await fetcher.fetch(fixture.url('/two-locations'))).toMatchObject({
      ok: false,
      error: 'protocol_error',
      status: 302,
    });
  });

  it('fails an unparseable Location with invalid_url', async () => {
    expect(await fetcher.fetch(fixture.url('/bad-location'))).toMatchObject({
      ok: false,
      error: 'invalid_url',
      status: 302,
      redirects: [fixture.url('/bad-location')],
    });
  });

  it('never forwards credentials to the next hop', async () => {
    const result = await fetcher.fetch(fixture.url('/with-credentials'), {
      headers: { Authorization: 'Bearer secret', Cookie: 'session=1', 'X-Keep': 'yes' },
    });
    if (!result.ok) throw new Error(result.message);
    const seenFirst = fixture.seen.find((r) => r.url === '/with-credentials');
    expect(seenFirst?.headers.authorization).toBe('Bearer secret');
    const echoed = JSON.parse(new TextDecoder().decode(result.doc.bytes));
    expect(echoed.authorization).toBeUndefined();
    expect(echoed.cookie).toBeUndefined();
    expect(echoed['x-keep']).toBe('yes');
  });
});

describe('redirects to forbidden targets', () => {
  it('refuses a redirect from the allowed fixture to another loopback port', async () => {
    const result = await fetcher.fetch(fixture.url('/to-canary'));
    expect(result).toMatchObject({
      ok: false,
      error: 'blocked_ssrf',
      status: 302,
      url: `http://127.0.0.1:${canary.port}/`,
      redirects: [fixture.url('/to-canary')],
    });
    if (!result.ok) expect(result.message).toMatch(/Port `\d+` is not allowed/);
  });

  it.each(FORBIDDEN)('refuses a redirect to %s (%s)', async (name, location) => {
    const result = await fetcher.fetch(fixture.url(`/to/${name}`));
    const expected = ['file', 'gopher', 'userinfo'].includes(name) ? 'invalid_url' : 'blocked_ssrf';
    expect(result).toMatchObject({
      ok: false,
      error: expected,
      status: 302,
      redirects: [fixture.url(`/to/${name}`)],
    });
    if (!result.ok) expect(result.message).toMatch(/^Redirect refused: /);
    if (name !== 'userinfo') expect(result).toHaveProperty('url', new URL(location).href);
  });
});
