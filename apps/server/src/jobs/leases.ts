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
 * Unlock the queue tasks held by workers of instances whose lease expired `leaseSeconds`
 * ago (a process killed mid-task), so they run on another worker within seconds
 * instead of graphile-worker's hours; in one statement, so two instances never unlock
 * the same workers twice and the lease is not dropped before its workers are
 * unlocked. Returns how many workers were unlocked.
 */
export async function unlockExpiredWorkers(
  db: Queryable,
  queueSchema: string,
  leaseSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (
       SELECT id, worker_ids FROM instances
        WHERE heartbeat_at < now() - make_interval(secs => $1) AND worker_ids <> '{}'
        FOR UPDATE SKIP LOCKED
     ), cleared AS (
       UPDATE instances i SET worker_ids = '{}' FROM gone WHERE i.id = gone.id RETURNING i.id
     ), ids AS (
       SELECT coalesce(array_agg(w), '{}') AS ids FROM gone, unnest(gone.worker_ids) AS w
     )
     SELECT cardinality(ids.ids) AS n, ${queueSchema}.force_unlock_workers(ids.ids) AS unlocked
       FROM ids, (SELECT count(*) FROM cleared) AS c`,
    [leaseSeconds],
  );
  return Number(rows[0]?.n ?? 0);
}
