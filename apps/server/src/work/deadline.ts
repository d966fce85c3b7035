import type { Fetcher, SafeFetchResult } from '@storefront/safe-fetch';
import type { Probes } from '../probes/index.js';
import type { Gathering } from '../registry/types.js';
import type { Compute } from './compute.js';
import { type CallDeadline, msLeft } from './limits.js';

/**
 * The fetcher and the product threads as one call sees them: every fetch gets what is
 * left of the call's budget (at most the fetcher's own 5 s), and every product task what
 * is left after that, so the fetch deadline and the product deadline are one deadline,
 * counted from the call's arrival, never two added together. `signal` drops a task
 * still waiting for a thread once its caller has gone.
 */
export function withinDeadline(
  services: { readonly fetcher: Fetcher; readonly compute: Compute; readonly probes?: Probes },
  deadline: CallDeadline,
  signal: AbortSignal,
): {
  readonly fetcher: Fetcher;
  readonly compute: Compute;
  readonly gathering?: () => Gathering;
} {
  const { fetcher, compute, probes } = services;
  return {
    // A gatherer's signal aborts at the deadline or when the caller leaves, whichever is first.
    ...(probes === undefined
      ? {}
      : {
          gathering: () => {
            const timeoutMs = Math.max(1, msLeft(deadline));
            const stop = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
            return { signal: stop, timeoutMs, probes };
          },
        }),
    fetcher: {
      fetch(url, init) {
        const left = msLeft(deadline);
        if (left < 1) return Promise.resolve(noTimeLeft(url, deadline));
        return fetcher.fetch(url, {
          ...init,
          timeoutMs: Math.min(left, init?.timeoutMs ?? left),
        });
      },
      close: () => fetcher.close(),
    },
    compute: (task, input) => compute(task, input, signal, deadline),
  };
}

function noTimeLeft(url: string, deadline: CallDeadline): SafeFetchResult {
  return {
    ok: false,
    error: 'timeout',
    message: `No time was left of the call's ${deadline.budgetMs / 1000} s budget to fetch the page`,
    url,
    redirects: [],
  };
}
