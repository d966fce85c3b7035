import type { FetchedDocument } from '@storefront/core';

/** Fields of a test document; everything but the body has a fixed default. */
export interface DocumentInit {
  readonly url?: string;
  readonly requestedUrl?: string;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: string | null;
  readonly truncated?: boolean;
  readonly redirects?: readonly string[];
  readonly fetchedAt?: string;
}

/** The defaults of {@link makeDocument}: a 200 `text/html; charset=utf-8` page at example.com. */
export const DEFAULT_DOCUMENT = {
  url: 'https://example.com/page',
  status: 200,
  contentType: 'text/html; charset=utf-8',
  fetchedAt: '2026-01-01T00:00:00.000Z',
} as const;

/**
 * Build a `FetchedDocument` as safe-fetch would hand it to a product.
 *
 * @example
 *   makeDocument('<title>Hi</title>', { url: 'https://example.org/' })
 */
export function makeDocument(body: string | Uint8Array, init: DocumentInit = {}): FetchedDocument {
  const url = init.url ?? DEFAULT_DOCUMENT.url;
  const contentType =
    init.contentType === undefined ? DEFAULT_DOCUMENT.contentType : init.contentType;
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (contentType !== null && headers['content-type'] === undefined)
    headers['content-type'] = contentType;
  return {
    requestedUrl: init.requestedUrl ?? url,
    url,
    status: init.status ?? DEFAULT_DOCUMENT.status,
    headers,
    contentType,
    bytes: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    truncated: init.truncated ?? false,
    redirects: init.redirects ?? [],
    fetchedAt: init.fetchedAt ?? DEFAULT_DOCUMENT.fetchedAt,
  };
}
