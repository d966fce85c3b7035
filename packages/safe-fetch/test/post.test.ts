import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../src/index.js';
import { type Fixture, startHttpFixture } from './fixture-server.js';

// POST, for webhook deliveries: the payload goes out through the same guard, and a
// redirect is the answer, never followed.

let fixture: Fixture;
let fetcher: Fetcher;

beforeAll(async () => {
  fixture = await startHttpFixture({
    '/hook': (req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] }));
      });
    },
    '/moved': (_req, res) => {
      res.writeHead(307, { location: '/hook' });
      res.end();
    },
  });
  fetcher = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 2000 });
});
afterAll(async () => {
  await fetcher.close();
  await fixture.close();
});

describe('POST', () => {
  it('sends the payload and its headers, and reads the answer', async () => {
    const result = await fetcher.fetch(fixture.url('/hook'), {
      method: 'POST',
      payload: '{"a":1}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.parse(new TextDecoder().decode(result.doc.bytes))).toEqual({
      method: 'POST',
      body: '{"a":1}',
      type: 'application/json',
    });
    expect(fixture.seen.at(-1)?.headers['webhook-id']).toBe('msg_1');
  });

  it('answers with a redirect instead of sending the payload elsewhere', async () => {
    const before = fixture.seen.length;
    const result = await fetcher.fetch(fixture.url('/moved'), { method: 'POST', payload: 'x' });
    expect(result.ok && result.doc.status).toBe(307);
    expect(fixture.seen.length).toBe(before + 1);
  });

  it('refuses a target the guard refuses, before connecting', async () => {
    const guarded = createFetcher();
    const result = await guarded.fetch(fixture.url('/hook'), { method: 'POST', payload: 'x' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe('blocked_ssrf');
    await guarded.close();
  });

  it('takes a payload with POST only', async () => {
    await expect(fetcher.fetch(fixture.url('/hook'), { method: 'POST' })).rejects.toThrow(
      /payload/,
    );
    await expect(fetcher.fetch(fixture.url('/hook'), { payload: 'x' })).rejects.toThrow(/payload/);
  });
});
