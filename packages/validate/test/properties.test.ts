import { fc, test } from '@fast-check/vitest';
import { canonicalize, sha256Hex } from '@storefront/core';
import { bytesArbitrary, contentTypeArbitrary, makeDocument } from '@storefront/test-utils';
import Ajv from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import RE2 from 're2';
import { describe, expect } from 'vitest';
import { documentHash } from '../src/document-hash.js';
import { FORMAT_CHECKS } from '../src/formats.js';
import {
  parseSchema,
  VALIDATE_FORMATS,
  VALIDATE_TYPE_NAMES,
  type ValidateData,
  validateDocument,
} from '../src/index.js';

const CODES = ['parse_error', 'unsupported_content_type', 'body_too_large', 'not_found'];

/** Plain ajv with the same regular-expression engine and formats: the reference. */
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

const names = fc.constantFrom('a', 'b', 'c', '0', '10', 'a/b', '~x', '');
const typeName = fc.constantFrom(...VALIDATE_TYPE_NAMES);
const small = fc.integer({ min: -3, max: 3 });
const scalar = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1, 1.5, 'a', 'ab', '', '2024-01-01', 'joe@example.com'),
  fc.string({ maxLength: 4 }),
  fc.integer(),
);

/** Leaf schemas: one keyword of the subset each. */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  typeName.map((type) => ({ type })),
  fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }).map((type) => ({ type })),
  typeName.map((type) => ({ type, nullable: true })),
  fc
    .uniqueArray(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), {
      minLength: 1,
      maxLength: 3,
      selector: (value) => canonicalize(value),
    })
    .map((values) => ({ enum: values })),
  fc.oneof(scalar, fc.dictionary(names, scalar, { maxKeys: 2 })).map((value) => ({ const: value })),
  fc
    .tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), small)
    .map(([key, value]) => ({ [key]: value })),
  fc
    .tuple(
      fc.constantFrom(
        'minLength',
        'maxLength',
        'minItems',
        'maxItems',
        'minProperties',
        'maxProperties',
      ),
      fc.nat(3),
    )
    .map(([key, value]) => ({ [key]: value })),
  fc
    .constantFrom('^a', 'b$', '^[a-c]+$', '\\d', '^.{2}$', '(a|b)+c', '^\\p{L}*$')
    .map((pattern) => ({ pattern })),
  fc.constantFrom(...VALIDATE_FORMATS).map((format) => ({ format })),
);

/** Schemas of the subset, nested a few levels. */
const { node } = fc.letrec<{ node: unknown; composite: unknown }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('composite')),
  composite: fc.oneof(
    fc
      .tuple(
        fc.dictionary(names, tie('node'), { maxKeys: 3 }),
        fc.uniqueArray(names, { maxLength: 2 }),
      )
      .map(([properties, required]) => ({ properties, required })),
    tie('node').map((items) => ({ items })),
    fc.array(tie('node'), { minLength: 1, maxLength: 2 }).map((items) => ({ items })),
    fc
      .tuple(fc.dictionary(names, tie('node'), { maxKeys: 2 }), tie('node'))
      .map(([properties, additionalProperties]) => ({ properties, additionalProperties })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
    tie('node').map((not) => ({ not })),
    fc.tuple(leaf, tie('node')).map(([a, b]) => ({ allOf: [a, b] })),
  ),
}));
/** A JSON-Schema string: the top level is an object. */
const schemaText = node.map((schema) =>
  JSON.stringify(schema === true ? {} : schema === false ? { not: {} } : schema),
);

/** Documents whose member names the schemas use. */
const { value: documentValue } = fc.letrec<{ value: unknown; array: unknown; object: unknown }>(
  (tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(names, tie('value'), { maxKeys: 4 }),
  }),
);

const doc = (body: string | Uint8Array, contentType: string | null = 'application/json') =>
  makeDocument(body, { contentType });

