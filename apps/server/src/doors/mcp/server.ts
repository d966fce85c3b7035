import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { StorefrontError } from '@storefront/core';
import type { AppDeps } from '../../deps.js';
import { jobsInstructions } from '../../jobs/discovery.js';
import { MCP_MODERN_PROTOCOL_VERSION, MCP_SERVER } from '../../mcp-identity.js';
import type { Credential } from '../../metering/access-tokens.js';
import { keyRefusalText } from '../../metering/key-refusals.js';
import { type Exchange, runPaidCall } from '../../pipeline/call.js';
import type { CallResult, Door, Refusal } from '../../pipeline/door.js';
import { RESPONSE_PROVENANCE } from '../../pipeline/provenance.js';
import { refusal } from '../../pipeline/refusal.js';
import { MCP_SLICE_CHARS } from '../../registry/slice.js';
import type { AnyRoute } from '../../registry/types.js';
import { CRAWL_JOB_TOOL, JobTasks, serveJobTasks } from './job-tasks.js';
import { type ToolResult, toolError, toolResult } from './result.js';
import {
  createJobTask,
  declaresTasks,
  missingTasksCapability,
  serveTasksExtension,
  TASKS_EXTENSION,
} from './tasks-extension.js';
import { crawlJobToolOf, modernCrawlJobToolOf, modernToolsOf, toolsOf } from './tools.js';
import {
  PAYMENT_HEADER_NAMES,
  PAYMENT_META,
  PAYMENT_RESPONSE_META,
  paymentHeaderOf,
  paymentToolResult,
  settlementOf,
} from './x402-meta.js';

/**
 * The JSON-RPC error code of a `tools/call` without a valid key: an application code,
 * outside the range JSON-RPC and MCP reserve (-32768 to -32000; mcp.md §1).
 */
export const MCP_KEY_REQUIRED = -31001;

