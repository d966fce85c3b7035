import { describe, expect, it } from 'vitest';
import { EXTRACT_SCHEMA_MAX_CHARS, parseExtractSchema } from '../src/index.js';

describe('parameter limits', () => {
  it('bounds `schema` by EXTRACT_SCHEMA_MAX_CHARS: the limit passes, one more is refused', () => {
    expect(EXTRACT_SCHEMA_MAX_CHARS).toBe(1024);
    // Whitespace around names is ignored, so it pads a one-field list to the limit.
    const schema = `title${' '.repeat(EXTRACT_SCHEMA_MAX_CHARS - 'title'.length)}`;
    expect(parseExtractSchema(schema)).toStrictEqual({
      ok: true,
      fields: [{ name: 'title', type: 'string' }],
    });
    expect(parseExtractSchema(`${schema} `)).toStrictEqual({
      ok: false,
      message: `\`schema\` is ${EXTRACT_SCHEMA_MAX_CHARS + 1} characters; the limit is ${EXTRACT_SCHEMA_MAX_CHARS}`,
    });
  });

  it('refuses an empty `schema` (the registry minimum of 1), and one of only whitespace', () => {
    expect(parseExtractSchema('a')).toMatchObject({ ok: true });
    expect(parseExtractSchema('')).toMatchObject({ ok: false });
    expect(parseExtractSchema('   ')).toMatchObject({ ok: false });
  });
});
