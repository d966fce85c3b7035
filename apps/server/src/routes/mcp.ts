import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { StorefrontError } from '@storefront/core';
import express, { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { CRAWL_JOB_TOOL, JobTaskStore } from '../doors/mcp/job-tasks.js';
import { toolError, toolResult } from '../doors/mcp/result.js';
import { crawlJobToolOf, toolsOf } from '../doors/mcp/tools.js';
import {
  PAYMENT_HEADER_NAMES,
  PAYMENT_META,
  PAYMENT_RESPONSE_META,
  paymentHeaderOf,
  paymentToolResult,
  settlementOf,
} from '../doors/mcp/x402-meta.js';
import { written } from '../http/written.js';
import { jobsInstructions } from '../jobs/discovery.js';
import { MCP_PATH, MCP_SERVER } from '../mcp-identity.js';
import { keyRefusalText } from '../metering/key-refusals.js';
import { requestIdOf } from '../middleware/request-id.js';
import { type Exchange, runPaidCall } from '../pipeline/call.js';
import type { CallResult, Door, Refusal } from '../pipeline/door.js';
import { refusal } from '../pipeline/refusal.js';
import { MCP_SLICE_CHARS } from '../registry/slice.js';
import type { AnyRoute } from '../registry/types.js';

/** The largest JSON-RPC request read (a tool call's arguments are query-sized). */
const MAX_MCP_BODY = '4mb';

/**
 * The JSON-RPC error code of a `tools/call` without a valid key: an application code,
 * outside the range JSON-RPC and MCP reserve (-32768 to -32000; mcp.md §1).
 */
export const MCP_KEY_REQUIRED = -31001;

/**
 * `POST /mcp`, the MCP transport (DESIGN §7; mcp.md): the streamable-HTTP transport of
 * the MCP SDK, stateless and answering JSON, with a fresh server and transport per
 * request. `initialize`, `tools/list` and notifications need no key. A `tools/call`
 * goes through the same pipeline as the HTTP route: with a key, through the MCP door
 * (the key door's meter, whose admission reads the key once); without one, or with a
 * payment in `_meta["x402/payment"]`, through the MCP payment door (the x402 door, as
 * the x402 MCP transport specifies: the terms as an `isError` result, the settlement
 * in `_meta["x402/payment-response"]`). Same prices, charge rules, ledger rows and
 * limits, same receipt.
 *
 * The SDK computes the JSON-RPC answer and this adapter writes it (the SDK's web-standard
 * transport hands back a `Response` instead of writing one), so a call the door refused
 * for its key is answered HTTP 401 with `WWW-Authenticate` around the SDK's JSON-RPC
 * error, never a tool result (mcp.md §3).
 */
export function mcpRoutes(deps: AppDeps): Router {
  const router = Router();
  const { pipeline, doors, registry } = deps;
  const base = deps.config.publicBaseUrl;
  const mintUrl = `${base}/api/dev/keys`;
  const tools = toolsOf(registry);
  // What `initialize` tells an agent besides the tools: the job API and its page prices.
  const instructions = jobsInstructions(registry, deps.config.publicBaseUrl);
  const routes = new Map<string, AnyRoute>(registry.map((route) => [route.name, route]));
  const crawlJobTool = crawlJobToolOf(registry, base);

  router.post('/mcp', express.json({ limit: MAX_MCP_BODY }), async (req, res) => {
    const body: unknown = req.body;
    if (Array.isArray(body) && body.some(isToolsCall)) {
      // One call per HTTP request, so that its 401 and its payment stand for it alone
      // (MCP 2025-06-18 removed batches; mcp.md §1). Other batches go to the SDK.
      res.status(400).json({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: JSONRPC_INVALID_REQUEST,
          message:
            'tools/call cannot be sent in a JSON-RPC batch; send each tools/call as a request of its own',
        },
      });
      return;
    }
    const message = body as { method?: unknown; id?: unknown; params?: unknown } | undefined;
    if (isToolsCall(message)) {
      const problem = callParamsProblem(message);
      if (problem !== null) {
        res.json({
          jsonrpc: '2.0',
          id: isJsonRpcId(message.id) ? message.id : null,
          error: { code: JSONRPC_INVALID_PARAMS, message: problem },
        });
        return;
      }
    }

    // The MCP door's refusal of the call's key, when it refuses it: the answer becomes
    // an HTTP 401 (a tools/call is never batched, so there is at most one).
    const key: { refusal: Refusal | null } = { refusal: null };
    // Crawl jobs as tasks, seen only by the key (or its access token) that made them.
    const bearer = deps.accessTokens.credential(req.get('authorization'), deps.clock());
    const server = new Server(
      { name: MCP_SERVER.name, title: MCP_SERVER.title, version: deps.version },
      {
        capabilities: {
          tools: {},
          tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        },
        instructions,
        taskStore: new JobTaskStore(deps, bearer.kind === 'key' ? bearer.keyHash : null),
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...tools, crawlJobTool],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      if (request.params.name === CRAWL_JOB_TOOL) {
        if (bearer.kind !== 'key') {
          key.refusal = refusal('invalid_key', keyRefusalText(bearer), {
            requestId: requestIdOf(res) ?? null,
          });
          throw Object.assign(
            new Error(
              `${key.refusal.message}; a crawl job is paid by a key (x402 jobs: POST ${base}/jobs/crawl); mint a key at ${mintUrl}`,
            ),
            { code: MCP_KEY_REQUIRED },
          );
        }
        if (extra.taskStore === undefined || request.params.task === undefined) {
          return toolError(
            `${CRAWL_JOB_TOOL} runs as a task: call it with params.task (the MCP Tasks extension), then poll tasks/get and read tasks/result. Nothing was charged.`,
          ) as CallToolResult;
        }
        try {
          return { task: await extra.taskStore.createTask({ ttl: null }) } as never;
        } catch (error) {
          if (error instanceof StorefrontError) {
            const details = ((error.details ?? []) as { param: string; message: string }[])
              .map((d) => `\`${d.param}\`: ${d.message}`)
              .join('; ');
            throw new McpError(
              JSONRPC_INVALID_PARAMS,
              `${error.code}: ${error.message}${details === '' ? '' : ` (${details})`}. Nothing was charged.`,
            );
          }
          throw error;
        }
      }
      const route = routes.get(request.params.name);
      if (route === undefined) {
        return toolError(
          `Unknown tool \`${request.params.name}\`; tools/list names ${[...routes.keys()].join(', ')}`,
        ) as CallToolResult;
      }
      // The arguments as sent: the SDK's copy drops a `__proto__` name, which the params
      // check must see to refuse it like any unknown name. A tools/call is never batched.
      const sentParams = message?.params as
        | { arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }
        | undefined;
      const sent = sentParams?.arguments;
      const requestId = requestIdOf(res) ?? null;
      const args = sent ?? request.params.arguments ?? {};
      // A payment is used when one is sent, even beside a key, as over HTTP (x402.md §2);
      // a call with neither is answered with the terms, by the x402 door.
      const payment = sentParams?._meta?.[PAYMENT_META];
      const paying = payment !== undefined || req.get('authorization') === undefined;
      const paymentHeader = paymentHeaderOf(payment);
      const header = paying
        ? (name: string) => (PAYMENT_HEADER_NAMES.has(name) ? paymentHeader[name] : req.get(name))
        : (name: string) => req.get(name);
      const result = paying
        ? await callTool(doors.mcpPayment, route, args, requestId, header, res, extra.signal)
        : await callTool(doors.mcp, route, args, requestId, header, res, extra.signal);
      if (result === 'left') {
        return toolError(
          'The call was given up: its caller left. Nothing was charged.',
        ) as CallToolResult;
      }
      if (result === 'failed') {
        return toolError(
          `internal_error: the call failed on our side; nothing was charged. Quote request id ${requestId ?? 'unknown'} to support.`,
        ) as CallToolResult;
      }
      if (result.kind === 'refused' && result.code === 'invalid_key') {
        key.refusal = result;
        // The SDK answers a thrown error as a JSON-RPC error with this code and the call's id.
        throw Object.assign(new Error(`${result.message}; mint a key at ${mintUrl}`), {
          code: MCP_KEY_REQUIRED,
        });
      }
      if (paying && result.kind === 'refused') {
        const terms = paymentToolResult(result, mintUrl);
        if (terms !== null) return terms as CallToolResult;
      }
      const settled = paying ? settlementOf(result) : null;
      if (settled !== null) {
        return {
          ...toolResult(result, mintUrl),
          _meta: { [PAYMENT_RESPONSE_META]: settled },
        } as CallToolResult;
      }
      return toolResult(result, mintUrl) as CallToolResult;
    });

    // Stateless: no session id is ever issued (the SDK's option is typed without `undefined`).
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
    } as ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0]);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    const answer = await transport.handleRequest(webRequestOf(req), { parsedBody: req.body });
    const json = Buffer.from(await answer.text(), 'utf8');
    const refused = key.refusal;
    res.statusCode = refused === null ? answer.status : 401;
    answer.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    if (refused !== null) {
      res.setHeader(
        'WWW-Authenticate',
        `Bearer realm="storefront", error="invalid_token", error_description="${headerSafe(refused.message)}", resource_metadata="${base}/.well-known/oauth-protected-resource${MCP_PATH}"`,
      );
    }
    res.setHeader('Content-Length', json.length);
    res.end(json);
  });

  /**
   * One tool call through the pipeline and the MCP door: the pipeline's typed result,
   * or how the call ended without one (its caller left, or it failed on our side).
   */
  const callTool = async <T>(
    door: Door<T>,
    route: AnyRoute,
    args: Record<string, unknown>,
    requestId: string | null,
    header: (name: string) => string | undefined,
    res: Response,
    cancelled: AbortSignal,
  ): Promise<CallResult | 'left' | 'failed'> => {
    const left = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) left.abort();
    };
    res.once('close', onClose);
    let answer: (result: CallResult) => void = () => {};
    const answered = new Promise<CallResult>((resolve) => {
      answer = resolve;
    });
    const exchange: Exchange = {
      left: AbortSignal.any([left.signal, cancelled]),
      send(result) {
        answer(result);
        // The tool result is written with the JSON-RPC answer, once this handler returns.
        return written(res);
      },
    };
    const running = runPaidCall(
      pipeline,
      door,
      { route, query: withBudget(route, queryOf(args)), requestId, header },
      exchange,
      deps.config.callDeadlineMs,
    );
    try {
      return await Promise.race([answered, running.then(() => 'left' as const)]);
    } catch {
      return 'failed';
    } finally {
      res.off('close', onClose);
    }
  };

  return router;
}