/**
 * Every protocol revision `POST /mcp` answers, newest first: 2026-07-28, then the legacy
 * revisions the SDK's legacy serving negotiates in `initialize`.
 */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [
  MCP_MODERN_PROTOCOL_VERSION,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/**
 * How long a client or a shared cache may keep the tool list and the `server/discover`
 * answer on the 2026-07-28 revision (`ttlMs`, ms): they change only when the service is
 * deployed with another registry.
 */
export const MCP_LIST_TTL_MS = 600_000;

/**
 * The protocol era of one request: `legacy` (2025-11-25 and before: `initialize` first,
 * no `_meta` envelope) or `modern` (2026-07-28: stateless, the envelope on every request).
 */
export type McpEra = 'legacy' | 'modern';

/** One HTTP exchange of `POST /mcp`, as the MCP server's handlers see it. */
export interface McpExchange {
  /**
   * The JSON-RPC message as sent: a tool's arguments are read from it, since the SDK's
   * copy drops a `__proto__` name, which the params check must see to refuse it like any
   * unknown name (a `tools/call` is never batched).
   */
  readonly message: unknown;
  /** The request id of the HTTP request (`X-Request-Id`). */
  readonly requestId: string | null;
  /** A header of the HTTP request by (lower-case) name. */
  header(name: string): string | undefined;
  /** Aborts when the caller leaves before its answer has been written. */
  readonly left: AbortSignal;
  /** Resolves true once the HTTP answer is written in full, false if the caller left. */
  written(): Promise<boolean>;
  /**
   * The refusal of the call's key, when the tool handler refused it: the adapter answers
   * the exchange HTTP 401 with `WWW-Authenticate` around the SDK's JSON-RPC error.
   */
  keyRefusal: Refusal | null;
}

/**
 * The MCP server of one exchange, for either era, from one definition (the official SDK's
 * low-level `Server`; docs/decisions.md, "MCP, both eras"). The tools are the registry's
 * routes, written as JSON Schema; on the 2026-07-28 revision their schemas declare
 * JSON Schema 2020-12 and the answer's receipt is required, and the tool list and
 * `server/discover` carry `ttlMs`/`cacheScope` (public: the same for every caller). A
 * `tools/call` goes through the same pipeline as the HTTP route: with a key, through the
 * MCP door (the key door's meter, whose admission reads the key once); without one, or
 * with a payment in `_meta["x402/payment"]`, through the MCP payment door (the x402 door,
 * as the x402 MCP transport specifies: the terms as an `isError` result, the settlement in
 * `_meta["x402/payment-response"]`). Same prices, charge rules, ledger rows and limits,
 * same receipt. Crawl jobs run as tasks on both eras, from the job's own rows: the
 * 2025-11-25 Tasks (`params.task`, `tasks/get`, `tasks/result`, `tasks/cancel`,
 * `tasks/list`) on the legacy era, and the Tasks extension (`io.modelcontextprotocol/tasks`,
 * declared in the capabilities; `resultType: "task"`, `tasks/get` with the result inline,
 * `tasks/update`, `tasks/cancel`) on 2026-07-28. The SDK implements neither, so the
 * methods are our own handlers.
 */
export function mcpServerFactory(deps: AppDeps): (era: McpEra, exchange: McpExchange) => Server {
  const { pipeline, doors, registry } = deps;
  const base = deps.config.publicBaseUrl;
  const mintUrl = `${base}/api/dev/keys`;
  const tools = toolsOf(registry);
  const legacyTools = [...tools, crawlJobToolOf(registry, base)];
  const modernTools = [...modernToolsOf(tools), modernCrawlJobToolOf(registry, base)];
  // What `initialize` and `server/discover` tell an agent besides the tools: the job API
  // and its page prices.
  const instructions = jobsInstructions(registry, base);
  const routes = new Map<string, AnyRoute>(registry.map((route) => [route.name, route]));
  const info = { name: MCP_SERVER.name, title: MCP_SERVER.title, version: deps.version };
  const listHint = { ttlMs: MCP_LIST_TTL_MS, cacheScope: 'public' } as const;

  /** Refuses the exchange's call for its key: the adapter makes the answer an HTTP 401. */
  const refuseKey = (exchange: McpExchange, refused: Refusal, more: string): ProtocolError => {
    exchange.keyRefusal = refused;
    return new ProtocolError(MCP_KEY_REQUIRED, `${refused.message}; ${more}`);
  };

  /**
   * One tool call through the pipeline and a door: the pipeline's typed result, or how
   * the call ended without one (its caller left, or it failed on our side).
   */
  const callTool = async <T>(
    door: Door<T>,
    route: AnyRoute,
    args: Record<string, unknown>,
    exchange: McpExchange,
    header: (name: string) => string | undefined,
    cancelled: AbortSignal,
  ): Promise<CallResult | 'left' | 'failed'> => {
    let answer: (result: CallResult | Promise<CallResult>) => void = () => {};
    const answered = new Promise<CallResult>((resolve) => {
      answer = resolve;
    });
    let sent = false;
    const call: Exchange = {
      left: AbortSignal.any([exchange.left, cancelled]),
      send(result, ready) {
        sent = true;
        // The SDK writes the answer once it is handed over: after `ready`, if any.
        answer(ready === undefined ? result : ready.then(() => result));
        // The tool result is written with the JSON-RPC answer, once the handler returns.
        return exchange.written();
      },
    };
    const running = runPaidCall(
      pipeline,
      door,
      {
        route,
        query: withBudget(route, queryOf(args)),
        requestId: exchange.requestId,
        header,
        // The tool runs the route: its path is the endpoint, its arguments the inputs.
        question: () => ({ endpoint: route.path, inputs: args }),
      },
      call,
      deps.config.callDeadlineMs,
    );
    try {
      // A call that has sent its answer ends with it, even when the pipeline is done first
      // (it does not wait for a delivered answer's `ready`).
      const ended = running.then(async () => (sent ? await answered : ('left' as const)));
      return await Promise.race([answered, ended]);
    } catch {
      return 'failed';
    }
  };

  /** A paid tool's call, answered as a tool result (or refused for its key). */
  const paidCall = async (
    route: AnyRoute,
    params: { arguments?: Record<string, unknown> | undefined },
    exchange: McpExchange,
    cancelled: AbortSignal,
  ): Promise<ToolResult> => {
    const sent = sentParams(exchange);
    const args = sent?.arguments ?? params.arguments ?? {};
    // A payment is used when one is sent, even beside a key, as over HTTP (x402.md §2);
    // a call with neither is answered with the terms, by the x402 door.
    const payment = sent?._meta?.[PAYMENT_META];
    const paying = payment !== undefined || exchange.header('authorization') === undefined;
    const paymentHeader = paymentHeaderOf(payment);
    const header = paying
      ? (name: string) =>
          PAYMENT_HEADER_NAMES.has(name) ? paymentHeader[name] : exchange.header(name)
      : (name: string) => exchange.header(name);
    const result = paying
      ? await callTool(doors.mcpPayment, route, args, exchange, header, cancelled)
      : await callTool(doors.mcp, route, args, exchange, header, cancelled);
    if (result === 'left') {
      return toolError('The call was given up: its caller left. Nothing was charged.');
    }
    if (result === 'failed') {
      return toolError(
        `internal_error: the call failed on our side; nothing was charged. Quote request id ${exchange.requestId ?? 'unknown'} to support.`,
      );
    }
    if (result.kind === 'refused' && result.code === 'invalid_key') {
      throw refuseKey(exchange, result, `mint a key at ${mintUrl}`);
    }
    if (paying && result.kind === 'refused') {
      const terms = paymentToolResult(result, mintUrl);
      if (terms !== null) return terms;
    }
    const settled = paying ? settlementOf(result) : null;
    const answer = toolResult(result, mintUrl);
    // The claim's result is `structuredContent`, so it goes only where that is the body.
    const claim =
      result.kind === 'delivered' && answer.structuredContent !== undefined
        ? (result.provenance ?? null)
        : null;
    const meta = {
      ...(settled === null ? {} : { [PAYMENT_RESPONSE_META]: settled }),
      ...(claim === null ? {} : { [RESPONSE_PROVENANCE]: claim }),
    };
    return Object.keys(meta).length === 0 ? answer : { ...answer, _meta: meta };
  };

  /** A `crawl_job` call, with a key: a task of either era's Tasks. */
  const crawlJob = async (
    era: McpEra,
    exchange: McpExchange,
    bearer: Credential,
    tasks: JobTasks,
  ): Promise<ToolResult> => {
    const params = sentParams(exchange);
    if (bearer.kind !== 'key') {
      const refused = refusal('invalid_key', keyRefusalText(bearer), {
        requestId: exchange.requestId,
      });
      throw refuseKey(
        exchange,
        refused,
        `a crawl job is paid by a key (x402 jobs: POST ${base}/jobs/crawl); mint a key at ${mintUrl}`,
      );
    }
    if (era === 'modern') {
      // The Tasks extension of 2026-07-28: the server answers a task to a client that
      // declares the extension on the request, and -32021 to one that does not (the job
      // cannot be answered in one result). A `params.task` is ignored.
      if (!declaresTasks(exchange.message)) throw missingTasksCapability(CRAWL_JOB_TOOL);
      return (await refusedAsParams(() =>
        createJobTask(tasks, params?.arguments ?? {}),
      )) as unknown as ToolResult;
    }
    if (params?.task === undefined) {
      return toolError(
        `${CRAWL_JOB_TOOL} runs as a task: call it with params.task (the MCP Tasks extension), then poll tasks/get and read tasks/result. Nothing was charged.`,
      );
    }
    const task = await refusedAsParams(() => tasks.create(params.arguments ?? {}));
    // A CreateTaskResult. The SDK checks every tools/call answer as a CallToolResult and
    // wants `content` beside `task`; a result may carry fields beyond its type's.
    return {
      task,
      content: [
        {
          type: 'text',
          text: `Crawl job ${task.taskId} created as a task: poll tasks/get, then read tasks/result.`,
        },
      ],
    };
  };

  return (era, exchange) => {
    const bearer = bearerOf(deps, exchange);
    // Crawl jobs as tasks, seen only by the key (or its access token) that made them.
    const tasks = new JobTasks(deps, bearer.kind === 'key' ? bearer.keyHash : null);
    const server = new Server(info, {
      capabilities:
        era === 'legacy'
          ? { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
          : { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      instructions,
      cacheHints: { 'tools/list': listHint, 'server/discover': listHint },
    });
    server.setRequestHandler('tools/list', () => ({
      tools: era === 'legacy' ? legacyTools : modernTools,
    }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { params } = request;
      if (params.name === CRAWL_JOB_TOOL) {
        return (await crawlJob(era, exchange, bearer, tasks)) as CallToolResult;
      }
      const route = routes.get(params.name);
      if (route === undefined) {
        return toolError(
          `Unknown tool \`${params.name}\`; tools/list names ${[...routes.keys()].join(', ')}`,
        ) as CallToolResult;
      }
      return (await paidCall(route, params, exchange, ctx.mcpReq.signal)) as CallToolResult;
    });
    if (era === 'legacy') serveJobTasks(server, tasks);
    else serveTasksExtension(server, tasks, declaresTasks(exchange.message));
    return server;
  };
}

/**
 * `create()`, with a refusal of the job (its `StorefrontError`: bad arguments, credits that
 * cannot cover the limit) as a JSON-RPC -32602 naming its code and each field: nothing was
 * reserved or charged.
 */
async function refusedAsParams<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (error instanceof StorefrontError) {
      const details = ((error.details ?? []) as { param: string; message: string }[])
        .map((d) => `\`${d.param}\`: ${d.message}`)
        .join('; ');
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${error.code}: ${error.message}${details === '' ? '' : ` (${details})`}. Nothing was charged.`,
      );
    }
    throw error;
  }
}

/** The params of the exchange's JSON-RPC message as sent. */
function sentParams(
  exchange: McpExchange,
):
  | { arguments?: Record<string, unknown>; _meta?: Record<string, unknown>; task?: unknown }
  | undefined {
  return (exchange.message as { params?: unknown } | null)?.params as
    | { arguments?: Record<string, unknown>; _meta?: Record<string, unknown>; task?: unknown }
    | undefined;
}

/** The credential of an exchange's `Authorization` header: a key, an access token's key, or why not. */
function bearerOf(deps: AppDeps, exchange: McpExchange): Credential {
  return deps.accessTokens.credential(exchange.header('authorization'), deps.clock());
}

/**
 * A tool's arguments as the route's query: strings as they are, numbers and booleans
 * as their text (a client may send `table: 2`), anything else left for the params check
 * to refuse by name.
 */
function queryOf(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) =>
      typeof value === 'number' || typeof value === 'boolean'
        ? [name, String(value)]
        : [name, value],
    ),
  );
}

/**
 * The query of a tool whose text can be cut, with the MCP budget as `maxChars` when the
 * call names none ({@link MCP_SLICE_CHARS}): a whole page's text can pass what clients
 * take in one tool result. A call the budget would make invalid (`/buy/fetch` with an
 * `extract` field list, whose record is signed whole) goes as it was sent.
 */
function withBudget(route: AnyRoute, query: Record<string, unknown>): Record<string, unknown> {
  if (route.slices === undefined || query.maxChars !== undefined) return query;
  const budgeted = { ...query, maxChars: String(MCP_SLICE_CHARS) };
  const strings = (q: Record<string, unknown>) =>
    Object.values(q).every((value) => typeof value === 'string');
  if (!strings(query)) return query;
  return route.check(budgeted as Record<string, string>).ok ? budgeted : query;
}
