import { defaultServerConditions } from 'vite';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/**
 * Per-package Vitest project: tests read each workspace package's TypeScript source
 * through the `@storefront/source` export condition, so no build is needed first.
 */
export function storefrontProject(name: string, test: UserWorkspaceConfig['test'] = {}) {
  const conditions = ['@storefront/source', ...defaultServerConditions];
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, environment: 'node', testTimeout: 20_000, ...test },
  });
}
