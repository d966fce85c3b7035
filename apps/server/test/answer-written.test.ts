import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { written } from '../src/http/written.js';

/**
 * The HTTP adapter charges a delivered call once its answer is written out whole
 * (`written`): on the response's `finish`, never when the caller left first.
 */
describe('an answer written out', () => {
  let server: http.Server;
  let base: { host: string; port: number };
  const outcomes = new Map<string, Promise<boolean>>();
  /** 32 MiB: more than the loopback socket buffers hold for a caller that does not read. */
  const BIG = 'x'.repeat(32 * 1024 * 1024);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(req.url === '/big' ? BIG : 'ok');
      outcomes.set(req.url ?? '', written(res));
      // A connection reset while most of the answer still waits in the socket's buffer
      // (the caller is not reading): what a caller that leaves mid-answer looks like.
      if (req.url === '/big' && (res.socket?.writableLength ?? 0) > 0) {
        res.socket?.destroy(new Error('read ECONNRESET'));
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is written when the caller reads it all', async () => {
    const answer = await fetch(`http://${base.host}:${base.port}/small`);
    expect(await answer.text()).toBe('ok');
    expect(await outcomes.get('/small')).toBe(true);
  });

  it('is written on a connection that closes after it (Connection: close, HTTP/1.0)', async () => {
    for (const [path, request] of [
      ['/close', `GET /close HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n\r\n`],
      ['/old', 'GET /old HTTP/1.0\r\n\r\n'],
    ] as const) {
      const socket = net.connect(base);
      await once(socket, 'connect');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      socket.write(request);
      await once(socket, 'end');
      expect(received.endsWith('\r\n\r\nok')).toBe(true);
      expect(await outcomes.get(path)).toBe(true);
    }
  });

  it('is not written when the connection is reset in the middle of it', async () => {
    const socket = net.connect(base);
    await once(socket, 'connect');
    socket.pause();
    socket.write(`GET /big HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
    const outcome = await new Promise<Promise<boolean>>((resolve) => {
      server.once('request', () =>
        setImmediate(() => resolve(outcomes.get('/big') as Promise<boolean>)),
      );
    });
    expect(await outcome).toBe(false);
    socket.destroy();
  });
});
