import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { extractText } from '../src/index.js';
import type { TextOptions } from '../src/types.js';

runFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (doc, options) =>
  extractText(doc, options as TextOptions | undefined),
);
