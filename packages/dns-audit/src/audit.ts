import { canonicalize, fail, gradeSummary, ok, type ProductResult } from '@storefront/core';
import { DNS_MAX_RECORD_CHARS, DNS_MAX_RECORDS } from './limits.js';
import { reportDmarc, reportMtaSts, reportTlsRpt } from './policy.js';
import { DNS_GRADE_CUTOFFS, DNS_RUBRIC, DNS_RUBRIC_CHECKS } from './rubric.js';
import { reportSpf, SPF_LOOKUP_LIMIT } from './spf.js';
import {
  type CaaRecord,
  DNS_RECORD_TYPES,
  type DnsAnswer,
  type DnsCheck,
  type DnsData,
  type DnsFacts,
  type DnsFinding,
  type DnsRecords,
  type DnsRecordType,
  type MxRecord,
} from './types.js';

/** Outcomes that mean the resolver gave no usable answer. */
const UNANSWERED = new Set(['TIMEOUT', 'ERROR', 'SKIPPED']);

/**
 * Grade the gathered facts of a DNS audit under {@link DNS_RUBRIC}: a pure function of
 * `facts` (the same facts give the same bytes, whatever order the answers of one list
 * came in). Fails with `dns_failure` when the domain does not exist (NXDOMAIN) or the
 * resolver answered none of the apex queries, and `timeout` when none was answered in
 * time.
 */
