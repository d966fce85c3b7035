import type { ReceiptRule } from '@storefront/core';
import { checkFields, type FieldCheck, isBare } from './fields.js';

/**
 * Receipts of `storefront-attest/1` name no route, so the route of such a receipt is
 * told from the result's shape, exactly as the verifier did when that scheme was
 * current. This table is frozen with the scheme: the 20 routes that issued `/1`
 * receipts, their distinguishing fields and their rules then. It never grows; new
 * routes sign scheme 2, which carries the route name.
 */

type Rec = Record<string, unknown>;

interface Shape {
  /** Whether a result has this route's shape (its distinguishing fields). */
  readonly matches: (result: Rec) => boolean;
  /** The route's rule when scheme 1 was current. */
  readonly rule: ReceiptRule;
}

const hasData = (result: Rec): result is Rec & { data: Rec } => isRecord(result.data);
const dataHas =
  (...keys: string[]) =>
  (result: Rec) =>
    hasData(result) && keys.every((key) => key in result.data);
const noData = (result: Rec) => !('data' in result);

const CANONICAL: ReceiptRule = { kind: 'canonical-json' };
const canonicalData = (...keys: string[]): Shape => ({
  matches: dataHas(...keys),
  rule: CANONICAL,
});

const SHAPES: Readonly<Record<string, Shape>> = {
  signal: canonicalData('series', 'points', 'signal'),
  fetch: {
    matches: (result) =>
      noData(result) && !('schema' in result) && !('toHash' in result) && !('changed' in result),
    rule: { kind: 'record' },
  },
  extract: {
    matches: (result) => noData(result) && 'extract' in result && 'schema' in result,
    rule: { kind: 'record' },
  },
  markdown: { matches: dataHas('markdown'), rule: { kind: 'equals', field: 'data.markdown' } },
  metadata: canonicalData('openGraph', 'counts'),
  links: { matches: dataHas('links', 'pageOrigin'), rule: { kind: 'link-rows' } },
  robots: canonicalData('verdicts', 'policies'),
  diff: {
    matches: (result) => noData(result) && 'toHash' in result && 'changed' in result,
    rule: { kind: 'change-claim' },
  },
  notarize: { matches: dataHas('statementVersion', 'contentHash'), rule: { kind: 'notarization' } },
  headers: canonicalData('grade', 'checks', 'serverBanner'),
  table: canonicalData('tables', 'tableCount'),
  feed: canonicalData('items', 'feedTitle'),
  availability: {
    matches: dataHas('responseClass'),
    rule: { kind: 'canonical-json', omit: ['responseMs'] },
  },
  validate: canonicalData('documentHash', 'schemaHash'),
  map: canonicalData('urls', 'sources'),
  // `count` and `skipped` tell a crawl from a pdf result, which also has `pages` and `format`.
  crawl: { matches: dataHas('pages', 'format', 'count', 'skipped'), rule: { kind: 'page-rows' } },
  seo: canonicalData('grade', 'checks', 'counts'),
  pdf: canonicalData('pageCount', 'pages', 'outline'),
  dns: canonicalData('records', 'spf', 'dmarc'),
  tls: canonicalData('chain', 'protocol', 'cipher'),
};

/** The routes that issued `storefront-attest/1` receipts, in the order they are tried. */
export const LEGACY_ROUTES: readonly string[] = Object.freeze(Object.keys(SHAPES));

/** A scheme-1 field check: the route told from the shape (or named), and its verdict. */
export interface LegacyFieldCheck extends FieldCheck {
  readonly route: string | null;
  readonly rule: ReceiptRule | null;
}

/**
 * The fields check of a `storefront-attest/1` receipt. The route is `route` when given
 * (the result must have that route's shape), else the one route whose shape the
 * result has. A result that carries fields beyond the envelope but fits no route, or
 * several, fails: its fields cannot be tied to the receipt.
 */
export function legacyFields(result: unknown, route?: string): LegacyFieldCheck {
  const input = isRecord(result) ? result : {};
  if (route === undefined && isBare(input)) {
    return { route: null, rule: null, fields: null, covered: [], problem: null };
  }
  let chosen: string;
  if (route !== undefined) {
    const shape = Object.hasOwn(SHAPES, route) ? SHAPES[route] : undefined;
    if (shape === undefined) {
      return fail(
        null,
        `A storefront-attest/1 receipt never came from /buy/${route}: that scheme was signed by ${LEGACY_ROUTES.join(', ')} only.`,
      );
    }
    if (!shape.matches(input)) {
      return fail(route, `The result does not have the shape of a /buy/${route} result.`);
    }
    chosen = route;
  } else {
    const candidates = LEGACY_ROUTES.filter((name) => SHAPES[name]?.matches(input));
    if (candidates.length !== 1) {
      return fail(
        null,
        candidates.length === 0
          ? 'The result has the shape of no known route, so its fields cannot be tied to the receipt; name the route.'
          : `The result has the shape of several routes (${candidates.join(', ')}); name the route.`,
      );
    }
    chosen = candidates[0] as string;
  }
  const rule = (SHAPES[chosen] as Shape).rule;
  return { route: chosen, rule, ...checkFields(input, rule) };
}

function fail(route: string | null, problem: string): LegacyFieldCheck {
  return { route, rule: null, fields: false, covered: [], problem };
}

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
