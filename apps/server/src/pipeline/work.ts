import type { PageVerdict } from '@storefront/html';
import type { Fetcher, FetchInit } from '@storefront/safe-fetch';
import { type Judged, notContentMessage } from '../registry/page-verdict.js';
import { cut, type SliceField } from '../registry/slice.js';
import type {
  AnyRoute,
  CallFacts,
  Envelope,
  Gathering,
  ProductInput,
  Reads,
  RouteDefinition,
  Source,
  WalkSource,
} from '../registry/types.js';
import { type Compute, productOf, stepTaskOf, taskOf } from '../work/compute.js';
import { type CallDeadline, ComputeLimitError, msLeft } from '../work/limits.js';
import { failed, pageOf, succeeded, type WorkOutcome } from './outcome.js';

/** A GET whose body is not downloaded. */
const HEAD_ONLY = { body: false } as const;

/** The fetch options of a route's page read: head only, or asking for given media types. */
function fetchInit(reads: Reads<never>): FetchInit | undefined {
  if (reads.kind !== 'page') return undefined;
  if (reads.headOnly === true) return HEAD_ONLY;
  if (reads.accept !== undefined) return { headers: { accept: reads.accept } };
  return undefined;
}

/** What the work of one call needs: the network and the product threads, both within the call's deadline. */
export interface WorkServices {
  readonly fetcher: Fetcher;
  readonly compute: Compute;
  readonly publicBaseUrl: string;
  readonly clock: () => Date;
  /** The call's deadline, which a walk stops short of to leave its product time; none in some tests. */
  readonly deadline?: CallDeadline;
  /** The network of `gather` reads, within the call's budget; absent, such a route fails. */
  readonly gathering?: () => Gathering;
}

/**
 * The work of one call of `route`: read what the route reads, run its product (on a
 * product thread when it parses a downloaded body; on the event loop when it only reads
 * a response head or fetch results, where the hand-off would cost more than the
 * product), and shape the answer. Upstream faults and bad content become `ok:false`
 * outcomes, never throws; a product stopped at its deadline or heap bound is
 * undeliverable (503 `page_too_complex`), since the service gave up on the page. What
 * an outcome costs, and whether an `ok:false` one is delivered, is `chargeFor`'s
 * decision, not this one's: the work never reads the charge rule.
 */
export async function perform<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
  params: P,
  services: WorkServices,
  call: CallFacts,
): Promise<WorkOutcome> {
  const { reads } = route;
  const url =
    reads.kind === 'fetches' || reads.kind === 'walk' || reads.kind === 'gather'
      ? null
      : reads.url(params);
  let source: Source;
  if (reads.kind === 'walk') {
    try {
      source = await walk(route, params, services);
    } catch (error) {
      if (!(error instanceof ComputeLimitError)) throw error;
      const at = reads.url(params);
      return failed(
        { error: 'page_too_complex', message: error.message, url: at, status: null },
        true,
      );
    }
  } else if (url !== null) {
    const fetched = await services.fetcher.fetch(url, fetchInit(reads));
    const page = pageOf(fetched, url, reads.kind === 'page' && reads.anyStatus === true);
    if (!page.ok) return failed(page);
    source = { kind: 'page', doc: page.doc };
  } else if (reads.kind === 'fetches') {
    const at = services.clock().toISOString();
    const results = await Promise.all(reads.urls(params).map((u) => services.fetcher.fetch(u)));
    source = { kind: 'fetches', results, at };
  } else if (reads.kind === 'gather') {
    if (services.gathering === undefined) throw new Error(`${route.path} gathers without probes`);
    const at = services.clock().toISOString();
    source = { kind: 'gathered', facts: await reads.gather(params, services.gathering()), at };
  } else {
    source = { kind: 'none', at: services.clock().toISOString() };
  }
  const onThread =
    (source.kind === 'page' || source.kind === 'walk' || source.kind === 'fetches') &&
    runsOnThread(route);
  // The route's `reads` named the source kinds its `compute` takes.
  const input = { params, source, baseUrl: services.publicBaseUrl } as ProductInput<P, S>;
  const page = source.kind === 'page' ? source.doc : null;

  let raw: unknown;
  try {
    raw = onThread
      ? await services.compute(taskOf(route), input)
      : await productOf(route)(input as never);
  } catch (error) {
    if (!(error instanceof ComputeLimitError)) throw error;
    const at = page ?? (reads.kind === 'walk' ? { url: reads.url(params), status: null } : null);
    if (at === null) throw error;
    return failed(
      { error: 'page_too_complex', message: error.message, url: at.url, status: at.status },
      true,
    );
  }

  // A judged route's page that is not the content is answered so, with the verdict; its
  // product did not run. A reporting route's answer stands, with the verdict beside it.
  let output = raw as O;
  let verdict: PageVerdict | null = null;
  if (route.pageVerdict !== undefined) {
    const judged = raw as Judged<O>;
    verdict = judged.verdict;
    if (
      route.pageVerdict === 'gate' &&
      verdict !== null &&
      verdict.verdict !== 'content' &&
      page !== null
    ) {
      return failed({
        error: 'not_content',
        message: notContentMessage(verdict),
        url: page.url,
        status: page.status,
        fields: { page: verdict },
      });
    }
    output = judged.output as O;
  }

  const shaped = route.shape(output, input, call);
  if (!shaped.ok) {
    const at = shaped.at ?? { url: page?.url ?? '', status: page?.status ?? null };
    return failed({
      error: shaped.error,
      message: shaped.message ?? shaped.error,
      url: at.url,
      status: at.status,
      ...(shaped.fields === undefined ? {} : { fields: shaped.fields }),
    });
  }
  const envelope =
    shaped.envelope ??
    (page === null ? null : { url: page.url, status: page.status, fetchedAt: page.fetchedAt });
  if (envelope === null) throw new Error(`${route.path} shaped an answer without its envelope`);
  let { body, text } = shaped;
  const request = route.slices?.of(params) ?? null;
  let shown: SliceField | null = null;
  let place: Envelope['slice'] | null = null;
  if (request !== null && route.slices !== undefined) {
    // The part takes the whole text's place in every field that holds it.
    const part = cut(text, request);
    text = part.text;
    body = { ...body, text };
    for (const path of route.slices.copies) body = replaced(body, path, text);
    shown = part.slice;
    const { next: _next, ...signed } = part.slice;
    place = signed;
  }
  return succeeded(
    {
      ...body,
      ...(verdict === null ? {} : { page: verdict }),
      ...(shown === null ? {} : { slice: shown }),
    },
    {
      text,
      ...envelope,
      ...(verdict === null ? {} : { page: verdict }),
      ...(place === null ? {} : { slice: place }),
    },
  );
}

