import { sha256Hex, utf8ByteLength } from '@storefront/core';
import { textArbitrary } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNotarizeParams, notarize } from '../src/index.js';

const AT = '2026-01-02T03:04:05.678Z';
const CONTENT = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), textArbitrary, fc.string());

describe('notarize properties', () => {
  it('is total over any string and agrees with the param checker', () => {
    fc.assert(
      fc.property(CONTENT, (content) => {
        const result = notarize({ content, witnessedAt: AT });
        expect(result.ok).toBe(checkNotarizeParams({ content }).ok);
        if (!result.ok) expect(result.error).toBe('invalid_params');
      }),
      { numRuns: 1000 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(CONTENT, (content) => {
        const a = notarize({ content, witnessedAt: AT });
        const b = notarize({ content, witnessedAt: AT });
        expect(b).toStrictEqual(a);
      }),
    );
  });

  it('states exactly the hash and UTF-8 length of the content, in eight fixed lines', () => {
    fc.assert(
      fc.property(CONTENT, (content) => {
        const result = notarize({ content, witnessedAt: AT });
        if (!result.ok) return;
        const { data } = result;
        expect(data.contentHash).toBe(sha256Hex(content));
        expect(data.byteLength).toBe(utf8ByteLength(content));
        const lines = result.text.split('\n');
        expect(lines.map((line) => line.slice(0, line.indexOf(':')))).toStrictEqual([
          'statementVersion',
          'algorithm',
          'contentHash',
          'byteLength',
          'source',
          'sourceKind',
          'subject',
          'witnessedAt',
        ]);
        expect(lines[2]).toBe(`contentHash:${data.contentHash}`);
        expect(lines[3]).toBe(`byteLength:${data.byteLength}`);
      }),
      { numRuns: 500 },
    );
  });
});
