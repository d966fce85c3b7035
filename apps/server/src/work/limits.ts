/** Why a product thread gave up on a task. */
export type ComputeLimit = 'deadline' | 'memory';

/**
 * A task that ran past the deadline or the heap bound: its thread was stopped and
 * replaced. Routes answer it as undeliverable (503 `page_too_complex`, not charged).
 */
export class ComputeLimitError extends Error {
  readonly limit: ComputeLimit;

  constructor(limit: ComputeLimit, message: string) {
    super(message);
    this.name = 'ComputeLimitError';
    this.limit = limit;
  }
}

/** A task dropped from the queue because its caller left before a thread took it. */
export class ComputeCancelledError extends Error {
  constructor() {
    super('The caller left before the product ran');
    this.name = 'ComputeCancelledError';
  }
}

/**
 * The deadline of one paid call: when its budget runs out, on the `performance.now()`
 * clock, and the budget itself (for messages). Counted from the call's arrival.
 */
export interface CallDeadline {
  readonly at: number;
  readonly budgetMs: number;
}

/** The deadline of a call arriving now (or at `arrivedAt`) with a budget of `budgetMs`. */
export function callDeadline(budgetMs: number, arrivedAt = performance.now()): CallDeadline {
  return { at: arrivedAt + budgetMs, budgetMs };
}

/** Whole milliseconds left before `deadline`; 0 or less once it has passed. */
export function msLeft(deadline: CallDeadline): number {
  return Math.floor(deadline.at - performance.now());
}

/** The error of a task given up because its call's budget ran out. */
export function budgetSpent(deadline: CallDeadline): ComputeLimitError {
  return new ComputeLimitError(
    'deadline',
    `The page could not be processed within the call's ${deadline.budgetMs / 1000} s budget`,
  );
}
