import { defaultServerConditions } from 'vite';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/**
 * Per-package Vitest project: tests read each workspace package's TypeScript source
 * through the `@storefront/source` export condition, so no build is needed first.
 *
 * Timeouts are sized for a busy two-core machine (a load of 16 runs everything about
 * eight times slower than on an idle one): a hook that starts an app on a database,
 * product threads or a server process takes about a second of CPU, which can be ten
 * seconds of wall time there, so hooks get a minute; tests get 30 s. Neither bound is
 * an assertion: tests that check a deadline or that something does not happen wait
 * for events, and tests of speed compare two sizes' times, not a time with a number.
 */
export function storefrontProject(name: string, test: UserWorkspaceConfig['test'] = {}) {
  const conditions = ['@storefront/source', ...defaultServerConditions];
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, environment: 'node', testTimeout: 30_000, hookTimeout: 60_000, ...test },
  });
}
