import type { RouteExample } from '../types.js';

/** `/buy/pdf`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: 'https://example.com/report.pdf' },
  call: (site) => ({ url: site.url('/report.pdf'), format: 'markdown' }),
  credits: 10,
};
