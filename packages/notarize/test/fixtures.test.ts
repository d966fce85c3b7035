import { fileURLToPath } from 'node:url';
import {
  type InlineDocument,
  inlineDocument,
  readJsonFile,
  runFolderFixtures,
} from '@storefront/test-utils';
import { type NotarizeInput, type NotarizeOptions, notarize } from '../src/index.js';

/** A fixture's input.json: inline content, or a fetched document (with its cleaned text). */
interface FixtureInput {
  readonly input:
    | { content: string; witnessedAt: string }
    | { document: InlineDocument; text?: string };
  readonly options?: NotarizeOptions;
}

// expected.txt is exactly `text`, the signed statement.
runFolderFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (folder) => {
  const { input, options } = readJsonFile<FixtureInput>(folder);
  return notarize(toInput(input), options);
});

function toInput(input: FixtureInput['input']): NotarizeInput {
  if ('content' in input) return input;
  const document = inlineDocument(input.document);
  return input.text === undefined ? { document } : { document, text: input.text };
}
