import type { FetchedDocument } from '@storefront/core';
import { PAGE_LINKS_TASK, pageLinks } from '../jobs/links.js';
import { REGISTRY } from '../registry/index.js';
import { judge } from '../registry/page-verdict.js';
import type {
  AnyRoute,
  ProductInput,
  RouteDefinition,
  Source,
  WalkPlan,
  WalkStepInput,
} from '../registry/types.js';
import { budgetSpent, type CallDeadline, ComputeCancelledError, msLeft } from './limits.js';

/**
 * A product a thread can run: a pure function of structured-clonable input, and the
 * name under which a product thread finds the same function (functions cannot cross
 * to a thread; the name does, and the table below is built from the same registry).
 */
export interface ProductTask<I, O> {
  readonly name: string;
  /** The product; a promise is awaited (on a thread, before its result is posted back). */
  readonly run: (input: I) => O | Promise<O>;
}

/**
 * Run `task` on `input`: on a product thread with a deadline and a heap bound, or
 * inline. Rejects with `ComputeLimitError` when the task hit a bound or its call's
 * `deadline` passed (waiting for a thread included), and with `ComputeCancelledError`
 * when `signal` aborted while the task still waited for a thread.
 */
export type Compute = <I, O>(
  task: ProductTask<I, O>,
  input: I,
  signal?: AbortSignal,
  deadline?: CallDeadline,
) => Promise<O>;

/** The product task of `route`. */
export function taskOf<P, S extends Source, O>(
  route: RouteDefinition<P, S, O>,
): ProductTask<ProductInput<P, S>, O> {
  return { name: route.name, run: productOf(route) as (input: ProductInput<P, S>) => O };
}

/**
 * What runs as `route`'s product, on a thread or inline: its `compute`, behind the page
 * verdict on a judged route (which then answers a `Judged` output).
 */
export function productOf(route: AnyRoute): (input: never) => unknown {
  if (route.pageVerdict !== undefined) {
    return (input: never) => judge(route, input as ProductInput<unknown, Source>);
  }
  return (input: never) => route.compute(input);
}

/** The task of a walking route's `step` (see `Reads`), named `<route>:step`. */
export function stepTaskOf(route: AnyRoute): ProductTask<WalkStepInput, WalkPlan> {
  const { reads } = route;
  if (reads.kind !== 'walk') throw new Error(`${route.path} does not walk`);
  return { name: `${route.name}:step`, run: (input) => reads.step(input) };
}

/**
 * Every route's product (and a walking route's step), by task name, and the crawl
 * jobs' link listing: what a product thread can run.
 */
export const PRODUCT_TASKS: ReadonlyMap<string, (input: never) => unknown> = new Map([
  ...REGISTRY.flatMap((route: AnyRoute) => {
    const tasks: [string, (input: never) => unknown][] = [[route.name, productOf(route)]];
    if (route.reads.kind === 'walk') {
      const step = stepTaskOf(route);
      tasks.push([step.name, (input: never) => step.run(input)]);
    }
    return tasks;
  }),
  [PAGE_LINKS_TASK, (input: never) => pageLinks(input)],
]);

/** The crawl jobs' link listing as a product task. */
export const pageLinksTask: ProductTask<FetchedDocument, string[]> = {
  name: PAGE_LINKS_TASK,
  run: pageLinks,
};

/**
 * Run the product named `name` on `input` on this thread: what a product thread does.
 * An asynchronous product answers with a promise, which the thread awaits.
 */
export function runTask(name: string, input: unknown): unknown {
  const run = PRODUCT_TASKS.get(name);
  if (run === undefined) throw new Error(`No product task \`${name}\``);
  return run(input as never);
}

/** The tasks of routes with a `warm` step: once one has run, new product threads warm up. */
export const WARMED_TASKS: ReadonlySet<string> = new Set(
  REGISTRY.filter((route: AnyRoute) => route.warm !== undefined).map((route) => route.name),
);

/**
 * Run every route's `warm` (see {@link RouteDefinition.warm}): what a product thread
 * starts once it has said it is ready, when the pool asks (a route with a warm-up has
 * been called). A warm-up that fails is left for the first call to meet again, as an
 * ordinary product error.
 */
export async function warmProducts(): Promise<void> {
  await Promise.allSettled(REGISTRY.map((route: AnyRoute) => route.warm?.()));
}

/**
 * {@link Compute} on the event loop: for `PRODUCT_THREADS=0` and for in-process tests.
 * A task whose call has no time left is not started; one that has started cannot be
 * stopped, so without threads the call's budget is not a bound on the product.
 */
export const inlineCompute: Compute = async (task, input, signal, deadline) => {
  if (signal?.aborted) throw new ComputeCancelledError();
  if (deadline !== undefined && msLeft(deadline) < 1) throw budgetSpent(deadline);
  return task.run(input);
};