/** `body` with the string at `path` (inside nested objects) replaced by `value`. */
function replaced(
  body: Record<string, unknown>,
  path: readonly string[],
  value: string,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(body, head)) return body;
  const inner = body[head];
  if (rest.length === 0) return { ...body, [head]: value };
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return body;
  return { ...body, [head]: replaced(inner as Record<string, unknown>, rest, value) };
}

/**
 * Whether `route`'s product runs on a product thread: when it parses a downloaded page
 * body. A product that reads only a response head or fetch results runs on the event
 * loop, where handing it over would cost more than the product. Only a product on a
 * thread can be stopped at its deadline or heap bound (`page_too_complex`).
 */
export function runsOnThread(route: {
  readonly reads: Reads<never>;
  readonly pageVerdict?: 'gate' | 'report';
}): boolean {
  const { reads } = route;
  // A probe that reports the verdict on the page it fetched parses that page.
  if (reads.kind === 'fetches') return route.pageVerdict !== undefined;
  if (reads.kind === 'gather') return false;
  if (reads.kind === 'walk') return true;
  return reads.kind === 'page-or-content' || reads.headOnly !== true;
}

/**
 * The part of a call's budget a walk leaves for its product: a fifth of the budget, at
 * most one second. A walk starts no round once less than this is left, and each of its
 * fetches must end before it, so a slow site costs the walk its later rounds, never the
 * answer.
 */
export function walkReserveMs(deadline: CallDeadline): number {
  return Math.min(1000, Math.floor(deadline.budgetMs / 5));
}

/**
 * Run a walking route's rounds (see `Reads`): each round's URLs fetched at once, the
 * outcomes handed in order to the route's `step` on a product thread, until the plan
 * is empty, the next round would pass `maxFetches`, or the deadline's reserve is near.
 */
async function walk<P>(route: AnyRoute, params: P, services: WorkServices): Promise<WalkSource> {
  const { reads } = route;
  if (reads.kind !== 'walk') throw new Error(`${route.path} does not walk`);
  const at = services.clock().toISOString();
  const cap = reads.maxFetches(params);
  const step = stepTaskOf(route);
  const { deadline } = services;
  let plan = reads.start(params);
  let fetches = 0;
  while (plan.fetch.length > 0) {
    if (fetches + plan.fetch.length > cap) {
      return { kind: 'walk', state: plan.state, stop: 'fetch-cap', fetches, at };
    }
    const left = deadline === undefined ? null : msLeft(deadline) - walkReserveMs(deadline);
    if (left !== null && left < 1) {
      return { kind: 'walk', state: plan.state, stop: 'deadline', fetches, at };
    }
    const init = left === null ? undefined : { timeoutMs: left };
    const results = await Promise.all(plan.fetch.map((u) => services.fetcher.fetch(u, init)));
    fetches += plan.fetch.length;
    plan = await services.compute(step, { state: plan.state, results });
  }
  return { kind: 'walk', state: plan.state, stop: 'done', fetches, at };
}
