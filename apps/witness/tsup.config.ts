import { storefrontBuild } from '../../tsup.shared';

// `main` runs a witness on its own (`pnpm --filter @storefront/witness start`).
export default storefrontBuild(['src/index.ts', 'src/main.ts']);
