/**
 * A fetched upstream document, as safe-fetch hands it to a product (DESIGN §2).
 * Products read it and never mutate it.
 */
export interface FetchedDocument {
  /** The URL as the caller gave it, after WHATWG parsing. */
  readonly requestedUrl: string;
  /** The final URL after redirects. */
  readonly url: string;
  /** Upstream HTTP status of the final response. */
  readonly status: number;
  /** Response headers, names lower-cased; repeated headers joined with `, ` (`set-cookie` with `\n`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The `Content-Type` header verbatim, or null when absent. */
  readonly contentType: string | null;
  /** The decoded body (content-coding removed), at most the fetch cap. */
  readonly bytes: Uint8Array;
  /** True when the body was cut at the cap. */
  readonly truncated: boolean;
  /** Every URL that answered with a redirect, in order (excludes the final URL). */
  readonly redirects: readonly string[];
  /** ISO-8601 time the response headers arrived. */
  readonly fetchedAt: string;
}
