import type { ProductResult } from '@storefront/core';
import {
  auditDns,
  checkDnsDomain,
  type DnsData,
  type DnsFacts,
  gatherDns,
} from '@storefront/dns-audit';
import { checkUrl } from '@storefront/safe-fetch';
import { auditHost, domainParam } from '../audit-domain.js';
import {
  BOOLEAN,
  checked,
  GRADE_SUMMARY,
  HOST_AUDIT_CHECKS,
  INTEGER,
  ISO_TIME,
  NULLABLE_STRING,
  paramsSchema,
  responseSchema,
  STRING,
  STRINGS,
} from '../shared.js';
import type { GatheredSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface DnsParams {
  readonly domain: string;
}

/** What the gatherer read: the answers, or why the name was not asked at all. */
type DnsGathered =
  | { readonly ok: true; readonly facts: DnsFacts }
  | {
      readonly ok: false;
      readonly error: 'blocked_ssrf' | 'invalid_url';
      readonly message: string;
    };

type DnsOutput = ProductResult<DnsData>;

/** `dns:NAME` (RFC 4501): what a DNS audit's answer and receipt name as their source. */
function dnsUrl(domain: string): string {
  return `dns:${domain}`;
}

/** `/buy/dns`: DNS and e-mail authentication audit of a domain. */
export const dnsRoute: RouteDefinition<DnsParams, GatheredSource<DnsGathered>, DnsOutput> = {
  name: 'dns',
  example,
  path: '/buy/dns',
  title: 'DNS and e-mail authentication audit',
  description:
    'A, AAAA, CNAME, NS, MX, CAA and TXT of a domain; its SPF record with the DNS-lookup count through its includes (RFC 7208 limit of 10), DMARC policy and reporting, MTA-STS and TLS-RPT, and the DNSSEC (AD) flag as the resolver reports it; graded A–F under a published rubric, with a fix per finding.',
  params: paramsSchema(
    { domain: domainParam('A domain or a URL; only its host name is audited.') },
    ['domain'],
  ),
  prices: [
    {
      tier: 'dns',
      amount: 5000,
      includes: 'graded DNS and e-mail authentication audit plus signed receipt',
    },
  ],
  chargeRule: 'free-on-failure',
  closedResponse: false,
  response: responseSchema(
    {
      text: STRING,
      fetchedAt: ISO_TIME,
      data: {
        type: 'object',
        required: [
          'domain',
          'records',
          'outcomes',
          'spf',
          'dmarc',
          'mtaSts',
          'tlsRpt',
          'dnssec',
          'queries',
          'grade',
          'score',
          'maxScore',
          'percentage',
          'passed',
          'failed',
          'checks',
          'findings',
          'rubric',
        ],
        properties: {
          domain: STRING,
          records: {
            type: 'object',
            required: ['A', 'AAAA', 'CNAME', 'NS', 'MX', 'CAA', 'TXT'],
            properties: {
              A: STRINGS,
              AAAA: STRINGS,
              CNAME: STRINGS,
              NS: STRINGS,
              MX: {
                type: 'array',
                items: { type: 'object', required: ['preference', 'exchange'] },
              },
              CAA: {
                type: 'array',
                items: { type: 'object', required: ['flags', 'tag', 'value'] },
              },
              TXT: STRINGS,
            },
          },
          outcomes: { type: 'object', additionalProperties: STRING },
          spf: {
            type: 'object',
            required: [
              'record',
              'count',
              'valid',
              'problem',
              'lookups',
              'lookupLimitExceeded',
              'lookupsComplete',
              'all',
              'references',
            ],
            properties: {
              record: NULLABLE_STRING,
              count: INTEGER,
              valid: BOOLEAN,
              problem: NULLABLE_STRING,
              lookups: INTEGER,
              lookupLimitExceeded: BOOLEAN,
              lookupsComplete: BOOLEAN,
              all: { enum: ['-', '~', '?', '+', null] },
              references: { type: 'array', items: { type: 'object' } },
            },
          },
          dmarc: {
            type: 'object',
            required: [
              'record',
              'valid',
              'problem',
              'policy',
              'subdomainPolicy',
              'percent',
              'aggregateReports',
              'forensicReports',
            ],
            properties: {
              record: NULLABLE_STRING,
              valid: BOOLEAN,
              problem: NULLABLE_STRING,
              policy: NULLABLE_STRING,
              subdomainPolicy: NULLABLE_STRING,
              percent: { type: ['integer', 'null'] },
              aggregateReports: STRINGS,
              forensicReports: STRINGS,
            },
          },
          mtaSts: { type: 'object', required: ['present', 'record', 'id'] },
          tlsRpt: { type: 'object', required: ['present', 'record', 'reports'] },
          dnssec: {
            type: 'object',
            required: ['authenticated'],
            properties: { authenticated: BOOLEAN },
          },
          queries: INTEGER,
          ...GRADE_SUMMARY,
          ...HOST_AUDIT_CHECKS,
          rubric: STRING,
          // Present only when a value was cut at its cap (README of @storefront/dns-audit).
          truncatedFields: { const: true },
        },
      },
    },
    false,
  ),
  check(query) {
    const host = auditHost(query.domain);
    const name = host.ok ? checkDnsDomain(host.host) : null;
    return checked(
      [
        host.ok ? null : host.problem,
        name === null || name.ok ? null : { param: 'domain', message: name.message },
      ],
      () => ({ domain: name?.ok ? name.domain : '' }),
    );
  },
  priceFor: () => dnsRoute.prices[0] as (typeof dnsRoute.prices)[0],
  reads: {
    kind: 'gather',
    async gather({ domain }, { probes, signal }): Promise<DnsGathered> {
      // The fetcher's name policy: local and internal names are never asked about.
      const early = checkUrl(`https://${domain}/`);
      if (!early.ok) return { ok: false, error: early.error, message: early.message };
      return { ok: true, facts: await gatherDns(domain, probes.dns, { signal }) };
    },
  },
  compute({ source: { facts: gathered } }) {
    if (!gathered.ok) return { ok: false, error: gathered.error, message: gathered.message };
    return auditDns(gathered.facts);
  },
  shape(result, { params, source: { at } }) {
    const url = dnsUrl(params.domain);
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
  },
};
