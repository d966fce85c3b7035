import type { ProductResult } from '@storefront/core';
import {
  auditTls,
  receiptRule,
  resultSchema,
  type TlsData,
  type TlsFacts,
} from '@storefront/tls-audit';
import { gatherTls } from '../../probes/tls.js';
import { auditHost, domainParam, hostAuditShape } from '../audit-domain.js';
import { checked, ISO_TIME, paramsSchema, responseSchema, STRING } from '../shared.js';
import type { GatheredSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface TlsParams {
  readonly domain: string;
}

type TlsOutput = ProductResult<TlsData>;

/** `https://HOST`: what a TLS audit's answer and receipt name as their source. */
function tlsUrl(domain: string): string {
  return `https://${domain.includes(':') ? `[${domain}]` : domain}`;
}

/** `/buy/tls`: TLS audit of a host's port 443. */
export const tlsRoute: RouteDefinition<TlsParams, GatheredSource<TlsFacts>, TlsOutput> = {
  name: 'tls',
  example,
  receiptRule,
  path: '/buy/tls',
  title: 'TLS audit',
  description:
    'TLS audit of a host’s port 443: the certificate chain (subject, issuer, SANs, validity and days left, key type and size, signature algorithm), whether the name matches and the chain verifies against Node’s roots, the negotiated protocol and cipher, OCSP stapling and HSTS; graded A–F under a published rubric. The connection goes through the SSRF guard.',
  params: paramsSchema(
    { domain: domainParam('A domain or a URL; only its host name is audited, on port 443.') },
    ['domain'],
  ),
  prices: [{ tier: 'tls', amount: 5000, includes: 'graded TLS audit plus signed receipt' }],
  chargeRule: 'free-on-failure',
  closedResponse: false,
  response: responseSchema(
    {
      text: STRING,
      fetchedAt: ISO_TIME,
      data: resultSchema,
    },
    false,
  ),
  check(query) {
    const host = auditHost(query.domain);
    return checked([host.ok ? null : host.problem], () => ({
      domain: host.ok ? host.host.replace(/^\[(.*)\]$/, '$1') : '',
    }));
  },
  priceFor: () => tlsRoute.prices[0] as (typeof tlsRoute.prices)[0],
  reads: {
    kind: 'gather',
    gather: ({ domain }, { probes, signal }) => gatherTls(domain, probes, { signal }),
  },
  compute: ({ source: { facts, at } }) => auditTls(facts, { at }),
  shape: hostAuditShape(tlsUrl),
};
