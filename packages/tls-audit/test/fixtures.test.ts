import { readJsonFile, runFolderFixtures } from '@storefront/test-utils';
import { auditTls, type TlsFacts } from '../src/index.js';

/** A fixture: the gathered facts of a real handshake (or an edit of one) and the audit time. */
interface Input {
  readonly at: string;
  readonly facts: TlsFacts;
}

runFolderFixtures(new URL('./fixtures', import.meta.url).pathname, (folder) => {
  const { at, facts } = readJsonFile<Input>(folder);
  return auditTls(facts, { at });
});
