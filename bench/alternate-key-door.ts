/**
 * Two servers under the same load, in turn (bench/README.md, "Service overhead"):
 * each side is the key door of a checkout (`bench/serve-key-door.ts` run from that
 * checkout, on PostgreSQL), `bare` (`bench/serve-bare.ts` of this checkout), or
 * `bare-signed` (the same with the two signatures of a paid answer), or `bare-floor` (the
 * same with the answer's response-provenance claim too: everything every paid answer
 * carries, the floor of "Service overhead"); `wrk -t1
 * -c50` loads `/buy/notarize` on one side and then the other, the order swapped every
 * round, so both meet the same moments of a noisy machine. Besides requests per second,
 * it reads each server's CPU time from /proc/<pid>/stat around each run: CPU per request
 * does not depend on what else shares the cores as much as throughput does.
 *
 * Usage (DATABASE_URL a PostgreSQL; wrk on the PATH):
 *   node --conditions=@storefront/source --import tsx bench/alternate-key-door.ts \
 *     <checkout|bare|bare-signed|bare-floor> <checkout|bare|…> [--rounds=8] [--seconds=3] [--connections=50] \
 *     [--keys=1] [--node-options-a=…] [--node-options-b=…]
 *
 * `--keys=N`: the calls go to N enterprise keys in turn instead of one (a checkout's
 * `serve-key-door.ts` must take `--keys`); a bare side gets the same rotating header, so
 * wrk does the same work for both.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { NOTARIZE_CONTENT } from './lib/service-calls.js';
import { runWrk } from './lib/wrk.js';

const argv = process.argv.slice(2).filter((a) => a !== '--');
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sides = argv.filter((a) => !a.startsWith('--'));
if (sides.length !== 2) {
  throw new Error(
    'usage: alternate-key-door.ts <checkout|bare|bare-signed|bare-floor> <checkout|bare|bare-signed|bare-floor> [--rounds=8]',
  );
}
const rounds = Number(option('rounds', '8'));
const seconds = Number(option('seconds', '3'));
const connections = Number(option('connections', '50'));
const keyCount = Number(option('keys', '1'));
const here = fileURLToPath(new URL('..', import.meta.url));
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

interface Side {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
  readonly key: string | undefined;
  readonly keys: readonly string[] | undefined;
}

/** Start one side and read its `{url, key}` line. */
async function start(spec: string, nodeOptions: string, name: string): Promise<Side> {
  const bare = spec === 'bare' || spec === 'bare-signed' || spec === 'bare-floor';
  const cwd = bare ? here : spec;
  const child = spawn(
    process.execPath,
    [
      '--conditions=@storefront/source',
      '--import',
      'tsx',
      bare ? 'bench/serve-bare.ts' : 'bench/serve-key-door.ts',
      ...(spec === 'bare-signed' ? ['--signed'] : []),
      ...(spec === 'bare-floor' ? ['--floor'] : []),
      ...(!bare && keyCount > 1 ? [`--keys=${keyCount}`] : []),
    ],
    {
      cwd,
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    const { url, key, keys } = JSON.parse(line) as {
      url: string;
      key?: string;
      keys?: string[];
    };
    if (!bare && keyCount > 1 && keys?.length !== keyCount) {
      throw new Error(`${spec}: its serve-key-door.ts does not take --keys`);
    }
    return { name, child, url, key, keys };
  }
  throw new Error(`${spec} stopped before it printed its address`);
}

/** User plus system CPU time of process `pid` so far, in µs. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
}

/** Busy and total jiffies of the whole machine so far. */
function machineTicks(): { busy: number; total: number } {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string)
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = cpu.reduce((sum, n) => sum + n, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (cpu[3] as number) - (cpu[4] as number), total };
}

async function load(side: Side, runSeconds: number) {
  const before = cpuMicros(side.child.pid as number);
  const machineBefore = machineTicks();
  const result = await runWrk({
    url: `${side.url}/buy/notarize?content=${encodeURIComponent(NOTARIZE_CONTENT)}`,
    ...(keyCount > 1
      ? {
          authorizations: (side.keys ?? Array.from({ length: keyCount }, (_, i) => `key-${i}`)).map(
            (key) => `Bearer ${key}`,
          ),
        }
      : { headers: side.key === undefined ? {} : { authorization: `Bearer ${side.key}` } }),
    threads: 1,
    connections,
    seconds: runSeconds,
  });
  const cpu = cpuMicros(side.child.pid as number) - before;
  const machineAfter = machineTicks();
  const busy =
    (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  if (result.socketErrors + result.badStatus > 0) {
    throw new Error(`${side.name}: ${result.socketErrors} socket errors, ${result.badStatus} bad`);
  }
  return { perSecond: result.requestsPerSecond, cpuPerRequest: cpu / result.requests, busy };
}

const a = await start(sides[0] as string, option('node-options-a', ''), 'A');
const b = await start(sides[1] as string, option('node-options-b', ''), 'B');
try {
  console.log(`A ${sides[0]} ${a.url}\nB ${sides[1]} ${b.url}`);
  // Warm both up (JIT, pools, the first statements) before anything counts.
  await load(a, 2);
  await load(b, 2);
  const rows: { a: Awaited<ReturnType<typeof load>>; b: Awaited<ReturnType<typeof load>> }[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const first = round % 2 === 1 ? a : b;
    const second = first === a ? b : a;
    const one = await load(first, seconds);
    const two = await load(second, seconds);
    const row = first === a ? { a: one, b: two } : { a: two, b: one };
    rows.push(row);
    console.log(
      `${round} A ${row.a.perSecond.toFixed(0)} req/s ${row.a.cpuPerRequest.toFixed(0)} µs CPU/req ${(row.a.busy * 100).toFixed(0)}% busy | B ${row.b.perSecond.toFixed(0)} req/s ${row.b.cpuPerRequest.toFixed(0)} µs CPU/req ${(row.b.busy * 100).toFixed(0)}% busy`,
    );
  }
  const mean = (pick: (r: (typeof rows)[number]) => number) =>
    rows.reduce((sum, r) => sum + pick(r), 0) / rows.length;
  const aRate = mean((r) => r.a.perSecond);
  const bRate = mean((r) => r.b.perSecond);
  console.log(
    `mean A ${aRate.toFixed(0)} req/s ${mean((r) => r.a.cpuPerRequest).toFixed(0)} µs CPU/req | B ${bRate.toFixed(0)} req/s ${mean((r) => r.b.cpuPerRequest).toFixed(0)} µs CPU/req | B/A ${(bRate / aRate).toFixed(3)}`,
  );
} finally {
  for (const side of [a, b]) side.child.kill('SIGTERM');
  await Promise.all(
    [a, b].map((side) => new Promise((resolve) => side.child.once('exit', resolve))),
  );
}
