import type { ProductResult } from '@storefront/core';
import {
  auditDns,
  checkDnsDomain,
  type DnsData,
  type DnsFacts,
  gatherDns,
  receiptRule,
  resultSchema,
} from '@storefront/dns-audit';
import { checkUrl } from '@storefront/safe-fetch';
import { auditHost, domainParam, hostAuditShape } from '../audit-domain.js';
import { checked, ISO_TIME, paramsSchema, responseSchema, STRING } from '../shared.js';
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
  receiptRule,
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
      data: resultSchema,
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
  shape: hostAuditShape(dnsUrl),
};
