import { runFixtures } from '@storefront/test-utils';
import { auditSeo } from '../src/index.js';

runFixtures(new URL('./fixtures', import.meta.url).pathname, (doc) => auditSeo(doc));
