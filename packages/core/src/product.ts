/**
 * What a product package declares besides its function: the JSON Schema of its result's
 * `data`, and how its signed `text` follows from the result's other fields (its receipt
 * field rule). The server's registry publishes both; a verifier applies the rule by the
 * route name a receipt carries.
 */

/** A JSON Schema object (draft 2020-12 keywords), as a product publishes its `data`. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * How a result's `text` is re-derived from its fields, so that a receipt over `text`
 * covers them too. A closed vocabulary, plain data (it is published in the
 * service-attestation document), applied by `@storefront/attest`:
 *
 * - `canonical-json`: `text` is the RFC 8785 JSON of `data`, without the `omit` keys
 *   (telemetry that is not signed, such as availability's `responseMs`);
 * - `equals`: `text` is the string at `field` (a dotted path: `data.markdown`);
 * - `record`: with `extract`, `text` is the RFC 8785 JSON of `{extract, text}` (the
 *   record and the page text); without it, no field restates `text`;
 * - `link-rows`: `text` is the `anchor<TAB>url` rows of `data.links`, and the rest of
 *   `data` follows from them and the result's `url`;
 * - `change-claim`: `text` is the diff claim (claimVersion, url, changed, fromHash,
 *   toHash, fetchedAt rows);
 * - `notarization`: `text` is the notarization statement built from `data`;
 * - `page-rows`: `text` is the `hash<TAB>url` rows of `data.pages`, each hash the
 *   sha256 of the page's RFC 8785 JSON without `hash`;
 * - `none`: no field restates `text`; the receipt covers `text` and the envelope only.
 */
export type ReceiptRule =
  | { readonly kind: 'canonical-json'; readonly omit?: readonly string[] }
  | { readonly kind: 'equals'; readonly field: string }
  | { readonly kind: 'record' }
  | { readonly kind: 'link-rows' }
  | { readonly kind: 'change-claim' }
  | { readonly kind: 'notarization' }
  | { readonly kind: 'page-rows' }
  | { readonly kind: 'none' };

/** The kinds of {@link ReceiptRule}, in the order documented. */
export const RECEIPT_RULE_KINDS = [
  'canonical-json',
  'equals',
  'record',
  'link-rows',
  'change-claim',
  'notarization',
  'page-rows',
  'none',
] as const satisfies readonly ReceiptRule['kind'][];
