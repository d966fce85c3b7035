import { describe, expect, it } from 'vitest';
import { parseTableIndex, TABLE_PARAM_MAX_LENGTH } from '../src/index.js';

describe('parameter limits', () => {
  it('bounds `table` by TABLE_PARAM_MAX_LENGTH digits: the limit passes, one more is refused', () => {
    expect(TABLE_PARAM_MAX_LENGTH).toBe(8);
    const digits = '9'.repeat(TABLE_PARAM_MAX_LENGTH);
    expect(parseTableIndex(digits)).toStrictEqual({ ok: true, value: 99_999_999 });
    expect(parseTableIndex(`0${digits}`)).toStrictEqual({
      ok: false,
      message: `Expected \`table\` to be at most ${TABLE_PARAM_MAX_LENGTH} characters, got ${TABLE_PARAM_MAX_LENGTH + 1}`,
    });
  });
});
