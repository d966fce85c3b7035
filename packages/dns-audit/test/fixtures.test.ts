import { readJsonFile, runFolderFixtures } from '@storefront/test-utils';
import { auditDns, type DnsFacts } from '../src/index.js';

runFolderFixtures(new URL('./fixtures', import.meta.url).pathname, (folder) =>
  auditDns(readJsonFile<DnsFacts>(folder)),
);
