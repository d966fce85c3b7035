import { edited } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { checkFields, ENVELOPE_FIELDS, verifyReceipt } from '../src/index.js';
import { TEST_ADDRESS } from './helpers.js';
import { routeResults } from './results.js';

type Body = Record<string, unknown>;

/** Receipts of today's scheme (the route signed), and of the old one (the route told from the shape). */
const results = await routeResults(2);
const oldResults = await routeResults(1);
const BY_SCHEME = { 2: results, 1: oldResults } as const;

/** The route of each result (signed, or told from the shape), and whether its fields restate `text`. */
const EXPECTED: Readonly<Record<string, [string, boolean | null]>> = {
  signal: ['signal', true],
  fetch: ['fetch', null],
  'fetch extract=1': ['fetch', null],
  'fetch extract=<fields>': ['fetch', true],
  extract: ['extract', true],
  markdown: ['markdown', true],
  metadata: ['metadata', true],
  links: ['links', true],
  robots: ['robots', true],
  diff: ['diff', true],
  'notarize url': ['notarize', true],
  'notarize inline': ['notarize', true],
  headers: ['headers', true],
  table: ['table', true],
  feed: ['feed', true],
  availability: ['availability', true],
  validate: ['validate', true],
  map: ['map', true],
  crawl: ['crawl', true],
  seo: ['seo', true],
  pdf: ['pdf', true],
};

/** The covered fields a result restates in `text` (not `text` and the envelope themselves). */
function restated(covered: readonly string[]): string[] {
  return covered.filter(
    (path) => path !== 'text' && !(ENVELOPE_FIELDS as readonly string[]).includes(path),
  );
}

/** `data` as covered paths: a route that covers all of `data` lists it whole. */
function expand(result: Body, paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    path === 'data' ? Object.keys(result.data as Body).map((key) => `data.${key}`) : [path],
  );
}

describe.each([2, 1] as const)(
  'fields of storefront-attest/%i receipts: the text re-derived from a result’s own fields',
  (scheme) => {
    const results = BY_SCHEME[scheme];

    it('has a case for every route shape', () => {
      expect(Object.keys(results).sort()).toStrictEqual(Object.keys(EXPECTED).sort());
    });

    describe.each(Object.keys(EXPECTED))('%s', (name) => {
      const result = results[name] as Body;
      const [route, fields] = EXPECTED[name] as [string, boolean | null];

      it(`verifies untouched, ${scheme === 2 ? 'by the signed route' : 'telling the route from the shape'}`, () => {
        const verdict = verifyReceipt(result, TEST_ADDRESS);
        expect(verdict.problems).toStrictEqual([]);
        expect(verdict.notes).toStrictEqual(
          scheme === 2
            ? []
            : [
                `This storefront-attest/1 receipt names no route: /buy/${route} was told from the result's shape.`,
              ],
        );
        expect(verdict.valid).toBe(true);
        expect(verdict.route).toBe(route);
        expect(verdict.signed?.route).toBe(scheme === 2 ? route : null);
        expect(verdict.checks.fields).toBe(fields);
        expect(verifyReceipt(result, TEST_ADDRESS, { route }).valid).toBe(true);
      });

      it('refuses an edit to any field it says it covers', () => {
        const { covered } = verifyReceipt(result, TEST_ADDRESS);
        const paths = expand(result, restated(covered));
        if (fields === null) expect(paths).toStrictEqual([]);
        else expect(paths.length).toBeGreaterThan(0);
        for (const path of paths) {
          const verdict = verifyReceipt(edited(result, path), TEST_ADDRESS);
          expect([path, verdict.valid, verdict.checks.fields]).toStrictEqual([path, false, false]);
          // The text, its hash and the signature are untouched: only the fields lie.
          expect(verdict.checks).toMatchObject({
            contentHash: true,
            signature: true,
            pinnedKey: true,
          });
        }
      });

      it('still verifies with an edit to a field it says it does not cover', () => {
        const { uncovered, covered } = verifyReceipt(result, TEST_ADDRESS);
        expect(covered.filter((path) => uncovered.includes(path))).toStrictEqual([]);
        for (const path of uncovered) {
          const verdict = verifyReceipt(edited(result, path), TEST_ADDRESS);
          expect([path, verdict.valid]).toStrictEqual([path, true]);
        }
      });
    });
  },
);

