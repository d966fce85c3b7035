import type { RouteExample } from '../types.js';

/** `/buy/dns`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { domain: 'example.com' },
  call: () => ({ domain: 'good.example.com' }),
  // The fixture resolver answers for `good.example.com`.
  credits: 5,
};
