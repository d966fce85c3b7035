import type http from 'node:http';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createDeflate,
  deflateRawSync,
  deflateSync,
  gzipSync,
} from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFetcher,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
  type Fetcher,
} from '../src/index.js';
import {
  closedPort,
  drip,
  type Fixture,
  openSockets,
  startHttpFixture,
  startTcpFixture,
  streamZeros,
} from './fixture-server.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** The cap most tests use, so they finish fast; one test uses the 10 MiB default. */
const CAP = MiB;
/** The deadline most tests use; one test uses the 5 s default. */
const DEADLINE = 1000;

/** Compress `size` zero bytes, streaming, so the 1 GiB input never sits in memory. */
async function bomb(
  compressor: NodeJS.ReadWriteStream & { end(): void },
  size: number,
): Promise<Buffer> {
  const out: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => compressor.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < size; written += zeros.length) {
    if (!compressor.write(zeros)) await new Promise((resolve) => compressor.once('drain', resolve));
  }
  compressor.end();
  await done;
  return Buffer.concat(out);
}

/** A gzip member of 1 MiB of zeros, repeated: gzip decoders read concatenated members. */
function gzipBomb(size: number): Buffer {
  const member = gzipSync(Buffer.alloc(MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: size / MiB }, () => member));
}

let bombs: { gzip: Buffer; deflate: Buffer; br: Buffer };
let fixture: Fixture;
let raw: Fixture;
let dead: number;
let fetcher: Fetcher;

