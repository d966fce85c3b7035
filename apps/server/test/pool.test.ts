import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchedDocument } from '@storefront/core';
import { createFetcher } from '@storefront/safe-fetch';
import { buildPdf } from '@storefront/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runsOnThread } from '../src/pipeline/work.js';
import { REGISTRY } from '../src/registry/index.js';
import { inlineCompute, stepTaskOf } from '../src/work/compute.js';
import { ComputeCancelledError, ComputeLimitError } from '../src/work/limits.js';
import { ProductPool } from '../src/work/pool.js';
import { outputOf, pageInput, productTask, testApp } from './helpers.js';
import { ADMIN_TOKEN, buy, callAndHangUp, creditsOf, ledgerOf, prepaidKey } from './keys.js';
import { fixturePage, REPORT_PDF } from './site.js';

/** The markdown route's product, as the pool runs it. */
const MARKDOWN = productTask('markdown');

/** A pino-shaped logger that keeps what the pool reports. */
function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    warn: (_details: object, message: string) => lines.push({ level: 'warn', message }),
    error: (_details: object, message: string) => lines.push({ level: 'error', message }),
  };
}

function documentOf(html: string | Uint8Array, url = 'http://pages.test/article'): FetchedDocument {
  return {
    requestedUrl: url,
    url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    contentType: 'text/html; charset=utf-8',
    bytes: typeof html === 'string' ? new TextEncoder().encode(html) : html,
    truncated: false,
    redirects: [],
    fetchedAt: '2026-03-14T12:00:00.000Z',
  };
}

/**
 * 95,000 elements of eight attributes each (2 MB), under the parse's element cap:
 * parse5 takes about a second and 100 MB of heap on the project's machine, so the page
 * meets any small deadline or heap bound.
 */
const HOSTILE = `<!doctype html><html><body>${'<div a b c d e f g h>'.repeat(95_000)}x</body></html>`;

const article = documentOf(fixturePage('news-article').body);

/** One product thread with a long deadline, for tests that hold it with the hostile page. */
function oneThread(): ProductPool {
  return new ProductPool({
    threads: 1,
    deadlineMs: 60_000,
    heapMb: 1024,
    logger: recordingLogger(),
  });
}

