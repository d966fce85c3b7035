import { canonicalize, sha256Hex } from '@storefront/core';
import { describe, expect, it } from 'vitest';
import {
  parseSchema,
  VALIDATE_MAX_PATTERN_LENGTH,
  VALIDATE_MAX_PATTERNS,
  VALIDATE_MAX_PROPERTIES,
  VALIDATE_MAX_SCHEMA_DEPTH,
  VALIDATE_MAX_SCHEMA_LENGTH,
  VALIDATE_MAX_SCHEMA_NODES,
} from '../src/index.js';

function accepted(schema: string) {
  const parsed = parseSchema(schema);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
}

function refusal(schema: string): string {
  const parsed = parseSchema(schema);
  if (parsed.ok) throw new Error(`accepted ${schema.slice(0, 80)}`);
  return parsed.message;
}

const fields = (entries: Record<string, string>) => ({
  type: 'object',
  required: Object.keys(entries).sort(),
  properties: Object.fromEntries(Object.entries(entries).map(([k, t]) => [k, { type: t }])),
});

describe('form detection', () => {
  it.each([
    ['id', 'compact'],
    ['id:integer, name', 'compact'],
    ['true', 'json-schema'],
    [' false\n', 'json-schema'],
    ['true:boolean', 'compact'],
    ['  name  ', 'compact'],
    ['{"id": "integer"}', 'shorthand'],
    [' \n{"type": "string"}', 'json-schema'],
    ['{}', 'json-schema'],
    ['{"title": "string"}', 'json-schema'],
  ])('reads %j as %s', (schema, form) => {
    expect(accepted(schema).form).toBe(form);
  });

  it('reads an object with one schema keyword as JSON Schema, so other keys are refused', () => {
    expect(refusal('{"type": "object", "name": "string"}')).toContain(
      '`name` at `#` is not a supported keyword',
    );
  });

  it('hints at the shorthand rule when no key is a schema keyword', () => {
    expect(refusal('{"id": "integer", "tags": ["a"]}')).toContain(
      'a JSON object is a shorthand map only when every value is a type name',
    );
  });
});

describe('normalisation', () => {
  it('turns the compact form into required typed properties, string by default', () => {
    expect(accepted('id:integer, name , tags:array').normalized).toStrictEqual(
      fields({ id: 'integer', name: 'string', tags: 'array' }),
    );
  });

  it('gives the compact and shorthand forms of the same fields the same hash, in any order', () => {
    const a = accepted('b:integer,a');
    const b = accepted('a:string, b:integer');
    const c = accepted('{"b": "integer", "a": "string"}');
    expect(a.hash).toBe(b.hash);
    expect(a.hash).toBe(c.hash);
    expect(a.hash).toBe(sha256Hex(canonicalize(a.normalized)));
  });

  it('does not depend on the key order or spacing of a JSON schema', () => {
    expect(accepted('{"type":"string","minLength":1}').hash).toBe(
      accepted('{ "minLength": 1,\n  "type": "string" }').hash,
    );
  });

  it('drops annotations and folds nullable into type', () => {
    const parsed = accepted(
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        title: 'T',
        description: 'D',
        $comment: 'C',
        examples: [1],
        default: 1,
        readOnly: true,
        writeOnly: false,
        type: 'object',
        properties: {
          a: { type: 'string', nullable: true },
          b: { type: ['integer', 'null'], nullable: true },
          c: { type: 'null', nullable: true },
          d: { type: 'number', nullable: false },
        },
      }),
    );
    expect(parsed.normalized).toStrictEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: ['integer', 'null'] },
        c: { type: 'null' },
        d: { type: 'number' },
      },
    });
  });

  it('keeps boolean subschemas and tuple items', () => {
    expect(accepted('{"items": [true, false, {"type": "string"}]}').normalized).toStrictEqual({
      items: [true, false, { type: 'string' }],
    });
  });

  it('accepts the limits exactly', () => {
    const props = Object.fromEntries(
      Array.from({ length: VALIDATE_MAX_PROPERTIES }, (_, i) => [`p${i}`, {}]),
    );
    accepted(JSON.stringify({ properties: props }));
    accepted(
      JSON.stringify({
        allOf: Array.from({ length: VALIDATE_MAX_PATTERNS }, (_, i) => ({ pattern: `^a{${i}}$` })),
      }),
    );
    accepted(JSON.stringify({ pattern: 'a'.repeat(VALIDATE_MAX_PATTERN_LENGTH) }));
    let deep = '{}';
    for (let i = 1; i < VALIDATE_MAX_SCHEMA_DEPTH; i++) deep = `{"not":${deep}}`;
    accepted(deep);
    accepted(Array.from({ length: VALIDATE_MAX_PROPERTIES }, (_, i) => `f${i}`).join(','));
  });
});