export function auditDns(facts: DnsFacts): ProductResult<DnsData> {
  const domain = facts.domain.toWellFormed();
  const answers = new Map<string, DnsAnswer>();
  for (const answer of facts.answers) {
    const key = `${answer.name}|${answer.type}`;
    // Lone surrogates become U+FFFD, so that every string has one canonical form.
    const records = answer.records.map((record) => record.toWellFormed());
    if (!answers.has(key)) answers.set(key, { ...answer, records });
  }
  const apex = (type: DnsRecordType) => answers.get(`${domain}|${type}`);
  const outcomes = Object.fromEntries(
    DNS_RECORD_TYPES.map((type) => [type, apex(type)?.rcode ?? 'SKIPPED']),
  ) as Record<DnsRecordType, string>;
  const codes = Object.values(outcomes);
  if (codes.includes('NXDOMAIN')) {
    return fail('dns_failure', `The domain \`${domain}\` does not exist (NXDOMAIN)`);
  }
  if (!codes.includes('NOERROR')) {
    if (codes.every((code) => code === 'TIMEOUT')) {
      return fail('timeout', `The resolver did not answer the queries for \`${domain}\` in time`);
    }
    const shown = [...new Set(codes)].sort().join(', ');
    return fail('dns_failure', `The resolver answered no query for \`${domain}\` (${shown})`);
  }

  let truncated = false;
  const cut = (value: string): string => {
    if (value.length <= DNS_MAX_RECORD_CHARS) return value;
    truncated = true;
    return value.slice(0, DNS_MAX_RECORD_CHARS);
  };
  const list = <T>(items: readonly T[]): T[] => {
    if (items.length <= DNS_MAX_RECORDS) return [...items];
    truncated = true;
    return items.slice(0, DNS_MAX_RECORDS);
  };
  const strings = (type: DnsRecordType) => [...(apex(type)?.records ?? [])].sort(compare);
  const mx: MxRecord[] = strings('MX')
    .map((r) => {
      const [preference = '', exchange] = r.split(' ');
      return {
        preference: /^\d{1,5}$/.test(preference) ? Number(preference) : 0,
        exchange: cut(exchange ?? '.'),
      };
    })
    .sort((a, b) => a.preference - b.preference || compare(a.exchange, b.exchange));
  const caa: CaaRecord[] = strings('CAA').map((r) => {
    const match = /^(\d+) (\S+) "(.*)"$/s.exec(r);
    return {
      flags: Number(match?.[1] ?? 0),
      tag: match?.[2] ?? '',
      value: cut(match?.[3] ?? r),
    };
  });
  const records: DnsRecords = {
    A: list(strings('A')),
    AAAA: list(strings('AAAA')),
    CNAME: list(strings('CNAME')),
    NS: list(strings('NS')),
    MX: list(mx),
    CAA: list(caa),
    TXT: list(strings('TXT').map(cut)),
  };

  const txtOf = (name: string): readonly string[] | null => {
    const answer = answers.get(`${name}|TXT`);
    if (answer === undefined || UNANSWERED.has(answer.rcode)) return null;
    return answer.records;
  };
  const spfFull = reportSpf(domain, txtOf);
  const spf = {
    ...spfFull,
    record: spfFull.record === null ? null : cut(spfFull.record),
    references: list(spfFull.references),
  };
  const dmarcFull = reportDmarc(txtOf(`_dmarc.${domain}`) ?? []);
  const dmarc = {
    ...dmarcFull,
    record: dmarcFull.record === null ? null : cut(dmarcFull.record),
    aggregateReports: list(dmarcFull.aggregateReports.map(cut)),
    forensicReports: list(dmarcFull.forensicReports.map(cut)),
  };
  const mtaSts = reportMtaSts(txtOf(`_mta-sts.${domain}`) ?? []);
  const tlsRpt = reportTlsRpt(txtOf(`_smtp._tls.${domain}`) ?? []);
  const answered = DNS_RECORD_TYPES.map(apex).filter(
    (a): a is DnsAnswer => a !== undefined && a.rcode === 'NOERROR',
  );
  const authenticated = answered.length > 0 && answered.every((a) => a.ad);

  const nullMx = mx.length === 1 && mx[0]?.exchange === '.';
  const issuers = caa.filter((r) => r.tag === 'issue' || r.tag === 'issuewild');
  const enforcing =
    dmarc.valid &&
    (dmarc.policy === 'quarantine' || dmarc.policy === 'reject') &&
    dmarc.percent === 100;
  const verdicts: Record<string, [boolean, string, string]> = {
    resolves: [
      records.A.length + records.AAAA.length + records.CNAME.length > 0,
      `${records.A.length} A, ${records.AAAA.length} AAAA, ${records.CNAME.length} CNAME`,
      `Publish an A or AAAA record for \`${domain}\``,
    ],
    'ns-redundant': [
      records.NS.length >= 2,
      `${records.NS.length} name server${records.NS.length === 1 ? '' : 's'}`,
      'Delegate to at least two name servers on separate networks (RFC 2182 §5)',
    ],
    mx: [
      mx.length > 0,
      nullMx ? 'Null MX: the domain accepts no mail (RFC 7505)' : `${mx.length} MX`,
      `Publish MX records, or a null MX (\`${domain}. MX 0 .\`) if the domain takes no mail`,
    ],
    'spf-present': [
      spf.valid,
      spf.problem ?? `\`${spf.record}\``,
      `Publish one TXT record \`v=spf1 … -all\` at \`${domain}\` listing the hosts that send its mail`,
    ],
    'spf-lookups': [
      spf.valid && !spf.lookupLimitExceeded,
      spf.valid
        ? `${spf.lookups} lookup${spf.lookups === 1 ? '' : 's'}${spf.lookupsComplete ? '' : ' at least (some includes were not read)'}`
        : 'No valid SPF record',
      `Bring SPF to at most ${SPF_LOOKUP_LIMIT} DNS lookups: replace includes with ip4:/ip6: ranges or drop unused senders (RFC 7208 §4.6.4)`,
    ],
    'spf-all': [
      spf.valid && (spf.all === '-' || spf.all === '~'),
      spf.all === null ? 'No `all` term' : `\`${spf.all}all\``,
      'End the SPF record with `-all` (or `~all` while testing)',
    ],
    'dmarc-present': [
      dmarc.valid,
      dmarc.problem ?? `\`${dmarc.record}\``,
      `Publish \`v=DMARC1; p=none; rua=mailto:dmarc@${domain}\` at \`_dmarc.${domain}\`, then tighten \`p\``,
    ],
    'dmarc-policy': [
      enforcing,
      dmarc.valid ? `p=${dmarc.policy}, pct=${dmarc.percent}` : 'No valid DMARC record',
      'Set `p=quarantine` or `p=reject` (and no `pct` below 100) once reports show legitimate mail passes',
    ],
    'dmarc-reporting': [
      dmarc.valid && dmarc.aggregateReports.length > 0,
      `${dmarc.aggregateReports.length} rua address${dmarc.aggregateReports.length === 1 ? '' : 'es'}`,
      `Add \`rua=mailto:dmarc@${domain}\` to the DMARC record`,
    ],
    'mta-sts': [
      mtaSts.present,
      mtaSts.present ? `id=${mtaSts.id}` : 'No `v=STSv1` record with an id at `_mta-sts`',
      `Publish \`v=STSv1; id=…\` at \`_mta-sts.${domain}\` and the policy at https://mta-sts.${domain}/.well-known/mta-sts.txt (RFC 8461)`,
    ],
    'tls-rpt': [
      tlsRpt.present,
      tlsRpt.present
        ? `${tlsRpt.reports.length} rua`
        : 'No `v=TLSRPTv1` record with rua at `_smtp._tls`',
      `Publish \`v=TLSRPTv1; rua=mailto:tls-reports@${domain}\` at \`_smtp._tls.${domain}\` (RFC 8460)`,
    ],
    caa: [
      issuers.length > 0,
      issuers.length > 0
        ? `Issuers: ${[...new Set(issuers.map((r) => r.value))].join(', ')}`
        : 'No CAA issue record',
      `Publish \`${domain}. CAA 0 issue "<your CA's domain>"\` (RFC 8659)`,
    ],
    dnssec: [
      authenticated,
      authenticated ? 'AD flag set on every answer' : 'AD flag not set',
      'Sign the zone with DNSSEC and publish its DS record at the parent',
    ],
  };
  const checks: DnsCheck[] = [];
  const findings: DnsFinding[] = [];
  for (const row of DNS_RUBRIC_CHECKS) {
    const [pass, note, remediate] = verdicts[row.id] as [boolean, string, string];
    checks.push({ id: row.id, label: row.label, pass, weight: row.weight, note: cut(note) });
    if (!pass) findings.push({ check: row.id, severity: row.severity, remediate: cut(remediate) });
  }
  const data: DnsData = {
    domain,
    records,
    outcomes,
    spf,
    dmarc,
    mtaSts,
    tlsRpt,
    dnssec: { authenticated },
    queries: facts.answers.length,
    ...gradeSummary(checks, { cutoffs: DNS_GRADE_CUTOFFS }),
    checks,
    findings,
    rubric: DNS_RUBRIC,
    ...(truncated ? { truncatedFields: true as const } : {}),
  };
  return ok(canonicalize(data), data);
}

/** Code-unit order, the same on every machine (no locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
