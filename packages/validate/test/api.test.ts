import { readFileSync } from 'node:fs';
import { canonicalize, StorefrontError, sha256Hex } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  parsePointer,
  VALIDATE_MAX_COUNTED_ERRORS,
  VALIDATE_MAX_DOCUMENT_DEPTH,
  VALIDATE_MAX_ERRORS,
  type ValidateData,
  type ValidateErrorCode,
  type ValidateOptions,
  validateDocument,
} from '../src/index.js';

const json = (body: string | Uint8Array, contentType: string | null = 'application/json') =>
  makeDocument(body, { contentType, url: 'https://api.example.com/v1/items' });

function valid(body: string, options: ValidateOptions): ValidateData {
  const result = validateDocument(json(body), options);
  if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
  return result.data;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'VALIDATE_CACHE_SIZE',
      'VALIDATE_FORMATS',
      'VALIDATE_MAX_COUNTED_ERRORS',
      'VALIDATE_MAX_DOCUMENT_DEPTH',
      'VALIDATE_MAX_ERRORS',
      'VALIDATE_MAX_MESSAGE_CHARS',
      'VALIDATE_MAX_PATH_CHARS',
      'VALIDATE_MAX_PATTERNS',
      'VALIDATE_MAX_PATTERN_LENGTH',
      'VALIDATE_MAX_PATTERN_SIZE',
      'VALIDATE_MAX_POINTER_LENGTH',
      'VALIDATE_MAX_PROPERTIES',
      'VALIDATE_MAX_SCHEMA_DEPTH',
      'VALIDATE_MAX_SCHEMA_LENGTH',
      'VALIDATE_MAX_SCHEMA_NODES',
      'VALIDATE_MAX_WORK',
      'VALIDATE_TYPE_NAMES',
      'parsePointer',
      'parseSchema',
      'receiptRule',
      'resultSchema',
      'validateDocument',
    ]);
  });

  it('keeps the caps of the spec and DESIGN §7', () => {
    expect(api.VALIDATE_MAX_ERRORS).toBe(100);
    expect(api.VALIDATE_MAX_SCHEMA_LENGTH).toBe(16_384);
    expect(api.VALIDATE_MAX_POINTER_LENGTH).toBe(256);
    expect(api.VALIDATE_CACHE_SIZE).toBe(256);
    expect(api.VALIDATE_FORMATS).not.toContain('regex');
  });
});

describe('result', () => {
  it('has exactly the data fields of the spec, and text is their canonical JSON', () => {
    const result = validateDocument(json('{"id": 1}'), { schema: 'id:integer' });
    if (!result.ok) throw new Error(result.error);
    expect(Object.keys(result.data).sort()).toStrictEqual([
      'documentHash',
      'errorCount',
      'errors',
      'pointer',
      'schemaForm',
      'schemaHash',
      'truncated',
      'valid',
      'validatedType',
    ]);
    expect(result.text).toBe(canonicalize(result.data));
    expect(result).not.toHaveProperty('extra');
  });

  it('hashes the canonical validated value and the canonical normalised schema', () => {
    const data = valid('{"b": [1, 2.50], "a": "€"}', { schema: 'a' });
    expect(data.documentHash).toBe(sha256Hex('{"a":"€","b":[1,2.5]}'));
    const schema = api.parseSchema('a');
    if (!schema.ok) throw new Error(schema.message);
    expect(data.schemaHash).toBe(sha256Hex(canonicalize(schema.normalized)));
    expect(data.schemaHash).toBe(schema.hash);
  });

  it.each([
    ['{"a": 1}', 'object'],
    ['[1]', 'array'],
    ['"x"', 'string'],
    ['3', 'integer'],
    ['3.0', 'integer'],
    ['-0', 'integer'],
    ['1e300', 'integer'],
    ['3.25', 'number'],
    ['true', 'boolean'],
    ['null', 'null'],
  ])('reports %s as validatedType %s', (body, type) => {
    expect(valid(body, { schema: '{}' }).validatedType).toBe(type);
  });

  it('lists errors with JSON Pointer paths into the whole body, escaped per RFC 6901', () => {
    const data = valid('{"x": {"a/b": {"~c": "no"}}}', {
      schema: '{"properties": {"a/b": {"properties": {"~c": {"type": "integer"}}}}}',
      pointer: '/x',
    });
    expect(data.errors).toStrictEqual([
      { path: '/x/a~1b/~0c', keyword: 'type', message: 'must be integer' },
    ]);
    expect(data.pointer).toBe('/x');
  });
});

