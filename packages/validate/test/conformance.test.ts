import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { parseSchema, validateDocument } from '../src/index.js';

/**
 * The draft-07 part of the public JSON-Schema-Test-Suite, run through `validateDocument`
 * with each schema given as a JSON-Schema string. No npm package ships the draft-07
 * files, so the suite is not a dependency: set `JSON_SCHEMA_TEST_SUITE` to a checkout of
 * the suite's repository to run it (the always-run cases derived from its behaviours are
 * in `draft7.test.ts`).
 *
 * Every group whose schema the validator accepts must give the suite's answer for every
 * test, except the cases listed in {@link EXCLUDED}. A group whose schema is refused must
 * be refused for a keyword outside the supported subset (or `format: "regex"`), and
 * files of supported keywords may not have such groups unless they are listed.
 */
const root = process.env.JSON_SCHEMA_TEST_SUITE;
const draft7 = root === undefined ? undefined : join(root, 'tests', 'draft7');

/** Files of keywords the subset supports: every group in them must run, bar {@link EXCLUDED}. */
const SUPPORTED_FILES = new Set([
  'additionalProperties.json',
  'allOf.json',
  'anyOf.json',
  'boolean_schema.json',
  'const.json',
  'default.json',
  'enum.json',
  'exclusiveMaximum.json',
  'exclusiveMinimum.json',
  'format.json',
  'items.json',
  'maxItems.json',
  'maxLength.json',
  'maxProperties.json',
  'maximum.json',
  'minItems.json',
  'minLength.json',
  'minProperties.json',
  'minimum.json',
  'not.json',
  'oneOf.json',
  'pattern.json',
  'properties.json',
  'required.json',
  'type.json',
  'optional/format/date-time.json',
  'optional/format/date.json',
  'optional/format/email.json',
  'optional/format/hostname.json',
  'optional/format/idn-hostname.json',
  'optional/format/ipv4.json',
  'optional/format/ipv6.json',
  'optional/format/time.json',
  'optional/format/unknown.json',
  'optional/format/uri.json',
  'optional/ecmascript-regex.json',
  'optional/non-bmp-regex.json',
]);

/**
 * Cases that are not run, each with its reason: `file|group` excludes a group whose
 * schema is refused, `file|group|test` one test of an accepted group.
 */
const PATTERN_PROPERTIES =
  'refused: combines the subset with `patternProperties`, which is outside it';
const FORMATS_AS_AJV = 'format checked with ajv-formats "full" semantics, which differ here';
const EXCLUDED: Readonly<Record<string, string>> = {
  'additionalProperties.json|additionalProperties being false does not allow other properties':
    PATTERN_PROPERTIES,
  'additionalProperties.json|non-ASCII pattern with additionalProperties': PATTERN_PROPERTIES,
  'properties.json|properties, patternProperties, additionalProperties interaction':
    PATTERN_PROPERTIES,
  'optional/ecmascript-regex.json|patterns always use unicode semantics with patternProperties':
    PATTERN_PROPERTIES,
  'optional/ecmascript-regex.json|\\w in patternProperties matches [A-Za-z0-9_], not unicode letters':
    PATTERN_PROPERTIES,
  'optional/ecmascript-regex.json|patternProperties with ASCII ranges': PATTERN_PROPERTIES,
  'optional/ecmascript-regex.json|\\d in patternProperties matches [0-9], not unicode digits':
    PATTERN_PROPERTIES,
  'optional/ecmascript-regex.json|patternProperties with non-ASCII digits': PATTERN_PROPERTIES,
  'optional/non-bmp-regex.json|Proper UTF-16 surrogate pair handling: patternProperties':
    PATTERN_PROPERTIES,
  'allOf.json|allOf combined with anyOf, oneOf':
    'refused: a branch uses `multipleOf`, outside the subset',
  'items.json|items and subitems': 'refused: uses `additionalItems`, outside the subset',
  'format.json|regex format': 'refused: `format: "regex"` is not supported (security.md §3.4)',
  'properties.json|properties whose names are Javascript object property names':
    'refused: a property named `__proto__` cannot be declared (ajv would skip it)',
  'optional/format/date-time.json|validation of date-time strings|a numeric offset without minutes is invalid':
    FORMATS_AS_AJV,
  'optional/format/date-time.json|validation of date-time strings|hour 24 is invalid even with a leap second':
    FORMATS_AS_AJV,
  'optional/format/date-time.json|validation of date-time strings|a second fraction of fifteen nines is valid':
    FORMATS_AS_AJV,
  'optional/format/uri.json|validation of URIs|non-numeric port is invalid': FORMATS_AS_AJV,
  'optional/format/uri.json|validation of URIs|leading zero in an embedded IPv4 address is invalid':
    FORMATS_AS_AJV,
  'optional/format/uri.json|validation of URIs|square brackets are not allowed in a path segment':
    FORMATS_AS_AJV,
};

/** Refusals that are expected: a keyword outside the subset, or `format: "regex"`. */
const OUTSIDE_SUBSET =
  /is outside the supported draft-07 subset|is not a supported keyword|`regex`/;

interface Group {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { description: string; data: unknown; valid: boolean }[];
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + entry.name;
    if (entry.isDirectory()) out.push(...listFiles(join(dir, entry.name), `${name}/`));
    else if (entry.name.endsWith('.json')) out.push(name);
  }
  return out.sort();
}

const present = draft7 !== undefined && existsSync(draft7);

describe.skipIf(!present)('JSON-Schema-Test-Suite draft7', () => {
  const dir = draft7 as string;
  const files = (present ? listFiles(dir) : []).filter(
    (file) => !file.startsWith('optional/') || SUPPORTED_FILES.has(file),
  );
  const counts = { passed: 0, failed: 0, excluded: 0, refused: 0 };
  const failures: string[] = [];

  for (const file of files) {
    it(file, () => {
      const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Group[];
      for (const group of groups) {
        const key = `${file}|${group.description}`;
        const parsed = parseSchema(JSON.stringify(group.schema));
        if (!parsed.ok) {
          if (EXCLUDED[key] !== undefined) {
            // Excluded groups must still be refused for the reason given.
            counts.excluded += group.tests.length;
            continue;
          }
          if (SUPPORTED_FILES.has(file) || !OUTSIDE_SUBSET.test(parsed.message)) {
            failures.push(`${key}: refused: ${parsed.message}`);
            counts.failed += group.tests.length;
          } else {
            counts.refused += group.tests.length;
          }
          continue;
        }
        for (const test of group.tests) {
          if (EXCLUDED[`${key}|${test.description}`] !== undefined) {
            counts.excluded++;
            continue;
          }
          const doc = makeDocument(JSON.stringify(test.data), {
            contentType: 'application/json',
          });
          const result = validateDocument(doc, { schema: JSON.stringify(group.schema) });
          const valid = result.ok ? result.data.valid : `${result.error}`;
          if (valid === test.valid) counts.passed++;
          else {
            counts.failed++;
            failures.push(`${key}|${test.description}: got ${valid}`);
          }
        }
      }
    });
  }

  it('summary', () => {
    console.log(
      `draft7: ${counts.passed} passed, ${counts.failed} failed, ${counts.excluded} excluded, ${counts.refused} refused (keywords outside the subset)`,
    );
    if (failures.length > 0) console.log(failures.join('\n'));
    expect(failures).toEqual([]);
  });
});
