import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DocumentInit, makeDocument, stableJson } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { type DiffInput, type DiffOptions, diffText } from '../src/index.js';

/** A fixture's input: the document as its init plus a body, and the diff inputs. */
interface FixtureInput {
  readonly document: DocumentInit & { body?: string; bodyBase64?: string };
  readonly text?: string;
  readonly prevHash?: string;
  readonly prevText?: string;
  readonly options?: DiffOptions;
}

// One folder per behaviour: input.json; expected.txt is exactly `text` (the signed change
// claim) and expected.json the rest of the result. `vitest -u` rewrites them.
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
    const { body, bodyBase64, ...init } = fixture.document;
    const bytes =
      bodyBase64 === undefined ? (body ?? '') : new Uint8Array(Buffer.from(bodyBase64, 'base64'));
    const input: DiffInput = {
      document: makeDocument(bytes, init),
      ...(fixture.text === undefined ? {} : { text: fixture.text }),
      ...(fixture.prevHash === undefined ? {} : { prevHash: fixture.prevHash }),
      ...(fixture.prevText === undefined ? {} : { prevText: fixture.prevText }),
    };
    const result = diffText(input, fixture.options);
    const { text, ...rest } = result as { text?: string };
    if (text !== undefined) await expect(text).toMatchFileSnapshot(join(folder, 'expected.txt'));
    await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
  });
}
