/**
 * Response headers keyed by lower-case name. Names are matched case-insensitively;
 * the same name under several spellings is merged in code-unit order of the original
 * keys (so the insertion order of the input never shows), values joined as a fetcher
 * joins repeats: `, ` (RFC 9110 §5.3), or `\n` for `set-cookie` (RFC 6265 §3).
 */
export type HeaderMap = ReadonlyMap<string, string>;

/** Build a {@link HeaderMap} from any record; non-string values are ignored. */
export function normalizeHeaders(headers: unknown): HeaderMap {
  const out = new Map<string, string>();
  if (headers === null || typeof headers !== 'object') return out;
  const record = headers as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const name = key.trim().toLowerCase();
    if (name === '') continue;
    const clean = value.toWellFormed();
    const previous = out.get(name);
    if (previous === undefined) out.set(name, clean);
    else out.set(name, `${previous}${name === 'set-cookie' ? '\n' : ', '}${clean}`);
  }
  return out;
}

/** A header's value with surrounding whitespace removed, or null when absent or empty. */
export function headerValue(headers: HeaderMap, name: string): string | null {
  const value = headers.get(name);
  if (value === undefined) return null;
  const trimmed = trimOws(value);
  return trimmed === '' ? null : trimmed;
}

/** Remove optional whitespace (RFC 9110 §5.6.3: SP and HTAB) and stray line breaks at both ends. */
export function trimOws(value: string): string {
  // A loop, not /\s+$/: a trailing-whitespace regex is quadratic on long inner runs.
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * Split a list-based field value into its elements (RFC 9110 §5.6.1): commas outside
 * quoted strings separate elements, whitespace around them is dropped, and empty
 * elements are ignored.
 */
export function splitList(value: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      pushElement(out, value.slice(start, i));
      start = i + 1;
    }
  }
  pushElement(out, value.slice(start));
  return out;
}

function pushElement(out: string[], raw: string): void {
  const element = trimOws(raw);
  if (element !== '') out.push(element);
}
