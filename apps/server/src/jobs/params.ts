import { siteUrl } from '@storefront/crawl';
import { Ajv, type ErrorObject } from 'ajv';
import picomatch from 'picomatch';
import { SLICE_MAX } from '../registry/slice.js';
import type { JsonSchema, ParamProblem } from '../registry/types.js';

/** Pages a job may crawl at most (the issue's 1–10,000). */
export const JOB_MAX_PAGES = 10_000;
/** Pages a job crawls when `limit` is not given. */
export const JOB_DEFAULT_PAGES = 100;
/** Link hops from the start page when `maxDepth` is not given, and at most. */
export const JOB_DEFAULT_DEPTH = 10;
export const JOB_MAX_DEPTH = 100;
/** Globs per list, and characters per glob. */
const MAX_GLOBS = 50;
const MAX_GLOB_CHARS = 200;
const MAX_URL_CHARS = 2048;

/** The webhook events a job sends; `events` picks some (default: all). */
export const JOB_EVENTS = ['page', 'completed', 'failed', 'cancelled'] as const;
export type JobEvent = (typeof JOB_EVENTS)[number];

/** The page products a job can deliver: the same as `/buy/markdown` and `/buy/fetch`. */
export const JOB_FORMATS = ['markdown', 'text'] as const;
export type JobFormat = (typeof JOB_FORMATS)[number];

/** The body of `POST /jobs/crawl`, as published in OpenAPI. */
export const CRAWL_JOB_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_URL_CHARS,
      description: 'Absolute http(s) URL where the crawl starts',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: JOB_MAX_PAGES,
      default: JOB_DEFAULT_PAGES,
      description: 'Pages to crawl at most; the key door reserves limit × page price',
    },
    maxDepth: {
      type: 'integer',
      minimum: 0,
      maximum: JOB_MAX_DEPTH,
      default: JOB_DEFAULT_DEPTH,
      description: 'Link hops from the start page (sitemap URLs are one hop)',
    },
    includePaths: globsSchema('Only URLs whose path (and query) matches one of these globs'),
    excludePaths: globsSchema('No URL whose path (and query) matches one of these globs'),
    sameOrigin: {
      type: 'boolean',
      default: true,
      description: "Stay on the start URL's origin",
    },
    format: {
      type: 'string',
      enum: [...JOB_FORMATS],
      default: 'markdown',
      description: 'Each page as /buy/markdown (markdown) or /buy/fetch (text) gives it',
    },
    maxChars: {
      type: 'integer',
      minimum: 1,
      maximum: SLICE_MAX,
      description:
        'Each page with at most this many characters (Unicode code points) of its text, as the route’s `maxChars` gives it: `slice` says where the part sits in the whole and where the next starts (read on with the route and `offset`)',
    },
    webhook: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: MAX_URL_CHARS },
        events: {
          type: 'array',
          items: { type: 'string', enum: [...JOB_EVENTS] },
          uniqueItems: true,
          minItems: 1,
        },
      },
      description: 'Standard Webhooks delivery of the job events (default: all)',
    },
  },
};

function globsSchema(description: string): JsonSchema {
  return {
    type: 'array',
    maxItems: MAX_GLOBS,
    items: { type: 'string', minLength: 1, maxLength: MAX_GLOB_CHARS },
    description,
  };
}

/** A crawl job's parameters, checked and with defaults filled in. */
export interface CrawlJobParams {
  readonly url: string;
  readonly limit: number;
  readonly maxDepth: number;
  readonly includePaths: readonly string[];
  readonly excludePaths: readonly string[];
  readonly sameOrigin: boolean;
  readonly format: JobFormat;
  /** The most characters of each page's text, from its start; absent for all of it. */
  readonly maxChars?: number;
  readonly webhook: { readonly url: string; readonly events: readonly JobEvent[] } | null;
}

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, useDefaults: false });
const validate = ajv.compile(CRAWL_JOB_SCHEMA);

