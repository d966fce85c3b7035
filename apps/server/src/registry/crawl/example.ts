import { EXAMPLE_URL } from '../shared.js';
import type { RouteExample } from '../types.js';

/** `/buy/crawl`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: EXAMPLE_URL, limit: '5' },
  call: (site) => ({ url: site.shopUrl('/'), limit: '2' }),
  credits: 30,
};