/**
 * The SDK's view of the request: its URL and headers, as a web `Request` without a body
 * (the body was parsed already and is handed over as `parsedBody`). Clients must accept
 * both JSON and SSE; some send one of the two (mcp.md §6), so `Accept` names both.
 */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || BODY_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.set('accept', 'application/json, text/event-stream');
  const url = new URL(req.originalUrl, `http://${req.get('host') ?? 'localhost'}`);
  return new Request(url, { method: req.method, headers });
}

/** Headers that describe a body the web request does not carry. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
]);

/** JSON-RPC 2.0's "Invalid Request" and "Invalid params" codes. */
const JSONRPC_INVALID_REQUEST = -32600;
const JSONRPC_INVALID_PARAMS = -32602;

function isToolsCall(message: unknown): message is { method: 'tools/call'; id?: unknown } {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'tools/call'
  );
}

/**
 * What is wrong with a `tools/call`'s params by the SDK's own schema, as one sentence
 * naming each field (`params.name`: expected string, received number); null when
 * nothing is. The SDK itself would answer -32603 "Internal error" with the schema's
 * dump, since it checks the shape before its handler runs.
 */
function callParamsProblem(message: unknown): string | null {
  const parsed = CallToolRequestSchema.safeParse(message);
  if (parsed.success) return null;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `\`${path === '' ? 'request' : path}\`: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return `Invalid tools/call params: ${problems.join('; ')}. Expected params { name: string, arguments?: object }`;
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

/** `text` as a quoted-string's content: printable ASCII, no quotes or backslashes. */
function headerSafe(text: string): string {
  return text.replace(/\u2026/g, '...').replace(/[^\x20-\x7e]|["\\]/g, '');
}

function isJsonRpcId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}
