import { runSchemaFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import { crawlResultSchema, mapResultSchema } from '../src/index.js';

// Every successful golden result's `data` fits the route's published schema.
describe('map', () => {
  runSchemaFixtures(new URL('./fixtures/map', import.meta.url).pathname, mapResultSchema);
});

describe('crawl', () => {
  runSchemaFixtures(new URL('./fixtures/crawl', import.meta.url).pathname, crawlResultSchema);
});
