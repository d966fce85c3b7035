/** A parsed `Strict-Transport-Security` value, or why browsers would ignore it. */
export type HstsPolicy =
  | {
      readonly valid: true;
      /** Seconds; very long digit strings may round, `maxAgeText` keeps the digits. */
      readonly maxAge: number;
      /** The `max-age` digits without leading zeros. */
      readonly maxAgeText: string;
      readonly includeSubDomains: boolean;
    }
  | { readonly valid: false; readonly reason: string };

/**
 * Parse a `Strict-Transport-Security` value (RFC 6797 §6.1). Browsers process only the
 * first header field (§8.1), so of a comma-joined repeat only the first part is read.
 * A directive given twice, a missing or non-numeric `max-age` make the whole header
 * invalid (§6.1 rules 2 and §6.1.1).
 */
export function parseHsts(value: string): HstsPolicy {
  const first = value.split(',')[0] ?? '';
  const seen = new Set<string>();
  let maxAgeText: string | null = null;
  let includeSubDomains = false;
  for (const raw of first.split(';')) {
    const directive = raw.trim();
    if (directive === '') continue;
    const eq = directive.indexOf('=');
    const name = (eq === -1 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    let argument = eq === -1 ? null : directive.slice(eq + 1).trim();
    if (seen.has(name)) return { valid: false, reason: `directive \`${name}\` appears twice` };
    seen.add(name);
    if (
      argument !== null &&
      argument.length >= 2 &&
      argument.startsWith('"') &&
      argument.endsWith('"')
    ) {
      argument = argument.slice(1, -1);
    }
    if (name === 'max-age') {
      if (argument === null || !/^[0-9]+$/.test(argument)) {
        return { valid: false, reason: '`max-age` is not a number of seconds' };
      }
      maxAgeText = argument.replace(/^0+(?=[0-9])/, '');
    } else if (name === 'includesubdomains') {
      includeSubDomains = true;
    }
  }
  if (maxAgeText === null) return { valid: false, reason: '`max-age` is missing' };
  return { valid: true, maxAge: Number(maxAgeText), maxAgeText, includeSubDomains };
}
