import type { FetchedDocument } from '@storefront/core';
import { extractLinks } from '@storefront/links';

/** The product-thread task that lists a crawled page's links. */
export const PAGE_LINKS_TASK = 'job:links';

/** At most this many links of one page join a crawl (the rest of a huge link list is dropped). */
export const JOB_MAX_PAGE_LINKS = 1000;

/**
 * The unique http(s) links of an HTML page, in document order within each origin
 * (`@storefront/links`), at most {@link JOB_MAX_PAGE_LINKS}; none for anything the
 * links product cannot read.
 */
export function pageLinks(doc: FetchedDocument): string[] {
  const result = extractLinks(doc);
  if (!result.ok) return [];
  return result.data.links.slice(0, JOB_MAX_PAGE_LINKS).map((link) => link.url);
}
