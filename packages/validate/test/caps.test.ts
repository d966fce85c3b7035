import { CUT_MARK } from '@storefront/core';
import { makeDocument, schemaCheck } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  resultSchema,
  VALIDATE_MAX_ERRORS,
  VALIDATE_MAX_MESSAGE_CHARS,
  VALIDATE_MAX_PATH_CHARS,
  VALIDATE_MAX_POINTER_LENGTH,
  validateDocument,
} from '../src/index.js';

/** Characters of string content the caps allow (README, Limits), plus 1 KiB of fixed text. */
const WORST_CASE_CHARS =
  VALIDATE_MAX_ERRORS * (VALIDATE_MAX_PATH_CHARS + VALIDATE_MAX_MESSAGE_CHARS + 64) +
  VALIDATE_MAX_POINTER_LENGTH +
  1024;

function json(body: string) {
  return makeDocument(body, {
    contentType: 'application/json',
    url: 'https://api.example.com/v1/items',
  });
}

describe('caps on a hostile document', () => {
  // 150 members whose names are 100,000 characters (with surrogate pairs), each of the wrong
  // type, and a required name of 2,000 characters the schema asks for.
  const long = (i: number) => `${i}${'A😀'.repeat(33_334)}`;
  const members = Array.from({ length: 150 }, (_, i) => `"${long(i)}": 1`).join(',');
  const required = 'r'.repeat(2000);
  const schema = JSON.stringify({
    type: 'object',
    required: [required],
    additionalProperties: { type: 'string' },
  });
  const result = validateDocument(json(`{${members}}`), { schema });
  if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
  const { data } = result;

  it('cuts error paths and messages with the mark, and says so', () => {
    expect(data.errors).toHaveLength(VALIDATE_MAX_ERRORS);
    for (const error of data.errors) {
      expect(error.path.length).toBeLessThanOrEqual(VALIDATE_MAX_PATH_CHARS);
      expect(error.message.length).toBeLessThanOrEqual(VALIDATE_MAX_MESSAGE_CHARS);
      expect(error.path.isWellFormed()).toBe(true);
    }
    expect(data.errors.some((error) => error.path.endsWith(CUT_MARK))).toBe(true);
    expect(data.errors.some((error) => error.message.endsWith(CUT_MARK))).toBe(true);
    expect(data.truncatedFields).toBe(true);
  });

  it('still fits the published result schema, cut fields and all', () => {
    expect(schemaCheck(resultSchema)(data)).toStrictEqual([]);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(2_000_000);
  });

  it('adds no flag to an ordinary report', () => {
    const plain = validateDocument(json('{"id": "x"}'), { schema: 'id:integer' });
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.data).not.toHaveProperty('truncatedFields');
  });
});
