import { join } from 'node:path';
import { runFixtures } from '@storefront/test-utils';
import { type MarkdownOptions, toMarkdown } from '../src/index.js';

runFixtures(
  join(import.meta.dirname, 'fixtures'),
  (doc, options) => toMarkdown(doc, options as MarkdownOptions | undefined),
  { textExtension: 'md' },
);
