import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FetchedDocument } from '@storefront/core';
import { toMarkdown } from '@storefront/markdown';
import { bareNotarize, signedBareNotarize, WITNESSED_AT } from './lib/bare-notarize.js';
import { type InclusiveGroup, type ProfileSummary, profileWhile } from './lib/cpu-profile.js';
import { cleanupOnSignal } from './lib/interrupt.js';
import { sampleWaits, type WaitSummary } from './lib/pg-waits.js';
import { machine, printColumns } from './lib/report.js';
import {
  createFetcher,
  dropSchemasSql,
  express,
  type Fetcher,
  type FetchInit,
  inspectHeaders,
  loadConfig,
  notarize,
  openDatabase,
  type RunningServer,
  silentLogger,
  startServer,
} from './lib/server-deps.js';
import {
  enterpriseKey,
  fmt,
  keyCalls,
  loadText,
  NOTARIZE_CONTENT,
  signed,
} from './lib/service-calls.js';
import { newsPage, startUpstream } from './lib/service-site.js';
import { runWrk, type WrkResult, wrkProblem } from './lib/wrk.js';

/** wrk threads: one wrk thread drives far more than these rates and leaves CPU to the rest. */
const execFileAsync = promisify(execFile);
const THREADS = 1;
const CONNECTIONS = 50;
/** Bytes of the page the loopback upstream serves. */
const PAGE_BYTES = 50_000;
/** The `application_name` of the service's database connections, to find them in `pg_stat_activity`. */
const APPLICATION_NAME = 'storefront-bench-service';
const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** Functions whose inclusive time the profiles report. */
const PROFILE_GROUPS: readonly InclusiveGroup[] = [
  {
    label: 'signer.sign (sha256, EIP-191 signature)',
    functionName: 'sign',
    urlIncludes: '/packages/attest/src/signer',
  },
  { label: 'toMarkdown', functionName: 'toMarkdown', urlIncludes: '/packages/markdown/src/' },
  {
    label: 'inspectHeaders',
    functionName: 'inspectHeaders',
    urlIncludes: '/packages/headers/src/',
  },
  { label: 'notarize', functionName: 'notarize', urlIncludes: '/packages/notarize/src/' },
  {
    label: 'readParams (query check)',
    functionName: 'readParams',
    urlIncludes: '/server/src/http/',
  },
  {
    label: 'sendJson (stringify, headers, socket write)',
    functionName: 'sendJson',
    urlIncludes: '/server/src/routes/buy',
  },
  { label: 'safe-fetch', functionName: 'fetch', urlIncludes: '/packages/safe-fetch/src/' },
  {
    label: 'admit (key, rate window, reservation)',
    functionName: 'admit',
    urlIncludes: '/server/src/metering/',
  },
  {
    label: 'finish (commit or release)',
    functionName: 'finish',
    urlIncludes: '/server/src/metering/',
  },
];

/** One target of this benchmark; `met` is null when it could not be measured. */
export interface ServiceTarget {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean | null;
}

/** Options of {@link serviceBenchmark}. */
export interface ServiceOptions {
  readonly quick: boolean;
  /** Profile the service's thread during one more key-door run per route and print the top. */
  readonly profile: boolean;
  /** How long the loopback upstream holds back each answer (ms): a site that far away. */
  readonly upstreamDelayMs: number;
}

interface Timing {
  readonly warmup: number;
  readonly seconds: number;
  readonly inProcessSeconds: number;
  readonly rounds: number;
  /** Calls per side in an alternated run (markdown makes a quarter as many). */
  readonly alternatedCalls: number;
}

/** A row of a comparison: a wrk run or an in-process loop. */
interface Row {
  readonly side: string;
  readonly how: string;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly count: number;
  readonly errors: string;
}

/**
 * What the service costs on top of the work it sells: the real server (key door, rate
 * window, reservation, ledger, signing, JSON) on PostgreSQL under wrk, next to a bare
 * Express 5 route doing the same product work unsigned and unmetered, and next to the
 * product called in-process. See README.md, "Service overhead", for the method.
 */
