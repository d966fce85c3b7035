/**
 * The product token in a `User-Agent:` value or a crawler name (RFC 9309 §2.2.1): the
 * leading run of letters, `_` and `-`, so `ExampleBot/1.0 (+https://…)` gives
 * `ExampleBot`. A value that is `*`, or starts with `*` and whitespace, gives `*`.
 * Anything else (a digit or punctuation first) gives the empty string, which matches no
 * group.
 *
 * @example
 *   extractProductToken('GPTBot/1.2') // 'GPTBot'
 */
export function extractProductToken(value: string): string {
  let start = 0;
  while (value.charCodeAt(start) === 0x20 || value.charCodeAt(start) === 0x09) start++;
  if (value.charCodeAt(start) === 0x2a) {
    const next = value.charCodeAt(start + 1);
    return Number.isNaN(next) || next === 0x20 || next === 0x09 ? '*' : '';
  }
  let end = start;
  while (end < value.length) {
    const code = value.charCodeAt(end);
    const letter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
    if (!letter && code !== 0x5f && code !== 0x2d) break;
    end++;
  }
  return value.slice(start, end);
}

/** The key a product token is compared by: RFC 9309 §2.2.1 matching is case-insensitive. */
export function agentKey(token: string): string {
  // Tokens hold only ASCII letters, `_`, `-` and `*`, so this is locale-independent.
  return token.toLowerCase();
}
