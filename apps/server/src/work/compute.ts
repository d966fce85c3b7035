import { REGISTRY } from '../registry/index.js';
import type { Compute } from '../registry/types.js';
import { budgetSpent, type CallDeadline, ComputeCancelledError, msLeft } from './limits.js';

/** Every route's `compute`, by route name. */
export const COMPUTE: ReadonlyMap<string, (input: never) => unknown> = new Map(
  REGISTRY.flatMap((route) =>
    route.compute === undefined ? [] : [[route.name, route.compute] as const],
  ),
);

/** Run route `route`'s `compute` on `input` on this thread: what a product thread does. */
export function runCompute(route: string, input: unknown): unknown {
  const compute = COMPUTE.get(route);
  if (compute === undefined) throw new Error(`No compute for route \`${route}\``);
  return compute(input as never);
}

/**
 * {@link Compute} on the event loop: for `PRODUCT_THREADS=0` and for in-process tests.
 * A task whose call has no time left is not started; one that has started cannot be
 * stopped, so without threads the call's budget is not a bound on the product.
 */
export const inlineCompute: Compute = async <O>(
  route: string,
  input: unknown,
  signal?: AbortSignal,
  deadline?: CallDeadline,
): Promise<O> => {
  if (signal?.aborted) throw new ComputeCancelledError();
  if (deadline !== undefined && msLeft(deadline) < 1) throw budgetSpent(deadline);
  return runCompute(route, input) as O;
};
