import { describe, expect, it } from 'vitest';
import { FETCH_EXTRACT_MAX_CHARS, parseFetchExtract } from '../src/index.js';

describe('parameter limits', () => {
  it('bounds `extract` by FETCH_EXTRACT_MAX_CHARS: the limit passes, one more is refused', () => {
    expect(FETCH_EXTRACT_MAX_CHARS).toBe(256);
    // Whitespace around names is ignored, so it pads the list to the limit.
    const value = `title,${' '.repeat(FETCH_EXTRACT_MAX_CHARS - 'title,price'.length)}price`;
    expect(value).toHaveLength(FETCH_EXTRACT_MAX_CHARS);
    expect(parseFetchExtract(value)).toStrictEqual({
      ok: true,
      mode: 'fields',
      fields: [
        { name: 'title', type: 'string' },
        { name: 'price', type: 'number' },
      ],
    });
    expect(parseFetchExtract(` ${value}`)).toStrictEqual({
      ok: false,
      message: `\`extract\` is ${FETCH_EXTRACT_MAX_CHARS + 1} characters; the limit is ${FETCH_EXTRACT_MAX_CHARS}.`,
    });
  });
});
