import { fc, test } from '@fast-check/vitest';
import { canonicalize } from '@storefront/core';
import { loadHtml } from '@storefront/html';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import { describe, expect } from 'vitest';
import { coerce, type RawValue } from '../src/coerce.js';
import {
  EXTRACT_FIELD_TYPES,
  EXTRACT_MAX_FIELDS,
  extract,
  parseExtractSchema,
  parseNumber,
  resolveFields,
  WELL_KNOWN_FIELDS,
} from '../src/index.js';

const NAMES = [...Object.keys(WELL_KNOWN_FIELDS), 'foo', 'itemprop', 'content', 'og', 'x-y_z'];
const typeArbitrary = fc.constantFrom(...EXTRACT_FIELD_TYPES);
const fieldsArbitrary = fc.uniqueArray(
  fc.record({ name: fc.constantFrom(...NAMES), type: typeArbitrary }),
  { minLength: 1, maxLength: 12, selector: (field) => field.name },
);
const schemaArbitrary = fieldsArbitrary.map((fields) =>
  fields.map((field) => `${field.name}:${field.type}`).join(','),
);
/** HTML with more of the metadata the rules read. */
const richHtmlArbitrary = fc
  .tuple(
    htmlArbitrary,
    fc.array(
      fc.tuple(
        fc.constantFrom(...NAMES),
        fc.constantFrom('1', '$1,299.00', 'yes', '4.5', ' ', 'x', '12,50'),
      ),
      { maxLength: 6 },
    ),
  )
  .map(
    ([body, metas]) =>
      metas
        .map(
          ([name, value], i) =>
            `<meta ${i % 2 ? 'property' : 'name'}="${i % 3 ? 'og:' : ''}${name}" content="${value}"><span itemprop="${name}">${value}</span>`,
        )
        .join('') + body,
  );

describe('extract properties', () => {
  test.prop([
    bytesArbitrary,
    contentTypeArbitrary,
    schemaArbitrary,
    fc.constantFrom('text', 'markdown'),
  ])(
    'returns a result for any bytes, never throwing on content',
    (bytes, contentType, schema, format) => {
      const result = extract(makeDocument(bytes, { contentType }), {
        schema,
        format: format as 'text' | 'markdown',
      });
      if (result.ok) expect(typeof result.text).toBe('string');
      else expect(['unsupported_content_type', 'parse_error']).toContain(result.error);
    },
  );

  test.prop([richHtmlArbitrary, schemaArbitrary])(
    'gives byte-identical text for the same bytes and schema',
    (body, schema) => {
      const first = extract(makeDocument(body), { schema });
      const second = extract(makeDocument(body), { schema });
      expect(second).toStrictEqual(first);
      if (first.ok) {
        expect(first.text).toBe(
          canonicalize({ extract: first.data.extract, text: first.data.text }),
        );
      }
    },
  );
});

describe('resolveFields properties', () => {
  test.prop([richHtmlArbitrary, fieldsArbitrary])(
    'gives every field a value of its declared type or null',
    (body, fields) => {
      const loaded = loadHtml(makeDocument(body));
      if (!loaded.ok) return;
      const { record, coerced } = resolveFields(loaded.page, fields);
      expect(Object.keys(record)).toStrictEqual(fields.map((field) => field.name).sort());
      for (const field of fields) {
        const value = record[field.name];
        if (value === null) continue;
        switch (field.type) {
          case 'string':
            expect(typeof value === 'string' && value !== '' && value === value.trim()).toBe(true);
            break;
          case 'number':
            expect(typeof value === 'number' && Number.isFinite(value)).toBe(true);
            break;
          case 'integer':
            expect(Number.isSafeInteger(value)).toBe(true);
            break;
          case 'boolean':
            expect(typeof value).toBe('boolean');
            break;
        }
      }
      for (const name of coerced) expect(record[name]).not.toBeNull();
      expect(new Set(coerced).size).toBe(coerced.length);
    },
  );
});

describe('parseExtractSchema properties', () => {
  const checkParsed = (schema: string) => {
    const parsed = parseExtractSchema(schema);
    if (!parsed.ok) {
      expect(parsed.message.length).toBeGreaterThan(0);
      expect(parsed.message.isWellFormed()).toBe(true);
      return;
    }
    expect(parsed.fields.length).toBeGreaterThan(0);
    expect(parsed.fields.length).toBeLessThanOrEqual(EXTRACT_MAX_FIELDS);
    expect(new Set(parsed.fields.map((f) => f.name)).size).toBe(parsed.fields.length);
    for (const field of parsed.fields) {
      expect(field.name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
      expect(EXTRACT_FIELD_TYPES).toContain(field.type);
    }
  };

  test.prop([fc.string({ unit: 'binary', maxLength: 1100 })])(
    'never throws on any string',
    checkParsed,
  );

  test.prop([fc.json({ maxDepth: 4 })])('never throws on any JSON text', checkParsed);

  test.prop([
    fc.dictionary(
      fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 8 })),
      fc.record(
        {
          type: fc.oneof(
            fc.constantFrom('string', 'number', 'null', 'array'),
            fc.array(fc.constantFrom('string', 'integer', 'null')),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  ])('never throws on JSON Schemas with odd properties', (properties) => {
    checkParsed(JSON.stringify({ type: 'object', properties }));
  });

  test.prop([fieldsArbitrary])('reads back the fields a compact schema lists', (fields) => {
    const schema = fields.map((f) => ` ${f.name} : ${f.type.toUpperCase()} `).join(',');
    expect(parseExtractSchema(schema)).toStrictEqual({
      ok: true,
      fields: fields.map((field) => ({ name: field.name, type: field.type })),
    });
  });
});

describe('coercion properties', () => {
  const rawArbitrary: fc.Arbitrary<RawValue> = fc.oneof(
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom('1,299', '12,50', '4.0', '-0', '1e3', '$9.99', 'yes'),
  );

  test.prop([rawArbitrary])('an integer field is always a safe integer or refused', (raw) => {
    const typed = coerce(raw, 'integer');
    if (typed !== null) expect(Number.isSafeInteger(typed.value)).toBe(true);
  });

  test.prop([rawArbitrary, typeArbitrary])(
    'casts exactly when the raw type differs',
    (raw, type) => {
      const typed = coerce(raw, type);
      if (typed === null) return;
      const rawType = typeof raw === 'number' ? ['number', 'integer'] : [typeof raw];
      expect(typed.cast).toBe(!rawType.includes(type));
    },
  );

  test.prop([fc.string({ maxLength: 300 })])(
    'reads any string as a finite number or null',
    (text) => {
      const value = parseNumber(text);
      if (value !== null) expect(Number.isFinite(value)).toBe(true);
    },
  );

  test.prop([fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 99 })])(
    'reads back grouped prices in both conventions',
    (units, cents) => {
      const grouped = (sep: string) => units.toString().replace(/\B(?=(\d{3})+(?!\d))/g, sep);
      const expected = Number(`${units}.${String(cents).padStart(2, '0')}`);
      const fraction = String(cents).padStart(2, '0');
      expect(parseNumber(`$${grouped(',')}.${fraction}`)).toBe(expected);
      expect(parseNumber(`${grouped('.')},${fraction} €`)).toBe(expected);
      expect(parseNumber(`${grouped('\u00a0')},${fraction}`)).toBe(expected);
    },
  );
});
