import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stableJson } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { type AvailabilityOptions, classifyAvailability, type ProbeOutcome } from '../src/index.js';

// One folder per behaviour: input.json holds `{ outcome, options? }`; expected.txt is exactly
// `text` and expected.json the rest of the result. `vitest -u` rewrites the expected files.
const dir = new URL('./fixtures', import.meta.url).pathname;
const cases = readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

test('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

for (const name of cases) {
  test(name, async () => {
    const folder = join(dir, name);
    const input = JSON.parse(readFileSync(join(folder, 'input.json'), 'utf8')) as {
      outcome: ProbeOutcome;
      options?: AvailabilityOptions;
    };
    const result = classifyAvailability(input.outcome, input.options);
    const { text, ...rest } = result as { text?: string };
    if (text !== undefined) await expect(text).toMatchFileSnapshot(join(folder, 'expected.txt'));
    await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
  });
}
