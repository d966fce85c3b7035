import { canonicalize, fail, ok, type ProductResult, StorefrontError } from '@storefront/core';
import { AVAILABILITY_ERROR_REASONS, AVAILABILITY_RUBRIC, classOf } from './rubric.js';
import type {
  AvailabilityData,
  AvailabilityOptions,
  AvailabilityReason,
  ProbeOutcome,
  ResponseClass,
} from './types.js';

const NO_OPTIONS: AvailabilityOptions = Object.freeze({});

/**
 * Codes that mean the target was refused, so no probe of it was made: the URL asked
 * for, or a redirect hop's target (a host that redirects to a private address or to a
 * non-http(s) URL is not "up": its destination is one the service never contacts).
 */
const NOT_PERFORMED = new Set(['invalid_url', 'blocked_ssrf']);

/**
 * Classify an availability probe (a safe-fetch result, or anything of the same shape)
 * into the `/buy/availability` verdict under {@link AVAILABILITY_RUBRIC}. A host that
 * is down, refuses, times out or answers 4xx/5xx is still `ok: true` (the probe was
 * made; `data.up` is false and `data.reason` says why). `ok: false` means the probe
 * could not be performed: the URL, or the target a redirect led to, was refused
 * (`invalid_url`, `blocked_ssrf`) or the outcome is our own fault (`internal_error`, or a code this
 * rubric does not know). `text` is the canonical JSON of `data` without `responseMs`.
 *
 * @example
 *   const probe = await fetcher.fetch(url, { method: 'HEAD' });
 *   const result = classifyAvailability(probe);
 *   if (result.ok) console.log(result.data.up, result.data.reason);
 */
export function classifyAvailability(
  outcome: ProbeOutcome,
  options?: Readonly<AvailabilityOptions> | null,
): ProductResult<AvailabilityData> {
  const { timing: timingField = 'headersMs' } = checkOptions(options ?? NO_OPTIONS);
  if (outcome === null || typeof outcome !== 'object' || typeof outcome.ok !== 'boolean') {
    throw new StorefrontError(
      'internal_error',
      'Expected a probe outcome `{ ok: true, doc } | { ok: false, error }`',
    );
  }

  const timing: unknown = outcome.timing;
  const responseMs = toMilliseconds(
    timing !== null && typeof timing === 'object'
      ? (timing as Record<string, unknown>)[timingField]
      : undefined,
  );

  if (outcome.ok) {
    const doc: unknown = outcome.doc;
    const status =
      doc !== null && typeof doc === 'object' ? (doc as { status?: unknown }).status : undefined;
    const httpStatus = toStatus(status);
    const responseClass = httpStatus === null ? 'unknown' : classOf(httpStatus);
    return verdict(true, httpStatus, responseClass, reasonForResponse(responseClass), responseMs);
  }

  const code = typeof outcome.error === 'string' ? outcome.error : '';
  const httpStatus = toStatus(outcome.status);
  const answered = typeof outcome.status === 'number';
  if (!Object.hasOwn(AVAILABILITY_ERROR_REASONS, code) || code === 'internal_error') {
    const data = build(false, null, 'none', 'unreachable', responseMs);
    return fail(
      'internal_error',
      code === 'internal_error'
        ? 'The probe failed inside the service, so there is no verdict'
        : `The probe outcome \`${code.slice(0, 100)}\` is not an upstream error code`,
      data,
    );
  }
  if (NOT_PERFORMED.has(code)) {
    // A refused redirect target is refused like a refused URL: no verdict, no charge.
    const reason = code === 'invalid_url' ? 'invalid-url' : 'blocked-ssrf';
    const redirected = answered ? ' a redirect led to' : '';
    return fail(
      code as 'invalid_url' | 'blocked_ssrf',
      code === 'invalid_url'
        ? `The URL${redirected} cannot be probed: it is not an absolute http(s) URL`
        : `The URL${redirected} cannot be probed: it points at an address the service never contacts`,
      build(false, null, 'none', reason, responseMs),
    );
  }
  const row = AVAILABILITY_ERROR_REASONS[code] as (typeof AVAILABILITY_ERROR_REASONS)[string];
  const reachable = answered || row.impliesResponse;
  const responseClass: ResponseClass = !reachable
    ? 'none'
    : httpStatus === null
      ? 'unknown'
      : classOf(httpStatus);
  // A code about the body, not the host (bad content-coding, a product refusing the
  // body) leaves the verdict to the status; without one it falls back to the row.
  const reason =
    row.reason === null
      ? reachable
        ? reasonForResponse(responseClass)
        : 'unreachable'
      : row.reason;
  return verdict(reachable, httpStatus, responseClass, reason, responseMs);
}

function verdict(
  reachable: boolean,
  httpStatus: number | null,
  responseClass: ResponseClass,
  reason: AvailabilityReason,
  responseMs: number | null,
): ProductResult<AvailabilityData> {
  const data = build(reachable, httpStatus, responseClass, reason, responseMs);
  const { responseMs: _telemetry, ...signed } = data;
  return ok(canonicalize(signed), data);
}

function build(
  reachable: boolean,
  httpStatus: number | null,
  responseClass: ResponseClass,
  reason: AvailabilityReason,
  responseMs: number | null,
): AvailabilityData {
  return {
    up: responseClass === '2xx-success' || responseClass === '3xx-redirect',
    reachable,
    httpStatus,
    responseClass,
    reason,
    rubric: AVAILABILITY_RUBRIC,
    responseMs,
  };
}

function reasonForResponse(responseClass: ResponseClass): AvailabilityReason {
  if (responseClass === '2xx-success' || responseClass === '3xx-redirect') return 'ok';
  return responseClass === 'none' ? 'unreachable' : responseClass;
}

/** An integer status, or null for anything else (a status is never a fraction). */
function toStatus(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function toMilliseconds(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  const rounded = Math.round(value);
  return Number.isSafeInteger(rounded) ? rounded : null;
}

function checkOptions(options: Readonly<AvailabilityOptions>): AvailabilityOptions {
  if (typeof options !== 'object') {
    throw new StorefrontError(
      'internal_error',
      `Expected options to be an object, got \`${typeof options}\``,
    );
  }
  const { timing } = options;
  if (timing !== undefined && timing !== 'headersMs' && timing !== 'totalMs') {
    throw new StorefrontError(
      'internal_error',
      `Expected \`timing\` to be \`headersMs\` or \`totalMs\`, got \`${String(timing)}\``,
    );
  }
  return options;
}
