import { EXAMPLE_URL } from '../shared.js';
import type { RouteExample } from '../types.js';

/** `/buy/diff`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: EXAMPLE_URL, prevHash: `0x${'0'.repeat(64)}` },
  call: (site) => ({ url: site.url('/changing'), prevText: 'Version zero.' }),
  credits: 6,
};
