import type { Queryable } from '../db/database.js';

/**
 * The job queue is graphile-worker's (docs/decisions.md, "Job engine"), in its own
 * schema of the service's database: `graphile_worker` beside the default schema, or
 * `<schema>_queue` beside a named one (tests use one per run).
 */
export function queueSchemaOf(schema: string | undefined): string {
  return schema === undefined ? 'graphile_worker' : `${schema}_queue`;
}

/** The statement that drops a named schema and the queue schema beside it (tests, benchmarks). */
export function dropSchemasSql(schema: string): string {
  return `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${queueSchemaOf(schema)} CASCADE`;
}

/**
 * The queue schema of a process: `<schema>_queue` beside a named schema (tests), else
 * the configured one (`JOB_QUEUE_SCHEMA`, default `graphile_worker`).
 */
export function queueSchemaFor(
  config: { readonly jobs: { readonly queueSchema: string } },
  schema: string | undefined,
): string {
  return schema === undefined ? config.jobs.queueSchema : queueSchemaOf(schema);
}

/** The tasks the workers run. */
export const TASKS = {
  /** Read robots.txt and the sitemaps of a new job and admit its first URLs. */
  seed: 'crawl-seed',
  /** Fetch one admitted URL and commit its page. */
  page: 'crawl-page',
  /** Deliver a job's pending webhook events, in order. */
  webhooks: 'job-webhooks',
  /** Settle an x402 job paid with `upto` for the pages it delivered. */
  settle: 'job-settle',
  /** Redeem the x402 `batch-settlement` vouchers charged since the last redemption. */
  redeem: 'x402-redeem',
} as const;

/** How often a task is tried before graphile-worker gives up on it. */
export const MAX_ATTEMPTS = 8;

/** Where and how jobs are added: the queue's schema, inside the caller's transaction. */
export class JobQueue {
  constructor(readonly schema: string) {}

  /**
   * Add one task run in `tx`: it is visible to the workers only once `tx` commits, so
   * a reservation and its job are one transaction. `key` de-duplicates: a task with
   * the same key that has not started yet is updated rather than added again (keeping
   * its run time with `keepRunAt`: a retry waiting for its turn keeps waiting); tasks
   * of one named `queue` run one at a time, in order.
   */
  async add(
    tx: Queryable,
    task: string,
    payload: Record<string, unknown>,
    options: {
      readonly key?: string;
      readonly queue?: string;
      readonly runAt?: Date;
      readonly maxAttempts?: number;
      readonly keepRunAt?: boolean;
    } = {},
  ): Promise<void> {
    await tx.query(
      `SELECT ${this.schema}.add_job($1, $2::json, queue_name := $3, run_at := $4,
              max_attempts := $5, job_key := $6, job_key_mode := $7)`,
      [
        task,
        JSON.stringify(payload),
        options.queue ?? null,
        options.runAt ?? null,
        options.maxAttempts ?? MAX_ATTEMPTS,
        options.key ?? null,
        options.keepRunAt === true ? 'preserve_run_at' : 'replace',
      ],
    );
  }

  /**
   * Add one `crawl-page` task per URL of `urls` (all of depth `depth`) for job `jobId`,
   * in `tx`, with one `add_jobs` call (a call of `add_job` per page costs a round of the
   * queue's bookkeeping each; bench/README.md, "Job engine").
   */
  async addPages(
    tx: Queryable,
    jobId: string,
    urls: readonly string[],
    depth: number,
  ): Promise<void> {
    if (urls.length === 0) return;
    await tx.query(
      `WITH pages AS (SELECT u AS url FROM unnest($3::text[]) WITH ORDINALITY AS t(u, i) ORDER BY t.i)
       ${this.addPagesSql('pages', '$1', '$2')}`,
      [jobId, depth, urls],
    );
  }

  /**
   * A `SELECT` that adds, with one `add_jobs` call, one `crawl-page` task per row of the
   * relation `source` (its column `url`, in its order) for the job and depth that the
   * SQL expressions `job` and `depth` give (placeholders of the caller's statement), so
   * that a statement admitting URLs can queue them without another round trip.
   */
  addPagesSql(source: string, job: string, depth: string): string {
    return `SELECT ${this.schema}.add_jobs(ARRAY(
         SELECT ROW('${TASKS.page}', json_build_object('job', ${job}::text, 'url', s.url, 'depth', ${depth}::int),
                    NULL, NULL, ${MAX_ATTEMPTS}, NULL, NULL, NULL)::${this.schema}.job_spec
           FROM ${source} s))`;
  }
}
