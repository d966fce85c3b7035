import { EXAMPLE_URL } from '../shared.js';
import type { RouteExample } from '../types.js';

/** `/buy/notarize`'s example: a sample query for catalogs, and a call on the fixture site. */
export const example: RouteExample = {
  query: { url: EXAMPLE_URL },
  call: () => ({ content: 'a statement to notarize' }),
  credits: 8,
};
