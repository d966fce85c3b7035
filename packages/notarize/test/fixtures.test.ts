import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DocumentInit, makeDocument, stableJson } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { type NotarizeInput, type NotarizeOptions, notarize } from '../src/index.js';

/** A fixture's input: inline content, or a document given as its init plus a body. */
interface FixtureInput {
  readonly input:
    | { content: string; witnessedAt: string }
    | {
        document: DocumentInit & { body?: string; bodyBase64?: string };
        text?: string;
      };
  readonly options?: NotarizeOptions;
}

// One folder per behaviour: input.json; expected.txt is exactly `text` (the signed
// statement) and expected.json the rest of the result. `vitest -u` rewrites them.
const dir = new URL('./fixtures', import.meta.url).pathname;
const cases = readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

test('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

for (const name of cases) {
  test(name, async () => {
    const folder = join(dir, name);
    const fixture = JSON.parse(readFileSync(join(folder, 'input.json'), 'utf8')) as FixtureInput;
    const result = notarize(toInput(fixture.input), fixture.options);
    const { text, ...rest } = result as { text?: string };
    if (text !== undefined) await expect(text).toMatchFileSnapshot(join(folder, 'expected.txt'));
    await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
  });
}

function toInput(input: FixtureInput['input']): NotarizeInput {
  if ('content' in input) return input;
  const { body, bodyBase64, ...init } = input.document;
  const bytes =
    bodyBase64 === undefined ? (body ?? '') : new Uint8Array(Buffer.from(bodyBase64, 'base64'));
  const document = makeDocument(bytes, init);
  return input.text === undefined ? { document } : { document, text: input.text };
}
