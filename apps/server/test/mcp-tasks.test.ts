/**
 * Crawl jobs as tasks of the MCP Tasks extension (`io.modelcontextprotocol/tasks`) on
 * protocol 2026-07-28, driven by the official requester, `@modelcontextprotocol/ext-tasks`,
 * over the official v2 client against a listening server: the extension in
 * `server/discover`, the task created by a `tools/call`, polled with `tasks/get` until it
 * ends with the job and its signed manifest, charged per delivered page, seen by its key
 * only, cancelled; and the extension's refusals on the wire.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  resultFromTaskOutcome,
  type TaskEnabledSession,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import type { TaskId } from '@modelcontextprotocol/ext-tasks/core';
import { verifyReceipt } from '@storefront/attest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS_EXTENSION } from '../src/doors/mcp/tasks-extension.js';
import { JSON_SCHEMA_2020_12 } from '../src/doors/mcp/tools.js';
import type { RunningServer } from '../src/server.js';
import { creditsAt, listeningServer, liveKeyAt, pinnedAddressAt } from './listening.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'storefront-tests-tasks', version: '1.0.0' };

/**
 * A site whose pages answer only once the test lets them (robots.txt at once): a crawl of
 * it stays running, whatever the machine's speed, until {@link Gate.release}.
 */
interface Gate {
  readonly allow: string;
  url(path: string): string;
  release(): void;
  close(): Promise<void>;
}

async function startGate(): Promise<Gate> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    void released.then(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><title>Gate</title></head><body><main><h1>Gate</h1><p>A page that answered once the test let it, long enough to be read as content.</p></main></body></html>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    allow: `127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    release,
    close: async () => {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Site;
let gate: Gate;
let server: RunningServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  site = await startSite();
  gate = await startGate();
  ({ server, stop } = await listeningServer({
    SAFE_FETCH_ALLOW: `${site.allow},${gate.allow}`,
    // A page of the gate is held until the test releases it, within its deadline.
    CALL_DEADLINE_MS: '120000',
  }));
  await server.ready();
}, 90_000);

afterAll(async () => {
  gate?.release();
  await stop?.();
  await gate?.close();
  await site?.close();
}, 60_000);

const mcpUrl = () => `${server.url}/mcp`;

const liveKey = (credits: number) => liveKeyAt(server.url, credits);

const creditsOf = (key: string) => creditsAt(server.url, key);

const pinnedKey = () => pinnedAddressAt(server.url);

async function jobOf(key: string, id: string): Promise<Body> {
  const res = await fetch(`${server.url}/jobs/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Body;
}

/**
 * The host's raw request path that the requester needs on 2026-07-28 (the SDK client's
 * codecs have no Tasks extension shapes): one JSON-RPC POST per request, with the
 * revision's headers (`Mcp-Method`, and `Mcp-Name` from the body unless the requester sets
 * it, as it does to the task id for `tasks/*`) and the key.
 */
function rawDispatchOf(key: string): RawClientDispatch {
  let id = 0;
  return async (request, options) => {
    const message = request as { method: string; params?: Record<string, unknown> };
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': message.method,
      authorization: `Bearer ${key}`,
    });
    const name = message.params?.name ?? message.params?.taskId;
    if (typeof name === 'string') headers.set('mcp-name', name);
    for (const [header, value] of Object.entries(options?.context?.headers ?? {})) {
      headers.set(header, value);
    }
    id += 1;
    const res = await fetch(mcpUrl(), {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, ...message }),
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
    });
    const body = (await res.json()) as { result?: never; error?: never };
    return body.error !== undefined
      ? { kind: 'error', error: body.error }
      : { kind: 'result', result: body.result ?? null };
  };
}

