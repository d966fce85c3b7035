import { fileURLToPath } from 'node:url';
import { readJsonFile, runFolderFixtures } from '@storefront/test-utils';
import { type AvailabilityOptions, classifyAvailability, type ProbeOutcome } from '../src/index.js';

// input.json holds `{ outcome, options? }`; expected.txt is exactly `text`.
runFolderFixtures(fileURLToPath(new URL('./fixtures', import.meta.url)), (folder) => {
  const { outcome, options } = readJsonFile<{
    outcome: ProbeOutcome;
    options?: AvailabilityOptions;
  }>(folder);
  return classifyAvailability(outcome, options);
});