export async function serviceBenchmark(
  options: ServiceOptions,
): Promise<{ targets: ServiceTarget[] }> {
  const timing: Timing = options.quick
    ? { warmup: 1, seconds: 2, inProcessSeconds: 0.5, rounds: 1, alternatedCalls: 200 }
    : { warmup: 3, seconds: 10, inProcessSeconds: 4, rounds: 3, alternatedCalls: 1500 };
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const missing =
    (await wrkProblem()) ??
    (databaseUrl === ''
      ? 'DATABASE_URL is not set (the benchmark needs PostgreSQL; it creates and drops its own schema)'
      : null);
  if (missing !== null) {
    console.log(`\nService overhead: not measured: ${missing}`);
    return { targets: unmeasured(missing) };
  }

  const page = newsPage(PAGE_BYTES);
  const upstream = await startUpstream(page, options.upstreamDelayMs);
  const schema = `bench_service_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-service-'));
  const adminToken = randomBytes(16).toString('hex');
  let server: RunningServer | null = null;
  /** The same service with its products on the event loop (`PRODUCT_THREADS=0`). */
  let inlineServer: RunningServer | null = null;
  let bare: Server | null = null;
  const fetcher = createFetcher({ testOnlyAllow: upstream.allow });
  // Stop everything and drop the schema, once: at the end, or when the run is interrupted.
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      await new Promise<void>((resolve) => {
        if (bare === null) return resolve();
        bare.close(() => resolve());
        bare.closeAllConnections();
      });
      await server?.close();
      await inlineServer?.close();
      await fetcher.close();
      await upstream.close();
      const db = await openDatabase({ url: databaseUrl, dataDir: null });
      await db.exec(dropSchemasSql(schema));
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const stopCleanupOnSignal = cleanupOnSignal(cleanup);
  try {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: withApplicationName(databaseUrl),
        DATA_DIR: dataDir,
        SIGNER_PRIVATE_KEY: SIGNER_KEY,
        SAFE_FETCH_ALLOW: upstream.allow,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN: adminToken,
        ENTERPRISE_PER_MINUTE: '1000000',
      },
      dataDir,
    );
    server = await startServer(config, { schema, logger: silentLogger() });
    // Same schema, so the same key works on both.
    inlineServer = await startServer(
      { ...config, products: { ...config.products, threads: 0 } },
      { schema, logger: silentLogger() },
    );
    const { key, keyId } = await enterpriseKey(server.url, adminToken);
    const auth = { Authorization: `Bearer ${key}` };

    // The page as the server's fetcher hands it to a product.
    const fetched = await fetcher.fetch(upstream.url);
    if (!fetched.ok) throw new Error(`the loopback upstream failed: ${fetched.error}`);
    const doc = fetched.doc;

    // The floor: the bare route with the three proofs every paid answer carries.
    const floor = await signedBareNotarize(server.url, SIGNER_KEY, dataDir, { claim: true });
    bare = await listen(bareApp(doc, fetcher, server.url, floor));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const target = encodeURIComponent(upstream.url);
    const urls = {
      notarize: {
        door: `${server.url}/buy/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`,
        bare: `${bareUrl}/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`,
        floor: `${bareUrl}/buy/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`,
      },
      markdown: {
        door: `${server.url}/buy/markdown?url=${target}`,
        doorInline: `${inlineServer.url}/buy/markdown?url=${target}`,
        bare: `${bareUrl}/markdown?url=${target}`,
        bareFetch: `${bareUrl}/fetch/markdown?url=${target}`,
      },
      headers: {
        door: `${server.url}/buy/headers?url=${target}`,
        doorInline: null,
        bare: `${bareUrl}/headers?url=${target}`,
        bareFetch: `${bareUrl}/fetch/headers?url=${target}`,
      },
    };
    await checkSameAnswers(urls, auth);

    console.log(
      `\nService overhead (${machine()}, ${cpus().length} cores; wrk -t${THREADS}, the server, ` +
        `the bare app, the upstream and PostgreSQL share the cores; each wrk run ${timing.seconds} s ` +
        `after a ${timing.warmup} s warm-up; products on ${config.products.threads} product ` +
        `thread(s); load average at start ${loadText()})`,
    );
    console.log(
      `upstream page: ${page.name}, ${page.bytes.length} B, served from a worker thread on ` +
        `127.0.0.1${options.upstreamDelayMs > 0 ? `, each answer ${options.upstreamDelayMs} ms late` : ''}`,
    );

    // Requests wrk left in flight still run after it stops; each run starts once they are done.
    const health = `${server.url}/healthz`;
    let doorRequests = 0;
    const wrk = async (side: string, url: string, door: boolean, connections = CONNECTIONS) => {
      const headers = door ? auth : {};
      const warm = await runWrk({
        url,
        headers,
        threads: THREADS,
        connections,
        seconds: timing.warmup,
      });
      await settle(health);
      const result = await runWrk({
        url,
        headers,
        threads: THREADS,
        connections,
        seconds: timing.seconds,
      });
      await settle(health);
      for (const r of [warm, result]) {
        if (r.badStatus > 0) {
          throw new Error(`${side}: ${r.badStatus} answers with a status above 399 from ${url}`);
        }
      }
      if (door) doorRequests += warm.requests + result.requests;
      return wrkRow(side, connections, timing.seconds, result);
    };

    // Each comparison runs `rounds` times, its sides back to back; targets pair the sides
    // by round, so a busy moment on the shared machine weighs on both sides of a pair.
    const tag = (side: string, round: number) => (timing.rounds > 1 ? `${side} #${round}` : side);

    // 1. Notarize: inline content, no fetch.
    const notarizeInProcess = inProcess(
      'notarize() in-process',
      () =>
        notarize(
          { content: NOTARIZE_CONTENT, witnessedAt: WITNESSED_AT },
          { baseUrl: server!.url },
        ),
      timing.inProcessSeconds,
    );
    const n: { bare: Row; floor: Row; door: Row; bare1: Row; door1: Row }[] = [];
    for (let round = 1; round <= timing.rounds; round++) {
      const bareSide = tag('bare Express + notarize()', round);
      const floorSide = tag('the floor: bare + receipt, claim, RFC 9421', round);
      const doorSide = tag('key door /buy/notarize', round);
      n.push({
        bare: await wrk(bareSide, urls.notarize.bare, false),
        floor: await wrk(floorSide, urls.notarize.floor, false),
        door: await wrk(doorSide, urls.notarize.door, true),
        bare1: await wrk(bareSide, urls.notarize.bare, false, 1),
        door1: await wrk(doorSide, urls.notarize.door, true, 1),
      });
    }
    printRows(`1. /buy/notarize?content=<${Buffer.byteLength(NOTARIZE_CONTENT)} B>`, [
      notarizeInProcess,
      ...n.flatMap((r) => [r.bare, r.floor, r.door]),
      ...n.flatMap((r) => [r.bare1, r.door1]),
    ]);
    const overhead = mean(n.map((r) => r.door.p50Ms - r.bare.p50Ms));
    const overhead1 = mean(n.map((r) => r.door1.p50Ms - r.bare1.p50Ms));
    const doorRate = mean(n.map((r) => r.door.perSecond));
    // Each round's key door against the bare route run just before it.
    const rateRatio = mean(n.map((r) => r.door.perSecond / r.bare.perSecond));
    const floorRatio = mean(n.map((r) => r.floor.perSecond / r.bare.perSecond));
    // µs a request at 50 connections (1 / throughput): what the key door adds beyond the
    // floor, against what a whole bare Express request takes. The letter's 0.5x allows
    // the key door one bare request beyond bare Express; this allows it the same beyond
    // the floor, and is the letter itself when the proofs cost nothing.
    const perRequestUs = (rate: number) => 1e6 / rate;
    const beyondFloor = mean(
      n.map((r) => perRequestUs(r.door.perSecond) - perRequestUs(r.floor.perSecond)),
    );
    const bareRequest = mean(n.map((r) => perRequestUs(r.bare.perSecond)));
    console.log(
      `p50 key door - bare: ${fmt(overhead)} ms at ${CONNECTIONS} connections, ` +
        `${fmt(overhead1)} ms at 1 connection (no queueing); key door ${fmt(doorRate)} req/s ` +
        `at ${CONNECTIONS} connections (means over ${timing.rounds} round(s))`,
    );

    // 2. and 3. Products on a fetched page.
    const products = [
      { name: 'markdown' as const, call: 'toMarkdown', run: (d: FetchedDocument) => toMarkdown(d) },
      {
        name: 'headers' as const,
        call: 'inspectHeaders',
        run: (d: FetchedDocument) => inspectHeaders(d),
      },
    ];
    const fetchRow = await inProcessAsync(
      'safe-fetch of the page in-process',
      () => fetcher.fetch(upstream.url),
      Math.min(timing.inProcessSeconds, 3),
    );
    const adds: Record<string, { fetched: number; bytes: number }> = {};
    for (const [i, product] of products.entries()) {
      const route = urls[product.name];
      const rounds: {
        own: Row;
        fetchAndOwn: Row;
        bare: Row;
        bareFetch: Row;
        door: Row;
        bareFetch1: Row;
        door1: Row;
        inline: { door1: Row; door: Row } | null;
      }[] = [];
      // Each round measures the in-process sides right before the key door, so a busy
      // moment on the shared machine weighs on both sides of a ratio.
      for (let round = 1; round <= timing.rounds; round++) {
        const bareFetchSide = tag(`bare Express + safe-fetch + ${product.call}`, round);
        const doorSide = tag(`key door /buy/${product.name}`, round);
        const own = inProcess(
          tag(`${product.call}(doc) in-process`, round),
          () => product.run(freshDocument(doc)),
          timing.inProcessSeconds,
        );
        // The product's own cost for a URL: the fetch and the product, no server around them.
        const fetchAndOwn = await inProcessAsync(
          tag(`safe-fetch + ${product.call} in-process`, round),
          async () => {
            const got = await fetcher.fetch(upstream.url, ROUTE_FETCH[product.name]);
            if (!got.ok) throw new Error(`fetch failed: ${got.error}`);
            return product.run(got.doc);
          },
          timing.inProcessSeconds,
        );
        const door1 = await wrk(doorSide, route.door, true, 1);
        const bareFetch1 = await wrk(bareFetchSide, route.bareFetch, false, 1);
        // The same door with the product on the event loop: what the product threads change.
        const inlineSide = tag(`key door, product on the event loop`, round);
        const inline =
          route.doorInline === null
            ? null
            : {
                door1: await wrk(inlineSide, route.doorInline, true, 1),
                door: await wrk(inlineSide, route.doorInline, true),
              };
        rounds.push({
          own,
          fetchAndOwn,
          door1,
          bareFetch1,
          inline,
          bare: await wrk(
            tag(`bare Express + ${product.call} on fetched bytes`, round),
            route.bare,
            false,
          ),
          bareFetch: await wrk(bareFetchSide, route.bareFetch, false),
          door: await wrk(doorSide, route.door, true),
        });
      }
      printRows(`${i + 2}. /buy/${product.name}?url=<loopback ${page.bytes.length} B page>`, [
        fetchRow,
        ...rounds.flatMap((r) => [r.own, r.fetchAndOwn]),
        ...rounds.flatMap((r) => [
          r.bare,
          r.bareFetch,
          r.door,
          ...(r.inline ? [r.inline.door] : []),
        ]),
        ...rounds.flatMap((r) => [r.bareFetch1, r.door1, ...(r.inline ? [r.inline.door1] : [])]),
      ]);
      const fetchedByRound = rounds.map((r) => r.door1.p50Ms / r.fetchAndOwn.p50Ms - 1);
      const bytesByRound = rounds.map((r) => r.door1.p50Ms / r.own.p50Ms - 1);
      const fetched = median(fetchedByRound);
      const bytes = median(bytesByRound);
      adds[product.name] = { fetched, bytes };
      console.log(
        `one call at a time (1 connection, p50), medians over ${timing.rounds} round(s): key door ` +
          `${fmt(median(rounds.map((r) => r.door1.p50Ms)))} ms; the product's own cost ` +
          `${fmt(median(rounds.map((r) => r.fetchAndOwn.p50Ms)))} ms for the URL (safe-fetch + ` +
          `${product.call}), ${fmt(median(rounds.map((r) => r.own.p50Ms)))} ms on bytes already ` +
          `fetched; bare Express + safe-fetch + ${product.call} ` +
          `${fmt(median(rounds.map((r) => r.bareFetch1.p50Ms)))} ms`,
      );
      console.log(
        `the service adds, round by round: ${fetchedByRound.map(pct).join(', ')} to the first ` +
          `(median ${pct(fetched)}); ${bytesByRound.map(pct).join(', ')} to the second ` +
          `(median ${pct(bytes)})`,
      );
      // The same comparison by throughput: the thread's time per request (1 / req/s).
      const perRequest = (side: 'bare' | 'bareFetch' | 'door') =>
        mean(rounds.map((r) => 1000 / r[side].perSecond));
      console.log(
        `under load (${CONNECTIONS} connections), ms per request = 1000 / req/s: bare product ` +
          `${fmt(perRequest('bare'))}, bare + safe-fetch ${fmt(perRequest('bareFetch'))}, key door ` +
          `${fmt(perRequest('door'))} (+${pct(perRequest('door') / perRequest('bareFetch') - 1)} over ` +
          `bare + safe-fetch); in-process safe-fetch + ${product.call} ${fmt(mean(rounds.map((r) => r.fetchAndOwn.meanMs)))} ms mean`,
      );
      const inlineRounds = rounds.flatMap((r) => (r.inline ? [r.inline] : []));
      if (inlineRounds.length > 0) {
        console.log(
          `product threads: key door ${fmt(mean(rounds.map((r) => r.door.perSecond)))} req/s at ` +
            `${CONNECTIONS} connections and ${fmt(median(rounds.map((r) => r.door1.p50Ms)))} ms p50 ` +
            `at 1; with the product on the event loop ${fmt(mean(inlineRounds.map((r) => r.door.perSecond)))} ` +
            `req/s and ${fmt(median(inlineRounds.map((r) => r.door1.p50Ms)))} ms`,
        );
      }
    }

    // 4. One call at a time, the sides alternated call by call.
    const alternations = [
      {
        title: `/buy/notarize?content=<${Buffer.byteLength(NOTARIZE_CONTENT)} B>`,
        calls: timing.alternatedCalls,
        sides: [
          { side: 'key door /buy/notarize', url: urls.notarize.door, door: true },
          { side: 'bare Express + notarize()', url: urls.notarize.bare, door: false },
        ],
      },
      {
        title: `/buy/markdown?url=<loopback ${page.bytes.length} B page>`,
        calls: Math.ceil(timing.alternatedCalls / 4),
        sides: [
          { side: 'key door /buy/markdown', url: urls.markdown.door, door: true },
          {
            side: 'key door, product on the event loop',
            url: urls.markdown.doorInline,
            door: true,
          },
          {
            side: 'bare Express + safe-fetch + toMarkdown',
            url: urls.markdown.bareFetch,
            door: false,
          },
        ],
      },
      {
        title: `/buy/headers?url=<loopback ${page.bytes.length} B page>`,
        calls: timing.alternatedCalls,
        sides: [
          { side: 'key door /buy/headers', url: urls.headers.door, door: true },
          {
            side: 'bare Express + safe-fetch + inspectHeaders',
            url: urls.headers.bareFetch,
            door: false,
          },
        ],
      },
    ];
    console.log(
      '\n4. One call at a time, the sides alternated call by call (a client in its own ' +
        'process calls each side in turn, one keep-alive connection per server)',
    );
    for (const alternation of alternations) {
      const measured = await alternate(
        alternation.sides.map((s) => s.url),
        auth,
        alternation.calls,
        Math.ceil(alternation.calls / 10),
      );
      doorRequests += alternation.sides.filter((s) => s.door).length * alternation.calls;
      printRows(
        alternation.title,
        alternation.sides.map((s, i) => {
          const m = measured[i] as Alternated;
          return {
            side: s.side,
            how: `alternated, ${m.calls} calls`,
            perSecond: 1000 / m.mean,
            p50Ms: m.p50,
            p99Ms: m.p99,
            meanMs: m.mean,
            count: m.calls,
            errors: '0',
          };
        }),
      );
      const [door, ...others] = measured as Alternated[];
      console.log(
        `p50 differences from the key door: ${alternation.sides
          .slice(1)
          .map(
            (s, i) =>
              `${s.side} ${signed((others[i] as Alternated).p50 - (door as Alternated).p50)} ms ` +
              `(${signed(((others[i] as Alternated).p50 / (door as Alternated).p50 - 1) * 100)} %)`,
          )
          .join('; ')}`,
      );
    }

    // Every key-door answer went through the reservation: the key's call count says so.
    console.log(`\nload average at the end: ${loadText()}`);
    const recorded = await keyCalls(server.url, adminToken, keyId);
    console.log(
      `key door calls recorded on the key: ${recorded} (wrk completed ${doorRequests}, ` +
        `plus answers still in flight when a run ended and the checks)`,
    );
    if (recorded < doorRequests) {
      throw new Error(`only ${recorded} calls were metered for ${doorRequests} answers`);
    }

    const markdownAdds = adds.markdown!;
    const headersAdds = adds.headers!;
    const targets: ServiceTarget[] = [
      {
        name: 'notarize: p50 key door - bare Express, 1 connection',
        goal: '< 2 ms',
        measured: `${fmt(overhead1)} ms (${CONNECTIONS} connections: ${fmt(overhead)} ms)`,
        met: overhead1 < 2,
      },
      {
        name: `notarize: key door throughput (${CONNECTIONS} connections)`,
        goal: '>= 1000 req/s',
        measured: `${fmt(doorRate)} req/s`,
        met: doorRate >= 1000,
      },
      {
        name: `notarize: key door / bare Express throughput (${CONNECTIONS} connections)`,
        goal: '>= 0.5x',
        measured:
          `${rateRatio.toFixed(2)}x (bare ${fmt(mean(n.map((r) => r.bare.perSecond)))} req/s; ` +
          `the floor alone ${floorRatio.toFixed(2)}x)`,
        met: rateRatio >= 0.5,
      },
      {
        name: `notarize: key door's time a request beyond the floor (${CONNECTIONS} connections)`,
        goal: '<= one bare Express request',
        measured:
          `${fmt(beyondFloor)} µs vs ${fmt(bareRequest)} µs (key door ${fmt(doorRate)}, ` +
          `floor ${fmt(mean(n.map((r) => r.floor.perSecond)))} req/s)`,
        met: beyondFloor <= bareRequest,
      },
      ...(['markdown', 'headers'] as const).map((name) => {
        const added = name === 'markdown' ? markdownAdds : headersAdds;
        return {
          name: `${name}: p50 key door / (safe-fetch + product) - 1, 1 connection`,
          goal: '<= 25 %',
          measured: `${pct(added.fetched)} (on fetched bytes: ${pct(added.bytes)})`,
          met: added.fetched <= 0.25,
        };
      }),
    ];
    printColumns(
      'Targets',
      ['target', 'measured', 'goal', 'result'],
      targets.map((t) => [t.name, t.measured, t.goal, t.met ? 'met' : 'NOT met']),
    );

    if (options.profile) {
      const sampler = await openDatabase({ url: databaseUrl, dataDir: null });
      try {
        const runs = [
          { name: 'notarize', url: urls.notarize.door, connections: CONNECTIONS },
          { name: 'notarize', url: urls.notarize.door, connections: 1 },
          { name: 'markdown', url: urls.markdown.door, connections: CONNECTIONS },
          { name: 'markdown', url: urls.markdown.door, connections: 1 },
          { name: 'headers', url: urls.headers.door, connections: CONNECTIONS },
        ];
        for (const { name, url, connections } of runs) {
          const file = join(
            tmpdir(),
            `storefront-service-${name}-c${connections}-${process.pid}.cpuprofile`,
          );
          let waits: WaitSummary | null = null;
          let run: WrkResult | null = null;
          const summary = await profileWhile(
            file,
            async () => {
              const sampled = await sampleWaits(sampler, APPLICATION_NAME, () =>
                runWrk({
                  url,
                  headers: auth,
                  threads: THREADS,
                  connections,
                  seconds: timing.seconds,
                }),
              );
              waits = sampled.waits;
              run = sampled.result;
            },
            PROFILE_GROUPS,
          );
          await settle(health);
          printProfile(
            `/buy/${name} key door, wrk -t${THREADS} -c${connections}`,
            summary,
            run,
            waits,
          );
        }
      } finally {
        await sampler.close();
      }
    }
    return { targets };
  } finally {
    stopCleanupOnSignal();
    await cleanup();
  }
}

