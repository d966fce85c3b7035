import { storefrontProject } from '../../vitest.shared';

export default storefrontProject('@storefront/server', {
  // One migrated PGlite database per run, which each test database starts from.
  globalSetup: ['./test/global-setup.ts'],
});
