import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import { unlockDeadWorkers } from './jobs/process.js';
import { releaseExpiredLeases, renewLease } from './metering/store.js';

/** How often a process renews its lease and looks for expired ones (ms). */
export const HEARTBEAT_MS = 1000;

/**
 * How long a lease lives without renewal (s): another process then releases the
 * reservations of the one that held it, and unlocks its job tasks (docs/decisions.md,
 * "Instance leases", "Crawl jobs").
 */
export const LEASE_SECONDS = 5;

/** A running heartbeat; `stop` waits for a beat in progress. */
export interface Heartbeat {
  stop(): Promise<void>;
}

/**
 * Every second, for instance `instanceId` (an HTTP instance or a worker process): renew
 * its lease, unlock the job tasks of processes that no live lease holds, and release
 * the reservations of instances whose leases expired. One beat at a time; a failed beat
 * is logged and the next one tries again.
 */
export function startHeartbeat(
  db: Database,
  instanceId: string,
  queueSchema: string,
  logger: Logger,
): Heartbeat {
  let beat: Promise<void> | null = null;
  const timer = setInterval(() => {
    beat ??= renewLease(db, instanceId)
      .then(() => unlockDeadWorkers(db, queueSchema, LEASE_SECONDS, logger))
      .then(() => releaseExpiredLeases(db, LEASE_SECONDS))
      .then(
        (released) => {
          if (released > 0) {
            logger.warn({ released }, 'released the reservations of a stopped instance');
          }
        },
        (error: unknown) => logger.error({ err: error }, 'lease heartbeat failed'),
      )
      .finally(() => {
        beat = null;
      });
  }, HEARTBEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await beat;
    },
  };
}