/** The bare comparison app: the same product work, unsigned, unmetered, no middleware. */
function bareApp(
  doc: FetchedDocument,
  fetcher: Fetcher,
  baseUrl: string,
  floor: Awaited<ReturnType<typeof signedBareNotarize>>,
) {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.get('/notarize', bareNotarize(baseUrl));
  // The floor answers on the key door's path, so its claim names the same endpoint.
  app.get('/buy/notarize', floor);
  const products = {
    markdown: (d: FetchedDocument) => toMarkdown(d),
    headers: (d: FetchedDocument) => inspectHeaders(d),
  };
  for (const [name, product] of Object.entries(products)) {
    // The product on the bytes fetched once at start-up: no fetch, no metering, no signing.
    app.get(`/${name}`, (_req, res) => {
      res.json(documentBody(doc, product(freshDocument(doc))));
    });
    // The same with a fresh safe-fetch per request, as the key door does.
    app.get(`/fetch/${name}`, async (req, res) => {
      const got = await fetcher.fetch(
        String(req.query.url ?? ''),
        ROUTE_FETCH[name as keyof typeof ROUTE_FETCH],
      );
      if (!got.ok) throw new Error(`fetch failed: ${got.error}`);
      res.json(documentBody(got.doc, product(got.doc)));
    });
  }
  return app;
}

