import { EXAMPLE_URL } from '../shared.js';
import type { RouteExample } from '../types.js';

/** `/buy/extract`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: EXAMPLE_URL, schema: 'title,price:number' },
  call: (site) => ({ url: site.url('/product'), schema: 'name,sku' }),
  credits: 4,
};