describe('error codes', () => {
  const cases: [ValidateErrorCode, ReturnType<typeof json>, ValidateOptions][] = [
    ['parse_error', json('{"a": }'), { schema: 'a' }],
    ['unsupported_content_type', json('<html></html>', 'text/html'), { schema: 'a' }],
    ['body_too_large', makeDocument('{"a": [1, 2', { truncated: true }), { schema: 'a' }],
    ['not_found', json('{"a": 1}'), { schema: 'a', pointer: '/b' }],
  ];
  it.each(cases)('can produce %s', (code, doc, options) => {
    const result = validateDocument(doc, options);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(code);
      expect(result.message).toEqual(expect.any(String));
      expect(result).not.toHaveProperty('data');
    }
  });

  it('documents every error code in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [code] of cases) expect(readme).toContain(`| \`${code}\` |`);
  });
});

describe('misuse throws StorefrontError invalid_params', () => {
  it.each([
    ['a schema that parseSchema refuses', { schema: '{"$ref": "#/a"}' }],
    ['a schema that is not a string', { schema: 42 }],
    ['an invalid pointer', { schema: 'a', pointer: 'a' }],
    ['a pointer that is not a string', { schema: 'a', pointer: 1 }],
    ['a pointer that is too long', { schema: 'a', pointer: `/${'a'.repeat(256)}` }],
  ])('for %s', (_name, options) => {
    const call = () => validateDocument(json('{}'), options as unknown as ValidateOptions);
    expect(call).toThrow(StorefrontError);
    try {
      call();
    } catch (error) {
      expect((error as StorefrontError).code).toBe('invalid_params');
    }
  });

  it('for options that are not an object', () => {
    expect(() => validateDocument(json('{}'), null as unknown as ValidateOptions)).toThrow(
      StorefrontError,
    );
  });
});

describe('pointer', () => {
  it.each([
    ['', []],
    ['/', ['']],
    ['/a/0', ['a', '0']],
    ['/a~1b/~0c', ['a/b', '~c']],
    ['/~01', ['~1']],
  ])('parses %j', (pointer, tokens) => {
    expect(parsePointer(pointer)).toStrictEqual({ ok: true, tokens });
  });

  it.each([['a'], ['#/a'], ['/a~2'], ['/a~'], [`/${'x'.repeat(256)}`], ['/\ud800']])(
    'refuses %j',
    (pointer) => {
      const parsed = parsePointer(pointer);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/pointer/);
    },
  );

  const body = '{"a": [10, {"": 5, "b c": null}], "": {"x": 1}}';
  it.each([
    ['/a/0', 'integer'],
    ['/a/1/', 'integer'],
    ['/a/1/b c', 'null'],
    ['/', 'object'],
    ['//x', 'integer'],
  ])('selects %j', (pointer, type) => {
    expect(valid(body, { schema: '{}', pointer }).validatedType).toBe(type);
  });

  it.each([
    ['/a/2', 'has no index 2'],
    ['/a/-', 'is not an array index'],
    ['/a/01', 'is not an array index'],
    ['/a/0/x', 'is a number, which has no members'],
    ['/zz', 'has no member `zz`'],
    ['/a/1/b c/d', 'is null'],
  ])('finds nothing at %j', (pointer, why) => {
    const result = validateDocument(json(body), { schema: '{}', pointer });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe('not_found');
      expect(result.message).toContain(why);
    }
  });

  it('does not read inherited members', () => {
    const result = validateDocument(json('{}'), { schema: '{}', pointer: '/toString' });
    expect(result.ok).toBe(false);
  });
});

