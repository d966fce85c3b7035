import { fileURLToPath } from 'node:url';
import {
  type InlineDocument,
  inlineDocument,
  readJsonFile,
  runFolderFixtures,
} from '@storefront/test-utils';
import { type DiffOptions, diffText } from '../src/index.js';

/** A fixture's input.json: the refetched document and the diff inputs. */
interface FixtureInput {
  readonly document: InlineDocument;
  readonly text?: string;
  readonly prevHash?: string;
  readonly prevText?: string;
  readonly options?: DiffOptions;
}

// expected.txt is exactly `text`, the signed change claim.
runFolderFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (folder) => {
  const { document, options, ...rest } = readJsonFile<FixtureInput>(folder);
  return diffText({ document: inlineDocument(document), ...rest }, options);
});
