import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  checkUrl,
  classifyAddress,
  createFetcher,
  type Fetcher,
  type SafeFetchResult,
  UPSTREAM_ERROR_CODES,
} from '../src/index.js';
import { type Fixture, openSockets, startHttpFixture } from './fixture-server.js';

let fixture: Fixture;
let fetcher: Fetcher;

beforeAll(async () => {
  fixture = await startHttpFixture({
    // Answers with whatever the query asks for: status, Location, coding and body.
    '/echo': (req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      try {
        res.statusCode = Number(query.get('status')) || 200;
        const location = query.get('location');
        if (location !== null) res.setHeader('location', location);
        const coding = query.get('coding');
        if (coding !== null) res.setHeader('content-encoding', coding);
        res.end(Buffer.from(query.get('body') ?? '', 'base64'));
      } catch {
        // Node refuses some header values; answering 400 keeps the run going.
        res.statusCode = 400;
        res.removeHeader('location');
        res.removeHeader('content-encoding');
        res.end();
      }
    },
  });
  fetcher = createFetcher({
    testOnlyAllow: fixture.allow,
    timeoutMs: 1000,
    maxBodyBytes: 4096,
    // No port is allowed, so nothing but the allowlisted fixture can be contacted, even
    // when a generated URL names a public IP literal.
    allowedPorts: [],
    // Names resolve to loopback (refused) or not at all; nothing is asked of real DNS.
    lookup: (hostname, _options, callback) => {
      if (hostname.length % 2 === 0) {
        callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
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

function expectWellFormed(result: SafeFetchResult): void {
  expect(Array.isArray(result.ok ? result.doc.redirects : result.redirects)).toBe(true);
  if (!result.ok) {
    expect(UPSTREAM_ERROR_CODES).toContain(result.error);
    expect(result.message.length).toBeGreaterThan(0);
  }
}

const budget = { numRuns: 200, interruptAfterTimeLimit: 4000 };

const urlLike = fc.oneof(
  fc.string(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'ftp://', 'file://', 'HTTP://', '//', 'http:\\\\'),
      fc.string(),
    )
    .map(([scheme, rest]) => scheme + rest),
  fc.ipV4().map((ip) => `http://${ip}/`),
  fc.ipV6().map((ip) => `http://[${ip}]/`),
  fc.ipV4Extended().map((ip) => `http://${ip}:8080/`),
);

describe('fetch is total', () => {
  test.prop([urlLike], budget)('never rejects for an arbitrary URL string', async (url) => {
    expectWellFormed(await fetcher.fetch(url));
  });

  test.prop(
    [
      fc.record({
        status: fc.constantFrom(200, 204, 301, 302, 303, 307, 308, 404, 500),
        location: fc.option(fc.oneof(fc.string(), fc.webUrl()), { nil: undefined }),
        coding: fc.option(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'gzip, br', 'x'), {
          nil: undefined,
        }),
        body: fc.uint8Array({ maxLength: 64 }),
      }),
    ],
    budget,
  )('never rejects whatever the target answers', async ({ status, location, coding, body }) => {
    const query = new URLSearchParams({
      status: String(status),
      body: Buffer.from(body).toString('base64'),
    });
    if (location !== undefined) query.set('location', location);
    if (coding !== undefined) query.set('coding', coding);
    expectWellFormed(await fetcher.fetch(fixture.url(`/echo?${query}`)));
  });
});

describe('address and URL checks are total', () => {
  test.prop([fc.string()])('classifyAddress never throws', (value) => {
    const range = classifyAddress(value);
    expect(range === null || typeof range === 'string').toBe(true);
  });

  test.prop([fc.ipV4()])('judges an IPv4 address and its IPv4-mapped form alike', (ip) => {
    expect(classifyAddress(`::ffff:${ip}`)).toBe(classifyAddress(ip));
  });

  test.prop([fc.ipV6()])('classifies every IPv6 address without throwing', (ip) => {
    const range = classifyAddress(ip);
    expect(range === null || typeof range === 'string').toBe(true);
  });

  test.prop([urlLike])('checkUrl never throws', (url) => {
    const check = checkUrl(url);
    expect(typeof check.ok).toBe('boolean');
  });
});
