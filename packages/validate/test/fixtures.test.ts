import type { FetchedDocument } from '@storefront/core';
import { runFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import { type ValidateOptions, validateDocument } from '../src/index.js';

describe('golden fixtures', () => {
  runFixtures(
    new URL('./fixtures/', import.meta.url).pathname,
    (doc: FetchedDocument, options) => validateDocument(doc, options as unknown as ValidateOptions),
    { input: 'input.json' },
  );
});
