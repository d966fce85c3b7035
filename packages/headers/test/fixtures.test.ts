import { runFixtures } from '@storefront/test-utils';
import { inspectHeaders } from '../src/index.js';

runFixtures(new URL('./fixtures', import.meta.url).pathname, (doc) => inspectHeaders(doc));