/**
 * The fetch each route makes, so every side fetches as the key door does: the headers
 * audit reads only the response head (`body: false`).
 */
const ROUTE_FETCH = {
  markdown: undefined,
  headers: { body: false },
} as const satisfies Record<string, FetchInit | undefined>;

/** The answer shape of the service's document routes, without the attestation. */
function documentBody(
  doc: FetchedDocument,
  result: { ok: true; text: string; data: unknown } | { ok: false; error: string },
): Record<string, unknown> {
  if (!result.ok) throw new Error(`product failed: ${result.error}`);
  return {
    ok: true,
    url: doc.url,
    status: doc.status,
    text: result.text,
    fetchedAt: doc.fetchedAt,
    data: result.data,
  };
}

/**
 * A new `FetchedDocument` object with the same fields: products keep their parse on the
 * document object, so every call gets a fresh one, as every request does in the server.
 */
function freshDocument(doc: FetchedDocument): FetchedDocument {
  return {
    requestedUrl: doc.requestedUrl,
    url: doc.url,
    status: doc.status,
    headers: doc.headers,
    contentType: doc.contentType,
    bytes: doc.bytes,
    truncated: doc.truncated,
    redirects: doc.redirects,
    fetchedAt: doc.fetchedAt,
  };
}

interface Answer {
  ok: boolean;
  text: string;
  data: Record<string, unknown>;
  attestation?: unknown;
}