describe('ProductPool', () => {
  const log = recordingLogger();
  let pool: ProductPool;
  beforeAll(() => {
    pool = new ProductPool({ threads: 1, deadlineMs: 30_000, heapMb: 512, logger: log });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('gives what the route gives inline, computed on a thread', async () => {
    const input = pageInput(article, { url: article.url });
    const running = pool.compute(MARKDOWN, input);
    expect(pool.stats).toStrictEqual({
      threads: 1,
      busy: 0,
      queued: 1,
      started: 0,
      recycled: 0,
    });
    const onThread = await running;
    expect(onThread).toStrictEqual(await inlineCompute(MARKDOWN, input));
    expect(outputOf(onThread).ok).toBe(true);
  });

  it('awaits an asynchronous product (pdf.js) on the thread, one task after the other, as inline', async () => {
    const PDF = productTask('pdf');
    const report = { ...documentOf(REPORT_PDF), contentType: 'application/pdf' };
    const scanned = {
      ...documentOf(buildPdf({ pages: [{ image: true }] })),
      contentType: 'application/pdf',
    };
    const inputs = [report, scanned, report].map((doc) =>
      pageInput(doc, { url: doc.url, format: 'markdown', pages: undefined }),
    );
    const onThread = await Promise.all(inputs.map((input) => pool.compute(PDF, input)));
    const inline = await Promise.all(inputs.map((input) => inlineCompute(PDF, input)));
    expect(onThread).toStrictEqual(inline);
    expect(onThread.map((result) => result.ok)).toStrictEqual([true, false, true]);
    expect(onThread[2]).toStrictEqual(onThread[0]);
    expect(onThread[1]).toMatchObject({ error: 'unsupported_content_type', reason: 'no_text' });
  });

  it('names a compute for every route that parses a body, and none for the head-only audit', () => {
    expect(
      REGISTRY.filter(runsOnThread)
        .map((route) => route.name)
        .sort(),
    ).toStrictEqual([
      // The probe parses the page it fetched, for its verdict.
      'availability',
      'crawl',
      'diff',
      'extract',
      'feed',
      'fetch',
      'links',
      'map',
      'markdown',
      'metadata',
      'notarize',
      'pdf',
      'seo',
      'table',
      'validate',
    ]);
  });

  it("runs a walking route's step on a thread by its task name, as inline", async () => {
    const route = REGISTRY.find((entry) => entry.name === 'map');
    if (route === undefined || route.reads.kind !== 'walk') throw new Error('no map walk');
    const task = stepTaskOf(route);
    expect(task.name).toBe('map:step');
    const plan = route.reads.start({ url: 'https://shop.example/', limit: 10 });
    expect(plan.fetch).toStrictEqual(['https://shop.example/robots.txt', 'https://shop.example/']);
    const timing = { headersMs: 1, bodyMs: 1, totalMs: 2 };
    const robots = {
      ...documentOf('Sitemap: https://shop.example/s.xml\n', 'https://shop.example/robots.txt'),
      contentType: 'text/plain',
    };
    const input = {
      state: plan.state,
      results: [
        { ok: true as const, doc: robots, timing },
        {
          ok: true as const,
          doc: documentOf('<a href="/a">a</a>', 'https://shop.example/'),
          timing,
        },
      ],
    };
    const onThread = await pool.compute(task, input);
    expect(onThread).toStrictEqual(await inlineCompute(task, input));
    expect(onThread.fetch).toStrictEqual(['https://shop.example/s.xml']);
  });

  it('queues tasks beyond its threads and answers them in order', async () => {
    const done: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) =>
        pool
          .compute(MARKDOWN, pageInput(documentOf(`<h1>Page ${n}</h1>`), {}))
          .then(() => done.push(n)),
      ),
    );
    expect(done).toStrictEqual([0, 1, 2, 3, 4, 5]);
  });

  it('passes a throw back as an error and keeps the thread', async () => {
    await expect(pool.compute({ name: 'no-such-route', run: () => null }, {})).rejects.toThrow(
      'No product task `no-such-route`',
    );
    const after = outputOf(await pool.compute(MARKDOWN, pageInput(article, {})));
    expect(after.ok).toBe(true);
    expect(log.lines).toStrictEqual([]);
  });

  it('refuses input it cannot hand to a thread, and keeps going', async () => {
    await expect(
      pool.compute(
        MARKDOWN,
        pageInput(article, () => 1),
      ),
    ).rejects.toThrow(/could not be cloned/);
    expect(pool.stats.busy).toBe(0);
    const after = outputOf(await pool.compute(MARKDOWN, pageInput(article, {})));
    expect(after.ok).toBe(true);
  });
});