/** The v2 client pinned to 2026-07-28 with `key`, and a Tasks session over it. */
async function tasksSession(key: string): Promise<{ client: Client; session: TaskEnabledSession }> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl()), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  const session = createTaskSessionFromClient(client, {
    endpointId: `storefront-tests-${key.slice(-8)}`,
    rawDispatch: rawDispatchOf(key),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
  return { client, session };
}

/** The task id of an execution the server answered with a task (not an immediate result). */
function taskIdOf(execution: ToolExecution<unknown>): TaskId {
  if (execution.kind !== 'task') throw new Error(`expected a task, got a ${execution.kind} result`);
  return execution.handle.taskId;
}

/** The `_meta` envelope of a raw 2026-07-28 request, declaring the Tasks extension or not. */
function envelope(tasks: boolean): Body {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': tasks
      ? { extensions: { [TASKS_EXTENSION]: {} } }
      : {},
  };
}

/** One raw 2026-07-28 POST of `method` with `params`, its headers right. */
async function post(
  key: string | null,
  method: string,
  params: Body,
  { tasks = true } = {},
): Promise<{ status: number; body: Body }> {
  const name = params.name ?? params.taskId;
  const res = await fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: envelope(tasks) },
    }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

describe('crawl jobs as tasks of the MCP Tasks extension (2026-07-28)', () => {
  it('declares the extension in server/discover and lists crawl_job with a 2020-12 schema and no execution field', async () => {
    const { client, session } = await tasksSession(await liveKey(0));
    expect(client.getServerCapabilities()?.extensions).toStrictEqual({ [TASKS_EXTENSION]: {} });
    // The requester sees a Tasks V2 server.
    expect(session.capabilities).toMatchObject({ execution: true, cancellation: true });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'crawl_job');
    expect(tool?.inputSchema).toMatchObject({
      $schema: JSON_SCHEMA_2020_12,
      type: 'object',
      required: ['url'],
    });
    expect(tool).not.toHaveProperty('execution');
    expect(tool?.description).toContain(TASKS_EXTENSION);
    await session.close();
    await client.close();
  });

  it('runs a crawl job as a task: created by tools/call, polled with tasks/get until completed, the job and its manifest as the result, 5 credits per delivered page', async () => {
    const key = await liveKey(1000);
    const { client, session } = await tasksSession(key);
    const execution = await session.callTool('crawl_job', {
      url: site.shop.url('/'),
      limit: 3,
      format: 'markdown',
    });
    const taskId = taskIdOf(execution);
    expect(taskId).toMatch(/^job_[0-9a-f]{24}$/);
    const seen: string[] = [];
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        if (event.type === 'task') seen.push(event.task.status);
      },
    });
    expect(outcome.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    const result = resultFromTaskOutcome(outcome) as {
      content: { type: string; text: string }[];
      structuredContent: Body;
      isError?: boolean;
    };
    expect(result.isError).toBeUndefined();
    const view = result.structuredContent;
    expect(view).toMatchObject({ ok: true, jobId: taskId, status: 'completed' });
    // The manifest is a signed answer of its own: the receipt checks against the pinned key.
    const manifest = view.manifest as Body;
    expect(manifest).toMatchObject({ ok: true, data: { jobId: taskId } });
    expect(verifyReceipt(manifest, await pinnedKey()).problems).toStrictEqual([]);
    const delivered = view.completed as number;
    expect(delivered).toBeGreaterThan(0);
    expect(result.content[0]?.text).toContain(`Job ${taskId} completed`);
    expect(1000 - (await creditsOf(key))).toBe(delivered * 5);
    // The task is the job: the same key reads it over HTTP.
    expect(await jobOf(key, taskId)).toMatchObject({ status: 'completed', completed: delivered });

    // Read again by id (as a requester that kept the task id would), with tasks/get.
    const snapshot = await session.task(taskId).snapshot();
    expect(snapshot).toMatchObject({ taskId, status: 'completed', retentionMs: null });
    expect(snapshot.suggestedPollIntervalMs).toBe(2000);
    await session.close();
    await client.close();

    // Another key cannot see it: not found, as a task that does not exist.
    const other = await tasksSession(await liveKey(0));
    await expect(other.session.task(taskId).snapshot()).rejects.toMatchObject({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    await expect(other.session.task(taskId).cancel()).rejects.toMatchObject({ code: -32602 });
    await other.session.close();
    await other.client.close();
    expect((await jobOf(key, taskId)).status).toBe('completed');
  }, 90_000);

  it('cancels a running task with tasks/cancel: the job is cancelled, the reservation given back', async () => {
    const key = await liveKey(100);
    const { client, session } = await tasksSession(key);
    const execution = await session.callTool('crawl_job', { url: gate.url('/'), limit: 4 });
    const taskId = taskIdOf(execution);
    // The limit's pages are reserved while the job runs (its start page is held).
    expect(await creditsOf(key)).toBe(100 - 4 * 5);
    expect((await session.task(taskId).snapshot()).status).toBe('working');
    await session.task(taskId).cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('cancelled');
    gate.release();
    const job = await jobOf(key, taskId);
    expect(job).toMatchObject({ status: 'cancelled', completed: 0 });
    expect(await creditsOf(key)).toBe(100);
    // A crawl job asks for no input: a tasks/update of it is acknowledged, nothing changes.
    const update = await post(key, 'tasks/update', { taskId, inputResponses: {} });
    expect(update.body).toMatchObject({ result: {} });
    expect(update.body.result).toStrictEqual({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': expect.any(Object) },
    });
    // A cancelled task stays cancelled; cancelling it again is acknowledged.
    await session.task(taskId).cancel();
    expect((await session.task(taskId).snapshot()).status).toBe('cancelled');
    await session.close();
    await client.close();
  }, 90_000);

  it('refuses bad arguments and a key that cannot cover the limit with -32602 naming the code; nothing is reserved', async () => {
    const key = await liveKey(4);
    const bad = await post(key, 'tools/call', {
      name: 'crawl_job',
      arguments: { url: 'not a url', limit: 3 },
    });
    expect(bad.body.error).toMatchObject({ code: -32602 });
    expect((bad.body.error as { message: string }).message).toMatch(
      /^invalid_params: Invalid crawl job \(`url`: .+\)\. Nothing was charged\.$/,
    );
    const poor = await post(key, 'tools/call', {
      name: 'crawl_job',
      arguments: { url: site.shop.url('/'), limit: 3 },
    });
    expect((poor.body.error as { message: string }).message).toMatch(
      /^insufficient_credits: A crawl of up to 3 pages reserves 3 × 5 credits/,
    );
    expect(await creditsOf(key)).toBe(4);
  });

  it('answers a request that does not declare the extension -32021 naming it, and a call without a key 401', async () => {
    const key = await liveKey(100);
    const call = await post(
      key,
      'tools/call',
      { name: 'crawl_job', arguments: { url: site.shop.url('/'), limit: 2 } },
      { tasks: false },
    );
    expect(call.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    const get = await post(
      key,
      'tasks/get',
      { taskId: 'job_000000000000000000000000' },
      {
        tasks: false,
      },
    );
    expect(get.body.error).toMatchObject({ code: -32021 });
    expect(await creditsOf(key)).toBe(100);
    const keyless = await post(null, 'tools/call', {
      name: 'crawl_job',
      arguments: { url: site.shop.url('/') },
    });
    expect(keyless.status).toBe(401);
    expect(keyless.body.error).toMatchObject({ code: -31001 });
  });

  it('has no tasks/result or tasks/list on 2026-07-28, and refuses tasks/update of a task it does not know', async () => {
    const key = await liveKey(0);
    for (const method of ['tasks/result', 'tasks/list']) {
      const answer = await post(key, method, { taskId: 'job_000000000000000000000000' });
      expect(answer.body.error).toMatchObject({ code: -32601 });
    }
    const unknown = await post(key, 'tasks/update', {
      taskId: 'job_000000000000000000000000',
      inputResponses: {},
    });
    expect(unknown.body.error).toMatchObject({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
  });
});
