/**
 * The path and query of an HTTP request target as received (`req.url`): origin form
 * (`/buy/fetch?url=…`) as sent; absolute form (a request through a proxy) by its URL's
 * path and query. `query` is what follows the first `?` (without it), or null when
 * there is no `?`. The RFC 9421 signature base and the provenance claim both read a
 * target through this.
 */
export function splitTarget(target: string): {
  readonly path: string;
  readonly query: string | null;
} {
  let rest = target;
  if (!rest.startsWith('/')) {
    const url = URL.canParse(rest) ? new URL(rest) : null;
    rest = url === null ? '/' : `${url.pathname}${url.search}`;
  }
  const mark = rest.indexOf('?');
  return mark === -1
    ? { path: rest, query: null }
    : { path: rest.slice(0, mark), query: rest.slice(mark + 1) };
}
