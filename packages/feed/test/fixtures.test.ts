import { fileURLToPath } from 'node:url';
import { runFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import { type FeedOptions, parseFeed } from '../src/index.js';

describe('golden fixtures', () => {
  runFixtures(
    fileURLToPath(new URL('fixtures', import.meta.url)),
    (doc, options) => parseFeed(doc, options as FeedOptions | undefined),
    { input: 'input.xml' },
  );
});
