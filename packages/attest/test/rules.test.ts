import { canonicalize, RECEIPT_RULE_KINDS, type ReceiptRule } from '@storefront/core';
import { edited } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  checkFields,
  createSigner,
  ENVELOPE_FIELDS,
  RECEIPT_ROUTES,
  RECEIPT_RULES,
  type ServiceAttestationDocument,
  verifyReceipt,
} from '../src/index.js';
import { resigned, TEST_ADDRESS, TEST_PRIVATE_KEY } from './helpers.js';
import { routeResults } from './results.js';

type Body = Record<string, unknown> & { text: unknown; attestation: unknown };

const results = await routeResults(2);
/** A service-attestation document as JSON gives it: its `receiptRules` are not trusted to be rules. */
const doc = (receiptRules?: unknown): ServiceAttestationDocument =>
  ({
    scheme: 'storefront-attest/3',
    alg: 'EIP-191-personal_sign',
    keyId: `storefront-attest/3:${TEST_ADDRESS}`,
    address: TEST_ADDRESS,
    retired: [],
    ...(receiptRules === undefined ? {} : { receiptRules }),
  }) as unknown as ServiceAttestationDocument;

/** A result of a route this package was built without: `text` is the canonical JSON of `data`. */
function echoResult(): Body {
  const data = { said: 'hello', times: 2, tags: ['a', 'b'] };
  const meta = { url: 'https://echo.example/', status: 200, fetchedAt: '2026-03-04T05:06:07.000Z' };
  const text = canonicalize(data);
  const attestation = createSigner(TEST_PRIVATE_KEY).sign(text, { route: 'echo', ...meta });
  return { ok: true, ...meta, text, data, attestation };
}

/** The restated fields (paths) a verdict lists as covered, `data` expanded to its keys. */
function restated(result: Body, covered: readonly string[]): string[] {
  return covered
    .filter((path) => path !== 'text' && !(ENVELOPE_FIELDS as readonly string[]).includes(path))
    .flatMap((path) =>
      path === 'data' ? Object.keys(result.data as Body).map((key) => `data.${key}`) : [path],
    );
}

describe('RECEIPT_RULES', () => {
  it('has a rule for the 19 routes, signal and the crawl job manifest, each a valid receipt rule', () => {
    expect(Object.keys(RECEIPT_RULES)).toStrictEqual([...RECEIPT_ROUTES]);
    expect(RECEIPT_ROUTES).toHaveLength(21);
    expect(RECEIPT_ROUTES).toContain('signal');
    expect(RECEIPT_ROUTES).toContain('crawl-job');
    for (const route of RECEIPT_ROUTES) {
      expect(() => checkFields({}, RECEIPT_RULES[route])).not.toThrow();
    }
  });

  it('is frozen, down to the omit lists', () => {
    expect(Object.isFrozen(RECEIPT_RULES)).toBe(true);
    expect(Object.isFrozen(RECEIPT_RULES.availability)).toBe(true);
    const { availability } = RECEIPT_RULES;
    expect(availability.kind === 'canonical-json' && Object.isFrozen(availability.omit)).toBe(true);
  });
});

