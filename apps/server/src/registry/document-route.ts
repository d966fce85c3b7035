import type { FetchedDocument, ProductResult, ReceiptRule } from '@storefront/core';
import { INTEGER, ISO_TIME, NULLABLE_STRING, responseSchema, STRING } from './shared.js';
import { SLICE_SCHEMA } from './slice.js';
import type {
  ChargeRule,
  Checked,
  JsonSchema,
  PageSource,
  PriceTier,
  RouteDefinition,
  RouteExample,
} from './types.js';

/** The shape shared by routes answering `{ok, url, status, text, [contentType], fetchedAt, data}`. */
export interface DocumentRouteSpec<P extends { readonly url: string }, D> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly params: JsonSchema;
  readonly price: PriceTier;
  readonly example: RouteExample;
  readonly chargeRule: ChargeRule;
  readonly closedResponse: boolean;
  /** Schema of `data` (the product package's `resultSchema`). */
  readonly data: JsonSchema;
  /** The product package's `receiptRule`. */
  readonly receiptRule: ReceiptRule;
  /** Whether the answer carries a top-level `contentType` (links, feed). */
  readonly contentType?: boolean;
  /** Run the product on any HTTP answer, not only 2xx (headers audits error pages too). */
  readonly anyStatus?: boolean;
  /**
   * The product reads only the response head, not the body: the body is not downloaded
   * (a large or slow page costs no more than its head), and the product runs on the
   * event loop, since handing it to a product thread would cost more than the product
   * (headers).
   */
  readonly headOnly?: boolean;
  /** When the route answers 404 `not_found` (see {@link RouteDefinition.notFound}). */
  readonly notFound?: string;
  /**
   * The answer's text can be cut to a part (see {@link RouteDefinition.slices}); its
   * params schema then holds `SLICE_PARAMS`.
   */
  readonly slices?: RouteDefinition<P, PageSource, ProductResult<D>>['slices'];
  check(query: Readonly<Record<string, string>>): Checked<P>;
  product(doc: FetchedDocument, params: P): ProductResult<D>;
}

/** Build a route whose answer is `{ok, url, status, text, fetchedAt, data}` over one fetched page. */
export function documentRoute<P extends { readonly url: string }, D>(
  spec: DocumentRouteSpec<P, D>,
): RouteDefinition<P, PageSource, ProductResult<D>> {
  const contentTypeOf = (doc: FetchedDocument) =>
    spec.contentType ? { contentType: doc.contentType } : {};
  return {
    name: spec.name,
    path: `/buy/${spec.name}`,
    title: spec.title,
    description: spec.description,
    params: spec.params,
    prices: [spec.price],
    receiptRule: spec.receiptRule,
    example: spec.example,
    chargeRule: spec.chargeRule,
    closedResponse: spec.closedResponse,
    ...(spec.notFound === undefined ? {} : { notFound: spec.notFound }),
    response: responseSchema(
      {
        status: INTEGER,
        text: STRING,
        ...(spec.contentType ? { contentType: NULLABLE_STRING } : {}),
        fetchedAt: ISO_TIME,
        data: spec.data,
        ...(spec.slices === undefined ? {} : { slice: SLICE_SCHEMA }),
      },
      spec.closedResponse,
    ),
    ...(spec.slices === undefined ? {} : { slices: spec.slices }),
    check: spec.check,
    priceFor: () => spec.price,
    reads: {
      kind: 'page',
      url: (params) => params.url,
      ...(spec.anyStatus ? { anyStatus: true } : {}),
      ...(spec.headOnly ? { headOnly: true } : {}),
    },
    compute: ({ source, params }) => spec.product(source.doc, params),
    shape(result, { source: { doc } }) {
      if (!result.ok) {
        return {
          ok: false,
          error: result.error,
          message: result.message,
          fields: contentTypeOf(doc),
        };
      }
      return {
        ok: true,
        text: result.text,
        body: {
          ok: true,
          url: doc.url,
          status: doc.status,
          text: result.text,
          ...contentTypeOf(doc),
          fetchedAt: doc.fetchedAt,
          data: result.data,
        },
      };
    },
  };
}

/** Params of routes that take only `url`. */
export interface UrlParams {
  readonly url: string;
}
