import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createSigner, generatePrivateKey } from '@storefront/attest';
import type { FetchedDocument } from '@storefront/core';
import { createFetcher } from '@storefront/safe-fetch';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createApp } from '../src/app.js';
import { DEFAULT_CALL_DEADLINE_MS } from '../src/config.js';
import { type Database, openDatabase, pgliteDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { registerSigner } from '../src/db/signer-keys.js';
import { type AppConfig, type AppParts, buildDeps } from '../src/deps.js';
import { dropSchemasSql } from '../src/jobs/queue.js';
import { REGISTRY } from '../src/registry/index.js';
import { inlineCompute, type ProductTask, taskOf } from '../src/work/compute.js';
import { PGLITE_SCHEMA } from './global-setup.js';

/** PostgreSQL when DATABASE_URL is set (CI), else in-memory PGlite. */
export const DATABASE_URL = process.env.DATABASE_URL?.trim() || null;

/** A schema name unique to this test run. */
export function uniqueSchema(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

const templates = new Map<string, Blob>();

/** A PGlite database dump made once per run by `global-setup.ts`, read once per file. */
function pgliteTemplate(which: 'empty' | 'migrated'): Blob {
  const paths = inject('pgliteTemplates');
  if (paths === null) throw new Error('No PGlite templates: DATABASE_URL was set at start-up');
  let blob = templates.get(which);
  if (blob === undefined) {
    blob = new Blob([readFileSync(paths[which])]);
    templates.set(which, blob);
  }
  return blob;
}

/**
 * A fresh database: its own schema on PostgreSQL, or a new in-memory PGlite started
 * from the run's template (empty, or with every migration applied when `migrated`).
 */
export async function testDatabase({ migrated = false } = {}): Promise<{
  db: Database;
  schema: string;
  dispose: () => Promise<void>;
}> {
  const schema = DATABASE_URL === null ? PGLITE_SCHEMA : uniqueSchema();
  const db =
    DATABASE_URL === null
      ? await pgliteDatabase(
          new PGlite({ loadDataDir: pgliteTemplate(migrated ? 'migrated' : 'empty') }),
          schema,
        )
      : await openDatabase({ url: DATABASE_URL, dataDir: null, schema, maxConnections: 4 });
  if (migrated) await migrate(db);
  return {
    db,
    schema,
    async dispose() {
      if (db.kind === 'postgres') {
        await db.exec(dropSchemasSql(schema));
      }
      await db.close();
    },
  };
}

/** Create a schema for a server process to use (PostgreSQL only). */
export async function createSchema(schema: string): Promise<void> {
  if (DATABASE_URL === null) return;
  const db = await openDatabase({ url: DATABASE_URL, dataDir: null, schema, maxConnections: 1 });
  await db.close();
}

/** Drop a schema a started server used (PostgreSQL only). */
export async function dropSchema(schema: string): Promise<void> {
  if (DATABASE_URL === null) return;
  const db = await openDatabase({ url: DATABASE_URL, dataDir: null, maxConnections: 1 });
  await db.exec(dropSchemasSql(schema));
  await db.close();
}

export const silentLogger = pino({ level: 'silent' });

/**
 * An in-process app on a migrated test database with a fresh signer: its parts (with
 * `overrides`), the dependencies built from them, and the app mounted on those.
 */
export async function testApp(overrides: Partial<AppParts> = {}, config: Partial<AppConfig> = {}) {
  const { db, dispose } = await testDatabase({ migrated: true });
  const signer = createSigner(generatePrivateKey());
  await registerSigner(db, signer.address, signer.keyId);
  const fetcher = createFetcher();
  const parts: AppParts = {
    config: {
      publicBaseUrl: 'http://storefront.test',
      trustProxy: false,
      adminToken: null,
      payment: {
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: null,
        facilitatorUrl: null,
        facilitatorTimeoutMs: 15_000,
        legacyNetworkNames: false,
        testnet: false,
        rpcUrl: null,
        batchRedeemSeconds: 0,
      },
      enterprisePerMinute: 3000,
      reservationTtlSeconds: 300,
      callDeadlineMs: DEFAULT_CALL_DEADLINE_MS,
      ...config,
    },
    db,
    signer,
    fetcher,
    logger: silentLogger,
    version: '0.0.0-test',
    clock: () => new Date(),
    compute: inlineCompute,
    ...overrides,
  };
  const deps = buildDeps(parts);
  return {
    app: createApp(deps),
    parts,
    deps,
    db,
    signer,
    async dispose() {
      await deps.meter.drain();
      await fetcher.close();
      await dispose();
    },
  };
}

export function tempDir(prefix = 'storefront-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A route's product task, as a test hands it to a pool or to `inlineCompute`. */
export function productTask(name: string): ProductTask<unknown, { ok: boolean }> {
  const route = REGISTRY.find((entry) => entry.name === name);
  if (route === undefined) throw new Error(`No route \`${name}\``);
  return taskOf(route) as ProductTask<unknown, { ok: boolean }>;
}

/**
 * What a product task answered, unwrapped: a judged route's task (fetch, markdown, …)
 * answers `{verdict, output}`, the output being the product's result.
 */
export function outputOf(result: unknown): { ok: boolean } & Record<string, unknown> {
  const judged = result as { verdict?: unknown; output?: { ok: boolean } };
  if (judged !== null && typeof judged === 'object' && 'verdict' in judged) {
    return judged.output as { ok: boolean } & Record<string, unknown>;
  }
  return result as { ok: boolean } & Record<string, unknown>;
}

/** The product input of a route that reads one page. */
export function pageInput(doc: FetchedDocument, params: unknown): unknown {
  return { params, source: { kind: 'page', doc }, baseUrl: 'http://127.0.0.1:3000' };
}

/** HTML text with the five entities the page templates write decoded back. */
export function decodeHtml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** An answer's status, headers and JSON body. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** `fetch` `url` and read the answer's JSON body. */
export async function fetchJson(url: string, init: RequestInit = {}): Promise<JsonAnswer> {
  const res = await fetch(url, init);
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, unknown>,
  };
}
