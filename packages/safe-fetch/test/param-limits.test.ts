import { describe, expect, it } from 'vitest';
import { checkUrl, MAX_URL_LENGTH } from '../src/index.js';

/** An http URL of exactly `length` characters. */
function urlOf(length: number): string {
  const base = 'https://example.com/';
  return `${base}${'a'.repeat(length - base.length)}`;
}

describe('the URL limit', () => {
  it('accepts a URL of exactly MAX_URL_LENGTH characters and refuses one more', () => {
    expect(urlOf(MAX_URL_LENGTH)).toHaveLength(MAX_URL_LENGTH);
    expect(checkUrl(urlOf(MAX_URL_LENGTH))).toMatchObject({ ok: true });
    expect(checkUrl(urlOf(MAX_URL_LENGTH + 1))).toMatchObject({
      ok: false,
      error: 'invalid_url',
      message: `Expected a URL of at most ${MAX_URL_LENGTH} characters, got ${MAX_URL_LENGTH + 1}`,
    });
  });
});
