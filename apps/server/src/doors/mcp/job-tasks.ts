import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { AppDeps } from '../../deps.js';
import { createCrawlForKey, newCrawlJob } from '../../jobs/create.js';
import { cancelJob, jobFor, jobView } from '../../jobs/service.js';
import type { JobRow } from '../../jobs/store.js';
import type { ToolResult } from './result.js';

/** The MCP tool that runs a crawl job as a task. */
export const CRAWL_JOB_TOOL = 'crawl_job';

/** How often a client is asked to poll a job task (ms). */
export const JOB_POLL_MS = 2000;

/** Where a `tasks/result` answer names its task (protocol 2025-11-25). */
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** A task's status (protocol 2025-11-25, Tasks). */
type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A crawl job as a task of protocol 2025-11-25: its wire shape. */
export interface JobTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly ttl: null;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly pollInterval: number;
  readonly statusMessage: string;
}

/** A job's status as a task's: queued and running are `working`. */
function taskStatus(job: JobRow): TaskStatus {
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
export function taskOf(job: JobRow): JobTask {
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

/** Whether a task has ended: its result can be read and it can no longer be cancelled. */
function ended(task: JobTask): boolean {
  return task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
}

/**
 * The MCP Tasks extension of protocol 2025-11-25 over crawl jobs (docs/decisions.md, "Crawl
 * jobs as MCP tasks"): a `tools/call` of {@link CRAWL_JOB_TOOL} with a `task` creates the
 * job as `POST /jobs/crawl` does with the same key (validated first, the limit reserved),
 * and the task is the job: `tasks/get` reads its status, `tasks/result` its view with the
 * manifest once it has ended, `tasks/cancel` cancels it. The job's rows are the store, so
 * any instance answers for any job, and only the key that created a job sees its task.
 */
export class JobTasks {
  readonly #deps: AppDeps;
  readonly #keyHash: string | null;

  /** The tasks of the key whose hash is `keyHash` (none without a key). */
  constructor(deps: AppDeps, keyHash: string | null) {
    this.#deps = deps;
    this.#keyHash = keyHash;
  }

  /** The job of the task `taskId` if this key created it, or null. */
  async job(taskId: string): Promise<JobRow | null> {
    if (this.#keyHash === null) return null;
    return jobFor(this.#deps.jobs.services, taskId, { kind: 'key', keyHash: this.#keyHash });
  }

  /**
   * Creates the job of a `crawl_job` call's arguments and reads it back (committed, so a
   * `tasks/get` of its id finds it); a refusal throws its `StorefrontError`.
   */
  async createJob(args: unknown): Promise<JobRow> {
    if (this.#keyHash === null) throw new Error('A crawl job task needs a key');
    const id = await createCrawlForKey(this.#deps, this.#keyHash, newCrawlJob(this.#deps, args));
    const job = await this.job(id);
    if (job === null) throw new Error(`Job ${id} vanished after its creation`);
    return job;
  }

  /** Creates the job of a `crawl_job` call's arguments as a task of protocol 2025-11-25. */
  async create(args: unknown): Promise<JobTask> {
    return taskOf(await this.createJob(args));
  }

  /**
   * The tool result of an ended job: its view with the signed manifest as
   * `structuredContent`, `isError` unless it completed.
   */
  async resultOf(job: JobRow): Promise<ToolResult> {
    const view = await jobView(this.#deps.jobs.services, job);
    const text = `Job ${job.id} ${job.status}: ${job.completed} of ${job.total} pages delivered, ${job.failed} failed, ${job.charged} charged. Read the pages (each with its own receipt) at ${String(view.pagesUrl)}; the manifest signs the Merkle root of their receipts' content hashes.`;
    return {
      content: [{ type: 'text', text }],
      structuredContent: view,
      ...(job.status === 'completed' ? {} : { isError: true as const }),
    };
  }

  /** The task `taskId` of this key, or null. */
  async get(taskId: string): Promise<JobTask | null> {
    const job = await this.job(taskId);
    return job === null ? null : taskOf(job);
  }

  /**
   * The result of an ended task: the job's view with its signed manifest, `isError` unless
   * it completed. Waits for the job to end, reading it every {@link JOB_POLL_MS}, as
   * `tasks/result` holds its answer until then; `left` stops the wait.
   */
  async result(taskId: string, left: AbortSignal): Promise<ToolResult> {
    for (;;) {
      const job = await this.job(taskId);
      if (job === null) throw notFound(taskId);
      if (ended(taskOf(job))) {
        return { ...(await this.resultOf(job)), _meta: { [RELATED_TASK_META]: { taskId } } };
      }
      await sleep(JOB_POLL_MS, undefined, { signal: left });
    }
  }

  /** Cancels the job `taskId` if it has not ended (one that has is left as it is). */
  async stop(taskId: string): Promise<void> {
    await cancelJob(this.#deps.jobs.services, taskId);
  }

  /** Cancels a task that has not ended; charges nothing more. */
  async cancel(taskId: string): Promise<JobTask> {
    const task = await this.get(taskId);
    if (task === null) throw notFound(taskId);
    if (ended(task)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task in terminal status: ${task.status}`,
      );
    }
    await cancelJob(this.#deps.jobs.services, taskId);
    const cancelled = await this.get(taskId);
    if (cancelled === null) throw notFound(taskId);
    return cancelled;
  }
}

/** The answer to a task this key cannot see: the same as to one that does not exist. */
function notFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
}

/** The params of `tasks/get`, `tasks/result` and `tasks/cancel`. */
const TASK_PARAMS = z.looseObject({ taskId: z.string() });

/**
 * Serves the task methods of protocol 2025-11-25 on `server` from `tasks`. The MCP SDK 2
 * keeps the Tasks vocabulary of that revision as wire types only (it has no task runtime),
 * so the methods are registered with their own params schemas, which its era gate admits
 * on a 2025 connection. Like the SDK 1.x runtime they replace: an unknown task is
 * `-32602`, `tasks/result` waits for the task to end, an ended task cannot be cancelled,
 * and `tasks/list` lists nothing (a key reads its jobs at `GET /jobs/{id}`).
 */
export function serveJobTasks(server: Server, tasks: JobTasks): void {
  server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async ({ taskId }) => {
    const task = await tasks.get(taskId);
    if (task === null) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Failed to retrieve task: Task not found',
      );
    }
    return { ...task };
  });
  server.setRequestHandler('tasks/result', { params: TASK_PARAMS }, ({ taskId }, ctx) =>
    tasks.result(taskId, ctx.mcpReq.signal),
  );
  server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async ({ taskId }) => ({
    ...(await tasks.cancel(taskId)),
  }));
  server.setRequestHandler(
    'tasks/list',
    { params: z.looseObject({ cursor: z.string().optional() }).optional() },
    async () => ({ tasks: [] }),
  );
}