/** A page that compresses to a few hundred bytes. */
const PAGE = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of the page.</p>`).join(''),
);

/** The first third of `bytes`. */
function third(bytes: Buffer): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length / 3));
}

function send(coding: string, body: () => Buffer) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': coding });
    res.end(body());
  };
}

beforeAll(async () => {
  const [deflate, br] = await Promise.all([
    bomb(createDeflate({ level: 1 }), GiB),
    bomb(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }), GiB),
  ]);
  bombs = { gzip: gzipBomb(GiB), deflate, br };

  fixture = await startHttpFixture({
    '/drip': (_req, res) => drip(res),
    '/slow-headers': (req) => {
      // Never answer; the socket is closed by the client at the deadline.
      req.socket.setTimeout(0);
    },
    '/endless': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      streamZeros(res);
    },
    '/huge-length': (_req, res) => {
      res.writeHead(200, { 'content-length': String(2 ** 40) });
      streamZeros(res);
    },
    '/exactly-cap': (_req, res) => streamZeros(res, CAP),
    '/cap-plus-one': (_req, res) => streamZeros(res, CAP + 1),
    '/cap-then-stall': (_req, res) => {
      res.writeHead(200, { 'content-length': String(CAP * 4) });
      res.write(Buffer.alloc(CAP));
    },
    '/gzip-bomb': send('gzip', () => bombs.gzip),
    '/deflate-bomb': send('deflate', () => bombs.deflate),
    '/br-bomb': send('br', () => bombs.br),
    '/raw-deflate': send('deflate', () => deflateRawSync('raw deflate body')),
    '/gzip-gzip': send('gzip, gzip', () => gzipSync(gzipSync('twice'))),
    '/x-gzip': send('x-gzip', () => gzipSync('x-gzip body')),
    '/unknown-coding': send('compress', () => Buffer.from('whatever')),
    '/zstd': send('zstd', () => Buffer.from('whatever')),
    '/corrupt-gzip': send('gzip', () => Buffer.from('this is not gzip at all, just text')),
    '/corrupt-br': send('br', () => Buffer.from('this is not brotli at all, just text!!')),
    // Complete HTTP answers whose compressed stream stops early: at a third of it, or
    // just before the gzip trailer (all the page decodes, the end is missing).
    '/truncated-gzip': send('gzip', () => third(gzipSync(PAGE))),
    '/gzip-without-trailer': send('gzip', () => gzipSync(PAGE).subarray(0, -8)),
    '/truncated-deflate': send('deflate', () => third(deflateSync(PAGE))),
    '/truncated-raw-deflate': send('deflate', () => third(deflateRawSync(PAGE))),
    '/truncated-br': send('br', () => third(brotliCompressSync(PAGE))),
    '/big-headers': (_req, res) => {
      for (let i = 0; i < 100; i++) res.setHeader(`x-filler-${i}`, 'a'.repeat(2000));
      res.end('unreachable');
    },
    '/reset': (req) => req.socket.destroy(),
    '/cut-short': (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only ten b');
      setTimeout(() => req.socket.destroy(), 20);
    },
  });
  raw = await startTcpFixture((socket) => {
    socket.once('data', () => socket.end('SMTP ready\r\n\r\n'));
  });
  dead = await closedPort();
  fetcher = createFetcher({
    testOnlyAllow: `${fixture.allow} ${raw.allow} 127.0.0.1:${dead}`,
    timeoutMs: DEADLINE,
    maxBodyBytes: CAP,
  });
}, 30_000);

afterAll(async () => {
  await fetcher.close();
  await fixture.close();
  await raw.close();
  expect(await openSockets()).toStrictEqual([]);
});

/**
 * How early a deadline may appear to end, measured from outside. Node arms timers from
 * libuv's cached loop time, which lags the real clock by however long the current loop
 * turn has run; on a busy machine that is several milliseconds.
 */
const TIMER_SLACK_MS = 50;

async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work;
  return [result, performance.now() - started];
}

describe.concurrent('deadline', () => {
  it('ends a slow drip (1 byte every 200 ms, forever) with timeout at the 5 s default', async () => {
    const defaults = createFetcher({ testOnlyAllow: fixture.allow });
    try {
      const [result, elapsed] = await timed(defaults.fetch(fixture.url('/drip')));
      expect(result).toMatchObject({
        ok: false,
        error: 'timeout',
        status: 200,
        message: `No complete answer within ${DEFAULT_TIMEOUT_MS} ms`,
        url: fixture.url('/drip'),
      });
      expect(elapsed).toBeGreaterThanOrEqual(DEFAULT_TIMEOUT_MS - TIMER_SLACK_MS);
      expect(elapsed).toBeLessThan(DEFAULT_TIMEOUT_MS + 1500);
    } finally {
      await defaults.close();
    }
  });

  it('ends a slow drip with timeout at a configured deadline', async () => {
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url('/drip')));
    expect(result).toMatchObject({ ok: false, error: 'timeout', status: 200 });
    expect(elapsed).toBeGreaterThanOrEqual(DEADLINE - TIMER_SLACK_MS);
    expect(elapsed).toBeLessThan(DEADLINE + 1000);
  });

  it("ends a slow drip at the request's own shorter deadline, which never lengthens the fetcher's", async () => {
    const [shorter, elapsed] = await timed(
      fetcher.fetch(fixture.url('/drip'), { timeoutMs: DEADLINE / 4 }),
    );
    expect(shorter).toMatchObject({
      ok: false,
      error: 'timeout',
      message: `No complete answer within ${DEADLINE / 4} ms`,
    });
    expect(elapsed).toBeGreaterThanOrEqual(DEADLINE / 4 - TIMER_SLACK_MS);
    const longer = await fetcher.fetch(fixture.url('/drip'), { timeoutMs: DEADLINE * 10 });
    expect(longer).toMatchObject({
      ok: false,
      error: 'timeout',
      message: `No complete answer within ${DEADLINE} ms`,
    });
  });

  it('ends slow headers with timeout', async () => {
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url('/slow-headers')));
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result).not.toHaveProperty('status');
    expect(elapsed).toBeLessThan(DEADLINE + 1000);
  });

  it('ends a body that stalls exactly at the cap as truncated, from its declared length', async () => {
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url('/cap-then-stall')));
    expect(result).toMatchObject({ ok: true, doc: { truncated: true } });
    if (result.ok) expect(result.doc.bytes.length).toBe(CAP);
    expect(elapsed).toBeLessThan(DEADLINE);
  });
});

describe.concurrent('body cap', () => {
  it('cuts an endless body at the cap with truncated: true', async () => {
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url('/endless')));
    expect(result).toMatchObject({ ok: true, doc: { status: 200, truncated: true } });
    if (result.ok) expect(result.doc.bytes.length).toBe(CAP);
    expect(elapsed).toBeLessThan(DEADLINE);
  });

  it('cuts an endless body at the 10 MiB default cap', async () => {
    const defaults = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 3000 });
    try {
      const result = await defaults.fetch(fixture.url('/endless'));
      expect(result).toMatchObject({ ok: true, doc: { truncated: true } });
      if (result.ok) expect(result.doc.bytes.length).toBe(DEFAULT_MAX_BODY_BYTES);
      expect(DEFAULT_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
    } finally {
      await defaults.close();
    }
  });

  it('reads a declared 1 TiB Content-Length only up to the cap', async () => {
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url('/huge-length')));
    expect(result).toMatchObject({
      ok: true,
      doc: { truncated: true, headers: { 'content-length': String(2 ** 40) } },
    });
    if (result.ok) expect(result.doc.bytes.length).toBe(CAP);
    expect(elapsed).toBeLessThan(DEADLINE);
  });

  it('keeps a body of exactly the cap whole, and cuts one byte more', async () => {
    const exact = await fetcher.fetch(fixture.url('/exactly-cap'));
    expect(exact).toMatchObject({ ok: true, doc: { truncated: false } });
    if (exact.ok) expect(exact.doc.bytes.length).toBe(CAP);
    const over = await fetcher.fetch(fixture.url('/cap-plus-one'));
    expect(over).toMatchObject({ ok: true, doc: { truncated: true } });
    if (over.ok) expect(over.doc.bytes.length).toBe(CAP);
  });

  it.each([
    ['gzip', '/gzip-bomb'],
    ['deflate', '/deflate-bomb'],
    ['brotli', '/br-bomb'],
  ])('stops a 1 GiB %s bomb at the cap quickly', async (name, path) => {
    const wire = bombs[name === 'brotli' ? 'br' : (name as 'gzip' | 'deflate')].length;
    expect(wire).toBeLessThan(8 * MiB);
    const [result, elapsed] = await timed(fetcher.fetch(fixture.url(path)));
    expect(result).toMatchObject({ ok: true, doc: { truncated: true } });
    if (result.ok) {
      expect(result.doc.bytes.length).toBe(CAP);
      expect(result.doc.bytes.every((byte) => byte === 0)).toBe(true);
    }
    expect(elapsed).toBeLessThan(DEADLINE);
  });

  it('stops a 1 GiB gzip bomb at the 10 MiB default cap with little memory', async () => {
    const defaults = createFetcher({ testOnlyAllow: fixture.allow, timeoutMs: 3000 });
    try {
      const before = process.memoryUsage().rss;
      // Done within the 3 s deadline, or the result would be a `timeout` failure.
      const result = await defaults.fetch(fixture.url('/gzip-bomb'));
      const grown = process.memoryUsage().rss - before;
      expect(result).toMatchObject({ ok: true, doc: { truncated: true } });
      if (result.ok) expect(result.doc.bytes.length).toBe(DEFAULT_MAX_BODY_BYTES);
      // The result holds 10 MiB; decoding the whole bomb would need 1 GiB.
      expect(grown).toBeLessThan(256 * MiB);
    } finally {
      await defaults.close();
    }
  });
});

describe.concurrent('content-coding', () => {
  it('fails a chain of codings (gzip, gzip) with protocol_error', async () => {
    const result = await fetcher.fetch(fixture.url('/gzip-gzip'));
    expect(result).toMatchObject({ ok: false, error: 'protocol_error', status: 200 });
    if (!result.ok)
      expect(result.message).toBe(
        'Unsupported content-coding `gzip, gzip`: at most one coding is decoded',
      );
  });

  it.each(['/unknown-coding', '/zstd'])(
    'fails the unknown coding of %s with protocol_error',
    async (path) => {
      expect(await fetcher.fetch(fixture.url(path))).toMatchObject({
        ok: false,
        error: 'protocol_error',
      });
    },
  );

  it.each(['/corrupt-gzip', '/corrupt-br'])(
    'fails the corrupt body of %s with protocol_error',
    async (path) => {
      const result = await fetcher.fetch(fixture.url(path));
      expect(result).toMatchObject({ ok: false, error: 'protocol_error', status: 200 });
      if (!result.ok) expect(result.message).toMatch(/^The compressed body is corrupt/);
    },
  );

  it.each([
    '/truncated-gzip',
    '/gzip-without-trailer',
    '/truncated-deflate',
    '/truncated-raw-deflate',
    '/truncated-br',
  ])(
    'fails the compressed body cut short at %s with protocol_error, never a short page',
    async (path) => {
      const result = await fetcher.fetch(fixture.url(path));
      expect(result).toMatchObject({ ok: false, error: 'protocol_error', status: 200 });
      if (!result.ok)
        expect(result.message).toMatch(
          /ends before its compressed stream does: it was cut short \(Z_BUF_ERROR\)$/,
        );
    },
  );

  it('decodes x-gzip and raw deflate', async () => {
    const gz = await fetcher.fetch(fixture.url('/x-gzip'));
    if (!gz.ok) throw new Error(gz.message);
    expect(new TextDecoder().decode(gz.doc.bytes)).toBe('x-gzip body');
    const deflated = await fetcher.fetch(fixture.url('/raw-deflate'));
    if (!deflated.ok) throw new Error(deflated.message);
    expect(new TextDecoder().decode(deflated.doc.bytes)).toBe('raw deflate body');
  });
});

describe.concurrent('connection failures', () => {
  it('fails oversized headers (200 KB) with protocol_error', async () => {
    const result = await fetcher.fetch(fixture.url('/big-headers'));
    expect(result).toMatchObject({ ok: false, error: 'protocol_error' });
    if (!result.ok) expect(result.message).toMatch(/larger than 16384 bytes/);
  });

  it('fails a server that destroys the socket with connection_reset', async () => {
    expect(await fetcher.fetch(fixture.url('/reset'))).toMatchObject({
      ok: false,
      error: 'connection_reset',
    });
  });

  it('fails a body cut short of its Content-Length with connection_reset', async () => {
    expect(await fetcher.fetch(fixture.url('/cut-short'))).toMatchObject({
      ok: false,
      error: 'connection_reset',
      status: 200,
    });
  });

  it('fails an allowed port with nothing listening with connection_refused', async () => {
    const result = await fetcher.fetch(`http://127.0.0.1:${dead}/`);
    expect(result).toMatchObject({ ok: false, error: 'connection_refused' });
    if (!result.ok) expect(result.message).toBe(`Connection refused by \`127.0.0.1:${dead}\``);
  });

  it('fails a non-HTTP answer with protocol_error', async () => {
    expect(await fetcher.fetch(raw.url())).toMatchObject({ ok: false, error: 'protocol_error' });
  });

  it('fails TLS spoken to a plain HTTP server with tls_error', async () => {
    const result = await fetcher.fetch(`https://127.0.0.1:${fixture.port}/`);
    expect(result).toMatchObject({ ok: false, error: 'tls_error' });
    if (!result.ok) expect(result.message).toMatch(/^TLS handshake with `127\.0\.0\.1` failed/);
  });
});
