import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFetcher,
  DEFAULT_USER_AGENT,
  DRAIN_LIMIT_BYTES,
  type Fetcher,
} from '../src/index.js';
import { type Fixture, openSockets, startHttpFixture } from './fixture-server.js';

let fixture: Fixture;
let fetcher: Fetcher;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

beforeAll(async () => {
  fixture = await startHttpFixture({
    '/page': (_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('X-Custom', 'One');
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2, with comma; HttpOnly']);
      res.setHeader('Vary', ['Accept', 'Accept-Encoding']);
      res.end('<h1>Hello</h1>');
    },
    '/plain': (_req, res) => res.end('no type'),
    '/gzip': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync('decoded body'));
    },
    '/echo': (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, headers: req.headers }));
    },
    '/missing': (_req, res) => {
      res.statusCode = 404;
      res.end('gone');
    },
    '/broken': (_req, res) => {
      res.statusCode = 503;
      res.setHeader('retry-after', '120');
      res.end('later');
    },
    '/hop': (_req, res) => {
      res.writeHead(301, { location: '/page' });
      res.end();
    },
    // The head at once, then a body that never ends.
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-frame-options': 'DENY' });
      res.write('<!doctype html><p>first chunk');
    },
    // A 50 KB body that follows its head a moment later.
    '/later': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': 50_000 });
      res.flushHeaders();
      setTimeout(() => res.end('x'.repeat(50_000)), 5);
    },
    '/large': (_req, res) => {
      const body = Buffer.alloc(DRAIN_LIMIT_BYTES + 1, 'a');
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
      res.end(body);
    },
    // The head at once, then a byte every 50 ms: never idle long enough for a timer.
    '/drip': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    },
    '/to-stall': (_req, res) => {
      res.writeHead(302, { location: '/stall' });
      res.end();
    },
    '/empty-gzip': (_req, res) => {
      res.writeHead(204, { 'content-encoding': 'gzip' });
      res.end();
    },
  });
  fetcher = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 2000 });
});

afterAll(async () => {
  await fetcher.close();
  await fixture.close();
  expect(await openSockets()).toStrictEqual([]);
});

