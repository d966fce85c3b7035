import type { Queryable } from '../db/database.js';
import { pendingInsert } from '../log/entry.js';
import {
  type Admission,
  type Attempt,
  type Finish,
  type MeterBatch,
  meter,
  type Settlement,
} from './store.js';
import type { TierPlans } from './tiers.js';

const PENDING_SQL = pendingInsert(1);

/** Where a failed statement is reported (a pino logger fits). */
export interface MeterLog {
  error(details: object, message: string): void;
}

/** Most admissions, answers and finishes, each, that one statement carries. */
export const MAX_BATCH = 500;

/**
 * Meter statements one instance runs at once. Two: while one runs, the next is already
 * on its way (on one key it waits for the first's row lock, on other keys it runs
 * beside it); whatever arrives while both run goes into the statement after them.
 */
export const CONCURRENT_STATEMENTS = 2;

interface QueuedAdmission {
  readonly attempt: Attempt;
  readonly resolve: (admission: Admission) => void;
  readonly reject: (error: unknown) => void;
}

interface QueuedAnswer {
  readonly ledgerId: string;
  /** The log entry of the receipt the answer delivers, if any. */
  readonly entry: string | null;
  readonly done: () => void;
}

interface QueuedFinish extends Settlement {
  readonly entry: string | null;
  readonly done: () => void;
}

/**
 * Everything an instance writes to the meter, grouped (docs/decisions.md, "Admissions,
 * answers and commits in one statement"): the admissions of new calls, the charged calls
 * whose answers are about to go out, and the commits and releases of finished calls.
 * What arrives within one turn of the event loop, or while {@link CONCURRENT_STATEMENTS}
 * statements run, goes into one statement ({@link meter}), so a quiet instance meters each
 * call at once and a busy one many calls per statement, each key's row written once per
 * statement, not once or twice per call.
 *
 * A ledger read and shutdown wait for it ({@link drain}), so this instance never shows its
 * own delivered calls as pending and never closes the database under a statement. A failed
 * statement fails its admissions (their calls answer 500, nothing reserved), and is
 * logged for its answers and finishes, whose rows stay pending: the sweeper releases
 * them, so those calls are free, never charged twice.
 */
export class Meter {
  readonly #db: Queryable;
  readonly #logger: MeterLog;
  readonly #plans: TierPlans;
  readonly #instanceId: string | null;
  #admissions: QueuedAdmission[] = [];
  #answers: QueuedAnswer[] = [];
  #finishes: QueuedFinish[] = [];
  #running = 0;
  #scheduled = false;
  /** Called whenever a statement ends (drain waits on them). */
  #ended: (() => void)[] = [];

  constructor(
    db: Queryable,
    logger: MeterLog,
    options: { readonly plans: TierPlans; readonly instanceId: string | null },
  ) {
    this.#db = db;
    this.#logger = logger;
    this.#plans = options.plans;
    this.#instanceId = options.instanceId;
  }

  /** Admit one call ({@link meter}); rejects when its statement fails. */
  admit(attempt: Attempt): Promise<Admission> {
    return new Promise<Admission>((resolve, reject) => {
      this.#admissions.push({ attempt, resolve, reject });
      this.#schedule();
    });
  }

  /**
   * Count the charged call of `ledgerId` off its key's calls in flight before its answer
   * goes out, and write the log entry of its receipt (`entry`) with it. Resolves once
   * written (or failed: then the call counts until its commit); never rejects.
   */
  answer(ledgerId: string, entry: string | null = null): Promise<void> {
    return new Promise<void>((done) => {
      this.#answers.push({ ledgerId, entry, done });
      this.#schedule();
    });
  }

  /**
   * Finish the attempt of `ledgerId` as `end`, writing the log entry of the receipt it
   * delivers (`entry`) with it. The promise resolves once its statement has been written
   * (or has failed); it never rejects.
   */
  settle(ledgerId: string, end: Finish, entry: string | null = null): Promise<void> {
    return new Promise<void>((done) => {
      this.#finishes.push({ ledgerId, end, entry, done });
      this.#schedule();
    });
  }

  /** Resolve once everything handed over so far has been written (or has failed). */
  async drain(): Promise<void> {
    while (this.#running > 0 || this.#scheduled || this.#queued() > 0) {
      await new Promise<void>((resolve) => this.#ended.push(resolve));
    }
  }

  /** Finishes not yet handed to a statement. */
  get pending(): number {
    return this.#finishes.length;
  }

  #queued(): number {
    return this.#admissions.length + this.#answers.length + this.#finishes.length;
  }

  /** Start a statement after this turn of the event loop, so that its arrivals go together. */
  #schedule(): void {
    if (this.#scheduled || this.#running >= CONCURRENT_STATEMENTS) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#start();
    });
  }

  #start(): void {
    while (this.#running < CONCURRENT_STATEMENTS && this.#queued() > 0) {
      const admissions = this.#admissions.splice(0, MAX_BATCH);
      const answers = this.#answers.splice(0, MAX_BATCH);
      const finishes = this.#finishes.splice(0, MAX_BATCH);
      this.#running += 1;
      void this.#run(admissions, answers, finishes).finally(() => {
        this.#running -= 1;
        // What arrived meanwhile goes at once: it has waited for this statement already.
        this.#start();
        for (const ended of this.#ended.splice(0)) ended();
      });
    }
  }

  async #run(
    admissions: readonly QueuedAdmission[],
    answers: readonly QueuedAnswer[],
    finishes: readonly QueuedFinish[],
  ): Promise<void> {
    const logEntries: string[] = [];
    for (const a of answers) if (a.entry !== null) logEntries.push(a.entry);
    for (const f of finishes) if (f.entry !== null) logEntries.push(f.entry);
    const batch: MeterBatch = {
      admissions: admissions.map((a) => a.attempt),
      answers: answers.map((a) => a.ledgerId),
      finishes,
      logEntries,
    };
    try {
      const metered = await meter(this.#db, batch, {
        plans: this.#plans,
        instanceId: this.#instanceId,
      });
      for (const [i, a] of admissions.entries()) a.resolve(metered.admissions[i] as Admission);
    } catch (cause) {
      for (const a of admissions) a.reject(cause);
      if (answers.length > 0) {
        this.#logger.error(
          { err: cause, ledgerIds: answers.map((a) => a.ledgerId) },
          'could not count answered calls off their keys; they count until their commits',
        );
      }
      if (finishes.length > 0) {
        this.#logger.error(
          { err: cause, ledgerIds: finishes.map((s) => s.ledgerId) },
          'could not settle delivered calls; the sweeper will release them',
        );
      }
      // The receipts still go out: their log entries are written on their own.
      if (logEntries.length > 0) {
        await this.#db
          .query(PENDING_SQL, [logEntries], 'tlog_pending_add')
          .catch((error) =>
            this.#logger.error(
              { err: error },
              'could not write the log entries of delivered receipts',
            ),
          );
      }
    }
    for (const a of answers) a.done();
    for (const s of finishes) s.done();
  }
}
