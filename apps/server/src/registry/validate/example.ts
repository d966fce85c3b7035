import type { RouteExample } from '../types.js';

/** `/buy/validate`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: 'https://example.com/data.json', schema: 'name:string' },
  call: (site) => ({ url: site.url('/data.json'), schema: 'id:integer,name,price:number' }),
  credits: 5,
};
