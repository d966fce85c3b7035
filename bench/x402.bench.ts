import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FacilitatorTimer, timeFacilitator } from './lib/facilitator-timer.js';
import { cleanupOnSignal } from './lib/interrupt.js';
import { type PaymentStackThread, startPaymentStackThread } from './lib/payment-stack.js';
import { machine, printColumns } from './lib/report.js';
import {
  dropSchemasSql,
  loadConfig,
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
import { newsPage, startUpstream, type Upstream } from './lib/service-site.js';
import type { ClientReply, ClientRequest, RunResult, RunSpec, Side } from './lib/x402-client.js';

/** Bytes of the page the loopback upstream serves (the service benchmark's page). */
const PAGE_BYTES = 50_000;
/** Calls in flight: one at a time, and a few together. */
const CONCURRENCY = [1, 4] as const;
const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** The sides, in the order each comparison runs them. */
const SIDES: readonly { readonly side: Side; readonly label: string }[] = [
  { side: 'key', label: 'key door (Authorization: Bearer)' },
  { side: 'presigned', label: 'x402, pre-signed PAYMENT-SIGNATURE' },
  { side: 'fetch', label: 'x402 via @x402/fetch (402 round trip + signing)' },
];

/** Options of {@link x402Benchmark}. */
export interface X402Options {
  readonly quick: boolean;
}

/** One measured run: a side of one route at one concurrency. */
interface Measured {
  readonly route: string;
  readonly side: Side;
  readonly label: string;
  readonly concurrency: number;
  readonly run: RunResult;
  /** The service's facilitator requests during the run (empty for the key door). */
  readonly verify: number[];
  readonly settle: number[];
}

/**
 * A paid call through the x402 door next to the same call through the key door, on the
 * real server with the development payment stack: the whole call as a user of the
 * official client sees it, the server's part with payments signed beforehand, and the
 * facilitator's `/verify` and `/settle` as the server waits for them. See README.md,
 * "x402 door next to the key door", for the method.
 */
export async function x402Benchmark(options: X402Options): Promise<void> {
  const calls = options.quick ? 100 : 500;
  const warmup = options.quick ? 10 : 25;
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const schema = `bench_x402_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-x402-'));
  const adminToken = randomBytes(16).toString('hex');

  let stack: PaymentStackThread | null = null;
  let upstream: Upstream | null = null;
  let server: RunningServer | null = null;
  let client: Client | null = null;
  let timer: FacilitatorTimer | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      client?.close();
      timer?.restore();
      await server?.close();
      await upstream?.close();
      await stack?.close();
      if (databaseUrl !== '') {
        const db = await openDatabase({ url: databaseUrl, dataDir: null });
        await db.exec(dropSchemasSql(schema));
        await db.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const stopCleanupOnSignal = cleanupOnSignal(cleanup);
  try {
    stack = await startPaymentStackThread();
    const page = newsPage(PAGE_BYTES);
    upstream = await startUpstream(page);
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        ...(databaseUrl === '' ? {} : { DATABASE_URL: databaseUrl }),
        DATA_DIR: dataDir,
        SIGNER_PRIVATE_KEY: SIGNER_KEY,
        SAFE_FETCH_ALLOW: upstream.allow,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN: adminToken,
        ENTERPRISE_PER_MINUTE: '1000000',
        FACILITATOR_URL: stack.facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
      },
      dataDir,
    );
    timer = timeFacilitator();
    server = await startServer(config, {
      ...(databaseUrl === '' ? {} : { schema }),
      logger: silentLogger(),
    });
    const { key, keyId } = await enterpriseKey(server.url, adminToken);
    const authorization = `Bearer ${key}`;
    const routes = [
      {
        name: 'notarize',
        title: `/buy/notarize?content=<${Buffer.byteLength(NOTARIZE_CONTENT)} B>`,
        url: `${server.url}/buy/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`,
      },
      {
        name: 'markdown',
        title: `/buy/markdown?url=<loopback ${page.bytes.length} B page>`,
        url: `${server.url}/buy/markdown?url=${encodeURIComponent(upstream.url)}`,
      },
    ];
    const prices = new Map<string, bigint>();
    for (const route of routes) prices.set(route.name, await priceOf(route.url));

    // Every x402 call below settles: the payer must hold enough for all of them.
    const paidCalls = 2 * CONCURRENCY.length * (calls + warmup);
    const needed = routes.reduce(
      (sum, r) => sum + (prices.get(r.name) ?? 0n) * BigInt(paidCalls),
      0n,
    );
    const held = await stack.balanceOf(stack.payer.address);
    if (held < needed) await stack.mint(stack.payer.address, needed - held);
    const payToBefore = await stack.balanceOf(stack.payTo);

    client = startClient(stack.payer.privateKey);
    console.log(
      `\nx402 door next to the key door (${machine()}, ${cpus().length} cores; the server, the ` +
        `payment stack (ganache + facilitator) and the upstream on their own threads, the ` +
        `client in its own process and ${databaseUrl === '' ? 'PGlite' : 'PostgreSQL'} share the ` +
        `cores; ${calls} calls per side after ${warmup} warm-up calls; products on ` +
        `${config.products.threads} product thread(s); load average at start ${loadText()})`,
    );
    console.log(
      `payment stack: ${stack.network}, test USDC ${stack.asset}; prices: ` +
        routes.map((r) => `${r.name} ${prices.get(r.name)} units`).join(', '),
    );

    const measured: Measured[] = [];
    const counts = { key: 0, paid: new Map<string, number>() };
    for (const route of routes) {
      for (const concurrency of CONCURRENCY) {
        for (const { side, label } of SIDES) {
          const spec: RunSpec = { side, url: route.url, calls, concurrency, authorization };
          await client.run({ ...spec, calls: warmup });
          timer.take();
          const run = await client.run(spec);
          const { verify, settle } = timer.take();
          measured.push({ route: route.name, side, label, concurrency, run, verify, settle });
          if (side === 'key') counts.key += warmup + calls;
          else counts.paid.set(route.name, (counts.paid.get(route.name) ?? 0) + warmup + calls);
        }
      }
      printRoute(
        route.title,
        measured.filter((m) => m.route === route.name),
      );
    }

    // The numbers count only if every paid call was settled on chain and every key call
    // was metered.
    console.log(`\nload average at the end: ${loadText()}`);
    const expected = routes.reduce(
      (sum, r) => sum + (prices.get(r.name) ?? 0n) * BigInt(counts.paid.get(r.name) ?? 0),
      0n,
    );
    const received = (await stack.balanceOf(stack.payTo)) - payToBefore;
    const states = await paymentStates(server);
    const paid = [...counts.paid.values()].reduce((a, b) => a + b, 0);
    const recorded = await keyCalls(server.url, adminToken, keyId);
    console.log(
      `paid calls ${paid}: payTo received ${received} units (expected ${expected}); ` +
        `x402_payments rows by state: ${formatStates(states)}; key door calls ${counts.key}, ` +
        `recorded on the key ${recorded}`,
    );
    if (received !== expected || states.settled !== paid || Object.keys(states).length !== 1) {
      throw new Error('not every paid call was settled once: the numbers above do not count');
    }
    if (recorded < counts.key) {
      throw new Error(`only ${recorded} key door calls were metered for ${counts.key} answers`);
    }
  } finally {
    stopCleanupOnSignal();
    await cleanup();
  }
}

/** The client process (`lib/x402-client.ts`), one run at a time. */
export interface Client {
  run(spec: RunSpec): Promise<RunResult>;
  close(): void;
}

export function startClient(payerKey: `0x${string}`): Client {
  const script = fileURLToPath(new URL('./lib/x402-client.ts', import.meta.url));
  // The parent's flags (tsx, the `@storefront/source` condition) load the TypeScript client.
  const child: ChildProcess = fork(script, [JSON.stringify({ payerKey })], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  return {
    run(spec) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const onExit = (code: number | null) =>
          reject(new Error(`the client process exited (${code}) during a run`));
        const onMessage = (reply: ClientReply) => {
          if (reply.id !== id) return;
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (reply.ok) resolve(reply.result);
          else reject(new Error(`${spec.side} run: ${reply.error}`));
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send({ id, run: spec } satisfies ClientRequest);
      });
    },
    close() {
      if (child.connected) child.disconnect();
    },
  };
}

/** The price of a call to `url` in atomic units, from the terms of its 402 answer. */
async function priceOf(url: string): Promise<bigint> {
  const answer = await fetch(url);
  const body = (await answer.json()) as { accepts?: { amount?: string }[] };
  const amount = body.accepts?.[0]?.amount;
  if (answer.status !== 402 || amount === undefined) {
    throw new Error(`${url} answered ${answer.status} without payment terms`);
  }
  return BigInt(amount);
}

/** `x402_payments` rows by state. */
async function paymentStates(server: RunningServer): Promise<Record<string, number>> {
  const { rows } = await server.db.query<{ state: string; n: number }>(
    'SELECT state, count(*)::int AS n FROM x402_payments GROUP BY state',
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

function formatStates(states: Record<string, number>): string {
  const entries = Object.entries(states);
  return entries.length === 0 ? 'none' : entries.map(([s, n]) => `${s} ${n}`).join(', ');
}

/** One route's table, then what x402 adds over the key door, by concurrency. */
function printRoute(title: string, rows: readonly Measured[]): void {
  const cell = (values: readonly number[], q: number) =>
    values.length === 0 ? '-' : fmt(quantile(values, q));
  printColumns(
    title,
    [
      'side',
      'in flight',
      'calls',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'calls/s',
      'verify p50',
      'verify p99',
      'settle p50',
      'settle p99',
    ],
    rows.map((m) => [
      m.label,
      String(m.concurrency),
      String(m.run.times.length),
      fmt(quantile(m.run.times, 0.5)),
      fmt(quantile(m.run.times, 0.99)),
      fmt(mean(m.run.times)),
      ((m.run.times.length * 1000) / m.run.wallMs).toFixed(1),
      cell(m.verify, 0.5),
      cell(m.verify, 0.99),
      cell(m.settle, 0.5),
      cell(m.settle, 0.99),
    ]),
  );
  for (const concurrency of CONCURRENCY) {
    const at = (side: Side) => rows.find((m) => m.side === side && m.concurrency === concurrency);
    const key = at('key');
    const presigned = at('presigned');
    const viaFetch = at('fetch');
    if (key === undefined || presigned === undefined || viaFetch === undefined) continue;
    const p50 = (m: Measured) => quantile(m.run.times, 0.5);
    // Each paid call waits for one verify and one settle, so the means add up exactly.
    const verify = mean(presigned.verify);
    const settle = mean(presigned.settle);
    const rest = mean(presigned.run.times) - verify - settle;
    console.log(
      `${concurrency} in flight: x402 pre-signed p50 ${fmt(p50(presigned))} ms, ` +
        `${signed(p50(presigned) - p50(key))} ms over the key door's ${fmt(p50(key))} ms; its mean ` +
        `${fmt(mean(presigned.run.times))} ms = facilitator verify ${fmt(verify)} + settle ` +
        `${fmt(settle)} (${pct((verify + settle) / mean(presigned.run.times))}) + the rest ` +
        `${fmt(rest)} ms (the service's own work and the hops; key door mean ` +
        `${fmt(mean(key.run.times))} ms); @x402/fetch p50 ${fmt(p50(viaFetch))} ms ` +
        `(${signed(p50(viaFetch) - p50(presigned))} ms over pre-signed), of which the 402 round ` +
        `trip and the signing before the paid request take ` +
        `${fmt(quantile(viaFetch.run.beforePaidMs, 0.5))} ms at p50 (signing alone ` +
        `${fmt(quantile(presigned.run.signMs, 0.5))} ms)`,
    );
  }
}

/** The value at quantile `q` of `values` (nearest rank, as the service benchmark's). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(0)} %`;
}
