import { jobsInstructions } from '../../jobs/discovery.js';
import { CRAWL_JOB_SCHEMA } from '../../jobs/params.js';
import { MCP_SLICE_CHARS } from '../../registry/slice.js';
import type { AnyRoute } from '../../registry/types.js';
import { dollars } from '../x402/terms.js';
import { CRAWL_JOB_TOOL } from './job-tasks.js';

/** An MCP tool as `tools/list` publishes it. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly outputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: true;
    readonly destructiveHint: false;
    readonly idempotentHint: true;
    readonly openWorldHint: true;
  };
}

/**
 * The x402 payment terms a tool answers a call without a key or payment with (an
 * `isError` result whose `structuredContent` is the x402 v2 PaymentRequired, as the x402
 * MCP transport specifies), so a client that checks results against `outputSchema`
 * accepts them too.
 */
export const PAYMENT_TERMS_SCHEMA = {
  type: 'object',
  required: ['x402Version', 'accepts'],
  properties: {
    x402Version: { const: 2 },
    error: { type: 'string' },
    resource: { type: 'object' },
    accepts: { type: 'array', items: { type: 'object' } },
    extensions: { type: 'object' },
  },
} as const;

/**
 * One tool per paid route, in the registry's order: the route's name, title and
 * description with its price, its query schema as the input and, as the output, its
 * answer (receipt included) or the x402 payment terms ({@link PAYMENT_TERMS_SCHEMA}). The tools are the routes: a route added to the registry is
 * a tool with no MCP code changed.
 */
export function toolsOf(registry: readonly AnyRoute[]): McpTool[] {
  return registry.map((route) => ({
    name: route.name,
    title: route.title,
    description: `${route.description} ${priceText(route)}${sliceText(route)} Send \`Authorization: Bearer <key>\` (metered like ${route.path} over HTTP), or pay per call with x402 in \`_meta["x402/payment"]\` (a call with neither gets the terms as an isError result); the same signed receipt is in the result.`,
    inputSchema: { ...route.params, type: 'object' },
    outputSchema: {
      type: 'object',
      anyOf: [{ ...route.response, type: 'object' }, PAYMENT_TERMS_SCHEMA],
    },
    annotations: {
      title: route.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
  }));
}

/** The JSON Schema dialect the tool schemas declare on the 2026-07-28 revision. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The field of a successful answer that holds its receipt. */
export const RECEIPT_FIELD = 'attestation';

/**
 * The tools as the 2026-07-28 revision lists them: the same tools with schemas that
 * declare their dialect, JSON Schema 2020-12 (`$schema`; the route schemas use no keyword
 * whose meaning differs from draft-07), and an answer branch of `outputSchema` that
 * requires the receipt, as every successful result carries one (an `ok:false` answer is an
 * `isError` result without `structuredContent`). The legacy era keeps its tool list byte for
 * byte as deployed clients have read it (SDK 1.x clients check results with a draft-07
 * validator; the schemas mean the same under both dialects).
 */
export function modernToolsOf(tools: readonly McpTool[]): McpTool[] {
  return tools.map((tool) => {
    const [answer, terms] = tool.outputSchema.anyOf as [Record<string, unknown>, unknown];
    const required = (answer.required as readonly string[] | undefined) ?? [];
    return {
      ...tool,
      inputSchema: { $schema: JSON_SCHEMA_2020_12, ...tool.inputSchema },
      outputSchema: {
        $schema: JSON_SCHEMA_2020_12,
        ...tool.outputSchema,
        anyOf: [
          {
            ...answer,
            required: required.includes(RECEIPT_FIELD) ? required : [...required, RECEIPT_FIELD],
          },
          terms,
        ],
      },
    };
  });
}

/** The budget sentence of a tool whose text can be cut (leading space), or nothing. */
function sliceText(route: AnyRoute): string {
  if (route.slices === undefined) return '';
  return ` Answers with at most ${MCP_SLICE_CHARS.toLocaleString('en-US')} characters of the text unless \`maxChars\` says otherwise; \`slice.next\` is the \`offset\` of the next part.`;
}

/** The price sentence of a tool: one price, or each tier and what selects it. */
function priceText(route: AnyRoute): string {
  const [first, ...more] = route.prices;
  if (first === undefined) return '';
  if (more.length === 0) return `Price: ${dollars(first.amount)} per call.`;
  const tiers = route.prices.map((p) => `${dollars(p.amount)} (${p.tier}: ${p.includes})`);
  return `Price per call by what the arguments ask for: ${tiers.join('; ')}.`;
}

/**
 * The tool that runs a crawl job as an MCP task (`execution.taskSupport: required`): its
 * arguments are `POST /jobs/crawl`'s body, its pages are priced as that route's, and the
 * task is polled with `tasks/get` and read with `tasks/result`.
 */
export function crawlJobToolOf(registry: readonly AnyRoute[], base: string) {
  return {
    name: CRAWL_JOB_TOOL,
    title: 'Crawl job',
    description: `${jobsInstructions(registry, base)} As an MCP task: call with params.task, poll tasks/get (status, pages so far), then tasks/result (the job and its signed manifest); tasks/cancel cancels it and charges nothing more. Needs \`Authorization: Bearer <key>\` (or an access token): the limit's page prices are reserved from the key up front, unused pages released at the end.`,
    inputSchema: { ...CRAWL_JOB_SCHEMA, type: 'object' as const },
    execution: { taskSupport: 'required' as const },
    annotations: {
      title: 'Crawl job',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

/**
 * The crawl job tool as the 2026-07-28 revision lists it: the same arguments (JSON Schema
 * 2020-12), no `execution` (the revision deleted it; the Tasks extension is declared once,
 * in the server's capabilities, and the server decides per call to answer a task).
 */
export function modernCrawlJobToolOf(registry: readonly AnyRoute[], base: string) {
  const { execution: _, ...tool } = crawlJobToolOf(registry, base);
  return {
    ...tool,
    description: `${jobsInstructions(registry, base)} As a task of the MCP Tasks extension (io.modelcontextprotocol/tasks): declare it in the request's client capabilities; the call answers a task (resultType "task"), poll tasks/get until it ends, then its result is the job and its signed manifest; tasks/cancel cancels it and charges nothing more. Needs \`Authorization: Bearer <key>\` (or an access token): the limit's page prices are reserved from the key up front, unused pages released at the end.`,
    inputSchema: { $schema: JSON_SCHEMA_2020_12, ...tool.inputSchema },
  };
}
