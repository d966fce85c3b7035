import type { ParamProblem as CoreParamProblem } from '@storefront/core';
import { sha256Hex } from '@storefront/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  checkDiffParams,
  DIFF_MAX_PREV_HASH_CHARS,
  DIFF_MAX_PREV_TEXT_CHARS,
  type ParamProblem,
} from '../src/index.js';

describe('parameter limits', () => {
  it('bounds `prevHash` by DIFF_MAX_PREV_HASH_CHARS: the limit passes, one more is refused', () => {
    expect(DIFF_MAX_PREV_HASH_CHARS).toBe(66);
    const prevHash = sha256Hex('a');
    expect(prevHash).toHaveLength(DIFF_MAX_PREV_HASH_CHARS);
    expect(checkDiffParams({ prevHash })).toStrictEqual({ ok: true, comparedBy: 'hash' });
    expect(checkDiffParams({ prevHash: `${prevHash}0` })).toMatchObject({
      ok: false,
      details: [{ param: 'prevHash' }],
    });
  });

  it('bounds `prevText` by DIFF_MAX_PREV_TEXT_CHARS: the limit passes, one more is refused', () => {
    expect(DIFF_MAX_PREV_TEXT_CHARS).toBe(262_144);
    const prevText = 'a'.repeat(DIFF_MAX_PREV_TEXT_CHARS);
    expect(checkDiffParams({ prevText })).toStrictEqual({ ok: true, comparedBy: 'text' });
    expect(checkDiffParams({ prevText: `${prevText}a` })).toStrictEqual({
      ok: false,
      error: 'invalid_params',
      details: [
        {
          param: 'prevText',
          message: `Expected \`prevText\` to have at most ${DIFF_MAX_PREV_TEXT_CHARS} characters, got ${DIFF_MAX_PREV_TEXT_CHARS + 1}`,
        },
      ],
    });
  });
});

describe('ParamProblem', () => {
  it('is core ParamProblem, re-exported', () => {
    expectTypeOf<ParamProblem>().toEqualTypeOf<CoreParamProblem>();
  });
});
