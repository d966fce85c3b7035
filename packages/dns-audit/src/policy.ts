import type { DmarcReport, PolicyRecordReport } from './types.js';

/** Tag-value pairs of a DMARC, MTA-STS or TLS-RPT record (`k=v; k=v`), first of a tag wins. */
export function tagsOf(record: string): ReadonlyMap<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const key = part.slice(0, at).trim().toLowerCase();
    if (!tags.has(key)) tags.set(key, part.slice(at + 1).trim());
  }
  return tags;
}

function uris(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '');
}

const POLICIES = new Set(['none', 'quarantine', 'reject']);

/** The DMARC report of the `_dmarc` TXT strings (RFC 7489 §6.3, §6.6.3). */
export function reportDmarc(txt: readonly string[]): DmarcReport {
  const records = txt.filter((t) => /^v\s*=\s*DMARC1\s*(;|$)/.test(t));
  const empty = {
    record: null,
    policy: null,
    subdomainPolicy: null,
    percent: null,
    aggregateReports: [],
    forensicReports: [],
    dkimAlignment: null,
    spfAlignment: null,
  };
  if (records.length === 0) {
    return { ...empty, valid: false, problem: 'No DMARC record (`v=DMARC1`) at `_dmarc`' };
  }
  if (records.length > 1) {
    return {
      ...empty,
      valid: false,
      problem: `${records.length} DMARC records: receivers apply none of them (RFC 7489 §6.6.3)`,
    };
  }
  const record = records[0] as string;
  const tags = tagsOf(record);
  const p = tags.get('p')?.toLowerCase() ?? null;
  const sp = tags.get('sp')?.toLowerCase() ?? null;
  const pctText = tags.get('pct');
  const pct = pctText === undefined ? 100 : /^\d{1,3}$/.test(pctText) ? Number(pctText) : NaN;
  let problem: string | null = null;
  if (p === null) problem = 'The record has no `p` tag';
  else if (!POLICIES.has(p)) problem = `\`p=${p}\` is not none, quarantine or reject`;
  else if (sp !== null && !POLICIES.has(sp))
    problem = `\`sp=${sp}\` is not none, quarantine or reject`;
  else if (!(pct >= 0 && pct <= 100))
    problem = `\`pct=${pctText}\` is not an integer from 0 to 100`;
  const alignment = (key: string) => {
    const value = tags.get(key)?.toLowerCase();
    return value === undefined ? 'r' : value;
  };
  return {
    record,
    valid: problem === null,
    problem,
    policy: p,
    subdomainPolicy: sp ?? p,
    percent: Number.isNaN(pct) ? null : pct,
    aggregateReports: uris(tags.get('rua')),
    forensicReports: uris(tags.get('ruf')),
    dkimAlignment: alignment('adkim'),
    spfAlignment: alignment('aspf'),
  };
}

/** The `_mta-sts` record (RFC 8461 §3.1): `v=STSv1; id=…`. */
export function reportMtaSts(txt: readonly string[]): PolicyRecordReport {
  const records = txt.filter((t) => /^v\s*=\s*STSv1\s*(;|$)/.test(t));
  const record = records.length === 1 ? (records[0] as string) : null;
  const id = record === null ? null : (tagsOf(record).get('id') ?? null);
  return { present: record !== null && id !== null && id !== '', record, id, reports: [] };
}

/** The `_smtp._tls` record (RFC 8460 §3): `v=TLSRPTv1; rua=…`. */
export function reportTlsRpt(txt: readonly string[]): PolicyRecordReport {
  const records = txt.filter((t) => /^v\s*=\s*TLSRPTv1\s*(;|$)/.test(t));
  const record = records.length === 1 ? (records[0] as string) : null;
  const reports = record === null ? [] : uris(tagsOf(record).get('rua'));
  return { present: record !== null && reports.length > 0, record, id: null, reports };
}
