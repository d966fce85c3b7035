import type { FetchedDocument } from '@storefront/core';
import {
  loadHtml,
  PAGE_KINDS,
  type PageVerdict,
  pageVerdict,
  responseVerdict,
} from '@storefront/html';
import { INTEGER, record, STRING, STRINGS } from './shared.js';
import type { AnyRoute, JsonSchema, ProductInput, RouteDefinition, Source } from './types.js';

/** The `page` field of an answer made from a page: what the page was, and why. */
export const PAGE_VERDICT_SCHEMA: JsonSchema = {
  ...record({
    verdict: { type: 'string', enum: [...PAGE_KINDS] },
    rubric: STRING,
    words: INTEGER,
    signals: STRINGS,
  }),
  description:
    "The verdict on the page read: `content`, or what was served in its place (challenge, blocked, login, paywall, shell, error, parked), the rules that decided it (`rubric`), the visible words they counted and the signals that fired. Signed with the result (the receipt message's `page:` line).",
};

/** What a judged route's product answers: the verdict, and the product's output when the page is content. */
export interface Judged<O> {
  /** Null when the page is not a document the verdict reads (not HTML nor text). */
  readonly verdict: PageVerdict | null;
  /** The product's output; absent when the page is not content (the product did not run). */
  readonly output?: O;
}

/**
 * A route whose value is the page's content (fetch, extract, markdown, …): its product
 * runs only on a page judged `content` (`pageVerdict` of `@storefront/html`), and the
 * verdict goes into the answer (`page`) and its receipt. The pipeline applies the gate
 * (`perform`): another verdict is answered `not_content`, by the route's charge rule for
 * an `ok:false` result.
 */
export function judgedRoute<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
): RouteDefinition<P, S, O> {
  return withVerdict(route, 'gate');
}

/**
 * A route whose answer stands whatever the page is (the headers audit, the availability
 * probe): it reports the verdict on the page it read in `page`, signed with the answer.
 * A headers audit reads no body, so its verdict is the response's alone
 * (`responseVerdict`), and absent when the response decides nothing.
 */
export function reportingRoute<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
): RouteDefinition<P, S, O> {
  return withVerdict(route, 'report');
}

function withVerdict<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
  pageVerdict: 'gate' | 'report',
): RouteDefinition<P, S, O> {
  const response = route.response as { properties?: Record<string, JsonSchema> };
  return {
    ...route,
    pageVerdict,
    response: {
      ...route.response,
      properties: { ...response.properties, page: PAGE_VERDICT_SCHEMA },
    },
  };
}

/**
 * Run a judged route's product as a product thread does: the verdict first (the page
 * is parsed once, and the product reuses the parse), then the product on content only.
 * A source that is not a page (notarize's inline content) gets no verdict.
 */
export function judge<O>(
  route: AnyRoute,
  input: ProductInput<unknown, Source>,
): Judged<O> | Promise<Judged<O>> {
  const verdict = verdictOfSource(route, input.source);
  if (route.pageVerdict === 'gate' && verdict !== null && verdict.verdict !== 'content') {
    return { verdict };
  }
  const output = route.compute(input) as O | Promise<O>;
  return output instanceof Promise
    ? output.then((value) => ({ verdict, output: value }))
    : { verdict, output };
}

/**
 * The verdict on what a route read: its page (the response alone when only its head was
 * read), or the page a probe fetched; null when there is no page (a failed fetch, inline
 * content) or it is not HTML or text.
 */
function verdictOfSource(route: AnyRoute, source: Source): PageVerdict | null {
  if (source.kind === 'page') {
    const { reads } = route;
    if (reads.kind === 'page' && reads.headOnly === true) return responseVerdict(source.doc);
    return verdictOf(source.doc);
  }
  if (source.kind === 'fetches') {
    const [first] = source.results;
    return first?.ok === true ? verdictOf(first.doc) : null;
  }
  return null;
}

/** The verdict on a fetched document; null when it is not HTML or text. */
function verdictOf(doc: FetchedDocument): PageVerdict | null {
  const loaded = loadHtml(doc);
  return loaded.ok ? pageVerdict(loaded.page, doc) : null;
}

/** The message of a `not_content` answer. */
export function notContentMessage(verdict: PageVerdict): string {
  const article = /^[aeiou]/.test(verdict.verdict) ? 'an' : 'a';
  return `The page is ${article} ${verdict.verdict} page, not the content (${verdict.signals.join(', ')})`;
}
