import { storefrontBuild } from '../../tsup.shared';

// `main` runs the stack on its own (`pnpm --filter @storefront/facilitator start`);
// `child` runs it as the child process the service forks in development;
// `accounts` is the development keys alone, for clients that must not load the chain.
export default storefrontBuild(['src/index.ts', 'src/main.ts', 'src/child.ts', 'src/accounts.ts']);
