import type { FetchedDocument, ProductResult } from '@storefront/core';
import {
  computed,
  failedPage,
  failedProduct,
  INTEGER,
  ISO_TIME,
  NULLABLE_STRING,
  pageFrom,
  responseSchema,
  STRING,
  signedAnswer,
} from './shared.js';
import type { ChargeRule, Checked, JsonSchema, PriceTier, RouteEntry } from './types.js';

/** A GET whose body is not downloaded. */
const HEAD_ONLY = { body: false } as const;

/** The shape shared by routes answering `{ok, url, status, text, [contentType], fetchedAt, data}`. */
export interface DocumentRouteSpec<P extends { readonly url: string }, D> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly params: JsonSchema;
  readonly price: PriceTier;
  readonly chargeRule: ChargeRule;
  readonly closedResponse: boolean;
  /** Schema of `data`. */
  readonly data: JsonSchema;
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
  check(query: Readonly<Record<string, string>>): Checked<P>;
  product(doc: FetchedDocument, params: P): ProductResult<D>;
}

/** Build a route whose answer is `{ok, url, status, text, fetchedAt, data}` over one fetched page. */
export function documentRoute<P extends { readonly url: string }, D>(
  spec: DocumentRouteSpec<P, D>,
): RouteEntry<P> {
  const undeliverable = spec.chargeRule === 'before-charging';
  return {
    name: spec.name,
    path: `/buy/${spec.name}`,
    title: spec.title,
    description: spec.description,
    params: spec.params,
    prices: [spec.price],
    chargeRule: spec.chargeRule,
    closedResponse: spec.closedResponse,
    response: responseSchema(
      {
        status: INTEGER,
        text: STRING,
        ...(spec.contentType ? { contentType: NULLABLE_STRING } : {}),
        fetchedAt: ISO_TIME,
        data: spec.data,
      },
      spec.closedResponse,
    ),
    check: spec.check,
    priceFor: () => spec.price,
    ...(spec.headOnly
      ? {}
      : {
          compute: ({ doc, params }: { doc: FetchedDocument; params: P }) =>
            spec.product(doc, params),
        }),
    async run(params, context) {
      const fetched = await context.fetcher.fetch(
        params.url,
        spec.headOnly ? HEAD_ONLY : undefined,
      );
      const page =
        spec.anyStatus && fetched.ok
          ? { ok: true as const, doc: fetched.doc }
          : pageFrom(fetched, params.url);
      if (!page.ok) return failedPage(page, undeliverable);
      const { doc } = page;
      const contentType = spec.contentType ? { contentType: doc.contentType } : {};
      let result: ProductResult<D>;
      if (spec.headOnly) {
        result = spec.product(doc, params);
      } else {
        const run = await computed<ProductResult<D>>(context, spec.name, { doc, params }, doc);
        if (!run.ok) return run.outcome;
        result = run.value;
      }
      if (!result.ok) {
        return failedProduct(doc, result.error, result.message, undeliverable, contentType);
      }
      const body = {
        ok: true,
        url: doc.url,
        status: doc.status,
        text: result.text,
        ...contentType,
        fetchedAt: doc.fetchedAt,
        data: result.data,
      };
      return signedAnswer(body, {
        text: result.text,
        url: doc.url,
        status: doc.status,
        fetchedAt: doc.fetchedAt,
      });
    },
  };
}

/** Params of routes that take only `url`. */
export interface UrlParams {
  readonly url: string;
}
