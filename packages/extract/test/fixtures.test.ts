import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { type ExtractOptions, extract } from '../src/index.js';

runFixtures(fileURLToPath(new URL('fixtures', import.meta.url)), (doc, options) =>
  extract(doc, options as unknown as ExtractOptions),
);