describe('ProductPool bounds', () => {
  // The next task must fit within the pool's bound on any machine. Under the 0.2 s
  // deadline even a tiny page can take longer on a busy machine (a new thread's first
  // page took 316 ms at a load of 17), so there the next task is one the thread answers
  // at once: an unknown route, refused on the thread.
  it.each([
    {
      bound: 'deadline',
      limit: 'deadline',
      options: { deadlineMs: 200, heapMb: 1024 },
      message: 'Processing the page took longer than 0.2 s',
      next: async (pool: ProductPool) =>
        expect(pool.compute({ name: 'no-such-route', run: () => null }, {})).rejects.toThrow(
          'No product task `no-such-route`',
        ),
    },
    {
      bound: 'heap bound',
      limit: 'memory',
      options: { deadlineMs: 60_000, heapMb: 64 },
      message: 'Processing the page needed more than 64 MB',
      next: async (pool: ProductPool) => {
        const result = outputOf(await pool.compute(MARKDOWN, pageInput(article, {})));
        expect(result.ok).toBe(true);
      },
    },
  ])(
    'stops a task at the $bound, replaces the thread and runs the next task',
    async ({ limit, options, message, next }) => {
      const log = recordingLogger();
      const pool = new ProductPool({ threads: 1, ...options, logger: log });
      try {
        const stopped = await pool
          .compute(MARKDOWN, pageInput(documentOf(HOSTILE), {}))
          .catch((error: unknown) => error);
        expect(stopped).toBeInstanceOf(ComputeLimitError);
        expect(stopped).toMatchObject({ limit, message });
        await next(pool);
        expect(pool.stats).toMatchObject({ threads: 1, started: 2 });
        // A thread stopped on purpose is not reported as a fault.
        expect(log.lines).toStrictEqual([]);
      } finally {
        await pool.close();
      }
    },
    60_000,
  );

  it('drops a waiting task whose caller left, and never starts it', async () => {
    const pool = oneThread();
    try {
      const running = pool.compute(MARKDOWN, pageInput(documentOf(HOSTILE), {}));
      const caller = new AbortController();
      const waiting = pool
        .compute(MARKDOWN, pageInput(article, {}), caller.signal)
        .catch((error: unknown) => error);
      await vi.waitFor(() => expect(pool.stats).toMatchObject({ busy: 1, queued: 1 }), {
        timeout: 20_000,
        interval: 5,
      });
      caller.abort();
      expect(await waiting).toBeInstanceOf(ComputeCancelledError);
      expect(pool.stats).toMatchObject({ busy: 1, queued: 0 });
      // A caller already gone never queues; the running task still finishes.
      await expect(
        pool.compute(MARKDOWN, pageInput(article, {}), AbortSignal.abort()),
      ).rejects.toBeInstanceOf(ComputeCancelledError);
      expect(outputOf(await running).ok).toBe(true);
      // Aborting once a thread has the task changes nothing.
      const late = new AbortController();
      const done = pool.compute(MARKDOWN, pageInput(article, {}), late.signal);
      await vi.waitFor(() => expect(pool.stats.busy).toBe(1), { timeout: 20_000, interval: 1 });
      late.abort();
      expect(outputOf(await done).ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('closes while its threads still load, once they have loaded', async () => {
    const pool = new ProductPool({
      threads: 2,
      deadlineMs: 60_000,
      heapMb: 1024,
      logger: recordingLogger(),
    });
    const waiting = pool.compute(MARKDOWN, pageInput(article, {})).catch((error: unknown) => error);
    await pool.close();
    expect(await waiting).toMatchObject({ message: 'The product pool is closed' });
    expect(pool.stats).toMatchObject({ busy: 0, queued: 0, started: 0 });
  });

  it('fails queued and running tasks at close, and refuses new ones', async () => {
    const pool = oneThread();
    const running = pool
      .compute(MARKDOWN, pageInput(documentOf(HOSTILE), {}))
      .catch((error: unknown) => error);
    const queued = pool.compute(MARKDOWN, pageInput(article, {})).catch((error: unknown) => error);
    // Once the thread has loaded, the first task runs and the second waits.
    await vi.waitFor(() => expect(pool.stats).toMatchObject({ busy: 1, queued: 1 }), {
      timeout: 20_000,
      interval: 5,
    });
    await pool.close();
    expect(await running).toMatchObject({ message: 'The product pool is closed' });
    expect(await queued).toMatchObject({ message: 'The product pool is closed' });
    await expect(pool.compute(MARKDOWN, pageInput(article, {}))).rejects.toThrow(
      'The product pool is closed',
    );
  });
});

describe('ProductPool prefetch', () => {
  it('hands a busy thread its next tasks while tasks wait, and answers them in order', async () => {
    const pool = new ProductPool({
      threads: 1,
      deadlineMs: 60_000,
      heapMb: 1024,
      prefetch: 2,
      logger: recordingLogger(),
    });
    try {
      await pool.ready();
      const done: number[] = [];
      const calls = [0, 1, 2, 3, 4, 5].map((n) =>
        pool
          .compute(MARKDOWN, pageInput(documentOf(`<h1>Page ${n}</h1>`), {}))
          .then(() => done.push(n)),
      );
      // The thread runs one and holds two more; the rest wait in the pool's queue.
      expect(pool.stats).toMatchObject({ busy: 1, queued: 3, started: 3 });
      await Promise.all(calls);
      expect(done).toStrictEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('gives the tasks a thread held back to the queue when the thread is stopped, and runs them on the next', async () => {
    const log = recordingLogger();
    const pool = new ProductPool({
      threads: 1,
      deadlineMs: 200,
      heapMb: 1024,
      prefetch: 2,
      logger: log,
    });
    try {
      await pool.ready();
      const stopped = pool
        .compute(MARKDOWN, pageInput(documentOf(HOSTILE), {}))
        .catch((error: unknown) => error);
      // Tasks the thread answers at once (an unknown route, refused on the thread), so
      // that they fit within the 0.2 s deadline on a busy machine.
      const held = [0, 1].map(() =>
        pool.compute({ name: 'no-such-route', run: () => null }, {}).catch((e: unknown) => e),
      );
      expect(pool.stats).toMatchObject({ busy: 1, queued: 0 });
      expect(await stopped).toMatchObject({
        limit: 'deadline',
        message: 'Processing the page took longer than 0.2 s',
      });
      for (const error of await Promise.all(held)) {
        expect(error).toMatchObject({ message: 'No product task `no-such-route`' });
      }
      // The first thread took three tasks; the next thread the two given back.
      expect(pool.stats).toMatchObject({ threads: 1, started: 5 });
      expect(log.lines).toStrictEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('ProductPool threads on demand', () => {
  it('starts no thread until a task comes, and stops a thread left idle', async () => {
    const log = recordingLogger();
    const pool = new ProductPool({
      threads: 2,
      deadlineMs: 60_000,
      heapMb: 1024,
      idleMs: 300,
      logger: log,
    });
    try {
      expect(pool.stats).toMatchObject({ threads: 0, started: 0 });
      const first = outputOf(await pool.compute(MARKDOWN, pageInput(article, {})));
      expect(first.ok).toBe(true);
      // One task wanted one thread.
      expect(pool.stats).toMatchObject({ threads: 1, busy: 0, started: 1 });
      await vi.waitFor(() => expect(pool.stats.threads).toBe(0), {
        timeout: 20_000,
        interval: 20,
      });
      // The next task starts a thread again.
      const again = outputOf(await pool.compute(MARKDOWN, pageInput(article, {})));
      expect(again.ok).toBe(true);
      expect(pool.stats).toMatchObject({ threads: 1, started: 2, recycled: 0 });
      // Stopped on purpose: no fault reported.
      expect(log.lines).toStrictEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('replaces a thread whose heap grew past its bound during a task, and keeps one that did not', async () => {
    const log = recordingLogger();
    // A 1 MB page grows a thread's heap by tens of MB, never by 10 GB.
    const big = documentOf(
      `<!doctype html><article>${'<p>A paragraph of <em>words</em> with <a href="/x">a link</a>.</p>'.repeat(15_000)}</article>`,
    );
    const small = new ProductPool({
      threads: 1,
      deadlineMs: 60_000,
      heapMb: 1024,
      recycleMb: 5,
      logger: log,
    });
    const large = new ProductPool({
      threads: 1,
      deadlineMs: 60_000,
      heapMb: 1024,
      recycleMb: 10_000,
      logger: log,
    });
    try {
      for (const pool of [small, large]) {
        const result = outputOf(await pool.compute(MARKDOWN, pageInput(big, {})));
        expect(result.ok).toBe(true);
      }
      expect(small.stats.recycled).toBe(1);
      expect(large.stats).toMatchObject({ threads: 1, recycled: 0 });
      await vi.waitFor(() => expect(small.stats.threads).toBe(0), {
        timeout: 20_000,
        interval: 20,
      });
      // The next task gets a fresh thread.
      const next = outputOf(await small.compute(MARKDOWN, pageInput(big, {})));
      expect(next.ok).toBe(true);
      expect(small.stats).toMatchObject({ started: 2, recycled: 2 });
      expect(log.lines).toStrictEqual([]);
    } finally {
      await small.close();
      await large.close();
    }
  }, 60_000);
});

describe('a hostile page through the key door', () => {
  let upstream: http.Server;
  let base: string;
  let pool: ProductPool;
  let t: Awaited<ReturnType<typeof testApp>>;
  let fetcher: ReturnType<typeof createFetcher>;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/article' ? fixturePage('news-article').body : HOSTILE);
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    fetcher = createFetcher({ testOnlyAllow: `127.0.0.1:${port}` });
    pool = new ProductPool({
      threads: 1,
      deadlineMs: 300,
      heapMb: 1024,
      logger: recordingLogger(),
    });
    // The calls' budgets run from their arrival: the thread loads first.
    await pool.ready();
    t = await testApp({ fetcher, compute: pool.compute }, { adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await t?.dispose();
    await pool?.close();
    await fetcher?.close();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  it('answers 503 page_too_complex, charges nothing, and other calls go on meanwhile', async () => {
    const key = await prepaidKey(t.app, 100);
    const order: string[] = [];
    const started = pool.stats.started;
    const [markdown, notarize] = await Promise.all([
      buy(t.app, '/buy/markdown', { url: `${base}/deep` }, key.key).then((res) => {
        order.push('markdown');
        return res;
      }),
      // Sent once the page is on its thread: answered while the thread still parses it.
      vi
        .waitFor(() => expect(pool.stats.started).toBe(started + 1), {
          interval: 5,
          timeout: 15_000,
        })
        .then(() => buy(t.app, '/buy/notarize', { content: 'still served' }, key.key))
        .then((res) => {
          order.push('notarize');
          return res;
        }),
    ]);
    expect(markdown.status).toBe(503);
    expect(markdown.body).toStrictEqual({
      ok: false,
      url: `${base}/deep`,
      status: 200,
      error: 'page_too_complex',
      message: 'Processing the page took longer than 0.3 s',
    });
    expect(notarize.status).toBe(200);
    expect(order).toStrictEqual(['notarize', 'markdown']);

    // 100 credits, 8 for the notarization and none for the page.
    expect(await creditsOf(t.app, key.keyId)).toBe(92);
    const rows = await ledgerOf(t.app, key.keyId);
    expect(
      rows
        .map((row) => [row.route, row.outcome, row.charged, row.error])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toStrictEqual([
      ['markdown', 'undeliverable', false, 'page_too_complex'],
      ['notarize', 'delivered', true, null],
    ]);
  });
  it('drops the product of a caller who left while it waited, and charges nothing', async () => {
    const key = await prepaidKey(t.app, 100);
    const door = http.createServer(t.app).listen(0, '127.0.0.1');
    await once(door, 'listening');
    const doorUrl = `http://127.0.0.1:${(door.address() as AddressInfo).port}`;
    try {
      const started = pool.stats.started;
      // The hostile page holds the only thread until its 0.3 s deadline.
      // `then` sends it now (a supertest request waits for its first `then`).
      const hostile = buy(t.app, '/buy/markdown', { url: `${base}/deep` }, key.key).then(
        (res) => res,
      );
      await vi.waitFor(() => expect(pool.stats.started).toBe(started + 1), {
        interval: 5,
        timeout: 15_000,
      });
      // This caller's page waits behind it; the caller hangs up meanwhile.
      const target = encodeURIComponent(`${base}/article`);
      await callAndHangUp(`${doorUrl}/buy/markdown?url=${target}`, key.key, 100);
      expect((await hostile).status).toBe(503);
      await vi.waitFor(
        async () => {
          const rows = await ledgerOf(t.app, key.keyId);
          expect(rows.map((row) => [row.outcome, row.charged, row.error]).sort()).toStrictEqual([
            ['failed', false, 'client_closed'],
            ['undeliverable', false, 'page_too_complex'],
          ]);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(await creditsOf(t.app, key.keyId)).toBe(100);
      // Only the hostile page reached a thread.
      expect(pool.stats).toMatchObject({ busy: 0, queued: 0, started: started + 1 });
    } finally {
      door.closeAllConnections();
      door.close();
    }
  });
});
