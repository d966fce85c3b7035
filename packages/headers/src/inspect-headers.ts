import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  gradeSummary,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import { type CheckContext, RULES } from './checks.js';
import { parseCspList } from './csp.js';
import { headerValue, normalizeHeaders } from './header-map.js';
import { HEADERS_MAX_NOTE_CHARS, HEADERS_MAX_VALUE_CHARS } from './limits.js';
import { HEADERS_GRADE_CUTOFFS, HEADERS_RUBRIC, HEADERS_RUBRIC_CHECKS } from './rubric.js';
import type { HeadersCheck, HeadersData, HeadersFinding } from './types.js';

/**
 * Grade a response's security headers against {@link HEADERS_RUBRIC}: one pass/fail
 * check per rubric row, the score (sum of passing weights), a letter grade, and one
 * finding with an exact fix per failed check. Only the headers and the final URL's
 * scheme are read; the body is ignored. `text` is the canonical JSON of `data`.
 *
 * @example
 *   const result = inspectHeaders(doc);
 *   if (result.ok) console.log(result.data.grade, result.data.percentage);
 */
export function inspectHeaders(doc: FetchedDocument): ProductResult<HeadersData> {
  const scheme = schemeOf(doc.url);
  if (scheme === null) {
    return fail(
      'invalid_url',
      `Expected the document URL to be http or https, got \`${String(doc.url).slice(0, 200)}\``,
    );
  }
  const headers = normalizeHeaders(doc.headers);
  const csp = headerValue(headers, 'content-security-policy');
  const context: CheckContext = {
    https: scheme === 'https:',
    headers,
    csp,
    policies: csp === null ? [] : parseCspList(csp),
    reportOnly: headerValue(headers, 'content-security-policy-report-only'),
  };

  const checks: HeadersCheck[] = [];
  const findings: HeadersFinding[] = [];
  let cut = false;
  const cap = (text: string, max: number): string => {
    const capped = capString(text, max);
    if (capped !== text) cut = true;
    return capped;
  };
  for (const row of HEADERS_RUBRIC_CHECKS) {
    const rule = RULES[row.id];
    if (rule === undefined)
      throw new StorefrontError('internal_error', `No rule for rubric row \`${row.id}\``);
    const verdict = rule(context);
    checks.push({
      header: row.header,
      label: row.label,
      present: verdict.present,
      pass: verdict.pass,
      weight: row.weight,
      value: verdict.value === null ? null : cap(verdict.value, HEADERS_MAX_VALUE_CHARS),
      note: cap(verdict.note, HEADERS_MAX_NOTE_CHARS),
    });
    if (!verdict.pass) {
      findings.push({
        header: row.header,
        severity: row.severity,
        remediate: cap(verdict.remediate, HEADERS_MAX_NOTE_CHARS),
      });
    }
  }
  const banner = headerValue(headers, 'server');
  const data: { -readonly [K in keyof HeadersData]: HeadersData[K] } = {
    ...gradeSummary(checks, { cutoffs: HEADERS_GRADE_CUTOFFS }),
    checks,
    findings,
    serverBanner: banner === null ? null : cap(banner, HEADERS_MAX_VALUE_CHARS),
    rubric: HEADERS_RUBRIC,
  };
  // Only when a value was cut, so results of ordinary responses keep their shape.
  if (cut) data.truncatedFields = true;
  return ok(canonicalize(data), data);
}

function schemeOf(url: unknown): 'http:' | 'https:' | null {
  if (typeof url !== 'string') return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? protocol : null;
  } catch {
    return null;
  }
}
