import type { RouteExample } from '../types.js';

/** `/buy/feed`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: 'https://example.com/feed.xml' },
  call: (site) => ({ url: site.url('/feed.xml') }),
  credits: 5,
};