/** Read the body of `POST /jobs/crawl`: the typed params, or every problem found. */
export function readCrawlJob(
  body: unknown,
): { ok: true; params: CrawlJobParams } | { ok: false; details: ParamProblem[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, details: [{ param: '', message: 'Expected a JSON object body' }] };
  }
  if (!validate(body)) {
    return { ok: false, details: (validate.errors ?? []).map(problemOf) };
  }
  const raw = body as Record<string, unknown>;
  const details: ParamProblem[] = [];
  const url = siteUrl(raw.url as string);
  if (url === null) {
    details.push({ param: 'url', message: 'Expected `url` to be an absolute http or https URL' });
  }
  const webhookRaw = raw.webhook as { url: string; events?: JobEvent[] } | undefined;
  let webhook: CrawlJobParams['webhook'] = null;
  if (webhookRaw !== undefined) {
    const target = siteUrl(webhookRaw.url);
    if (target === null) {
      details.push({
        param: 'webhook.url',
        message: 'Expected `webhook.url` to be an absolute http or https URL',
      });
    } else {
      webhook = { url: target, events: webhookRaw.events ?? [...JOB_EVENTS] };
    }
  }
  const includePaths = (raw.includePaths as string[] | undefined) ?? [];
  const excludePaths = (raw.excludePaths as string[] | undefined) ?? [];
  for (const [name, globs] of [
    ['includePaths', includePaths],
    ['excludePaths', excludePaths],
  ] as const) {
    globs.forEach((glob, index) => {
      const problem = globProblem(glob);
      if (problem !== null) details.push({ param: `${name}/${index}`, message: problem });
    });
  }
  if (details.length > 0 || url === null) return { ok: false, details };
  return {
    ok: true,
    params: {
      url,
      limit: (raw.limit as number | undefined) ?? JOB_DEFAULT_PAGES,
      maxDepth: (raw.maxDepth as number | undefined) ?? JOB_DEFAULT_DEPTH,
      includePaths,
      excludePaths,
      sameOrigin: (raw.sameOrigin as boolean | undefined) ?? true,
      format: (raw.format as JobFormat | undefined) ?? 'markdown',
      ...(raw.maxChars === undefined ? {} : { maxChars: raw.maxChars as number }),
      webhook,
    },
  };
}

function globProblem(glob: string): string | null {
  try {
    picomatch.makeRe(glob);
    return null;
  } catch (error) {
    return `Expected a glob, got \`${glob}\`: ${(error as Error).message}`;
  }
}

function problemOf(error: ErrorObject): ParamProblem {
  const param = error.instancePath.replace(/^\//, '');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const at = param === '' ? missing : `${param}.${missing}`;
      return { param: at, message: `\`${at}\` is required` };
    }
    case 'additionalProperties': {
      const known = Object.keys(
        param === '' ? (CRAWL_JOB_SCHEMA.properties as object) : { url: 0, events: 0 },
      ).join(', ');
      return {
        param: String(params.additionalProperty),
        message: `Unknown field \`${String(params.additionalProperty)}\`; expected ${known}`,
      };
    }
    case 'minimum':
    case 'maximum':
      return {
        param,
        message: `Expected \`${param}\` to be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`,
      };
    case 'enum':
      return {
        param,
        message: `Expected \`${param}\` to be one of ${(params.allowedValues as string[]).map((v) => `\`${v}\``).join(', ')}`,
      };
    default:
      return { param, message: `\`${param || 'body'}\` ${error.message ?? 'is invalid'}` };
  }
}

/**
 * Whether `url` may join a job's crawl: on the start's origin when `sameOrigin`, its
 * path and query matching an include glob (when any) and no exclude glob.
 */
export function urlFilter(params: CrawlJobParams): (url: string) => boolean {
  const origin = new URL(params.url).origin;
  const include = params.includePaths.length > 0 ? picomatch([...params.includePaths]) : null;
  const exclude = params.excludePaths.length > 0 ? picomatch([...params.excludePaths]) : null;
  return (url) => {
    const parsed = new URL(url);
    if (params.sameOrigin && parsed.origin !== origin) return false;
    const path = `${parsed.pathname}${parsed.search}`;
    if (include !== null && !include(path) && !include(parsed.pathname)) return false;
    if (exclude !== null && (exclude(path) || exclude(parsed.pathname))) return false;
    return true;
  };
}
