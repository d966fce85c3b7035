import { DNS_MAX_QUERIES, DNS_MAX_SPF_DEPTH } from './limits.js';
import { isSpfRecord, spfTargets } from './spf.js';
import {
  DNS_RECORD_TYPES,
  type DnsAnswer,
  type DnsFacts,
  type DnsQuery,
  type DnsRecordType,
  normalizeName,
} from './types.js';

/** Options of {@link gatherDns}. */
export interface GatherDnsOptions {
  /** Stops the queries still running (they end as `TIMEOUT`). */
  readonly signal?: AbortSignal | undefined;
  /** Most queries made (default {@link DNS_MAX_QUERIES}). */
  readonly maxQueries?: number | undefined;
}

/** The policy names read besides the apex: DMARC, MTA-STS and TLS-RPT. */
export const POLICY_PREFIXES = Object.freeze(['_dmarc', '_mta-sts', '_smtp._tls'] as const);

/**
 * Gather the facts of a DNS audit of `domain` with `query`: the apex records (A, AAAA,
 * CNAME, NS, MX, CAA, TXT) and the TXT of `_dmarc`, `_mta-sts` and `_smtp._tls`, all at
 * once, then the TXT of every SPF include and redirect, one level at a time, at most
 * {@link DNS_MAX_SPF_DEPTH} levels and `maxQueries` queries in all. The answers come
 * back in the order asked, whatever order they arrived in.
 */
export async function gatherDns(
  domain: string,
  query: DnsQuery,
  options: GatherDnsOptions = {},
): Promise<DnsFacts> {
  const name = normalizeName(domain);
  const max = options.maxQueries ?? DNS_MAX_QUERIES;
  const asked: [string, DnsRecordType][] = [
    ...DNS_RECORD_TYPES.map((type): [string, DnsRecordType] => [name, type]),
    ...POLICY_PREFIXES.map((prefix): [string, DnsRecordType] => [`${prefix}.${name}`, 'TXT']),
  ].slice(0, max);
  const answers: DnsAnswer[] = await Promise.all(
    asked.map(([n, type]) => query(n, type, options.signal)),
  );
  let capped = asked.length < DNS_RECORD_TYPES.length + POLICY_PREFIXES.length;
  const read = new Set([name]);
  let level = spfTargetsOf(answers.find((a) => a.name === name && a.type === 'TXT'));
  for (let depth = 0; depth < DNS_MAX_SPF_DEPTH && level.length > 0; depth++) {
    const fresh = [...new Set(level)].filter((target) => !read.has(target));
    const room = max - answers.length;
    if (fresh.length > room) capped = true;
    const batch = fresh.slice(0, Math.max(0, room));
    if (batch.length === 0) break;
    for (const target of batch) read.add(target);
    const found = await Promise.all(batch.map((target) => query(target, 'TXT', options.signal)));
    answers.push(...found);
    level = found.flatMap((answer) => spfTargetsOf(answer));
  }
  if (level.some((target) => !read.has(target))) capped = true;
  return { domain: name, answers, capped };
}

function spfTargetsOf(answer: DnsAnswer | undefined): string[] {
  if (answer === undefined) return [];
  return answer.records.filter(isSpfRecord).flatMap((record) => [...spfTargets(record)]);
}
