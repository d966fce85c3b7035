import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';

/** A route of a fixture server. */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** One request as the fixture saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
}

/** A loopback server that tests reach only through the fetcher's test allowlist. */
export interface Fixture {
  readonly port: number;
  /** The `SAFE_FETCH_ALLOW` entry for this server. */
  readonly allow: string;
  /** Every request received, in order. */
  readonly seen: SeenRequest[];
  /** How many TCP connections were accepted. */
  connections: number;
  /** How many of those connections are still open. */
  readonly open: number;
  url(path?: string): string;
  close(): Promise<void>;
}

/** Start an HTTP server on 127.0.0.1 with an ephemeral port, routing by exact path. */
export async function startHttpFixture(routes: Record<string, Handler>): Promise<Fixture> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '/').split('?')[0] as string;
    const handler = routes[path];
    if (handler === undefined) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    handler(req, res);
  });
  return listen(server, seen);
}

/** Start a raw TCP server on 127.0.0.1, for answers no HTTP server would send. */
export async function startTcpFixture(onSocket: (socket: Socket) => void): Promise<Fixture> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    onSocket(socket);
  });
  return listen(server, []);
}

async function listen(server: net.Server, seen: SeenRequest[]): Promise<Fixture> {
  const sockets = new Set<Socket>();
  const fixture = {
    port: 0,
    allow: '',
    seen,
    connections: 0,
    get open() {
      return sockets.size;
    },
    url(path = '/') {
      return `http://127.0.0.1:${this.port}${path}`;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      if (server.listening) await once(server, 'close');
    },
  };
  server.on('connection', (socket: Socket) => {
    fixture.connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fixture.port = (server.address() as AddressInfo).port;
  fixture.allow = `127.0.0.1:${fixture.port}`;
  return fixture;
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Write `bytes` of zeros (or forever) with backpressure, until the client goes away. */
export function streamZeros(res: http.ServerResponse, bytes = Number.POSITIVE_INFINITY): void {
  const chunk = Buffer.alloc(64 * 1024);
  let left = bytes;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (left <= 0 && !res.destroyed) res.end();
  };
  pump();
}

/** Send one byte every `everyMs` after the headers, forever, until the client goes away. */
export function drip(res: http.ServerResponse, everyMs = 200): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.flushHeaders();
  const timer = setInterval(() => res.write('.'), everyMs);
  res.on('close', () => clearInterval(timer));
}

/**
 * The TCP handles this process holds. After every server and fetcher of a file is
 * closed, this is empty: nothing was left open.
 */
export async function openSockets(): Promise<string[]> {
  const tcp = () =>
    process.getActiveResourcesInfo().filter((name) => /^(TCP|TLS|GetAddrInfo)/.test(name));
  // Sockets finish closing on a later turn of the event loop.
  for (let i = 0; i < 50 && tcp().length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return tcp();
}
