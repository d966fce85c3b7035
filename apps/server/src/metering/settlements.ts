import type { Queryable } from '../db/database.js';
import { answerAll, type Finish, finishAll, type Settlement } from './store.js';

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
  #answers: { readonly ledgerId: string; readonly marked: () => void }[] = [];
  #answering: Promise<void> | null = null;

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

  /**
   * Count the charged call of `ledgerId` off its key's calls in flight before its answer
   * goes out ({@link answerAll}), grouped like the commits: whatever arrives while one
   * statement runs goes into the next. Resolves once written (or failed: then the call
   * counts until its commit); never rejects.
   */
  answer(ledgerId: string): Promise<void> {
    return new Promise<void>((marked) => {
      this.#answers.push({ ledgerId, marked });
      this.#answering ??= this.#runAnswers();
    });
  }

  /** Resolve once every settlement handed over so far has been written (or has failed). */
  async drain(): Promise<void> {
    while (this.#running !== null || this.#answering !== null) {
      await this.#answering;
      await this.#running;
    }
  }

  /** Settlements not yet written. */
  get pending(): number {
    return this.#queue.length;
  }

  async #runAnswers(): Promise<void> {
    try {
      while (this.#answers.length > 0) {
        const batch = this.#answers.splice(0, MAX_BATCH);
        try {
          await answerAll(
            this.#db,
            batch.map((a) => a.ledgerId),
          );
        } catch (cause) {
          this.#logger.error(
            { err: cause, ledgerIds: batch.map((a) => a.ledgerId) },
            'could not count answered calls off their keys; they count until their commits',
          );
        }
        for (const answered of batch) answered.marked();
      }
    } finally {
      this.#answering = null;
    }
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
