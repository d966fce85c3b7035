import type { ProductResult } from '@storefront/core';
import { AUDIT_DOMAIN_MAX_LENGTH, parseAuditOrigin } from '@storefront/robots';
import type { JsonSchema, ParamProblem, Shaped } from './types.js';

/** The `domain` parameter of the host audits (dns, tls): the robots route's, same rules. */
export function domainParam(description: string): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: AUDIT_DOMAIN_MAX_LENGTH, description };
}

/**
 * The host name a `domain` value names, read by the robots route's rules (a domain or
 * an http(s) URL; only its host counts), or the problem. A port other than 443 is
 * refused: these audits look at the host's port 443 and its DNS, never another port.
 */
export function auditHost(
  value: string | undefined,
):
  | { readonly ok: true; readonly host: string }
  | { readonly ok: false; readonly problem: ParamProblem } {
  const target = parseAuditOrigin(value ?? '');
  if (!target.ok) return { ok: false, problem: { param: 'domain', message: target.message } };
  const url = new URL(target.origin);
  if (url.port !== '' && url.port !== '443') {
    return {
      ok: false,
      problem: {
        param: 'domain',
        message: `Expected \`domain\` without a port other than 443, got port ${url.port}`,
      },
    };
  }
  return { ok: true, host: url.hostname };
}

/**
 * The answer of a host audit (dns, tls) from its product's result: `url` names the
 * audited host (`urlOf(domain)`), there is no HTTP status, and the receipt's time is
 * when the gathering started.
 */
export function hostAuditShape(
  urlOf: (domain: string) => string,
): (
  result: ProductResult<unknown>,
  input: { readonly params: { readonly domain: string }; readonly source: { readonly at: string } },
) => Shaped {
  return (result, { params, source: { at } }) => {
    const url = urlOf(params.domain);
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message ?? result.error,
        at: { url, status: null },
        fields: { fetchedAt: at },
      };
    }
    return {
      ok: true,
      text: result.text,
      body: { ok: true, url, text: result.text, fetchedAt: at, data: result.data },
      envelope: { url, status: null, fetchedAt: at },
    };
  };
}