/**
 * Before timing anything: each side answers 200 with the same product output, and the
 * key door answers signed and unmetered (`Storefront-Charge: unmetered;credits=0`).
 */
async function checkSameAnswers(
  urls: Record<string, { door: string; bare: string; bareFetch?: string; floor?: string }>,
  auth: Record<string, string>,
): Promise<void> {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const answer = await fetch(url, { headers });
    const body = (await answer.json()) as Answer;
    if (answer.status !== 200 || body.ok !== true) {
      throw new Error(`${url} answered ${answer.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    return { body, charge: answer.headers.get('storefront-charge') };
  };
  for (const [name, route] of Object.entries(urls)) {
    const door = await get(route.door, auth);
    if (door.body.attestation === undefined) throw new Error(`${name}: no attestation`);
    if (door.charge !== 'unmetered;credits=0') {
      throw new Error(`${name}: Storefront-Charge is ${door.charge}, expected an enterprise key`);
    }
    const sides = [await get(route.bare)];
    if (route.bareFetch !== undefined) sides.push(await get(route.bareFetch));
    if (route.floor !== undefined) {
      const floor = await fetch(route.floor);
      const proofs = ['signature-input', 'response-provenance', 'content-digest'];
      if (proofs.some((name) => floor.headers.get(name) === null)) {
        throw new Error(`${name}: the floor's answer lacks one of ${proofs.join(', ')}`);
      }
      const body = (await floor.json()) as Answer;
      if (body.attestation === undefined) throw new Error(`${name}: the floor has no receipt`);
      sides.push({ body, charge: null });
    }
    for (const side of sides) {
      const same =
        name === 'notarize'
          ? side.body.data.contentHash === door.body.data.contentHash
          : side.body.text === door.body.text &&
            JSON.stringify(side.body.data) === JSON.stringify(door.body.data);
      if (!same) throw new Error(`${name}: the bare route's answer differs from the key door's`);
    }
  }
}

