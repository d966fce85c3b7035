import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { parseSchema, validateDocument } from '../src/index.js';

/**
 * Draft-07 behaviours the JSON-Schema-Test-Suite checks (boolean schemas, formats,
 * ECMAScript patterns), as cases written for this package in the suite's shape. A
 * `schema` that is a string is the schema text as a caller sends it; any other value is
 * sent as its JSON text. The suite itself runs in conformance.test.ts when a checkout of
 * it is present.
 */
interface Group {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { description: string; data: unknown; valid: boolean }[];
}

const dir = new URL('./draft7/', import.meta.url).pathname;

for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()) {
  const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Group[];
  describe(file, () => {
    for (const group of groups) {
      const schema = typeof group.schema === 'string' ? group.schema : JSON.stringify(group.schema);
      describe(group.description, () => {
        it('is read as a JSON Schema or a compact list', () => {
          const parsed = parseSchema(schema);
          expect(parsed.ok ? parsed.form : parsed.message).toMatch(/^(json-schema|compact)$/);
        });
        for (const test of group.tests) {
          it(test.description, () => {
            const doc = makeDocument(JSON.stringify(test.data), {
              contentType: 'application/json',
            });
            const result = validateDocument(doc, { schema });
            if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
            expect(result.data.valid).toBe(test.valid);
            expect(result.data.errorCount === 0).toBe(test.valid);
          });
        }
      });
    }
  });
}
