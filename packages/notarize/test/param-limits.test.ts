import type { ParamProblem as CoreParamProblem } from '@storefront/core';
import { URL_MAX_CHARS } from '@storefront/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  checkNotarizeParams,
  NOTARIZE_MAX_CONTENT_CHARS,
  NOTARIZE_MAX_URL_CHARS,
  type ParamProblem,
} from '../src/index.js';

/** An http URL of exactly `length` characters. */
function urlOf(length: number): string {
  const base = 'https://example.com/';
  return `${base}${'a'.repeat(length - base.length)}`;
}

describe('parameter limits', () => {
  it('bounds `url` by core URL_MAX_CHARS: the limit passes, one more is refused', () => {
    expect(NOTARIZE_MAX_URL_CHARS).toBe(URL_MAX_CHARS);
    expect(checkNotarizeParams({ url: urlOf(NOTARIZE_MAX_URL_CHARS) })).toStrictEqual({
      ok: true,
      kind: 'url',
    });
    expect(checkNotarizeParams({ url: urlOf(NOTARIZE_MAX_URL_CHARS + 1) })).toStrictEqual({
      ok: false,
      error: 'invalid_params',
      details: [
        {
          param: 'url',
          message: `Expected \`url\` to have at most ${NOTARIZE_MAX_URL_CHARS} characters, got ${NOTARIZE_MAX_URL_CHARS + 1}`,
        },
      ],
    });
  });

  it('bounds `content` by NOTARIZE_MAX_CONTENT_CHARS: the limit passes, one more is refused', () => {
    expect(NOTARIZE_MAX_CONTENT_CHARS).toBe(262_144);
    const content = 'a'.repeat(NOTARIZE_MAX_CONTENT_CHARS);
    expect(checkNotarizeParams({ content })).toStrictEqual({ ok: true, kind: 'inline' });
    expect(checkNotarizeParams({ content: `${content}a` })).toMatchObject({
      ok: false,
      details: [
        { param: 'content', message: expect.stringContaining('at most 262144 characters') },
      ],
    });
  });
});

describe('ParamProblem', () => {
  it('is core ParamProblem, re-exported', () => {
    expectTypeOf<ParamProblem>().toEqualTypeOf<CoreParamProblem>();
  });
});