describe('fields, by example', () => {
  it('refuses `.extract.price = 999` in a /buy/extract result and a /buy/fetch record', () => {
    for (const name of ['extract', 'fetch extract=<fields>']) {
      const result = structuredClone(results[name] as Body);
      (result.extract as Body).price = 999;
      const verdict = verifyReceipt(result, TEST_ADDRESS);
      expect(verdict.valid).toBe(false);
      expect(verdict.checks.fields).toBe(false);
      expect(verdict.problems).toContain('`extract` differs from the record in the signed text.');
    }
  });

  it('names what it covers: markdown covers data.markdown, not data.wordCount', () => {
    const verdict = verifyReceipt(results.markdown, TEST_ADDRESS);
    expect(verdict.covered).toStrictEqual(['text', 'url', 'status', 'fetchedAt', 'data.markdown']);
    expect(verdict.uncovered).toContain('data.wordCount');
  });

  it('says /buy/fetch compares url and status only: it has no fetchedAt field', () => {
    const verdict = verifyReceipt(results.fetch, TEST_ADDRESS);
    expect(verdict.covered).toStrictEqual(['text', 'url', 'status']);
    expect(verdict.uncovered).toStrictEqual(['title', 'contentType', 'bytes', 'truncated']);
    expect(verdict.signed?.fetchedAt).toBe('2026-03-04T05:06:07.000Z');
  });

  it('keeps responseMs out of what an availability receipt covers', () => {
    const verdict = verifyReceipt(results.availability, TEST_ADDRESS);
    expect(verdict.covered).not.toContain('data.responseMs');
    expect(verdict.uncovered).toStrictEqual(['data.responseMs']);
  });

  it('refuses a link whose url hides a second row, and a forged "none" fromHash', () => {
    const links = structuredClone(results.links as Body);
    const data = links.data as { links: Body[] };
    const [a, b] = data.links as [Body, Body];
    // One link whose url carries the next row: the same joined text, one link fewer.
    data.links = [{ ...a, url: `${a.url}\n${b.text}\t${b.url}` }, ...data.links.slice(2)];
    expect(verifyReceipt(links, TEST_ADDRESS).checks.fields).toBe(false);

    const diff = structuredClone(results.diff as Body);
    const claim = (diff.text as string).split('\n');
    expect(claim[3]).toMatch(/^fromHash:0x/);
    diff.fromHash = 'none';
    expect(verifyReceipt(diff, TEST_ADDRESS).checks.fields).toBe(false);
  });

  it('scheme 2: applies the signed route’s rule, whatever the shape', () => {
    // Without `counts` a metadata result has no route's shape; its signed route still names its rule.
    const metadata = structuredClone(results.metadata as Body);
    delete (metadata.data as Body).counts;
    const verdict = verifyReceipt(metadata, TEST_ADDRESS);
    expect(verdict.route).toBe('metadata');
    expect(verdict.rule).toStrictEqual({ kind: 'canonical-json' });
    expect(verdict.checks.fields).toBe(false);
    expect(verdict.problems).toStrictEqual([
      '`text` is not the canonical JSON of `data`: `data` was changed after signing.',
    ]);
  });

  it('scheme 2: refuses a receipt signed for another route than the one named', () => {
    const named = verifyReceipt(results.metadata, TEST_ADDRESS, { route: 'fetch' });
    expect(named.valid).toBe(false);
    expect(named.checks).toMatchObject({ signature: true, fields: false });
    expect(named.route).toBe('metadata');
    expect(named.problems).toStrictEqual([
      'The receipt was signed for a /buy/metadata result, not /buy/fetch.',
    ]);
  });

  it('scheme 1: refuses a result whose shape fits no route, or not the named one', () => {
    const metadata = structuredClone(oldResults.metadata as Body);
    delete (metadata.data as Body).counts;
    const verdict = verifyReceipt(metadata, TEST_ADDRESS);
    expect(verdict.checks.fields).toBe(false);
    expect(verdict.route).toBeNull();
    expect(verdict.problems.join(' ')).toMatch(/shape of no known route/);

    const named = verifyReceipt(oldResults.metadata, TEST_ADDRESS, { route: 'fetch' });
    expect(named.valid).toBe(false);
    expect(named.problems).toContain('The result does not have the shape of a /buy/fetch result.');

    const unknown = verifyReceipt(oldResults.metadata, TEST_ADDRESS, { route: 'echo' });
    expect(unknown.checks.fields).toBe(false);
    expect(unknown.problems.join(' ')).toMatch(/never came from \/buy\/echo/);
  });

  it.each([2, 1] as const)(
    'has nothing to compare for {text, attestation} alone (scheme %i)',
    (scheme) => {
      const { text, attestation } = BY_SCHEME[scheme].metadata as Body;
      const verdict = verifyReceipt({ text, attestation }, TEST_ADDRESS);
      expect(verdict.valid).toBe(true);
      expect(verdict.checks.fields).toBeNull();
      expect(verdict.route).toBe(scheme === 2 ? 'metadata' : null);
      expect(verdict.covered).toStrictEqual(['text']);
    },
  );

  it('throws on something that is not a receipt rule (misuse)', () => {
    expect(() => checkFields(results.fetch, { kind: 'nope' } as never)).toThrow(
      /Expected a receipt rule, but its kind `nope` is not one of canonical-json/,
    );
    expect(() => checkFields(results.fetch, { kind: 'equals' } as never)).toThrow(/dotted path/);
  });
});
