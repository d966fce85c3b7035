import type { Fetcher } from '@storefront/safe-fetch';
import type {
  CallFacts,
  Gathering,
  ProductInput,
  Reads,
  RouteDefinition,
  Source,
} from '../registry/types.js';
import { type Compute, taskOf } from '../work/compute.js';
import { ComputeLimitError } from '../work/limits.js';
import { failed, pageOf, succeeded, type WorkOutcome } from './outcome.js';

/** A GET whose body is not downloaded. */
const HEAD_ONLY = { body: false } as const;

/** What the work of one call needs: the network and the product threads, both within the call's deadline. */
export interface WorkServices {
  readonly fetcher: Fetcher;
  readonly compute: Compute;
  readonly publicBaseUrl: string;
  readonly clock: () => Date;
  /** The network of `gather` reads, within the call's budget; absent, such a route fails. */
  readonly gathering?: () => Gathering;
}

/**
 * The work of one call of `route`: read what the route reads, run its product (on a
 * product thread when it parses a downloaded body; on the event loop when it only reads
 * a response head or fetch results, where the hand-off would cost more than the
 * product), and shape the answer. Upstream faults and bad content become `ok:false`
 * outcomes, never throws; a product stopped at its deadline or heap bound is answered
 * 503 `page_too_complex` before charging, whatever the route's rule, since the service
 * gave up on the page.
 */
export async function perform<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
  params: P,
  services: WorkServices,
  call: CallFacts,
): Promise<WorkOutcome> {
  const undeliverable = route.chargeRule === 'before-charging';
  const { reads } = route;
  const url = reads.kind === 'fetches' || reads.kind === 'gather' ? null : reads.url(params);
  let source: Source;
  if (url !== null) {
    const headOnly = reads.kind === 'page' && reads.headOnly === true;
    const fetched = await services.fetcher.fetch(url, headOnly ? HEAD_ONLY : undefined);
    const page = pageOf(fetched, url, reads.kind === 'page' && reads.anyStatus === true);
    if (!page.ok) return failed(page, undeliverable);
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
  const onThread = source.kind === 'page' && runsOnThread(route);
  // The route's `reads` named the source kinds its `compute` takes.
  const input = { params, source, baseUrl: services.publicBaseUrl } as ProductInput<P, S>;
  const page = source.kind === 'page' ? source.doc : null;

  let output: O;
  try {
    output = onThread ? await services.compute(taskOf(route), input) : route.compute(input);
  } catch (error) {
    if (!(error instanceof ComputeLimitError) || page === null) throw error;
    const { url, status } = page;
    return failed({ error: 'page_too_complex', message: error.message, url, status }, true);
  }

  const shaped = route.shape(output, input, call);
  if (!shaped.ok) {
    const at = shaped.at ?? { url: page?.url ?? '', status: page?.status ?? null };
    return failed(
      {
        error: shaped.error,
        message: shaped.message ?? shaped.error,
        url: at.url,
        status: at.status,
        ...(shaped.fields === undefined ? {} : { fields: shaped.fields }),
      },
      undeliverable,
    );
  }
  const envelope =
    shaped.envelope ??
    (page === null ? null : { url: page.url, status: page.status, fetchedAt: page.fetchedAt });
  if (envelope === null) throw new Error(`${route.path} shaped an answer without its envelope`);
  return succeeded(shaped.body, { text: shaped.text, ...envelope });
}

/**
 * Whether `route`'s product runs on a product thread: when it parses a downloaded page
 * body. A product that reads only a response head or fetch results runs on the event
 * loop, where handing it over would cost more than the product. Only a product on a
 * thread can be stopped at its deadline or heap bound (`page_too_complex`).
 */
export function runsOnThread(route: { readonly reads: Reads<never> }): boolean {
  const { reads } = route;
  if (reads.kind === 'fetches' || reads.kind === 'gather') return false;
  return reads.kind === 'page-or-content' || reads.headOnly !== true;
}
