import type { Queryable } from '../db/database.js';

/** Record the graphile-worker ids of instance `instanceId`'s workers on its lease. */
export async function recordWorkers(
  db: Queryable,
  instanceId: string,
  workerIds: readonly string[],
): Promise<void> {
  await db.query(
    `INSERT INTO instances (id, worker_ids) VALUES ($1, $2)
     ON CONFLICT (id) DO UPDATE SET worker_ids = $2, heartbeat_at = now()`,
    [instanceId, workerIds],
  );
}

/**
 * Unlock the queue tasks locked for more than `leaseSeconds` by a worker pool that no
 * live lease holds (its process was killed mid-task, or died before its lease named
 * it), so they run on another worker within seconds instead of graphile-worker's four
 * hours, and wake the idle pools. Every process runs it with its heartbeat; unlocking
 * twice is harmless. Returns how many pools were unlocked.
 */
export async function unlockOrphanedTasks(
  db: Queryable,
  queueSchema: string,
  leaseSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ pools: string[] }>(
    `SELECT array(
       SELECT DISTINCT j.locked_by FROM ${queueSchema}.jobs j
        WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => $1)
          AND NOT EXISTS (SELECT 1 FROM instances i
                           WHERE j.locked_by = ANY (i.worker_ids)
                             AND i.heartbeat_at >= now() - make_interval(secs => $1))
     ) AS pools`,
    [leaseSeconds],
  );
  const pools = rows[0]?.pools ?? [];
  if (pools.length === 0) return 0;
  await db.query(`SELECT ${queueSchema}.force_unlock_workers($1::text[])`, [pools]);
  await db.query(`SELECT pg_notify('jobs:insert', $1)`, [JSON.stringify({ count: pools.length })]);
  return pools.length;
}
