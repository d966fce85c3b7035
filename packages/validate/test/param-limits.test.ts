import { describe, expect, it } from 'vitest';
import {
  parsePointer,
  parseSchema,
  VALIDATE_MAX_POINTER_LENGTH,
  VALIDATE_MAX_SCHEMA_LENGTH,
} from '../src/index.js';

describe('parameter limits', () => {
  it('bounds `schema` by VALIDATE_MAX_SCHEMA_LENGTH: the limit passes, one more is refused', () => {
    expect(VALIDATE_MAX_SCHEMA_LENGTH).toBe(16_384);
    // Surrounding whitespace is ignored, so it pads a one-field list to the limit.
    const schema = `name${' '.repeat(VALIDATE_MAX_SCHEMA_LENGTH - 'name'.length)}`;
    expect(parseSchema(schema)).toMatchObject({ ok: true, form: 'compact' });
    expect(parseSchema(`${schema} `)).toStrictEqual({
      ok: false,
      message: `Expected \`schema\` to be at most ${VALIDATE_MAX_SCHEMA_LENGTH} characters, got ${VALIDATE_MAX_SCHEMA_LENGTH + 1}`,
    });
  });

  it('bounds `pointer` by VALIDATE_MAX_POINTER_LENGTH: the limit passes, one more is refused', () => {
    expect(VALIDATE_MAX_POINTER_LENGTH).toBe(256);
    const token = 'a'.repeat(VALIDATE_MAX_POINTER_LENGTH - 1);
    expect(parsePointer(`/${token}`)).toStrictEqual({ ok: true, tokens: [token] });
    expect(parsePointer(`/${token}a`)).toStrictEqual({
      ok: false,
      message: `Expected \`pointer\` to be at most ${VALIDATE_MAX_POINTER_LENGTH} characters, got ${VALIDATE_MAX_POINTER_LENGTH + 1}`,
    });
  });
});
