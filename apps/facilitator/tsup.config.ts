import { storefrontBuild } from '../../tsup.shared';

// `main` runs the stack on its own (`pnpm --filter @storefront/facilitator start`).
export default storefrontBuild(['src/index.ts', 'src/main.ts']);
