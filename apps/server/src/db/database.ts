import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { serveSocket } from './embedded-socket.js';

/** Something SQL can run on: the database, or one transaction of it. */
export interface Queryable {
  /**
   * Run one parameterised statement. A `name` makes it a prepared statement on
   * PostgreSQL (parsed and planned once per connection), for the hot path; each name
   * must always go with the same SQL.
   */
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    name?: string,
  ): Promise<{ rows: R[] }>;
  /** Run a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
}

/** The service's database: PostgreSQL through `pg`, or embedded PGlite. Same SQL for both. */
export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Run `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface DatabaseOptions {
  /** A `postgres://` URL; null for embedded PGlite. */
  readonly url: string | null;
  /** Data directory for PGlite (`<dataDir>/pglite`); null keeps PGlite in memory. */
  readonly dataDir: string | null;
  /** A schema to use (created when missing); tests use one per run. */
  readonly schema?: string;
  /** Pool size for PostgreSQL. */
  readonly maxConnections?: number;
}

/** Open PostgreSQL when a URL is given, else embedded PGlite. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.schema !== undefined) checkSchemaName(options.schema);
  return options.url === null ? openPglite(options) : openPostgres(options.url, options);
}

function checkSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(
      `Expected a schema name of lower-case letters, digits and _, got \`${schema}\``,
    );
  }
}

/** How {@link openPostgres} talks to its server. */
interface WireOptions {
  /** Named (prepared) statements; off where connections share one session (embedded). */
  readonly prepared: boolean;
  readonly kind: Database['kind'];
  /** Run after the pool has ended (the embedded server's own shutdown). */
  readonly onClose?: () => Promise<void>;
}

async function openPostgres(
  url: string,
  options: DatabaseOptions,
  wire: WireOptions = { prepared: true, kind: 'postgres' },
): Promise<Database> {
  const schema = options.schema;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // Commits return before the WAL reaches disk (docs/decisions.md, "Asynchronous
    // commit"): a database crash can lose the last moments of metering, which only ever
    // makes calls free; it never charges without a result.
    ...(wire.kind === 'postgres'
      ? {
          options: `-c synchronous_commit=off -c plan_cache_mode=force_generic_plan${schema ? ` -c search_path=${schema}` : ''}`,
        }
      : {}),
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  // Connections that share one session (embedded) cannot be given a schema at start-up.
  if (schema && wire.kind === 'pglite') {
    pool.on('connect', (client) => {
      client.query(`SET search_path TO ${schema}`).catch(() => {});
    });
  }
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

  const on = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: async (sql, params, name) => {
      const config: pg.QueryConfig = { text: sql };
      if (params !== undefined) config.values = params as unknown[];
      if (name !== undefined && wire.prepared) config.name = name;
      const result = await client.query(config);
      return { rows: result.rows };
    },
    exec: async (sql) => {
      await client.query(sql);
    },
  });

  return {
    kind: wire.kind,
    ...on(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await pool.end();
      await wire.onClose?.();
    },
  };
}

/** The embedded database served on loopback, and the URL other connections use. */
export interface ServedDatabase {
  readonly db: Database;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: for the job queue's own pool. */
  readonly url: string;
}

/** Connections the embedded database's socket accepts: the service's pool and the job queue's. */
const EMBEDDED_CONNECTIONS = 40;

/**
 * Embedded PGlite (in `dataDir`, or in memory) served over PostgreSQL's wire protocol on
 * a loopback port (`@electric-sql/pglite-socket`'s connection handler, in our
 * `SessionQueue`'s order), and the service's own pool on it, so that the job
 * queue's library (graphile-worker, which keeps a pool of its own) and the service
 * share one embedded database. One connection at a time holds PGlite's one session (for
 * an extended-protocol exchange, or a transaction); as they share it, no statement is
 * named (docs/decisions.md, "Crawl jobs on the embedded database").
 */
export async function serveEmbedded(options: DatabaseOptions): Promise<ServedDatabase> {
  const pglite = await newPglite(options);
  await pglite.waitReady;
  const socket = await serveSocket(pglite, EMBEDDED_CONNECTIONS);
  const url = `postgres://postgres@${socket.address}/postgres`;
  const db = await openPostgres(url, options, {
    prepared: false,
    kind: 'pglite',
    onClose: async () => {
      await socket.close();
      await pglite.close();
    },
  });
  return { db, url };
}

/**
 * PGlite's start parameters with PostgreSQL's buffer cache at 16 MB instead of 128 MB:
 * the cache lives in PGlite's WebAssembly memory, in the service's process, and a
 * development database of a few thousand rows fits in 16 MB (docs/decisions.md,
 * "Idle memory and start-up").
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function openPglite(options: DatabaseOptions): Promise<Database> {
  return pgliteDatabase(await newPglite(options), options.schema);
}

/** A PGlite instance in `<dataDir>/pglite` (created when missing), or in memory. */
async function newPglite(options: DatabaseOptions): Promise<PGlite> {
  let dir: string | undefined;
  if (options.dataDir !== null) {
    dir = join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(join(dir, 'PG_VERSION'))) await initPgliteDir(dir);
  }
  const settings = { startParams: PGLITE_START_PARAMS };
  return dir === undefined ? new PGlite(settings) : new PGlite(dir, settings);
}

/**
 * Create a PGlite data directory in a short-lived Node process: `initdb` grows PGlite's
 * memory to about 800 MB, which a process keeps once it has it, so the service's
 * process never runs it and opens the finished directory instead.
 */
function initPgliteDir(dir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'const db = new PGlite(process.argv[2]);' +
    'db.waitReady.then(() => db.close()).then(() => process.exit(0), (error) => {' +
    ' process.stderr.write(String(error && error.message || error)); process.exit(1); });';
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, pglite, dir], (error, _stdout, stderr) => {
      if (error === null) return resolve();
      reject(
        new Error(
          `could not create the embedded database in ${dir}: ${stderr.trim() || error.message}`,
        ),
      );
    });
  });
}

/**
 * The {@link Database} over a PGlite instance, in `schema` when given (created when
 * missing). Tests use it to start each database from one migrated copy
 * (`new PGlite({ loadDataDir })`) instead of a new one.
 */
export async function pgliteDatabase(db: PGlite, schema?: string): Promise<Database> {
  if (schema !== undefined) checkSchemaName(schema);
  await db.waitReady;
  if (schema) {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
  }

  const on = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const result = await q.query<R>(sql, params as unknown[] | undefined);
      return { rows: result.rows };
    },
    exec: async (sql) => {
      await q.exec(sql);
    },
  });

  return {
    kind: 'pglite',
    ...on(db),
    transaction: (fn) => db.transaction((tx) => fn(on(tx))),
    close: () => db.close(),
  };
}
