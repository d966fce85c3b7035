import type { RouteExample } from '../types.js';

/** `/buy/tls`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { domain: 'example.com' },
  call: () => ({ domain: 'good.tls.example.com' }),
  // The fixture resolver and TLS server answer for `good.tls.example.com`.
  credits: 5,
};
