import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { enterpriseKey, fmt, loadText, NOTARIZE_CONTENT, signed } from './lib/service-calls.js';
import type { RunResult, Side } from './lib/x402-client.js';
import { type Client, mean, quantile, startClient } from './x402.bench.js';

const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** Channels of the one payer calling at once (each one call at a time, as the scheme requires). */
const LANES = [1, 4, 8] as const;
/** The goals of issue 28 (bench/README.md, "x402 batch settlement"). */
const GOAL_CALLS_PER_SECOND = 200;
const GOAL_P50_OVERHEAD_MS = 5;

/** Options of {@link x402BatchBenchmark}. */
export interface X402BatchOptions {
  readonly quick: boolean;
}

interface Measured {
  readonly side: Side;
  readonly lanes: number;
  readonly run: RunResult;
}

/**
 * x402 `batch-settlement` next to the key door and to `exact`, on the real server with
 * the development payment stack: one payer, one deposit per channel, then a voucher per
 * call; afterwards the vouchers are redeemed and the books compared with the chain. See
 * README.md, "x402 batch settlement", for the method.
 */
export async function x402BatchBenchmark(options: X402BatchOptions): Promise<void> {
  const calls = options.quick ? 400 : 2000;
  const warmup = options.quick ? 20 : 50;
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const schema = `bench_x402b_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-x402-batch-'));
  const adminToken = randomBytes(16).toString('hex');

  let stack: PaymentStackThread | null = null;
  let server: RunningServer | null = null;
  let client: Client | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      client?.close();
      await server?.close();
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
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        ...(databaseUrl === '' ? {} : { DATABASE_URL: databaseUrl }),
        DATA_DIR: dataDir,
        SIGNER_PRIVATE_KEY: SIGNER_KEY,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN: adminToken,
        ENTERPRISE_PER_MINUTE: '1000000',
        FACILITATOR_URL: stack.facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        // Redeemed a few seconds after each channel's first voucher: during the runs.
        X402_BATCH_REDEEM_SECONDS: '5',
      },
      dataDir,
    );
    server = await startServer(config, {
      ...(databaseUrl === '' ? {} : { schema }),
      logger: silentLogger(),
    });
    await server.ready();
    const { key } = await enterpriseKey(server.url, adminToken);
    const url = `${server.url}/buy/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`;
    const price = 8000n;
    // Each lane deposits for 2,000 calls on its first call.
    const deposits = BigInt(LANES.reduce((a, b) => a + b, 0) * 2) * 2000n * price;
    await stack.mint(stack.payer.address, deposits + BigInt(calls + warmup) * price);
    const payToBefore = await stack.balanceOf(stack.payTo);

    client = startClient(stack.payer.privateKey);
    console.log(
      `\nx402 batch settlement (${machine()}, ${cpus().length} cores; the server, the payment ` +
        `stack (ganache + facilitator) on their own threads, the client in its own process and ` +
        `${databaseUrl === '' ? 'PGlite' : 'PostgreSQL'} share the cores; /buy/notarize ` +
        `(${price} units a call); ${calls} calls per run after ${warmup} warm-up calls; one payer, ` +
        `one channel per lane; load average at start ${loadText()})`,
    );
    const measured: Measured[] = [];
    let batchCalls = 0;
    const sides: readonly Side[] = ['key', 'batch'];
    for (const lanes of LANES) {
      for (const side of sides) {
        const spec = { side, url, calls, concurrency: lanes, authorization: `Bearer ${key}` };
        await client.run({ ...spec, calls: warmup });
        const run = await client.run(spec);
        measured.push({ side, lanes, run });
        if (side === 'batch') batchCalls += warmup + calls;
      }
    }
    const exactRun = await client.run({
      side: 'presigned',
      url,
      calls: options.quick ? 50 : 200,
      concurrency: 1,
    });
    printColumns(
      '/buy/notarize, one payer',
      ['side', 'in flight', 'calls', 'p50 ms', 'p99 ms', 'mean ms', 'calls/s'],
      [
        ...measured.map((m) => row(m.side === 'key' ? 'key door' : 'x402 batch-settlement', m)),
        row('x402 exact (pre-signed, for comparison)', {
          side: 'presigned',
          lanes: 1,
          run: exactRun,
        }),
      ],
    );
    const at = (side: Side, lanes: number) =>
      measured.find((m) => m.side === side && m.lanes === lanes) as Measured;
    const p50 = (m: Measured) => quantile(m.run.times, 0.5);
    const overhead = p50(at('batch', 1)) - p50(at('key', 1));
    const best = Math.max(...LANES.map((lanes) => rate(at('batch', lanes))));
    console.log(
      `1 in flight: batch-settlement p50 ${fmt(p50(at('batch', 1)))} ms, ${signed(overhead)} ms over ` +
        `the key door's ${fmt(p50(at('key', 1)))} ms (goal ≤ ${GOAL_P50_OVERHEAD_MS} ms: ` +
        `${overhead <= GOAL_P50_OVERHEAD_MS ? 'met' : 'NOT met'}); of which the client's voucher ` +
        `signing ${fmt(quantile(at('batch', 1).run.signMs, 0.5))} ms; exact pre-signed p50 ` +
        `${fmt(quantile(exactRun.times, 0.5))} ms`,
    );
    console.log(
      `most paid calls/s from one payer: ${best.toFixed(0)} (goal ≥ ${GOAL_CALLS_PER_SECOND}: ` +
        `${best >= GOAL_CALLS_PER_SECOND ? 'met' : 'NOT met'}); exact at 1 in flight ` +
        `${rate({ side: 'presigned', lanes: 1, run: exactRun }).toFixed(1)}/s`,
    );

    // The books: every delivered call booked once, every booked voucher redeemed, no more.
    const exactPaid = BigInt(exactRun.times.length + 0) * price;
    const booked = await server.db.query<{ n: string; total: string }>(
      'SELECT count(*)::text AS n, COALESCE(sum(amount), 0)::text AS total FROM x402_vouchers',
    );
    const bookedCalls = Number(booked.rows[0]?.n ?? 0);
    const bookedTotal = BigInt(booked.rows[0]?.total ?? 0);
    const started = Date.now();
    let received = 0n;
    for (;;) {
      received = (await stack.balanceOf(stack.payTo)) - payToBefore;
      if (received >= bookedTotal + exactPaid || Date.now() - started > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(
      `books: ${batchCalls} batch calls answered, ${bookedCalls} booked (${bookedTotal} units); ` +
        `payTo received ${received} units = redeemed vouchers ${received - exactPaid} + exact ` +
        `${exactPaid}; load average at the end ${loadText()}`,
    );
    if (bookedCalls !== batchCalls || received - exactPaid !== bookedTotal) {
      throw new Error('the books and the chain disagree: the numbers above do not count');
    }
  } finally {
    stopCleanupOnSignal();
    await cleanup();
  }
}

function rate(m: Measured): number {
  return (m.run.times.length * 1000) / m.run.wallMs;
}

function row(label: string, m: Measured): string[] {
  return [
    label,
    String(m.lanes),
    String(m.run.times.length),
    fmt(quantile(m.run.times, 0.5)),
    fmt(quantile(m.run.times, 0.99)),
    fmt(mean(m.run.times)),
    rate(m).toFixed(1),
  ];
}
