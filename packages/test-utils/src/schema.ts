import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { JsonSchema } from '@storefront/core';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, test } from 'vitest';

/**
 * Compile a product's result schema with ajv (JSON Schema draft 2020-12) in strict mode,
 * so a misspelt keyword or a `required` naming no property fails at once rather than
 * passing everything. Returns a check giving the ways `value` breaks the schema (empty
 * when it fits), one `path: message` line each.
 */
export function schemaCheck(schema: JsonSchema): (value: unknown) => string[] {
  // `type: ['string', 'null']` is how the schemas spell a nullable field (allowUnionTypes).
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
  });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${error.instancePath || '/'}: ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
    );
  };
}

/** One golden result: the folder it was read from (relative to the fixtures root) and its fields. */
export interface GoldenResult {
  readonly name: string;
  readonly result: Readonly<Record<string, unknown>>;
}

/** Every `expected.json` under `dir` (folders nested at any depth), sorted by folder. */
export function readGoldenResults(dir: string): GoldenResult[] {
  const found: GoldenResult[] = [];
  const walk = (folder: string) => {
    const file = join(folder, 'expected.json');
    if (existsSync(file)) {
      found.push({
        name: relative(dir, folder),
        result: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
      });
    }
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
    }
  };
  walk(dir);
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Options of {@link runSchemaFixtures}. */
export interface RunSchemaFixturesOptions {
  /** The value the schema describes, from a golden result; its `data` by default. */
  readonly select?: (result: Readonly<Record<string, unknown>>) => unknown;
}

/**
 * One test per successful golden result under `dir` (every `expected.json`, which the
 * package's golden runner pins to the code): what the product returned validates
 * against `schema`. So a result schema cannot drift from the code unnoticed: changing
 * the product's output rewrites its golden files, and those must still fit the schema.
 */
export function runSchemaFixtures(
  dir: string,
  schema: JsonSchema,
  options: RunSchemaFixturesOptions = {},
): void {
  const check = schemaCheck(schema);
  const select = options.select ?? ((result) => result.data);
  const golden = readGoldenResults(dir).filter(({ result }) => result.ok === true);
  test('has successful golden results to check', () => {
    expect(golden.length).toBeGreaterThan(0);
  });
  for (const { name, result } of golden) {
    test(name, () => {
      expect(check(select(result))).toStrictEqual([]);
    });
  }
}
