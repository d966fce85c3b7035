import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { machine, printColumns } from './lib/report.js';
import { type Database, migrate, openDatabase, tierPlans } from './lib/server-deps.js';
import { loadText } from './lib/service-calls.js';

const run = promisify(execFile);

/** Keys in the schema: calls spread over many keys, as a deployment's would be. */
const KEYS = 10_000;
/** Credits on each key: no run spends them. */
const CREDITS = 1_000_000_000;

/** One measured way of metering calls. */
interface Case {
  readonly name: string;
  /** Calls per meter statement. */
  readonly batch: number;
  /** Keys the calls are spread over (1: every call on one key). */
  readonly keys: number;
  /** pgbench clients (connections), each running the script in a loop. */
  readonly clients: number;
}

/** A measured case: calls metered per second (each admitted, answered and committed). */
interface Measured extends Case {
  readonly callsPerSecond: number;
  readonly statementsPerSecond: number;
  readonly latencyMs: number;
}

/**
 * The debit ceiling of one PostgreSQL primary (README.md, "The ledger's ceiling"):
 * pgbench runs the service's own meter statement (`storefront_meter`, migration 0010) on
 * a schema of 10,000 keys, each transaction doing what the service does for a call or a
 * batch of calls: admit, mark answered, commit the charge, three statements. Calls per
 * second at saturation, one call per statement (as every instance meters when quiet)
 * and batches of 10 and 100 (as a busy instance does), on many keys and on one.
 */
export async function ledgerBenchmark(options: { readonly quick: boolean }): Promise<void> {
  const url = process.env.DATABASE_URL ?? '';
  const pgbench = await run('pgbench', ['--version']).then(
    () => true,
    () => false,
  );
  if (url === '' || !pgbench) {
    console.log(
      `\nThe ledger's ceiling: not measured: ${url === '' ? 'DATABASE_URL is not set' : 'pgbench is not on the PATH'}`,
    );
    return;
  }
  const seconds = options.quick ? 5 : 20;
  const schema = `bench_ledger_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'storefront-bench-ledger-'));
  const db = await openDatabase({ url, dataDir: null, schema });
  try {
    await migrate(db);
    await seed(db);
    console.log(
      `\nThe ledger's ceiling (${machine()}, ${cpus().length} cores; PostgreSQL and pgbench share ` +
        `the cores; ${KEYS} keys; each run ${seconds} s; load average at start ${loadText()})`,
    );
    console.log(
      'one transaction = admit the calls, mark them answered, commit their charges (the ' +
        "service's three meter statements), synchronous_commit off, generic plans",
    );
    const cases: Case[] = [
      { name: 'one call per statement, many keys', batch: 1, keys: KEYS, clients: 8 },
      { name: 'one call per statement, one key', batch: 1, keys: 1, clients: 8 },
      { name: '10 calls per statement, many keys', batch: 10, keys: KEYS, clients: 8 },
      { name: '100 calls per statement, many keys', batch: 100, keys: KEYS, clients: 8 },
      { name: '100 calls per statement, one key', batch: 100, keys: 1, clients: 8 },
    ];
    const measured: Measured[] = [];
    for (const c of cases) measured.push(await measure(url, schema, dir, c, seconds));
    printColumns(
      'Calls metered per second at saturation',
      ['case', 'clients', 'calls/s', 'statements/s', 'ms per transaction'],
      measured.map((m) => [
        m.name,
        String(m.clients),
        m.callsPerSecond.toFixed(0),
        m.statementsPerSecond.toFixed(0),
        m.latencyMs.toFixed(2),
      ]),
    );
    console.log(`load average at the end: ${loadText()}`);
  } finally {
    await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seed(db: Database): Promise<void> {
  await db.query(
    `INSERT INTO api_keys (key_id, key_hash, tail, env, tier, credits)
     SELECT 'key_' || g, 'hash_' || g, 'tail', 'live', 'prepaid', $1
       FROM generate_series(1, $2) g`,
    [CREDITS, KEYS],
  );
  await db.exec('ANALYZE');
}

/** Run one case under pgbench and read its transactions per second and mean latency. */
async function measure(
  url: string,
  schema: string,
  dir: string,
  c: Case,
  seconds: number,
): Promise<Measured> {
  const file = join(dir, `case-${c.batch}-${c.keys}.sql`);
  writeFileSync(file, script(c));
  const { stdout } = await run(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-f',
      file,
      '-c',
      String(c.clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      url,
    ],
    {
      env: {
        ...process.env,
        PGOPTIONS: `-c search_path=${schema} -c synchronous_commit=off -c plan_cache_mode=force_generic_plan`,
      },
      maxBuffer: 1 << 20,
    },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? Number.NaN);
  return {
    ...c,
    callsPerSecond: tps * c.batch,
    statementsPerSecond: tps * 3,
    latencyMs: latency,
  };
}

/**
 * The pgbench script of a case: one transaction admits `batch` calls of random keys (or
 * of key 1), marks them answered and commits them, each step one `storefront_meter`
 * statement with the service's tier table.
 */
function script(c: Case): string {
  const plans = JSON.stringify(
    Object.fromEntries(
      Object.values(tierPlans(1_000_000)).map((p) => [
        p.tier,
        [p.tier === 'prepaid' ? 1_000_000_000 : p.perMinute, 1_000_000, p.pays, p.exhausted],
      ]),
    ),
  );
  const n = c.batch;
  // An array of plain expressions: a subquery here (`ARRAY(SELECT … FROM generate_series)`)
  // cost the one-call transactions half of their time.
  const hashes =
    c.keys === 1
      ? `array_fill('hash_1'::text, ARRAY[${n}])`
      : `ARRAY[${Array.from({ length: n }, () => `'hash_' || (1 + floor(random() * ${c.keys}))::int`).join(', ')}]`;
  const none = "'{}'";
  const fill = (value: string, type: string) => `array_fill(${value}::${type}, ARRAY[${n}])`;
  return [
    `SELECT array_agg(r_id) AS ids FROM storefront_meter(${none}, ${none}, ${none}, ${none}, ${none}, ${none}, ${none}, ` +
      `${hashes}, ${fill('3', 'int')}, ${fill("'fetch'", 'text')}, ${fill('3000', 'int')}, ${fill('NULL', 'text')}, ` +
      `'${plans}', 'prepaid', 'ledger-bench') \\gset`,
    `SELECT count(*) FROM storefront_meter(${none}, ${none}, ${none}, ${none}, ${none}, ${none}, :ids::bigint[], ` +
      `${none}, ${none}, ${none}, ${none}, ${none}, ${none}, 'prepaid', NULL);`,
    `SELECT count(*) FROM storefront_meter(:ids::bigint[], ${fill("'delivered'", 'text')}, ${fill('true', 'boolean')}, ` +
      `${fill('NULL', 'text')}, ${fill('200', 'int')}, ${fill('NULL', 'text')}, ${none}, ` +
      `${none}, ${none}, ${none}, ${none}, ${none}, ${none}, 'prepaid', NULL);`,
    '',
  ].join('\n');
}
