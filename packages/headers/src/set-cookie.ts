/** The security-relevant parts of one `Set-Cookie` line. */
export interface CookieFlags {
  /** The cookie name; empty for a nameless cookie. */
  readonly name: string;
  /** The line with the cookie value removed (`name; Path=/; Secure`), safe to publish. */
  readonly redacted: string;
  readonly secure: boolean;
  readonly httpOnly: boolean;
  /** The `SameSite` value lower-cased (`lax`, `strict`, `none`, or anything sent), or null. */
  readonly sameSite: string | null;
}

/**
 * Parse joined `Set-Cookie` values (one cookie per line, as safe-fetch joins them) by
 * RFC 6265 §5.2: the name-value pair runs to the first `;`, attribute names are
 * case-insensitive, and the last `SameSite` wins. Blank lines are skipped.
 */
export function parseSetCookies(joined: string): CookieFlags[] {
  const cookies: CookieFlags[] = [];
  for (const line of joined.split(/\r?\n|\r/)) {
    if (line.trim() === '') continue;
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
    let secure = false;
    let httpOnly = false;
    let sameSite: string | null = null;
    const kept: string[] = [];
    for (const raw of attributes) {
      const attribute = raw.trim();
      if (attribute === '') continue;
      kept.push(attribute);
      const at = attribute.indexOf('=');
      const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      if (key === 'secure') secure = true;
      else if (key === 'httponly') httpOnly = true;
      else if (key === 'samesite')
        sameSite =
          at === -1
            ? ''
            : attribute
                .slice(at + 1)
                .trim()
                .toLowerCase();
    }
    cookies.push({
      name,
      redacted: [name === '' ? '(unnamed)' : name, ...kept].join('; '),
      secure,
      httpOnly,
      sameSite,
    });
  }
  return cookies;
}

/** What a cookie lacks among `Secure`, `HttpOnly` and `SameSite=Lax|Strict`. */
export function missingCookieFlags(cookie: CookieFlags): string[] {
  const missing: string[] = [];
  if (!cookie.secure) missing.push('Secure');
  if (!cookie.httpOnly) missing.push('HttpOnly');
  if (cookie.sameSite !== 'lax' && cookie.sameSite !== 'strict') {
    missing.push(cookie.sameSite === 'none' ? 'SameSite (None opts out)' : 'SameSite');
  }
  return missing;
}
