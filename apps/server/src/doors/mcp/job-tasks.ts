import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../../deps.js';
import { createCrawlForKey, newCrawlJob } from '../../jobs/create.js';
import { cancelJob, jobFor, jobView } from '../../jobs/service.js';
import type { JobRow } from '../../jobs/store.js';

/** The MCP tool that runs a crawl job as a task. */
export const CRAWL_JOB_TOOL = 'crawl_job';

/** How often a client is asked to poll a job task (ms). */
export const JOB_POLL_MS = 2000;

/** A job's status as a task's: queued and running are `working`. */
function taskStatus(job: JobRow): Task['status'] {
  switch (job.status) {
    case 'queued':
    case 'running':
      return 'working';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** The task of `job`: its id, its status and how far it got. */
export function taskOf(job: JobRow): Task {
  return {
    taskId: job.id,
    status: taskStatus(job),
    ttl: null,
    createdAt: job.createdAt,
    lastUpdatedAt: job.updatedAt,
    pollInterval: JOB_POLL_MS,
    statusMessage: `${job.completed} of ${job.total} pages delivered, ${job.failed} failed; ${job.charged} charged`,
  };
}

/**
 * The MCP Tasks extension over crawl jobs (docs/decisions.md, "Crawl jobs as MCP tasks"):
 * a `tools/call` of {@link CRAWL_JOB_TOOL} with a `task` creates the job as
 * `POST /jobs/crawl` does with the same key (validated first, the limit reserved), and the
 * task is the job: `tasks/get` reads its status, `tasks/result` its view with the manifest
 * once it has ended, `tasks/cancel` cancels it. The job's rows are the store, so any
 * instance answers for any job, and only the key that created a job sees its task.
 */
export class JobTaskStore implements TaskStore {
  readonly #deps: AppDeps;
  readonly #keyHash: string | null;

  constructor(deps: AppDeps, keyHash: string | null) {
    this.#deps = deps;
    this.#keyHash = keyHash;
  }

  async #job(taskId: string): Promise<JobRow | null> {
    if (this.#keyHash === null) return null;
    return jobFor(this.#deps.jobs.services, taskId, { kind: 'key', keyHash: this.#keyHash });
  }

  async createTask(_options: CreateTaskOptions, _id: RequestId, request: Request): Promise<Task> {
    if (this.#keyHash === null) throw new Error('A crawl job task needs a key');
    const args = (request.params as { arguments?: unknown } | undefined)?.arguments ?? {};
    const id = await createCrawlForKey(this.#deps, this.#keyHash, newCrawlJob(this.#deps, args));
    const job = await this.#job(id);
    if (job === null) throw new Error(`Job ${id} vanished after its creation`);
    return taskOf(job);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const job = await this.#job(taskId);
    return job === null ? null : taskOf(job);
  }

  /** A job's result is its own rows: nothing to store. */
  async storeTaskResult(): Promise<void> {}

  async getTaskResult(taskId: string): Promise<Result> {
    const job = await this.#job(taskId);
    if (job === null) throw new Error(`No job ${taskId} for this key`);
    const view = await jobView(this.#deps.jobs.services, job);
    const text = `Job ${job.id} ${job.status}: ${job.completed} of ${job.total} pages delivered, ${job.failed} failed, ${job.charged} charged. Read the pages (each with its own receipt) at ${String(view.pagesUrl)}; the manifest signs the Merkle root of their receipts' content hashes.`;
    return {
      content: [{ type: 'text', text }],
      structuredContent: view,
      ...(job.status === 'completed' ? {} : { isError: true }),
    };
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') return;
    const job = await this.#job(taskId);
    if (job !== null) await cancelJob(this.#deps.jobs.services, job.id);
  }

  async listTasks(): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return { tasks: [] };
  }
}
