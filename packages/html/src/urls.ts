/**
 * Resolve `href` against `base` with the WHATWG URL parser, as a browser does when the
 * link is followed. Returns null when the result is not a valid URL.
 */
export function resolveUrl(href: string, base: string): string | null {
  // One parse: most links are valid, and asking `URL.canParse` first parsed each twice.
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
}

/** The origin (`scheme://host[:port]`) of an http(s) URL, or null for any other scheme. */
export function httpOrigin(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin;
}

/** A host name without a leading `www.`, for www-insensitive comparisons. */
export function bareHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