describe('a rule given for a route the package does not know', () => {
  it('verifies a made-up route `echo` with `canonical-json` given in `rules`', () => {
    const result = echoResult();
    const rules = { echo: { kind: 'canonical-json' } } as const;
    const verdict = verifyReceipt(result, TEST_ADDRESS, { rules });
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.notes).toStrictEqual([]);
    expect(verdict).toMatchObject({
      valid: true,
      route: 'echo',
      rule: { kind: 'canonical-json' },
      covered: ['text', 'url', 'status', 'fetchedAt', 'data'],
      uncovered: [],
    });
    expect(verdict.checks.fields).toBe(true);
    for (const path of ['data.said', 'data.times', 'data.tags']) {
      const forged = verifyReceipt(edited(result, path), TEST_ADDRESS, { rules });
      expect([path, forged.valid, forged.checks.fields]).toStrictEqual([path, false, false]);
      expect(forged.checks).toMatchObject({ contentHash: true, signature: true, pinnedKey: true });
    }
  });

  it('without a rule, verifies the signature and says the fields were not compared', () => {
    const result = echoResult();
    const verdict = verifyReceipt(edited(result, 'data.said'), TEST_ADDRESS);
    expect(verdict.valid).toBe(true);
    expect(verdict.checks).toStrictEqual({
      contentHash: true,
      signature: true,
      pinnedKey: true,
      envelope: true,
      fields: null,
    });
    expect(verdict.route).toBe('echo');
    expect(verdict.rule).toBeNull();
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.notes).toStrictEqual([
      "No receipt rule is known for /buy/echo, so its fields were not compared with `text` (the signature, `text` and the envelope were); give the route's rule in `rules`, or pin a service-attestation document that publishes `receiptRules`.",
    ]);
    expect(verdict.uncovered).toStrictEqual(['data.said', 'data.times', 'data.tags']);
  });

  it('takes the rule from a pinned service-attestation document', () => {
    const result = echoResult();
    const pinned = doc({ echo: { kind: 'canonical-json' } });
    expect(verifyReceipt(result, pinned).checks.fields).toBe(true);
    expect(verifyReceipt(edited(result, 'data.said'), pinned).checks.fields).toBe(false);
  });

  it('prefers `rules`, then the document, then the built-in table', () => {
    const markdown = edited(results.markdown as Body, 'data.markdown');
    expect(verifyReceipt(markdown, TEST_ADDRESS).checks.fields).toBe(false);
    const lenient = doc({ markdown: { kind: 'none' } });
    expect(verifyReceipt(markdown, lenient).checks.fields).toBeNull();
    const strict = { markdown: { kind: 'equals', field: 'data.markdown' } } as const;
    expect(verifyReceipt(markdown, lenient, { rules: strict }).checks.fields).toBe(false);
  });

  it('notes, and does not guess, when a document’s rule is not one it applies', () => {
    const result = echoResult();
    for (const bad of [{ kind: 'xml-rows' }, 'canonical-json', { kind: 'equals' }]) {
      const verdict = verifyReceipt(edited(result, 'data.said'), doc({ echo: bad }));
      expect(verdict.valid).toBe(true);
      expect(verdict.checks.fields).toBeNull();
      expect(verdict.notes.join(' ')).toMatch(
        /^The receipt rule for \/buy\/echo \(published in the pinned service-attestation document\) is not one this verifier applies: /,
      );
    }
    // A document without rules, or with rules that are not an object, changes nothing.
    for (const receiptRules of [undefined, 'none', ['x']]) {
      expect(verifyReceipt(results.markdown, doc(receiptRules)).checks.fields).toBe(true);
    }
  });

  it('reads own rules only: `constructor` is a route name, not Object.prototype’s', () => {
    const result = resigned(echoResult(), 'constructor');
    const verdict = verifyReceipt(result, doc({}));
    expect(verdict.route).toBe('constructor');
    expect(verdict.checks.fields).toBeNull();
    expect(verdict.notes[0]).toMatch(/^No receipt rule is known for \/buy\/constructor/);
  });

  it('throws on `rules` or `route` options that are not rules or route names (misuse)', () => {
    const result = echoResult();
    expect(() =>
      verifyReceipt(result, TEST_ADDRESS, { rules: { echo: { kind: 'nope' } as never } }),
    ).toThrow(/`rules.echo`.*kind `nope`/);
    expect(() =>
      verifyReceipt(result, TEST_ADDRESS, { rules: { 'Not A Route': { kind: 'none' } } }),
    ).toThrow(/not a route name/);
    expect(() => verifyReceipt(result, TEST_ADDRESS, { route: '/buy/echo' })).toThrow(
      /Expected `route` as a route name/,
    );
  });
});

