import type { SpfReference, SpfReport } from './types.js';

/** RFC 7208 §4.6.4: at most 10 terms that cause DNS lookups. */
export const SPF_LOOKUP_LIMIT = 10;

/** One term of an SPF record. */
export type SpfTerm =
  | {
      readonly kind: 'mechanism';
      readonly qualifier: '+' | '-' | '~' | '?';
      readonly name: string;
      readonly value: string | null;
    }
  | { readonly kind: 'modifier'; readonly name: string; readonly value: string };

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
/** Mechanisms that cost one DNS lookup each (the modifier `redirect` does too). */
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/** Whether a TXT string is an SPF record: `v=spf1` then a space or the end (§4.5). */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1( |$)/i.test(txt);
}

/** The terms of an SPF record, or the first problem that makes it a permerror. */
export function parseSpf(
  record: string,
):
  | { readonly ok: true; readonly terms: readonly SpfTerm[] }
  | { readonly ok: false; readonly problem: string } {
  const terms: SpfTerm[] = [];
  const words = record.trim().split(/ +/).slice(1);
  const modifiers = new Set<string>();
  for (const word of words) {
    const modifier = /^([A-Za-z][A-Za-z0-9_.-]*)=(.*)$/.exec(word);
    if (modifier !== null) {
      const name = (modifier[1] as string).toLowerCase();
      if ((name === 'redirect' || name === 'exp') && modifiers.has(name)) {
        return { ok: false, problem: `The \`${name}\` modifier appears twice (RFC 7208 §6)` };
      }
      modifiers.add(name);
      terms.push({ kind: 'modifier', name, value: modifier[2] as string });
      continue;
    }
    const mechanism = /^([+\-~?]?)([A-Za-z0-9]+)(?:[:/](.*))?$/.exec(word);
    const name = mechanism?.[2]?.toLowerCase();
    if (mechanism === null || name === undefined || !MECHANISMS.has(name)) {
      return { ok: false, problem: `Unknown SPF term \`${clip(word)}\`` };
    }
    const qualifier = (mechanism[1] || '+') as '+' | '-' | '~' | '?';
    const rest = word.slice(mechanism[1]?.length ?? 0).slice(name.length);
    const value = rest.startsWith(':') ? rest.slice(1) : null;
    if ((name === 'include' || name === 'exists') && (value === null || value === '')) {
      return { ok: false, problem: `\`${name}\` needs a domain (\`${name}:example.com\`)` };
    }
    terms.push({ kind: 'mechanism', qualifier, name, value });
  }
  return { ok: true, terms };
}

/** The domains a record's includes and redirect name (without macros), in record order. */
export function spfTargets(record: string): readonly string[] {
  const parsed = parseSpf(record);
  if (!parsed.ok) return [];
  const out: string[] = [];
  for (const term of parsed.terms) {
    const target = targetOf(term);
    if (target !== null && !target.includes('%')) out.push(target.toLowerCase().replace(/\.$/, ''));
  }
  return out;
}

function targetOf(term: SpfTerm): string | null {
  if (term.kind === 'mechanism' && term.name === 'include') return term.value;
  if (term.kind === 'modifier' && term.name === 'redirect') return term.value;
  return null;
}

/** What is known of an SPF lookup: the domain's SPF records, or that it was not read. */
export type SpfLookup = (domain: string) => readonly string[] | null;

/**
 * The SPF report of `domain`: its record, validity, `all` qualifier and DNS-lookup
 * count through its includes and redirect, read with `lookup` (the gathered TXT).
 */
export function reportSpf(domain: string, lookup: SpfLookup): SpfReport {
  const records = (lookup(domain) ?? []).filter(isSpfRecord);
  const base = {
    count: records.length,
    lookups: 0,
    lookupLimitExceeded: false,
    lookupsComplete: true,
    all: null,
    references: [],
  } as const;
  if (records.length === 0) {
    return { ...base, record: null, valid: false, problem: 'No SPF record (`v=spf1`)' };
  }
  if (records.length > 1) {
    return {
      ...base,
      record: null,
      valid: false,
      problem: `${records.length} SPF records: more than one is a permerror (RFC 7208 §4.5)`,
    };
  }
  const record = records[0] as string;
  const parsed = parseSpf(record);
  if (!parsed.ok) return { ...base, record, valid: false, problem: parsed.problem };
  let complete = true;
  const references: SpfReference[] = [];
  const count = (terms: readonly SpfTerm[], seen: ReadonlySet<string>, top: boolean): number => {
    let total = 0;
    const hasAll = terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
    for (const term of terms) {
      const counts =
        (term.kind === 'mechanism' && LOOKUP_MECHANISMS.has(term.name)) ||
        (term.kind === 'modifier' && term.name === 'redirect' && !hasAll);
      if (!counts) continue;
      total += 1;
      const target = targetOf(term);
      if (target === null) continue;
      const name = target.toLowerCase().replace(/\.$/, '');
      const kind = term.kind === 'modifier' ? 'redirect' : 'include';
      let inner: number | null = null;
      let problem: SpfReference['problem'] = null;
      if (name.includes('%')) {
        problem = 'unread';
        complete = false;
      } else if (seen.has(name)) {
        problem = 'loop';
      } else {
        const found = lookup(name);
        if (found === null) {
          problem = 'unread';
          complete = false;
        } else {
          const spf = found.filter(isSpfRecord);
          const innerParsed = spf.length === 1 ? parseSpf(spf[0] as string) : null;
          if (innerParsed === null || !innerParsed.ok) problem = 'missing';
          else inner = count(innerParsed.terms, new Set([...seen, name]), false);
        }
      }
      total += inner ?? 0;
      if (top) references.push({ kind, domain: clip(name), lookups: inner, problem });
    }
    return total;
  };
  const lookups = count(parsed.terms, new Set([domain]), true);
  const allTerm = parsed.terms.find((t) => t.kind === 'mechanism' && t.name === 'all');
  return {
    record,
    count: 1,
    valid: true,
    problem: null,
    lookups,
    lookupLimitExceeded: lookups > SPF_LOOKUP_LIMIT,
    lookupsComplete: complete,
    all: allTerm?.kind === 'mechanism' ? allTerm.qualifier : null,
    references,
  };
}

function clip(value: string, max = 253): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
