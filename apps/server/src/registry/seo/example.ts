import { EXAMPLE_URL } from '../shared.js';
import type { RouteExample } from '../types.js';

/** `/buy/seo`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: EXAMPLE_URL },
  call: (site) => ({ url: site.url('/seo') }),
  credits: 6,
};
