import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import express, { type Request, Router } from 'express';
import * as z from 'zod';
import type { AppDeps } from '../deps.js';
import { type McpExchange, mcpServerFactory } from '../doors/mcp/server.js';
import { endSigned, signedJson } from '../http/signed-answer.js';
import { written } from '../http/written.js';
import { MCP_PATH } from '../mcp-identity.js';
import { requestIdOf } from '../middleware/request-id.js';

/** The largest JSON-RPC request read (a tool call's arguments are query-sized). */
const MAX_MCP_BODY = '4mb';

/**
 * `POST /mcp`, the MCP transport (DESIGN §7; mcp.md; docs/decisions.md, "MCP, both eras"):
 * Streamable HTTP with the official MCP SDK 2 server, stateless, a fresh server per
 * request, serving two protocol eras from one definition ({@link mcpServerFactory}):
 * - The 2026-07-28 revision, for a request that carries the per-request `_meta`
 *   envelope: the SDK's own handler (`createMcpHandler`, modern only), which checks the
 *   envelope and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers against
 *   the body (400 with `-32020` HeaderMismatch when one is missing or disagrees, `-32022`
 *   for a revision it does not serve), answers `server/discover`, and stamps
 *   `resultType`, `ttlMs`/`cacheScope` and `serverInfo`.
 * - The legacy revisions (2025-11-25 and before, `initialize` first), for every other
 *   request (the SDK's own `isLegacyRequest` decides): the SDK's stateless streamable
 *   HTTP transport, answering JSON, as SDK 1.x did here before. The SDK's built-in
 *   legacy leg answers event streams, which curl users and the tests here read as JSON.
 *
 * `initialize`, `server/discover`, `tools/list` and notifications need no key. Before
 * either era sees a message, a batch holding a `tools/call` and a `tools/call` whose params
 * have the wrong shape are refused with a JSON-RPC error naming the problem. The SDK
 * computes the JSON-RPC answer and this adapter writes it, so a call the door refused for
 * its key is answered HTTP 401 with `WWW-Authenticate` around the SDK's JSON-RPC error,
 * never a tool result (mcp.md §3).
 */
export function mcpRoutes(deps: AppDeps): Router {
  const router = Router();
  const base = deps.config.publicBaseUrl;
  const serverOf = mcpServerFactory(deps);
  // The exchange of each modern request, for the factory the SDK calls with the request.
  const exchanges = new WeakMap<globalThis.Request, McpExchange>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const exchange = requestInfo === undefined ? undefined : exchanges.get(requestInfo);
      if (exchange === undefined) throw new Error('An MCP request arrived without its exchange');
      return serverOf('modern', exchange);
    },
    {
      legacy: 'reject',
      // What the SDK refused or failed at, out of band (the answer says it to the caller).
      onerror: (error) => deps.logger.debug({ err: error }, 'MCP request refused or failed'),
    },
  );

  // Every JSON answer is signed (RFC 9421) as the paid answers of /buy are: the refusals
  // below through `res.json`, the SDK's answers through `endSigned` (docs/decisions.md,
  // "Signed HTTP answers (RFC 9421)"). An event stream goes out unsigned, as it comes.
  const signed = signedJson(deps.httpSignatureKey);
  router.post(MCP_PATH, signed, express.json({ limit: MAX_MCP_BODY }), async (req, res) => {
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

    // Whether the answer carries a JSON-RPC result: a tool's result reaches its caller only
    // then (the SDK answers an error in its place when it refuses the result it was given).
    let carriesResult = false;
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort();
    });
    const exchange: McpExchange = {
      message: body,
      requestId: requestIdOf(res) ?? null,
      header: (name) => req.get(name),
      left: left.signal,
      written: async () => (await written(res)) && carriesResult,
      keyRefusal: null,
    };
    const web = webRequestOf(req, left.signal);
    let answer: globalThis.Response;
    if (await isLegacyRequest(web, body)) {
      const server = serverOf('legacy', exchange);
      server.onerror = (error) =>
        deps.logger.debug({ err: error }, 'MCP request refused or failed');
      // Stateless: no session id is ever issued; JSON answers, never an event stream.
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      answer = await transport.handleRequest(web, { parsedBody: body });
    } else {
      exchanges.set(web, exchange);
      answer = await modern.fetch(web, { parsedBody: body });
    }

    const refused = exchange.keyRefusal;
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
    if (answer.body !== null && isEventStream(answer)) {
      // An answer the SDK streams (a `subscriptions/listen` of 2026-07-28) goes out as it comes.
      Readable.fromWeb(answer.body as NodeReadableStream).pipe(res);
      return;
    }
    const text = await answer.text();
    carriesResult = answer.ok && isToolsCall(message) && isResult(text);
    res.removeHeader('Content-Length');
    await endSigned(req, res, deps.httpSignatureKey, res.statusCode, text, req.originalUrl);
  });

  return router;
}

/**
 * The SDK's view of the request: its URL and headers, as a web `Request` without a body
 * (the body was parsed already and is handed over as `parsedBody`), aborted when the
 * caller leaves (the 2026-07-28 revision's cancellation). Clients must accept both JSON
 * and SSE; some send one of the two (mcp.md §6), so `Accept` names both.
 */
function webRequestOf(req: Request, left: AbortSignal): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || BODY_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.set('accept', 'application/json, text/event-stream');
  const url = new URL(req.originalUrl, `http://${req.get('host') ?? 'localhost'}`);
  return new Request(url, { method: req.method, headers, signal: left });
}

/** Headers that describe a body the web request does not carry. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
]);

/** Whether a JSON-RPC answer is a response with a `result` (not an `error`). */
function isResult(text: string): boolean {
  try {
    const answer: unknown = JSON.parse(text);
    return typeof answer === 'object' && answer !== null && 'result' in answer;
  } catch {
    return false;
  }
}

function isEventStream(answer: globalThis.Response): boolean {
  return (answer.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

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

/** The shape of a `tools/call` request (MCP, every revision): what the SDK requires of it. */
const TOOLS_CALL = z.object({
  params: z.object({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
});

/**
 * What is wrong with a `tools/call`'s params, as one sentence naming each field
 * (`params.name`: expected string, received number); null when nothing is. The SDK
 * itself answers such a request with its schema's dump (`Invalid tools/call request:
 * [{"expected": …}]`), since it checks the shape before its handler runs.
 */
function callParamsProblem(message: unknown): string | null {
  const parsed = TOOLS_CALL.safeParse(message);
  if (parsed.success) return null;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `\`${path === '' ? 'request' : path}\`: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return `Invalid tools/call params: ${problems.join('; ')}. Expected params { name: string, arguments?: object }`;
}

/** `text` as a quoted-string's content: printable ASCII, no quotes or backslashes. */
function headerSafe(text: string): string {
  return text.replace(/\u2026/g, '...').replace(/[^\x20-\x7e]|["\\]/g, '');
}

function isJsonRpcId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}