/** Pre-order position of a pointer in a value whose source order is its property order. */
function position(root: unknown, path: string): number[] {
  const out: number[] = [];
  let value = root;
  const tokens = path === '' ? [] : path.slice(1).split('/');
  for (const raw of tokens) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      out.push(Number(token));
      value = value[Number(token)];
    } else {
      out.push(Object.keys(value as object).indexOf(token));
      value = (value as Record<string, unknown>)[token];
    }
  }
  return out;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  return a.length - b.length;
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      // defineProperty, not assignment: an own `__proto__` key must stay a data member.
      Object.defineProperty(out, key, {
        value: reverseKeys((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

describe('totality', () => {
  const schemas = fc.constantFrom(
    '{}',
    'id:integer,name',
    '{"id": "integer"}',
    '{"type": "array", "items": {"pattern": "^(a+)+$", "format": "email"}}',
    '{"anyOf": [{"type": "string"}, {"additionalProperties": false}]}',
  );
  const pointers = fc.constantFrom('', '/0', '/a', '/a/0', '/');

  test.prop([bytesArbitrary, contentTypeArbitrary, schemas, pointers])(
    'returns a result for any bytes under any content type',
    (bytes, contentType, schema, pointer) => {
      const result = validateDocument(doc(bytes, contentType), { schema, pointer });
      if (!result.ok) expect(CODES).toContain(result.error);
    },
  );

  test.prop([fc.json(), schemas, pointers])(
    'returns a result for any JSON text',
    (body, schema, pointer) => {
      const result = validateDocument(doc(body), { schema, pointer });
      if (!result.ok) expect(['not_found', 'parse_error']).toContain(result.error);
    },
  );

  const soup = fc
    .array(
      fc.constantFrom(
        '{',
        '}',
        '[',
        ']',
        ':',
        ',',
        ' ',
        'a',
        '"type"',
        '"string"',
        '"integer"',
        '"properties"',
        '"items"',
        '"required"',
        '"pattern"',
        '"(a)\\\\1"',
        '"^a+$"',
        '"$ref"',
        '"nullable"',
        'true',
        'null',
        '1',
        '-1',
        '"enum"',
        '"anyOf"',
        '"format"',
        '"email"',
        '"__proto__"',
        '"\\ud800"',
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  test.prop([fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), soup, fc.json())])(
    'parseSchema never throws, and what it accepts validates any document',
    (schema) => {
      const parsed = parseSchema(schema);
      if (!parsed.ok) {
        expect(typeof parsed.message).toBe('string');
        return;
      }
      expect(parsed.hash).toBe(sha256Hex(canonicalize(parsed.normalized)));
      const result = validateDocument(doc('{"a": [1, "x", null]}'), { schema });
      expect(result.ok).toBe(true);
    },
  );
});

describe('generated schemas and documents', () => {
  test.prop([schemaText, documentValue], { numRuns: 300 })(
    'accepts every generated schema and agrees with plain ajv on validity',
    (schema, value) => {
      const parsed = parseSchema(schema);
      if (!parsed.ok) throw new Error(parsed.message);
      const result = validateDocument(doc(JSON.stringify(value)), { schema });
      if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
      // ajv 8.20 gets `required: [""]` under `not`/`anyOf`/`oneOf` wrong (it reports the
      // empty-named member missing even when the branch should pass); we implement
      // `required` ourselves and api.test.ts pins that case, so plain ajv is no
      // reference for such schemas.
      fc.pre(!requiresEmptyName(JSON.parse(schema)));
      // The reference sees the document as it arrives: the parsed bytes, not the generated
      // object (which may have a null prototype; ajv's `const` compares constructors).
      const arrived: unknown = JSON.parse(JSON.stringify(value));
      const expected = reference.compile(JSON.parse(schema))(arrived);
      expect(result.data.valid).toBe(expected);
    },
  );

  test.prop([schemaText, documentValue])(
    'is deterministic, and does not depend on key order in the schema',
    (schema, value) => {
      const body = JSON.stringify(value);
      const first = validateDocument(doc(body), { schema });
      const second = validateDocument(doc(body), { schema });
      const reordered = JSON.stringify(reverseKeys(JSON.parse(schema)));
      const third = validateDocument(doc(body), { schema: reordered });
      expect(second).toStrictEqual(first);
      expect(third).toStrictEqual(first);
    },
  );

  test.prop([schemaText, documentValue, fc.constantFrom('', '/a', '/0', '/a/0')])(
    'hashes the selected value as core canonicalize does, counts and orders its errors',
    (schema, value, pointer) => {
      const result = validateDocument(doc(JSON.stringify(value)), { schema, pointer });
      if (!result.ok) {
        expect(result.error).toBe('not_found');
        return;
      }
      const data: ValidateData = result.data;
      let selected = value;
      for (const token of pointer === '' ? [] : pointer.slice(1).split('/')) {
        selected = (selected as Record<string, unknown>)[token];
      }
      expect(data.documentHash).toBe(sha256Hex(canonicalize(selected)));
      expect(data.valid).toBe(data.errorCount === 0);
      if (!data.truncated) expect(data.errorCount).toBe(data.errors.length);
      for (let i = 1; i < data.errors.length; i++) {
        const a = data.errors[i - 1] as ValidateData['errors'][number];
        const b = data.errors[i] as ValidateData['errors'][number];
        const order = compare(position(value, a.path), position(value, b.path));
        expect(order, `${a.path} before ${b.path}`).toBeLessThanOrEqual(0);
        if (order === 0) expect(a.keyword <= b.keyword).toBe(true);
      }
      for (const error of data.errors) expect(error.path.startsWith(pointer)).toBe(true);
    },
  );

  test.prop([documentValue])(
    'gives the same hash for the same value in any member order',
    (value) => {
      const a = validateDocument(doc(JSON.stringify(value)), { schema: '{}' });
      const b = validateDocument(doc(JSON.stringify(reverseKeys(value), null, 2)), {
        schema: '{}',
      });
      expect(a.ok && b.ok && a.data.documentHash === b.data.documentHash).toBe(true);
    },
  );
});

test('documentHash reuses sorted member lists only for records of the same shape', () => {
  const key = fc.constantFrom('a', 'b', 'c', 'a\u0000b', 'b\u0000c', '', 'é', 'Z');
  const record = fc.dictionary(key, fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), {
    maxKeys: 4,
  });
  fc.assert(
    fc.property(fc.array(record, { maxLength: 12 }), (records) => {
      expect(documentHash(records)).toBe(sha256Hex(canonicalize(records)));
    }),
    { numRuns: 500 },
  );
  const colliding = [
    { 'a\u0000b': 1, c: 2 },
    { a: 3, 'b\u0000c': 4 },
  ];
  expect(documentHash(colliding)).toBe(sha256Hex(canonicalize(colliding)));
});

/** True when any `required` list in the schema names the empty member `""`. */
function requiresEmptyName(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.required) && record.required.includes('')) return true;
      stack.push(...Object.values(record));
    }
  }
  return false;
}
