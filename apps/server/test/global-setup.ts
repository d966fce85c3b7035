import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { pgliteDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

/** The schema of every PGlite test database (each is its own instance, so one name does). */
export const PGLITE_SCHEMA = 't_pglite';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Dumps of an empty and of a migrated PGlite database, or null on PostgreSQL. */
    pgliteTemplates: { empty: string; migrated: string } | null;
  }
}

/**
 * Once per run, before any test file: a new PGlite database is dumped empty and again
 * migrated, and each test database starts from one of the dumps. Starting from a dump
 * costs about a quarter of a new database's set-up (no initdb), which is most of an
 * in-process test's set-up on a busy machine. Nothing to do on PostgreSQL, where a
 * schema per test is already cheap.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL?.trim()) {
    project.provide('pgliteTemplates', null);
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'storefront-pglite-'));
  const pg = new PGlite();
  try {
    const db = await pgliteDatabase(pg, PGLITE_SCHEMA);
    const empty = join(dir, 'empty.tar');
    writeFileSync(empty, Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
    await migrate(db);
    const migrated = join(dir, 'migrated.tar');
    writeFileSync(migrated, Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
    project.provide('pgliteTemplates', { empty, migrated });
  } finally {
    await pg.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
