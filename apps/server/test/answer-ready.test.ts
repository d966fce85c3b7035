import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomHttpSignatureKey } from '../src/http/message-signature.js';
import { endSigned } from '../src/http/signed-answer.js';

/**
 * A charged key-door answer is built and signed while the statement that counts its call
 * off the key's calls in flight runs, and written only once that statement has run
 * (`ready`): the caller never holds the answer while the call still counts.
 */
describe('an answer that waits for its statement', () => {
  const key = randomHttpSignatureKey();
  let server: http.Server;
  let url: string;
  /** The handler's response and the release of its `ready`, per request. */
  const held: { res: http.ServerResponse; release: () => void; ended: Promise<void> }[] = [];
  let arrived: () => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let release: () => void = () => {};
      const ready = new Promise<void>((resolve) => {
        release = resolve;
      });
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      const ended = endSigned(req, res, key, 200, '{"ok":true}', req.url ?? '/', ready);
      held.push({ res, release, ended });
      arrived();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/buy/notarize?content=x`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is signed at once and written only once ready resolves', async () => {
    const came = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let answered = false;
    const answer = fetch(url).then((response) => {
      answered = true;
      return response;
    });
    await came;
    const { res, release, ended } = held[0]!;
    // Let everything but `ready` run: the answer is complete and signed, and not sent.
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.getHeader('signature')).toMatch(/^sig1=:/);
    expect(res.getHeader('content-digest')).toMatch(/^sha-256=:/);
    expect(res.headersSent).toBe(false);
    expect(res.writableEnded).toBe(false);
    expect(answered).toBe(false);
    release();
    await ended;
    expect(res.writableEnded).toBe(true);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('signature')).toBe(res.getHeader('signature'));
  });

  it('is not written when the caller left while it waited', async () => {
    const came = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const aborted = new AbortController();
    const answer = fetch(url, { signal: aborted.signal }).catch((error: unknown) => error);
    await came;
    const { res, release, ended } = held[1]!;
    const closed = once(res, 'close');
    aborted.abort();
    await closed;
    release();
    await ended;
    expect(res.writableEnded).toBe(false);
    expect(await answer).toBeInstanceOf(Error);
  });
});