describe('document order', () => {
  it('lists a value before its members, members in source order, then by keyword and message', () => {
    const data = valid('{"9": "x", "b": {"z": 1, "y": 2}, "10": "y", "a": 0}', {
      schema: JSON.stringify({
        required: ['q', 'p'],
        additionalProperties: { type: 'integer', minimum: 1 },
        properties: { b: { additionalProperties: { type: 'string' }, minProperties: 3 } },
      }),
    });
    expect(data.errors.map((e) => `${e.path} ${e.keyword}`)).toStrictEqual([
      ' required',
      ' required',
      '/9 type',
      '/b minProperties',
      '/b/z type',
      '/b/y type',
      '/10 type',
      '/a minimum',
    ]);
    expect(data.errors[0]?.message).toBe("must have required property 'p'");
  });

  it('orders array elements by index, not as text', () => {
    const body = JSON.stringify(Array.from({ length: 12 }, () => 'x'));
    const data = valid(body, { schema: '{"items": {"type": "integer"}}' });
    expect(data.errors.map((e) => e.path)).toStrictEqual(
      Array.from({ length: 12 }, (_, i) => `/${i}`),
    );
  });

  it('counts a member named twice at its first appearance (the last value wins)', () => {
    const data = valid('{"a": 1, "b": "x", "a": "y"}', {
      schema: '{"additionalProperties": {"type": "integer"}}',
    });
    expect(data.errors.map((e) => e.path)).toStrictEqual(['/a', '/b']);
  });
});

describe('ajv quirks that are fixed', () => {
  it('notices a missing member named "" inside `not` (ajv alone does not)', () => {
    expect(valid('{}', { schema: '{"not": {"required": [""]}}' }).valid).toBe(true);
    expect(valid('{"": 1}', { schema: '{"not": {"required": [""]}}' }).valid).toBe(false);
  });
});