/**
 * Wait until the service answers `/healthz` (a database round trip) within 20 ms twice in a
 * row: the answers wrk abandoned at the end of a run have been worked off and the pool is
 * free. Gives up after 30 s.
 */
async function settle(healthUrl: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  let quick = 0;
  while (quick < 2 && performance.now() < deadline) {
    const start = performance.now();
    await (await fetch(healthUrl)).arrayBuffer();
    quick = performance.now() - start < 20 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function listen(app: ReturnType<typeof express>): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** One side of an alternated run, as `lib/alternate.mjs` reports it. */
interface Alternated {
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly calls: number;
}

/** Run `lib/alternate.mjs` in its own process over `urls`. */
async function alternate(
  urls: readonly string[],
  headers: Readonly<Record<string, string>>,
  calls: number,
  warmup: number,
): Promise<Alternated[]> {
  const script = fileURLToPath(new URL('./lib/alternate.mjs', import.meta.url));
  const { stdout } = await execFileAsync(
    process.execPath,
    [script, JSON.stringify({ urls, headers, calls, warmup })],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Alternated[];
}

function wrkRow(side: string, connections: number, seconds: number, r: WrkResult): Row {
  return {
    side,
    how: `wrk -t${THREADS} -c${connections} -d${seconds}s`,
    perSecond: r.requestsPerSecond,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    meanMs: r.meanMs,
    count: r.requests,
    errors: String(r.socketErrors + r.badStatus),
  };
}

/** Call `fn` back to back on this thread for `seconds` (after a short warm-up), timing each call. */
function inProcess(side: string, fn: () => unknown, seconds: number): Row {
  const until = (ms: number) => {
    const times: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end || times.length < 20) {
      const start = performance.now();
      fn();
      times.push(performance.now() - start);
    }
    return times;
  };
  until(Math.max(200, seconds * 100));
  return inProcessRow(side, until(seconds * 1000));
}

/** {@link inProcess} for an async call, one at a time. */
async function inProcessAsync(
  side: string,
  fn: () => Promise<unknown>,
  seconds: number,
): Promise<Row> {
  const until = async (ms: number) => {
    const times: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end || times.length < 20) {
      const start = performance.now();
      await fn();
      times.push(performance.now() - start);
    }
    return times;
  };
  await until(Math.max(200, seconds * 100));
  return inProcessRow(side, await until(seconds * 1000));
}

function inProcessRow(side: string, times: number[]): Row {
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = sorted.reduce((s, t) => s + t, 0) / sorted.length;
  return {
    side,
    how: 'in-process, 1 at a time',
    perSecond: 1000 / mean,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    meanMs: mean,
    count: sorted.length,
    errors: '-',
  };
}

function printRows(title: string, rows: readonly Row[]): void {
  printColumns(
    title,
    ['side', 'measured with', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'requests', 'errors'],
    rows.map((r) => [
      r.side,
      r.how,
      r.perSecond.toFixed(0),
      fmt(r.p50Ms),
      fmt(r.p99Ms),
      fmt(r.meanMs),
      String(r.count),
      r.errors,
    ]),
    2,
  );
}

function printProfile(
  title: string,
  p: ProfileSummary,
  run: WrkResult | null,
  waits: WaitSummary | null,
): void {
  const requests = run?.requests ?? 0;
  const during =
    run === null
      ? ''
      : `; during it ${run.requestsPerSecond.toFixed(0)} req/s, p50 ${fmt(run.p50Ms)} ms, ` +
        `${((p.busyMs * 1000) / Math.max(1, requests)).toFixed(0)} µs busy per request`;
  console.log(
    `\nCPU profile of the server's thread, ${title}: ${(p.wallMs / 1000).toFixed(1)} s, ` +
      `busy ${pct(p.busyMs / p.wallMs)}, idle ${pct(p.idleMs / p.wallMs)}${during}\n(${p.file})`,
  );
  const rows = (entries: ProfileSummary['areas']) =>
    entries.map((e) => [
      e.name,
      e.ms.toFixed(0),
      ((e.ms * 1000) / Math.max(1, requests)).toFixed(0),
      pct(e.share),
    ]);
  const header = (first: string) => [first, 'ms', 'µs/request', 'of busy'];
  printColumns(
    'inclusive time of chosen functions',
    header('function (and what it calls)'),
    rows(p.inclusive.filter((e) => e.ms > 0)),
  );
  printColumns('self time by area', header('area'), rows(p.areas));
  printColumns('top functions by self time', header('function'), rows(p.functions));
  if (waits !== null) {
    printColumns(
      `the service's PostgreSQL connections (pool of 10), mean over ${waits.samples} samples of pg_stat_activity`,
      ['state', 'connections'],
      waits.states.map((w) => [w.state, w.connections.toFixed(2)]),
    );
  }
}

/** The database URL with the service's connections named, so they can be found in pg_stat_activity. */
function withApplicationName(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', APPLICATION_NAME);
  return parsed.href;
}

function unmeasured(reason: string): ServiceTarget[] {
  return [
    'notarize: p50 key door - bare Express, 1 connection',
    'notarize: key door throughput',
    'notarize: key door / bare Express throughput',
    "notarize: key door's time a request beyond the floor",
    'markdown: p50 key door / (safe-fetch + product) - 1, 1 connection',
    'headers: p50 key door / (safe-fetch + product) - 1, 1 connection',
  ].map((name) => ({ name, goal: '-', measured: `not measured (${reason})`, met: null }));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 && share > -0.1 ? 1 : 0)} %`;
}