describe('every rule kind, applied by the signed route name alone', () => {
  const names = Object.keys(results);
  const kinds = new Set<string>();

  it.each(names)('%s, signed as route `echo` with its rule given in `rules`', (name) => {
    const original = results[name] as Body;
    const route = name.split(' ')[0] as keyof typeof RECEIPT_RULES;
    const rule = RECEIPT_RULES[route];
    const relabelled = resigned(original, 'echo');
    const rules = { echo: rule };
    const before = verifyReceipt(original, TEST_ADDRESS);
    const verdict = verifyReceipt(relabelled, TEST_ADDRESS, { rules });
    expect(verdict.problems).toStrictEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.route).toBe('echo');
    expect(verdict.checks.fields).toBe(before.checks.fields);
    expect(verdict.covered).toStrictEqual(before.covered);

    const paths = restated(relabelled, verdict.covered);
    if (verdict.checks.fields === true) {
      expect(paths.length).toBeGreaterThan(0);
      kinds.add(rule.kind === 'canonical-json' && rule.omit ? 'canonical-json omit' : rule.kind);
    }
    for (const path of paths) {
      const forged = verifyReceipt(edited(relabelled, path), TEST_ADDRESS, { rules });
      expect([path, forged.valid, forged.checks.fields]).toStrictEqual([path, false, false]);
      expect(forged.checks).toMatchObject({ contentHash: true, signature: true, pinnedKey: true });
    }
  });

  it('covered every kind that restates text', () => {
    expect([...kinds].sort()).toStrictEqual(
      [...RECEIPT_RULE_KINDS.filter((kind) => kind !== 'none'), 'canonical-json omit'].sort(),
    );
  });
});

describe('checkFields(result, rule)', () => {
  const data = { a: { b: 'deep' }, n: 1, ms: 42 };
  const base = { url: 'https://x.example/', data };

  it.each<[string, ReceiptRule, string, boolean | null, string[]]>([
    ['canonical-json', { kind: 'canonical-json' }, canonicalize(data), true, ['data']],
    [
      'canonical-json with omit',
      { kind: 'canonical-json', omit: ['ms'] },
      canonicalize({ a: { b: 'deep' }, n: 1 }),
      true,
      ['data.a', 'data.n'],
    ],
    [
      'canonical-json with omit, telemetry kept in the text',
      { kind: 'canonical-json', omit: ['ms'] },
      canonicalize(data),
      false,
      ['data.a', 'data.n'],
    ],
    ['equals, a dotted path', { kind: 'equals', field: 'data.a.b' }, 'deep', true, ['data.a.b']],
    ['equals, a missing path', { kind: 'equals', field: 'data.z.b' }, 'deep', false, ['data.z.b']],
    ['record without extract', { kind: 'record' }, 'page', null, []],
    ['none', { kind: 'none' }, 'anything', null, []],
    ['link-rows without data', { kind: 'link-rows' }, 'a\thttps://x.example/', false, []],
    ['page-rows without pages', { kind: 'page-rows' }, '', false, []],
    ['notarization without data', { kind: 'notarization' }, 'statementVersion:1', false, []],
    ['change-claim without fields', { kind: 'change-claim' }, 'claimVersion:1', false, []],
  ])('%s', (_name, rule, text, fields, covered) => {
    const check = checkFields({ ...base, text }, rule);
    expect(check.fields).toBe(fields);
    if (covered.length > 0) expect(check.covered).toStrictEqual(covered);
    expect(check.problem === null).toBe(fields !== false);
  });

  it('answers for any result, and fails one with no text', () => {
    for (const result of [null, 7, 'text', [], {}]) {
      for (const kind of RECEIPT_RULE_KINDS) {
        const rule = (kind === 'equals' ? { kind, field: 'data.x' } : { kind }) as ReceiptRule;
        const check = checkFields(result, rule);
        expect(check.fields).toBe(kind === 'none' ? null : false);
      }
    }
  });
});
