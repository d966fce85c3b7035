import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

/** Advisory lock key held while migrating, so concurrent start-ups take turns. */
const MIGRATION_LOCK = 7306101;

/** The folder of plain SQL migrations shipped with the server (`apps/server/migrations`). */
export function defaultMigrationsDir(): string {
  // Found by walking up from this module, so it works from src/ and from the bundled dist/.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('Could not find the migrations folder next to the server package');
}

/**
 * Apply every `NNNN_name.sql` file of `dir` not yet recorded in `schema_migrations`,
 * in file-name order, each in its own transaction together with its record. A
 * transaction-scoped advisory lock makes concurrent start-ups of several instances
 * apply each migration exactly once. Returns the versions applied now.
 */
export async function migrate(db: Database, dir = defaultMigrationsDir()): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  // CREATE TABLE IF NOT EXISTS races with itself on PostgreSQL, so it takes the lock too.
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    const sql = readFileSync(join(dir, file), 'utf8');
    const didApply = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (done.rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (didApply) applied.push(version);
  }
  return applied;
}
