/** One parsed policy: directive names (lower case) to their source tokens. */
export type CspPolicy = ReadonlyMap<string, readonly string[]>;

/**
 * Parse a `Content-Security-Policy` header value into its policies (CSP3 §2.2.2
 * "parse a serialized CSP list"): the value is split on commas into policies, each
 * policy on `;` into directives; a directive's name is its first token, lower-cased;
 * a repeated directive is ignored (§2.2.1 step 2.4). Empty policies are dropped.
 */
export function parseCspList(value: string): CspPolicy[] {
  const policies: CspPolicy[] = [];
  for (const serialized of value.split(',')) {
    const policy = new Map<string, readonly string[]>();
    for (const token of serialized.split(';')) {
      const parts = token.split(/[\t\n\f\r ]+/).filter((part) => part !== '');
      const [name, ...sources] = parts;
      if (name === undefined || !/^[A-Za-z0-9-]+$/.test(name)) continue;
      const key = name.toLowerCase();
      if (!policy.has(key)) policy.set(key, sources);
    }
    if (policy.size > 0) policies.push(policy);
  }
  return policies;
}

/** The source list that governs scripts: `script-src`, else `default-src` (CSP3 §6.8.1). */
export function scriptSources(policy: CspPolicy): readonly string[] | null {
  return policy.get('script-src') ?? policy.get('default-src') ?? null;
}

/** Source expressions that allow scripts from anywhere (or from any URL of a scheme). */
const WILDCARD_SOURCES = new Set(['*', 'http:', 'https:', 'data:']);

/** What makes a script source list unsafe; empty when it is safe. */
export function scriptWeaknesses(sources: readonly string[]): string[] {
  const lower = sources.map((source) => source.toLowerCase());
  const has = (keyword: string) => lower.includes(keyword);
  const strictDynamic = has("'strict-dynamic'");
  // CSP3 §6.7.3.3: 'unsafe-inline' is ignored when a nonce, a hash or 'strict-dynamic' is present.
  const neutralised =
    strictDynamic || lower.some((source) => /^'(nonce-|sha256-|sha384-|sha512-)/.test(source));
  const weaknesses: string[] = [];
  if (has("'unsafe-inline'") && !neutralised) weaknesses.push("'unsafe-inline'");
  if (has("'unsafe-eval'")) weaknesses.push("'unsafe-eval'");
  // 'strict-dynamic' makes host and scheme sources ignored (CSP3 §8.2).
  if (!strictDynamic) {
    for (const source of lower) {
      if (WILDCARD_SOURCES.has(source) && !weaknesses.includes(source)) weaknesses.push(source);
    }
  }
  return weaknesses;
}

/** Whether a `frame-ancestors` source list keeps the page out of arbitrary frames. */
export function restrictsFraming(sources: readonly string[]): boolean {
  return !sources.some((source) => WILDCARD_SOURCES.has(source.toLowerCase()));
}
