import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machine, printColumns } from './lib/report.js';
import { openDatabase } from './lib/server-deps.js';

/**
 * What `pnpm start` costs before its first call: the built server (`apps/server/dist/main.js`,
 * as `start` runs it) started with no configuration but a port and a data directory, on
 * PostgreSQL and on embedded PGlite. For each start it prints the time from the spawn to the
 * first `200` from `/healthz` (and the server's CPU time until then, which a busy machine
 * stretches less than the wall time), then the resident memory (RSS) of the server process
 * and, apart, of the development payment stack's process, once the start-up lines are out
 * and the process has idled. Without a built server it prints why and is skipped.
 */

/** How long a started process idles before its memory is read. */
const IDLE_MS = 5000;

const root = join(import.meta.dirname, '..');
const serverMain = join(root, 'apps/server/dist/main.js');

/** One configuration of the start. */
interface Variant {
  readonly name: string;
  readonly database: 'postgres' | 'pglite';
  /** Extra environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Start twice on one data directory (and schema), and measure the second start. */
  readonly reuseDataDir?: boolean;
}

/** What one start measured. */
export interface StartupSample {
  readonly variant: string;
  readonly healthzMs: number;
  readonly cpuMsAtHealthz: number;
  readonly serverRssMb: number;
  readonly stackRssMb: number | null;
}

export interface StartupTarget {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean | null;
}

/** Run the start-up benchmark; `quick` takes one start per variant instead of three. */
export async function startupBenchmark(options: {
  readonly quick: boolean;
}): Promise<{ samples: StartupSample[]; targets: StartupTarget[] }> {
  try {
    readFileSync(serverMain);
  } catch {
    console.log(
      `\nStart-up and idle memory: not measured: ${serverMain} is missing (run \`pnpm build\` first)`,
    );
    return { samples: [], targets: [] };
  }
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const variants: Variant[] = [];
  if (databaseUrl !== '') {
    variants.push(
      { name: 'PostgreSQL, payment stack', database: 'postgres', env: {} },
      {
        name: 'PostgreSQL, PRODUCT_THREADS=0',
        database: 'postgres',
        env: { PRODUCT_THREADS: '0' },
      },
    );
  } else {
    console.log('\nStart-up on PostgreSQL: not measured: DATABASE_URL is not set');
  }
  variants.push(
    { name: 'PGlite, new data dir, payment stack', database: 'pglite', env: {} },
    {
      name: 'PGlite, existing data dir, payment stack',
      database: 'pglite',
      env: {},
      reuseDataDir: true,
    },
  );

  const rounds = options.quick ? 1 : 3;
  const samples: StartupSample[] = [];
  for (const variant of variants) {
    for (let round = 0; round < rounds; round++) {
      samples.push(await measureStart(variant, databaseUrl));
    }
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const rows = variants.map((variant) => {
    const mine = samples.filter((sample) => sample.variant === variant.name);
    const stack = mine.map((s) => s.stackRssMb).filter((v): v is number => v !== null);
    return {
      variant,
      healthzMs: median(mine.map((s) => s.healthzMs)),
      cpuMs: median(mine.map((s) => s.cpuMsAtHealthz)),
      serverMb: median(mine.map((s) => s.serverRssMb)),
      stackMb: stack.length === 0 ? null : median(stack),
    };
  });
  printColumns(
    `Start-up and idle memory of the built server (median of ${rounds}; ${machine()}; load ${loadAverage()})`,
    ['start', 'spawn → /healthz 200', 'server CPU to then', 'server RSS idle', 'payment stack RSS'],
    rows.map((row) => [
      row.variant.name,
      `${row.healthzMs.toFixed(0)} ms`,
      `${row.cpuMs.toFixed(0)} ms`,
      `${row.serverMb.toFixed(0)} MB`,
      row.stackMb === null ? '-' : `${row.stackMb.toFixed(0)} MB`,
    ]),
  );

  const targets: StartupTarget[] = [];
  const postgres = rows.find((row) => row.variant.name === 'PostgreSQL, payment stack');
  if (postgres !== undefined) {
    targets.push(
      {
        name: 'idle RSS of the server on PostgreSQL',
        goal: '≤ 150 MB',
        measured: `${postgres.serverMb.toFixed(0)} MB`,
        met: postgres.serverMb <= 150,
      },
      {
        name: 'spawn → /healthz on PostgreSQL',
        goal: '≤ 1000 ms',
        measured: `${postgres.healthzMs.toFixed(0)} ms (${postgres.cpuMs.toFixed(0)} ms CPU)`,
        met: postgres.healthzMs <= 1000,
      },
    );
  }
  for (const row of rows.filter((r) => r.variant.database === 'pglite')) {
    targets.push({
      name: `idle RSS of the server on ${row.variant.name}`,
      goal: '≤ 400 MB',
      measured: `${row.serverMb.toFixed(0)} MB`,
      met: row.serverMb <= 400,
    });
  }
  printColumns(
    'Start-up targets',
    ['target', 'goal', 'measured', 'met'],
    targets.map((t) => [t.name, t.goal, t.measured, t.met === null ? '-' : t.met ? 'yes' : 'no']),
  );
  return { samples, targets };
}

/** Start the built server once as `variant` says, and measure it. */
async function measureStart(variant: Variant, databaseUrl: string): Promise<StartupSample> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-startup-'));
  const schema = `bench_startup_${process.pid}_${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOCAL_CHAIN_PORT: '0',
    LOCAL_FACILITATOR_PORT: '0',
    ...variant.env,
  };
  if (variant.database === 'postgres') {
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.href;
    await sql(databaseUrl, `CREATE SCHEMA ${schema}`);
  }
  try {
    if (variant.reuseDataDir) {
      // A first start creates the database; the measured one opens it.
      const first = await start(env);
      await stop(first.child);
    }
    const run = await start(env);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const pid = run.child.pid as number;
    const stackPid = childrenOf(pid)[0];
    const sample: StartupSample = {
      variant: variant.name,
      healthzMs: run.healthzMs,
      cpuMsAtHealthz: run.cpuMs,
      serverRssMb: rssMb(pid),
      stackRssMb: stackPid === undefined ? null : rssMb(stackPid),
    };
    await stop(run.child);
    return sample;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (variant.database === 'postgres') await sql(databaseUrl, `DROP SCHEMA ${schema} CASCADE`);
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly healthzMs: number;
  readonly cpuMs: number;
}

/** Spawn the server on a free port, time its first healthy `/healthz`, wait for its start-up lines. */
async function start(env: NodeJS.ProcessEnv): Promise<Started> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, [serverMain], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const linesOut = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The last start-up line: with the payment stack, its "Try it" commands.
      if (/pay '[^']+'/.test(output) || (/running at/.test(output) && env.FACILITATOR_URL)) {
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  linesOut.catch(() => {});
  let healthzMs = -1;
  let cpuMs = -1;
  while (healthzMs < 0) {
    if (child.exitCode !== null) await linesOut;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      await response.arrayBuffer();
      if (response.ok) {
        healthzMs = performance.now() - began;
        cpuMs = cpuTimeMs(child.pid as number);
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  await linesOut;
  return { child, healthzMs, cpuMs };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The process's resident set, from /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** User and system CPU time the process has used, from /proc (clock ticks of 10 ms). */
function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function sql(url: string, text: string): Promise<void> {
  const db = await openDatabase({ url, dataDir: null });
  try {
    await db.exec(text);
  } finally {
    await db.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