describe('success', () => {
  it('returns the document: status, lower-cased headers, content type, bytes, final URL', async () => {
    const before = Date.now();
    const result = await fetcher.fetch(fixture.url('/page'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { doc } = result;
    expect(doc.requestedUrl).toBe(fixture.url('/page'));
    expect(doc.url).toBe(fixture.url('/page'));
    expect(doc.status).toBe(200);
    expect(doc.contentType).toBe('text/html; charset=utf-8');
    expect(text(doc.bytes)).toBe('<h1>Hello</h1>');
    expect(doc.bytes).toBeInstanceOf(Uint8Array);
    expect(doc.truncated).toBe(false);
    expect(doc.redirects).toStrictEqual([]);
    expect(doc.headers['x-custom']).toBe('One');
    expect(doc.headers['content-length']).toBe('14');
    expect(Object.keys(doc.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(doc.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(doc.fetchedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(doc.fetchedAt)).toBeLessThanOrEqual(Date.now());
    expect(result.timing.totalMs).toBeGreaterThanOrEqual(result.timing.headersMs);
    expect(result.timing.bodyMs).toBeGreaterThanOrEqual(0);
  });

  it('joins repeated headers with ", " and set-cookie with a newline', async () => {
    const result = await fetcher.fetch(fixture.url('/page'));
    if (!result.ok) throw new Error(result.message);
    expect(result.doc.headers['set-cookie']).toBe('a=1; Path=/\nb=2, with comma; HttpOnly');
    expect(result.doc.headers.vary).toBe('Accept, Accept-Encoding');
  });

  it('reports a missing Content-Type as null', async () => {
    const result = await fetcher.fetch(fixture.url('/plain'));
    expect(result).toMatchObject({ ok: true, doc: { contentType: null } });
  });

  it('decodes gzip and keeps the Content-Encoding header as sent', async () => {
    const result = await fetcher.fetch(fixture.url('/gzip'));
    if (!result.ok) throw new Error(result.message);
    expect(text(result.doc.bytes)).toBe('decoded body');
    expect(result.doc.headers['content-encoding']).toBe('gzip');
  });

  it('returns an empty body with a coding header as empty bytes', async () => {
    const result = await fetcher.fetch(fixture.url('/empty-gzip'));
    expect(result).toMatchObject({ ok: true, doc: { status: 204, truncated: false } });
    if (result.ok) expect(result.doc.bytes.length).toBe(0);
  });

  it('sends the user agent, accept-encoding and the caller headers', async () => {
    const result = await fetcher.fetch(fixture.url('/echo'), {
      headers: { 'X-Trace': 'abc', Accept: 'text/html' },
    });
    if (!result.ok) throw new Error(result.message);
    const echo = JSON.parse(text(result.doc.bytes));
    expect(echo.method).toBe('GET');
    expect(echo.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(echo.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(echo.headers['x-trace']).toBe('abc');
    expect(echo.headers.accept).toBe('text/html');
    expect(echo.headers.host).toBe(`127.0.0.1:${fixture.port}`);
  });

  it('uses a configured user agent', async () => {
    const custom = createFetcher({ testOnlyAllow: fixture.allow, userAgent: 'Probe/2' });
    try {
      const result = await custom.fetch(fixture.url('/echo'));
      if (!result.ok) throw new Error(result.message);
      expect(JSON.parse(text(result.doc.bytes)).headers['user-agent']).toBe('Probe/2');
    } finally {
      await custom.close();
    }
  });

  it('sends HEAD and returns the headers with empty bytes', async () => {
    const result = await fetcher.fetch(fixture.url('/page'), { method: 'HEAD' });
    expect(result).toMatchObject({
      ok: true,
      doc: { status: 200, contentType: 'text/html; charset=utf-8', truncated: false },
    });
    if (result.ok) expect(result.doc.bytes.length).toBe(0);
    expect(fixture.seen.at(-1)?.method).toBe('HEAD');
  });

  it('follows HEAD through a redirect', async () => {
    const result = await fetcher.fetch(fixture.url('/hop'), { method: 'HEAD' });
    expect(result).toMatchObject({
      ok: true,
      doc: { status: 200, url: fixture.url('/page'), redirects: [fixture.url('/hop')] },
    });
  });
});

describe('body: false', () => {
  it('answers a GET with the head only, without waiting for the body', async () => {
    const quick = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 400 });
    try {
      // Waiting for the body would end at the 400 ms deadline as a `timeout` failure.
      const head = await quick.fetch(fixture.url('/to-stall'), { body: false });
      expect(head).toMatchObject({
        ok: true,
        doc: {
          status: 200,
          url: fixture.url('/stall'),
          redirects: [fixture.url('/to-stall')],
          contentType: 'text/html',
          truncated: false,
        },
      });
      if (!head.ok) return;
      expect(head.doc.bytes.length).toBe(0);
      expect(head.doc.headers['x-frame-options']).toBe('DENY');
      expect(fixture.seen.at(-1)?.method).toBe('GET');
      // The same page read whole never completes within the deadline.
      expect(await quick.fetch(fixture.url('/stall'))).toMatchObject({
        ok: false,
        error: 'timeout',
      });
    } finally {
      await quick.close();
    }
  });

  /** New connections that `fetches` head-only fetches of `path` opened, one after another. */
  async function headOnlyConnections(path: string, fetches: number): Promise<number> {
    const own = createFetcher({ testOnlyAllow: fixture.allow });
    try {
      const before = fixture.connections;
      for (let i = 0; i < fetches; i++) {
        const head = await own.fetch(fixture.url(path), { body: false });
        if (!head.ok) throw new Error(head.message);
        expect(head.doc.status).toBe(200);
        expect(head.doc.bytes.length).toBe(0);
        // Time for the drain to finish, so a drained connection is free again.
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      return fixture.connections - before;
    } finally {
      await own.close();
    }
  }

  it('drains a short unread body so its connection serves the next request', async () => {
    expect(await headOnlyConnections('/later', 3)).toBe(1);
  });

  it('closes the connection of an unread body longer than the drain limit', async () => {
    // One new connection per fetch at least: none is reused.
    expect(await headOnlyConnections('/large', 2)).toBeGreaterThanOrEqual(2);
  });

  it('stops draining at the fetch deadline, however slowly the body drips', async () => {
    const quick = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 300 });
    try {
      const open = fixture.open;
      expect(await quick.fetch(fixture.url('/drip'), { body: false })).toMatchObject({ ok: true });
      expect(fixture.open).toBe(open + 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(fixture.open).toBe(open);
    } finally {
      await quick.close();
    }
  });

  it('still reads the body when `body` is true', async () => {
    const result = await fetcher.fetch(fixture.url('/page'), { body: true });
    if (!result.ok) throw new Error(result.message);
    expect(text(result.doc.bytes)).toBe('<h1>Hello</h1>');
  });
});

describe('HTTP error statuses are documents, not errors', () => {
  it.each([
    ['/missing', 404, 'gone'],
    ['/broken', 503, 'later'],
  ])('returns %s as a document with status %i', async (path, status, body) => {
    const result = await fetcher.fetch(fixture.url(path));
    expect(result).toMatchObject({ ok: true, doc: { status } });
    if (result.ok) expect(text(result.doc.bytes)).toBe(body);
  });

  it('keeps the headers of an error answer', async () => {
    const result = await fetcher.fetch(fixture.url('/broken'));
    expect(result).toMatchObject({ ok: true, doc: { headers: { 'retry-after': '120' } } });
  });
});
