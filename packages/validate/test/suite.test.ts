import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDocument } from '@storefront/test-utils';
import Ajv from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { FORMAT_CHECKS } from '../src/formats.js';
import { VALIDATE_FORMATS, validateDocument } from '../src/index.js';

/** One group of the hand-written suite, shaped like the JSON-Schema-Test-Suite. */
interface SuiteGroup {
  readonly description: string;
  /** A JSON Schema object, or a schema string in the compact or shorthand form. */
  readonly schema: unknown;
  readonly tests: readonly { description: string; data: unknown; valid: boolean }[];
}

const dir = new URL('./suite/', import.meta.url).pathname;
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort();

/**
 * Plain ajv as a reference for the JSON-Schema groups (`nullable` is an ajv keyword too),
 * with RE2 so that the catastrophic-pattern group does not hang it.
 */
const reference = new Ajv({
  strict: false,
  allErrors: true,
  logger: false,
  ownProperties: true,
  code: { regExp: Object.assign((p: string, f: string) => new RE2(p, f), { code: 'new RE2' }) },
});
// ajv-formats for the formats it has with the same meaning; host names follow IDNA2008 here.
for (const name of VALIDATE_FORMATS) {
  const same = name !== 'hostname' && name !== 'idn-hostname' && name in fullFormats;
  reference.addFormat(
    name,
    same ? fullFormats[name as keyof typeof fullFormats] : FORMAT_CHECKS[name],
  );
}

for (const file of files) {
  const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SuiteGroup[];
  describe(file, () => {
    for (const group of groups) {
      const schema = typeof group.schema === 'string' ? group.schema : JSON.stringify(group.schema);
      describe(group.description, () => {
        for (const test of group.tests) {
          it(test.description, () => {
            const doc = makeDocument(JSON.stringify(test.data), {
              contentType: 'application/json',
            });
            const result = validateDocument(doc, { schema });
            if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
            expect(result.data.valid).toBe(test.valid);
            expect(result.data.errorCount === 0).toBe(test.valid);
            expect(result.data.errors.length).toBe(result.data.errorCount);
          });
        }
        if (typeof group.schema !== 'string') {
          it('agrees with plain ajv', () => {
            const validate = reference.compile(group.schema as object);
            for (const test of group.tests) {
              expect(validate(test.data), test.description).toBe(test.valid);
            }
          });
        }
      });
    }
  });
}
