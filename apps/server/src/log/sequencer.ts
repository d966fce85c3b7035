import type { Ed25519NoteKey } from '@storefront/tlog';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { SEQUENCE_BATCH, sequence } from './store.js';

/** How often an instance sequences the log's pending entries (ms). */
export const SEQUENCE_MS = 1000;

/** A running sequencer; `stop` waits for a run in progress. */
export interface Sequencer {
  stop(): Promise<void>;
}

/**
 * Every {@link SEQUENCE_MS} (a second), sequence the log's pending entries ({@link sequence}); one
 * instance at a time does (the others skip), a full batch is followed by the next at once,
 * and a failed run is logged and tried again on the next tick. Paid calls never wait for
 * it: their entries are written with their bookings, and sequenced within a tick or two.
 */
export function startSequencer(db: Database, key: Ed25519NoteKey, logger: Logger): Sequencer {
  let run: Promise<void> | null = null;
  let stopped = false;
  const once = async () => {
    for (;;) {
      const done = await sequence(db, key);
      if (stopped || done === null || done.appended < SEQUENCE_BATCH) return;
    }
  };
  const timer = setInterval(() => {
    run ??= once()
      .catch((error: unknown) => logger.error({ err: error }, 'log sequencing failed'))
      .finally(() => {
        run = null;
      });
  }, SEQUENCE_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await run;
    },
  };
}