describe('caps', () => {
  it(`lists at most ${VALIDATE_MAX_ERRORS} errors and says so`, () => {
    const data = valid(JSON.stringify(Array.from({ length: 250 }, (_, i) => i)), {
      schema: '{"items": {"type": "string"}}',
    });
    expect(data.errorCount).toBe(250);
    expect(data.errors).toHaveLength(VALIDATE_MAX_ERRORS);
    expect(data.truncated).toBe(true);
    expect(data.errors.at(-1)?.path).toBe('/99');
  });

  it('is not truncated at exactly the cap', () => {
    const data = valid(JSON.stringify(Array.from({ length: 100 }, (_, i) => i)), {
      schema: '{"items": {"type": "string"}}',
    });
    expect(data.errorCount).toBe(100);
    expect(data.truncated).toBe(false);
  });

  it(`stops counting at ${VALIDATE_MAX_COUNTED_ERRORS} errors`, () => {
    const data = valid(JSON.stringify(new Array(30_000).fill(0)), {
      schema: '{"items": {"type": "string"}}',
    });
    expect(data.errorCount).toBe(VALIDATE_MAX_COUNTED_ERRORS);
    expect(data.truncated).toBe(true);
    expect(data.valid).toBe(false);
  });

  it(`reads documents ${VALIDATE_MAX_DOCUMENT_DEPTH} levels deep and refuses deeper ones`, () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(valid(deep(VALIDATE_MAX_DOCUMENT_DEPTH), { schema: '{}' }).valid).toBe(true);
    const result = validateDocument(json(deep(VALIDATE_MAX_DOCUMENT_DEPTH + 1)), { schema: '{}' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe('parse_error');
      expect(result.message).toContain('deeper than 64');
    }
  });

  it('refuses a million-level document without building it', () => {
    const result = validateDocument(json(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`), {
      schema: '{}',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('parse_error');
  });
});

describe('bodies', () => {
  it.each([
    ['application/json'],
    ['application/problem+json'],
    ['text/plain'],
    ['text/html'],
    ['application/octet-stream'],
    [null],
  ])('validates a JSON body served as %s', (type) => {
    const result = validateDocument(json('{"a": 1}', type), { schema: 'a:integer' });
    expect(result.ok && result.data.valid).toBe(true);
  });

  it.each([
    ['application/json', 'parse_error'],
    ['application/vnd.api+json', 'parse_error'],
    ['text/plain; charset=utf-8', 'parse_error'],
    [null, 'parse_error'],
    ['text/html', 'unsupported_content_type'],
    ['application/xml', 'unsupported_content_type'],
    ['image/png', 'unsupported_content_type'],
  ])('reports a body that is not JSON, served as %s, as %s', (type, code) => {
    const result = validateDocument(json('<a>not json</a>', type), { schema: 'a' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(code);
  });

  it.each([
    ['', 'The body is empty, not JSON'],
    ['  \n ', 'The body is empty, not JSON'],
    ['{"a": 1,}', 'expected a member name in quotes, got `}` (line 1, column 9)'],
    ['[1 2]', 'expected `,` or `]`, got `2` (line 1, column 4)'],
    ['{"a" 1}', 'expected `:`, got `1` (line 1, column 6)'],
    ['"abc', 'unterminated string (line 1, column 1)'],
    ['"a\\x"', 'invalid escape in a string (line 1, column 3)'],
    ['"a\tb"', 'unescaped control character in a string (line 1, column 3)'],
    ['01', 'unexpected `1` after the value (line 1, column 2)'],
    ['-', 'invalid number (line 1, column 1)'],
    ['{"a": [1,\n  2,\n  tru]}', 'unexpected `t` (line 3, column 3)'],
    ['{} {}', 'unexpected `{` after the value (line 1, column 4)'],
    ['[1', 'unexpected end of the text (line 1, column 3)'],
    ['[1,\ufeff2]', 'unexpected U+FEFF (line 1, column 4)'],
  ])('describes the syntax error of %j', (body, message) => {
    const result = validateDocument(json(body, 'text/plain'), { schema: '{}' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  it('decodes a UTF-8 byte order mark, UTF-16 and a declared charset', () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"é": 1}')]);
    const withBom = validateDocument(json(bom), { schema: 'é:integer' });
    expect(withBom.ok && withBom.data.valid).toBe(true);
    const utf16 = Uint8Array.from([0xff, 0xfe, 0x5b, 0x00, 0x31, 0x00, 0x5d, 0x00]);
    const result = validateDocument(json(utf16), { schema: '{"items": {"const": 1}}' });
    expect(result.ok && result.data.valid).toBe(true);
    const latin = Uint8Array.from([0x22, 0xe9, 0x22]);
    const declared = validateDocument(json(latin, 'application/json; charset=iso-8859-1'), {
      schema: '{"const": "é"}',
    });
    expect(declared.ok && declared.data.valid).toBe(true);
  });

  it('refuses values with no canonical form, only inside the validated value', () => {
    for (const body of ['{"a": "\\udc00"}', '{"a": 1e400}', '{"\\ud800": 1}']) {
      const result = validateDocument(json(body), { schema: '{}' });
      expect(result.ok, body).toBe(false);
      if (!result.ok) expect(result.error).toBe('parse_error');
    }
    expect(valid('{"a": "\\udc00", "b": 2}', { schema: '{}', pointer: '/b' }).valid).toBe(true);
  });

  it('validates a truncated body never, even when the cut leaves valid JSON', () => {
    const result = validateDocument(makeDocument('12345', { truncated: true }), { schema: '{}' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('body_too_large');
  });

  it('validates whatever the upstream status was', () => {
    const doc = makeDocument('{"error": "nope"}', { status: 404, contentType: 'application/json' });
    const result = validateDocument(doc, { schema: 'error' });
    expect(result.ok && result.data.valid).toBe(true);
  });

  it('does not change the document or the options', () => {
    const doc = json('{"a": 1}');
    const before = [...doc.bytes];
    const options = Object.freeze({ schema: 'a:integer', pointer: '' });
    validateDocument(doc, options);
    expect([...doc.bytes]).toStrictEqual(before);
  });
});
