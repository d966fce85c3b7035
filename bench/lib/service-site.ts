import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The page the loopback upstream serves, with the headers it is served with. */
export interface UpstreamPage {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A running loopback upstream. */
export interface Upstream {
  readonly port: number;
  /** The page's URL on the upstream. */
  readonly url: string;
  /** The `SAFE_FETCH_ALLOW` entry for it. */
  readonly allow: string;
  close(): Promise<void>;
}

/** Response headers of a well-configured site, so the headers audit has work to do. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy':
    "default-src 'self'; img-src 'self' https://img.rivertoncourier.example; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cache-control': 'public, max-age=60',
  'set-cookie': 'rc_session=4f1c2a; Path=/; Secure; HttpOnly; SameSite=Lax',
  server: 'nginx',
};

/**
 * `fixtures/pages/news-article` (a 40 KB news page with full site chrome) grown to at
 * least `targetBytes` by continuing its comment thread: the thread's comments are
 * repeated in order, each with a fresh id, until the page is large enough. The rest
 * of the page is left as it is.
 */
export function newsPage(targetBytes: number): UpstreamPage {
  const root = new URL('../../fixtures/pages/news-article/', import.meta.url);
  const html = readFileSync(new URL('page.html', root), 'utf8');
  const meta = JSON.parse(readFileSync(new URL('document.json', root), 'utf8')) as {
    contentType: string;
  };
  const comments = html.match(/<li class="comment[^"]*" id="comment-\d+">.*?<\/li>\n/g) ?? [];
  const end = html.indexOf('</ol><button type="button" class="comments__more">');
  if (comments.length === 0 || end < 0) {
    throw new Error('news-article no longer has the comment thread this page extends');
  }
  const encoder = new TextEncoder();
  let added = '';
  let page = html;
  for (let i = 0; encoder.encode(page).length < targetBytes; i++) {
    const comment = comments[i % comments.length] as string;
    added += comment.replace(/id="comment-(\d+)"/, `id="comment-$1-${i}"`);
    page = html.slice(0, end) + added + html.slice(end);
  }
  return {
    name: 'news-article + longer comment thread',
    bytes: encoder.encode(page),
    contentType: meta.contentType,
    headers: { 'content-type': meta.contentType, ...SECURITY_HEADERS },
  };
}

// Plain JavaScript run in the worker: one `node:http` server answering every GET with the
// page, after `delayMs` when it is above 0 (a timer, so delayed answers overlap).
const UPSTREAM_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(workerData.bytes);
const headers = { ...workerData.headers, 'content-length': String(body.length) };
const answer = (res) => {
  res.writeHead(200, headers);
  res.end(body);
};
const server = http.createServer((req, res) => {
  if (workerData.delayMs > 0) setTimeout(answer, workerData.delayMs, res);
  else answer(res);
});
// Never close an idle keep-alive socket during a run (Node's default is 5 s, shorter
// than the in-process loops): a fetch reusing a socket as it closes is reset.
server.keepAliveTimeout = 600000;
// A deep accept queue: a remote site under a burst of connections is not what the
// benchmarks measure (Node's default backlog is 511).
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
  parentPort.postMessage(server.address().port),
);
parentPort.on('message', (message) => {
  if (message === 'close') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});
`;

/**
 * Serve `page` over HTTP on 127.0.0.1 from a worker thread: the upstream has its own
 * event loop, so serving the page does not queue behind the service's work in this
 * thread (on the 2-core machine it still takes CPU time, as a local upstream would).
 * `delayMs` holds back each response head that long, as a site that far away would
 * (a round trip and its own work); with 0 the page goes out at once, with no timer.
 */
export async function startUpstream(
  page: UpstreamPage,
  delayMs = 0,
  path = '/article',
): Promise<Upstream> {
  const worker = new Worker(UPSTREAM_SOURCE, {
    eval: true,
    workerData: { bytes: page.bytes, headers: page.headers, delayMs },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (value: number) => resolve(value));
    worker.once('error', reject);
  });
  return {
    port,
    url: `http://127.0.0.1:${port}${path}`,
    allow: `127.0.0.1:${port}`,
    close: async () => {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await exited;
    },
  };
}
