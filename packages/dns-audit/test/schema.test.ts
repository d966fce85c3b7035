import { runSchemaFixtures } from '@storefront/test-utils';
import { resultSchema } from '../src/index.js';

// Every successful golden result's `data` fits the published schema.
runSchemaFixtures(new URL('./fixtures', import.meta.url).pathname, resultSchema);
