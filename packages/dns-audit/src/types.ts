import type { Grade } from '@storefront/core';

/** The record types a DNS audit asks for. */
export const DNS_RECORD_TYPES = Object.freeze([
  'A',
  'AAAA',
  'CNAME',
  'NS',
  'MX',
  'CAA',
  'TXT',
] as const);

/** One of {@link DNS_RECORD_TYPES}. */
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/**
 * How one query ended: the response code the resolver gave (`NOERROR`, `NXDOMAIN`,
 * `SERVFAIL`, `REFUSED`, …), `TIMEOUT` when no answer came in time, `ERROR` when the
 * answer could not be read, `SKIPPED` when the query cap was reached first.
 */
export type DnsOutcome = string;

/** One query and its answer, as gathered. */
export interface DnsAnswer {
  /** The name asked for, lower case, without a trailing dot. */
  readonly name: string;
  readonly type: DnsRecordType;
  readonly rcode: DnsOutcome;
  /** The AD (authentic data) flag of the response: the resolver validated it with DNSSEC. */
  readonly ad: boolean;
  /**
   * The records of the asked type in presentation form: an address; a name (CNAME, NS);
   * `preference exchange` (MX); `flags tag "value"` (CAA); the joined strings (TXT).
   */
  readonly records: readonly string[];
}

/** Everything the audit reads: the domain and every answer gathered for it. */
export interface DnsFacts {
  readonly domain: string;
  readonly answers: readonly DnsAnswer[];
  /** True when the query cap stopped the gathering (SPF includes left unread). */
  readonly capped: boolean;
}

/** A letter grade, from `A` (best) to `F` (core's `Grade`). */
export type DnsGrade = Grade;
export type DnsSeverity = 'high' | 'medium' | 'low';

/** An MX record. */
export interface MxRecord {
  readonly preference: number;
  readonly exchange: string;
}

/** A CAA record. */
export interface CaaRecord {
  readonly flags: number;
  readonly tag: string;
  readonly value: string;
}

/** The records of the apex, each list sorted, with how each query ended. */
export interface DnsRecords {
  readonly A: readonly string[];
  readonly AAAA: readonly string[];
  readonly CNAME: readonly string[];
  readonly NS: readonly string[];
  readonly MX: readonly MxRecord[];
  readonly CAA: readonly CaaRecord[];
  readonly TXT: readonly string[];
}

/** One include or redirect of an SPF record, with what it costs in lookups. */
export interface SpfReference {
  readonly kind: 'include' | 'redirect';
  readonly domain: string;
  /** Lookups its own record adds (its terms and its includes), null when not read. */
  readonly lookups: number | null;
  /** Why it was not counted in full: `unread` (query cap), `missing` (no SPF there), `loop`. */
  readonly problem: 'unread' | 'missing' | 'loop' | null;
}

/** The domain's SPF record (RFC 7208), parsed. */
export interface SpfReport {
  /** The record; null when there is none (or several, see `problem`). */
  readonly record: string | null;
  /** How many `v=spf1` records the apex has (more than one is a permerror, §4.5). */
  readonly count: number;
  readonly valid: boolean;
  /** Why it is not valid, or null. */
  readonly problem: string | null;
  /** DNS-lookup terms (include, a, mx, ptr, exists, redirect) counted through the includes. */
  readonly lookups: number;
  /** RFC 7208 §4.6.4: more than 10 is a permerror. */
  readonly lookupLimitExceeded: boolean;
  /** False when some include could not be read (the count is a lower bound). */
  readonly lookupsComplete: boolean;
  /** The `all` qualifier (`-`, `~`, `?`, `+`), or null without an `all` term. */
  readonly all: '-' | '~' | '?' | '+' | null;
  readonly references: readonly SpfReference[];
}

/** The `_dmarc` record (RFC 7489), parsed. */
export interface DmarcReport {
  readonly record: string | null;
  readonly valid: boolean;
  readonly problem: string | null;
  /** `p`: none, quarantine or reject. */
  readonly policy: string | null;
  /** `sp`, else `p` (RFC 7489 §6.3). */
  readonly subdomainPolicy: string | null;
  /** `pct`, default 100. */
  readonly percent: number | null;
  /** `rua` and `ruf` URIs. */
  readonly aggregateReports: readonly string[];
  readonly forensicReports: readonly string[];
  /** `adkim` and `aspf`: `r` (default) or `s`. */
  readonly dkimAlignment: string | null;
  readonly spfAlignment: string | null;
}

/** A `_mta-sts` (RFC 8461) or `_smtp._tls` (RFC 8460) TXT record. */
export interface PolicyRecordReport {
  readonly present: boolean;
  readonly record: string | null;
  /** MTA-STS `id`; null for TLS-RPT. */
  readonly id: string | null;
  /** TLS-RPT `rua` URIs; empty for MTA-STS. */
  readonly reports: readonly string[];
}

export interface DnsCheck {
  readonly id: string;
  readonly label: string;
  readonly pass: boolean;
  readonly weight: number;
  readonly note: string;
}

export interface DnsFinding {
  readonly check: string;
  readonly severity: DnsSeverity;
  readonly remediate: string;
}

/** `data` of a DNS audit. */
export interface DnsData {
  readonly domain: string;
  readonly records: DnsRecords;
  /** The response code of each apex query, by type (`NOERROR`, `TIMEOUT`, …). */
  readonly outcomes: Readonly<Record<DnsRecordType, DnsOutcome>>;
  readonly spf: SpfReport;
  readonly dmarc: DmarcReport;
  readonly mtaSts: PolicyRecordReport;
  readonly tlsRpt: PolicyRecordReport;
  /** Whether every answered apex query carried the AD flag. */
  readonly dnssec: { readonly authenticated: boolean };
  /** Queries made (the cap is {@link DNS_MAX_QUERIES}). */
  readonly queries: number;
  readonly grade: DnsGrade;
  readonly score: number;
  readonly maxScore: number;
  readonly percentage: number;
  readonly passed: number;
  readonly failed: number;
  readonly checks: readonly DnsCheck[];
  readonly findings: readonly DnsFinding[];
  readonly rubric: string;
  /** Present only when a value was cut at its cap. */
  readonly truncatedFields?: true;
}

/** How one query is asked: the name, the type, and an optional abort signal. Never rejects. */
export type DnsQuery = (
  name: string,
  type: DnsRecordType,
  signal?: AbortSignal,
) => Promise<DnsAnswer>;

/** A name as answers carry it: lower case, no trailing dot. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
