import type { RouteExample } from '../types.js';

/** `/buy/robots`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { domain: 'example.com' },
  call: (site) => ({ domain: site.url('/product') }),
  credits: 5,
};
