import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { JobRow } from '../../jobs/store.js';
import { JOB_POLL_MS, type JobTasks } from './job-tasks.js';

/** The MCP Tasks extension of protocol 2026-07-28 (SEP-2663), by its identifier. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The JSON-RPC error of a request the server cannot serve without a client capability. */
export const MISSING_CLIENT_CAPABILITY = -32021;

/** Where a 2026-07-28 request carries its client's capabilities. */
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** A task's status as the extension's `Task` carries it. */
type ExtensionTaskStatus = 'working' | 'completed' | 'cancelled';

/** A crawl job as a task of the Tasks extension: its wire shape (the spec's `Task`). */
export interface ExtensionTask {
  readonly taskId: string;
  readonly status: ExtensionTaskStatus;
  readonly statusMessage: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Null: a job's rows are kept, so its task does not expire. */
  readonly ttlMs: null;
  readonly pollIntervalMs: number;
}

/**
 * Whether the request `message` (as sent) declares the Tasks extension in its per-request
 * client capabilities (`_meta["io.modelcontextprotocol/clientCapabilities"].extensions`).
 */
export function declaresTasks(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const capabilities = meta?.[CLIENT_CAPABILITIES_META] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared);
}

/** The error answering a client that did not declare the extension (-32021, naming it). */
export function missingTasksCapability(what: string): ProtocolError {
  return new ProtocolError(
    MISSING_CLIENT_CAPABILITY,
    `Missing required client capability: ${what} needs the MCP Tasks extension; declare "${TASKS_EXTENSION}": {} in _meta["${CLIENT_CAPABILITIES_META}"].extensions`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/**
 * The task of `job`: queued and running are `working`; a job that ended, completed or
 * failed, is `completed` with its tool result (the extension keeps `failed` for a
 * JSON-RPC error, and a failed job is a tool result with `isError`); cancelled is
 * `cancelled`.
 */
export function extensionTaskOf(job: JobRow): ExtensionTask {
  const pages = `${job.completed} of ${job.total} pages delivered, ${job.failed} failed; ${job.charged} charged`;
  const status: ExtensionTaskStatus =
    job.status === 'queued' || job.status === 'running'
      ? 'working'
      : job.status === 'cancelled'
        ? 'cancelled'
        : 'completed';
  return {
    taskId: job.id,
    status,
    statusMessage: job.status === 'failed' ? `The crawl job failed: ${pages}` : pages,
    createdAt: job.createdAt,
    lastUpdatedAt: job.updatedAt,
    ttlMs: null,
    pollIntervalMs: JOB_POLL_MS,
  };
}

/**
 * The `CreateTaskResult` of a `crawl_job` call (`resultType: "task"` and the task): the
 * job exists, committed, before it is returned, so a `tasks/get` of its id resolves.
 */
export async function createJobTask(
  tasks: JobTasks,
  args: unknown,
): Promise<ExtensionTask & { resultType: 'task' }> {
  return { resultType: 'task', ...extensionTaskOf(await tasks.createJob(args)) };
}

/** The answer to a task this key cannot see: the same as to one that does not exist. */
function notFound(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'Failed to retrieve task: Task not found',
  );
}

/** The params of `tasks/get`, `tasks/update` (its `inputResponses` aside) and `tasks/cancel`. */
const TASK_PARAMS = z.looseObject({ taskId: z.string() });

/**
 * Serves the methods of the Tasks extension (2026-07-28) on `server` from `tasks`, the
 * crawl jobs of the request's key (docs/decisions.md, "Crawl jobs as MCP tasks"):
 * - `tasks/get`: the task, with `result` (the job's tool result) once it has ended;
 * - `tasks/update`: acknowledged (a crawl job never asks for input, so its
 *   `inputResponses` answer nothing outstanding and are ignored, as the extension says);
 * - `tasks/cancel`: cancels a job that has not ended, charges nothing more; acknowledged.
 * An unknown task, or one another key made, is -32602; a request that does not declare the
 * extension (`declared` false) is -32021. There is no `tasks/list` or `tasks/result` in the
 * extension: the SDK answers them -32601.
 */
export function serveTasksExtension(server: Server, tasks: JobTasks, declared: boolean): void {
  const jobOf = async (method: string, taskId: string): Promise<JobRow> => {
    if (!declared) throw missingTasksCapability(method);
    const job = await tasks.job(taskId);
    if (job === null) throw notFound();
    return job;
  };
  server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async ({ taskId }) => {
    const job = await jobOf('tasks/get', taskId);
    const task = extensionTaskOf(job);
    if (task.status !== 'completed') return { ...task };
    return { ...task, result: { resultType: 'complete', ...(await tasks.resultOf(job)) } };
  });
  // The SDK lifts `inputResponses` out of every request's params (the multi round-trip
  // retry field of 2026-07-28) before a handler sees them; they are ignored here anyway.
  server.setRequestHandler('tasks/update', { params: TASK_PARAMS }, async ({ taskId }) => {
    await jobOf('tasks/update', taskId);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async ({ taskId }) => {
    await jobOf('tasks/cancel', taskId);
    // A job that has ended keeps its terminal status.
    await tasks.stop(taskId);
    return {};
  });
}
