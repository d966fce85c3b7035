import type { Queryable } from '../db/database.js';
import { type Finish, finishAll, type Settlement } from './store.js';

/** Where a failed statement is reported (a pino logger fits). */
export interface SettlementLog {
  error(details: object, message: string): void;
}

/** A settlement waiting for its statement, and what to call once it is written. */
interface Queued extends Settlement {
  readonly written: () => void;
}

/** Most attempts finished by one statement. */
export const MAX_BATCH = 500;

/**
 * The charges of delivered answers, committed after the answers went out
 * (docs/decisions.md, "A charge is committed once the answer is written").
 *
 * One statement runs at a time; whatever arrives while it runs goes into the next one,
 * so a quiet instance commits each call at once and a busy one commits many calls per
 * statement (group commit). A ledger read and shutdown wait for them ({@link drain}),
 * so this instance never shows its own delivered calls as pending and never closes
 * the database under one. A failed statement is logged and its rows stay pending:
 * the sweeper releases them, so those calls are free, never charged twice.
 */
export class Settlements {
  readonly #db: Queryable;
  readonly #logger: SettlementLog;
  #queue: Queued[] = [];
  #running: Promise<void> | null = null;

  constructor(db: Queryable, logger: SettlementLog) {
    this.#db = db;
    this.#logger = logger;
  }

  /**
   * Finish the attempt of `ledgerId` as `end`, with the next statement. The promise
   * resolves once that statement has been written (or has failed); it never rejects.
   */
  settle(ledgerId: string, end: Finish): Promise<void> {
    return new Promise<void>((written) => {
      this.#queue.push({ ledgerId, end, written });
      this.#running ??= this.#run();
    });
  }

  /** Resolve once every settlement handed over so far has been written (or has failed). */
  async drain(): Promise<void> {
    while (this.#running !== null) await this.#running;
  }

  /** Settlements not yet written. */
  get pending(): number {
    return this.#queue.length;
  }

  async #run(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        try {
          await finishAll(this.#db, batch);
        } catch (cause) {
          this.#logger.error(
            { err: cause, ledgerIds: batch.map((s) => s.ledgerId) },
            'could not settle delivered calls; the sweeper will release them',
          );
        }
        for (const settlement of batch) settlement.written();
      }
    } finally {
      this.#running = null;
    }
  }
}
