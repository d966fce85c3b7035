import type { Ed25519NoteKey } from '@storefront/tlog';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { logState, SEQUENCE_BATCH, sequence } from './store.js';
import { type LogWitness, witnessId } from './witness-config.js';
import { submitCheckpoint } from './witnesses.js';

/** How often an instance sequences the log's pending entries (ms). */
export const SEQUENCE_MS = 1000;

/** A running sequencer; `stop` waits for a run in progress. */
export interface Sequencer {
  stop(): Promise<void>;
}

/** The longest wait before a witness that failed is asked again (ms). */
export const WITNESS_BACKOFF_MAX_MS = 60_000;

/**
 * Every {@link SEQUENCE_MS} (a second), sequence the log's pending entries ({@link sequence}); one
 * instance at a time does (the others skip), a full batch is followed by the next at once,
 * and a failed run is logged and tried again on the next tick. Paid calls never wait for
 * it: their entries are written with their bookings, and sequenced within a tick or two.
 * Then, beside the next runs (never holding them back), the log's current checkpoint goes
 * to each of `witnesses()` that has not cosigned it yet (docs/decisions.md, "A witness for
 * the receipt log"); a witness that refuses or
 * cannot be reached is asked again after a wait that doubles from one tick to
 * {@link WITNESS_BACKOFF_MAX_MS}.
 */
export function startSequencer(
  db: Database,
  key: Ed25519NoteKey,
  logger: Logger,
  witnesses: () => readonly LogWitness[] = () => [],
): Sequencer {
  let run: Promise<void> | null = null;
  let witnessing: Promise<void> | null = null;
  let stopped = false;
  const waits = new Map<string, { until: number; ms: number }>();
  /** The size each witness last cosigned (or was found to have), as this instance saw it. */
  const cosigned = new Map<string, number>();
  const witness = async () => {
    const list = witnesses();
    if (list.length === 0) return;
    const { size, checkpoint } = await logState(db);
    if (checkpoint === null || !checkpoint.startsWith(`${key.signer.name}\n`)) return;
    await Promise.all(
      list.map(async (w) => {
        const id = witnessId(w);
        if (cosigned.get(id) === size) return;
        const wait = waits.get(id);
        if (wait !== undefined && Date.now() < wait.until) return;
        let failure: string | null = null;
        try {
          const done = await submitCheckpoint(db, key.verifier, w, checkpoint, size);
          if (done.kind === 'refused') failure = `${done.status}: ${done.reason}`;
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
        }
        if (failure === null) {
          cosigned.set(id, size);
          waits.delete(id);
          return;
        }
        const ms = Math.min(WITNESS_BACKOFF_MAX_MS, (wait?.ms ?? SEQUENCE_MS / 2) * 2);
        waits.set(id, { until: Date.now() + ms, ms });
        logger.warn(
          { witness: id, url: w.url, size, retryMs: ms },
          `witness refused or unreachable: ${failure}`,
        );
      }),
    );
  };
  const once = async () => {
    for (;;) {
      const done = await sequence(db, key);
      if (stopped || done === null || done.appended < SEQUENCE_BATCH) break;
    }
    // Beside the next runs, not in their way: a slow or unreachable witness (up to
    // `WITNESS_TIMEOUT_MS`) never holds back sequencing.
    if (!stopped) {
      witnessing ??= witness()
        .catch((error: unknown) => logger.warn({ err: error }, 'log witnessing failed'))
        .finally(() => {
          witnessing = null;
        });
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
      await witnessing;
    },
  };
}
