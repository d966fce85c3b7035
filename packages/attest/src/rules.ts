import { RECEIPT_RULE_KINDS, type ReceiptRule } from '@storefront/core';

const BUILT_IN = {
  // The free demo: the canonical JSON of its sample series.
  signal: { kind: 'canonical-json' },
  // The page text itself; with a field list, the record too (`extract`).
  fetch: { kind: 'record' },
  extract: { kind: 'record' },
  markdown: { kind: 'equals', field: 'data.markdown' },
  metadata: { kind: 'canonical-json' },
  links: { kind: 'link-rows' },
  robots: { kind: 'canonical-json' },
  diff: { kind: 'change-claim' },
  notarize: { kind: 'notarization' },
  headers: { kind: 'canonical-json' },
  table: { kind: 'canonical-json' },
  feed: { kind: 'canonical-json' },
  // The verdict without `responseMs` (telemetry, not signed).
  availability: { kind: 'canonical-json', omit: ['responseMs'] },
  validate: { kind: 'canonical-json' },
  map: { kind: 'canonical-json' },
  crawl: { kind: 'page-rows' },
  seo: { kind: 'canonical-json' },
  pdf: { kind: 'canonical-json' },
  dns: { kind: 'canonical-json' },
  tls: { kind: 'canonical-json' },
  // A crawl job's manifest: the canonical JSON of its data (the Merkle root of its pages).
  'crawl-job': { kind: 'canonical-json' },
} satisfies Record<string, ReceiptRule>;

/** A route name with a built-in rule in {@link RECEIPT_RULES}. */
export type ReceiptRoute = keyof typeof BUILT_IN;

/**
 * The receipt rule of each route this package was built with (route name → rule): how
 * its `text` follows from the result's other fields. A verifier uses it when the caller
 * (or the pinned service-attestation document) gives no rule for the route.
 */
export const RECEIPT_RULES: Readonly<Record<ReceiptRoute, ReceiptRule>> = freeze(BUILT_IN);

/** The routes with a built-in rule, in {@link RECEIPT_RULES}' order. */
export const RECEIPT_ROUTES = Object.freeze(Object.keys(RECEIPT_RULES)) as readonly ReceiptRoute[];

/** The rule `rules` holds for `route`, own properties only (`constructor` is a route name). */
export function ruleOf(
  rules: Readonly<Record<string, unknown>> | undefined,
  route: string,
): unknown {
  return rules !== undefined && Object.hasOwn(rules, route) ? rules[route] : undefined;
}

/**
 * Why `value` is not a {@link ReceiptRule} this package applies; null when it is one.
 * Rules arrive as JSON (a service-attestation document), so they are checked, not trusted.
 */
export function ruleProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'it is not an object';
  }
  const rule = value as Record<string, unknown>;
  const kind = rule.kind;
  if (typeof kind !== 'string' || !(RECEIPT_RULE_KINDS as readonly string[]).includes(kind)) {
    return `its kind \`${String(kind)}\` is not one of ${RECEIPT_RULE_KINDS.join(', ')}`;
  }
  if (kind === 'equals') {
    const field = rule.field;
    if (typeof field !== 'string' || !/^[^.]+(\.[^.]+)*$/.test(field)) {
      return 'its `field` is not a dotted path such as `data.markdown`';
    }
  }
  if (kind === 'canonical-json' && rule.omit !== undefined) {
    const omit = rule.omit;
    if (!Array.isArray(omit) || !omit.every((key) => typeof key === 'string' && key !== '')) {
      return 'its `omit` is not a list of key names of `data`';
    }
  }
  return null;
}

function freeze<T extends Record<string, ReceiptRule>>(rules: T): T {
  for (const rule of Object.values(rules)) {
    if ('omit' in rule && rule.omit !== undefined) Object.freeze(rule.omit);
    Object.freeze(rule);
  }
  return Object.freeze(rules);
}