describe('refusals', () => {
  const subset = 'a schema may use type, required, properties';
  it.each([
    ['', 'got nothing'],
    ['   ', 'got nothing'],
    ['[{"type": "string"}]', 'got JSON starting with `[`'],
    ['"id"', 'got JSON starting with `"`'],
    [
      'a'.repeat(VALIDATE_MAX_SCHEMA_LENGTH + 1),
      `at most ${VALIDATE_MAX_SCHEMA_LENGTH} characters`,
    ],
    ['id\ud800', 'lone surrogate'],
    ['{"type": }', 'is not valid JSON: unexpected `}` (line 1, column 10)'],
    ['{"type": "string"', 'is not valid JSON: unexpected end of the text'],
    [`${'{"not":'.repeat(32)}{}${'}'.repeat(32)}`, 'deeper than 32 levels'],
    ['{"$ref": "#/definitions/a"}', 'references are not supported'],
    ['{"definitions": {}}', 'only useful with `$ref`'],
    ['{"$defs": {}}', 'only useful with `$ref`'],
    ['{"$id": "https://x.example/s"}', '`$id` at `#` is outside the supported draft-07 subset'],
    ['{"patternProperties": {"^a": {}}}', 'use `properties`'],
    ['{"uniqueItems": true}', 'square of the array length'],
    ['{"multipleOf": 2}', '`multipleOf` at `#` is outside'],
    ['{"if": {}, "then": {}}', '`if` at `#` is outside'],
    ['{"dependencies": {"a": ["b"]}}', '`dependencies` at `#` is outside'],
    ['{"additionalItems": false}', '`additionalItems` at `#` is outside'],
    ['{"contains": {}}', '`contains` at `#` is outside'],
    ['{"propertyNames": {}}', '`propertyNames` at `#` is outside'],
    ['{"unevaluatedProperties": false}', '`unevaluatedProperties` at `#` is outside'],
    ['{"prefixItems": []}', '`prefixItems` at `#` is outside'],
    ['{"foo": 1}', '`foo` at `#` is not a supported keyword'],
    ['{"items": {"typo": 1}}', '`typo` at `#/items` is not a supported keyword'],
    ['{"properties": {"a~b/c": {"$ref": "#"}}}', 'at `#/properties/a~0b~1c`'],
    ['{"format": "regex"}', '`#/format` is `regex`, which is not supported'],
    ['{"format": 1}', 'Expected `#/format` to be a string, got `1`'],
    ['{"nullable": true}', 'has no `type` to add `null` to'],
    ['{"nullable": "yes"}', 'to be a boolean'],
    ['{"type": "float"}', 'to be one of array, boolean, integer, null, number, object, string'],
    ['{"type": []}', 'a non-empty array of them'],
    ['{"type": ["string", "string"]}', 'lists `string` twice'],
    ['{"required": "a"}', 'to be an array of strings'],
    ['{"required": ["a", "a"]}', 'lists `a` twice'],
    ['{"required": [1]}', 'to be a string, got `1`'],
    ['{"enum": []}', 'a non-empty array, got an empty array'],
    ['{"enum": "a"}', 'a non-empty array'],
    [
      '{"enum": [{"a": 1, "b": 2}, 3, {"b": 2, "a": 1}]}',
      'lists the same value twice (entries 0 and 2)',
    ],
    ['{"minLength": -1}', 'non-negative integer'],
    ['{"maxItems": 1.5}', 'non-negative integer'],
    ['{"maxProperties": "2"}', 'non-negative integer'],
    ['{"minimum": "1"}', 'a finite number'],
    ['{"maximum": 1e400}', 'a finite number, got a number out of range'],
    ['{"maximum": {"$data": "/max"}}', '`$data` references are not supported'],
    ['{"exclusiveMinimum": true}', 'a finite number'],
    ['{"$schema": "http://json-schema.org/draft-04/schema#"}', 'to name draft-07'],
    ['{"title": 1}', 'to be a string'],
    ['{"examples": {}}', 'to be an array'],
    ['{"readOnly": 1}', 'to be a boolean'],
    ['{"items": []}', 'to hold at least one schema'],
    ['{"anyOf": []}', 'to hold at least one schema'],
    ['{"oneOf": {}}', 'to be an array of schemas'],
    ['{"allOf": [1]}', 'Expected a schema (an object or a boolean) at `#/allOf/0`, got `1`'],
    ['{"not": null}', 'Expected a schema (an object or a boolean) at `#/not`, got null'],
    ['{"properties": [1]}', 'to be an object, got an array'],
    ['{"properties": {"__proto__": {}}}', 'named `__proto__`'],
    ['{"const": "\\ud800"}', 'no canonical JSON form'],
    ['{"enum": [1e400]}', 'no canonical JSON form'],
    ['{"pattern": 1}', 'to be a string'],
    ['{"pattern": "(?=a)b"}', '`#/pattern` uses lookahead `(?=`, which the linear-time'],
    ['{"pattern": "(?<!a)b"}', 'uses lookbehind `(?<!`, which'],
    ['{"pattern": "(a)\\\\1"}', 'uses the backreference `\\1`'],
    ['{"pattern": "(?<x>a)\\\\k<x>"}', 'uses the named backreference `\\k`'],
    ['{"pattern": "\\\\p{Emoji}"}', 'uses the property `\\p{Emoji}`'],
    [
      '{"pattern": "\\\\p{Script_Extensions=Greek}"}',
      'the property `\\p{Script_Extensions=Greek}`',
    ],
    ['{"pattern": "\\\\p{Greek}"}', 'the property `\\p{Greek}`'],
    ['{"pattern": "\\\\c1"}', '`\\c` not followed by a letter'],
    ['{"pattern": "\\\\ud800"}', 'a lone surrogate `\\ud800`'],
    ['{"pattern": "\\\\q"}', 'the escape `\\q`'],
    ['{"pattern": "(?i:a)"}', 'the group modifier `(?i`'],
    ['{"pattern": "[z-a]"}', 'not a pattern RE2 accepts'],
    [
      JSON.stringify({ pattern: 'a'.repeat(VALIDATE_MAX_PATTERN_LENGTH + 1) }),
      'at most 512 characters',
    ],
    ['{"pattern": "\\\\p{L}{1,100}"}', 'expands to about 1601 positions'],
    ['{"pattern": "((a{10}){10}){11}"}', 'expands to about'],
    [
      JSON.stringify({
        allOf: Array.from({ length: VALIDATE_MAX_PATTERNS + 1 }, () => ({ pattern: 'a' })),
      }),
      `more than ${VALIDATE_MAX_PATTERNS} \`pattern\` keywords`,
    ],
    [
      JSON.stringify({
        properties: Object.fromEntries(
          Array.from({ length: VALIDATE_MAX_PROPERTIES + 1 }, (_, i) => [`p${i}`, {}]),
        ),
      }),
      `more than ${VALIDATE_MAX_PROPERTIES} properties`,
    ],
    [
      JSON.stringify({ allOf: Array.from({ length: VALIDATE_MAX_SCHEMA_NODES }, () => true) }),
      `more than ${VALIDATE_MAX_SCHEMA_NODES} subschemas`,
    ],
    ['a,,b', 'Field 2 of the compact schema is empty'],
    ['a,', 'Field 2 of the compact schema is empty'],
    [',a', 'Field 1 of the compact schema is empty'],
    ['a, a:integer', 'Field `a` is listed twice'],
    ['a:float', 'Field `a` has type `float`'],
    ['a:Integer', 'Field `a` has type `Integer`'],
    ['a:', 'Field `a` has an empty type'],
    [':integer', 'has no name'],
    ['a:b:c', 'Expected `field` or `field:type`'],
    ['a{b}', 'holds `{`'],
    ['a"b', 'holds `\\"`'],
    ['a\u0001b', 'holds `\\u0001`'],
    ['__proto__:integer', 'named `__proto__`'],
    [
      Array.from({ length: VALIDATE_MAX_PROPERTIES + 1 }, (_, i) => `f${i}`).join(','),
      'lists 257 fields',
    ],
    ['{"a": "float"}', 'Shorthand field `a` has type `float`'],
    ['{"__proto__": "string"}', 'named `__proto__`'],
  ])('refuses %j', (schema, message) => {
    expect(refusal(schema)).toContain(message);
  });

  it('names the whole subset when it refuses a keyword', () => {
    expect(refusal('{"uniqueItems": true}')).toContain(subset);
  });

  it('never throws for non-string input', () => {
    expect(parseSchema(12 as unknown as string)).toStrictEqual({
      ok: false,
      message: 'Expected `schema` to be a string, got `number`',
    });
  });

  it('reports the first refusal in key order, whatever the source order', () => {
    expect(refusal('{"uniqueItems": true, "$ref": "#"}')).toBe(
      refusal('{"$ref": "#", "uniqueItems": true}'),
    );
  });
});
