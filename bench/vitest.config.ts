import { storefrontProject } from '../vitest.shared';

// Only the benchmark's own helpers are tested here (the scorer, the floor); benchmarks run with
// `pnpm bench`, never as tests.
export default storefrontProject('@storefront/bench', { include: ['test/**/*.test.ts'] });
