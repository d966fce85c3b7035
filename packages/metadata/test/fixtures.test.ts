import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { extractMetadata } from '../src/index.js';

runFixtures(fileURLToPath(new URL('fixtures', import.meta.url)), (doc) => extractMetadata(doc));
