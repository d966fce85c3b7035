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
