import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import { extractTables, type TableOptions } from '../src/index.js';

describe('golden fixtures', () => {
  runFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (doc, options) =>
    extractTables(doc, options as TableOptions | undefined),
  );
});
