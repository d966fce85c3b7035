import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import { extractLinks, type LinksOptions } from '../src/index.js';

describe('golden fixtures', () => {
  runFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (doc, options) =>
    extractLinks(doc, options as LinksOptions | undefined),
  );
});
