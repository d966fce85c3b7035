import { storefrontBuild } from '../../tsup.shared';

export default storefrontBuild(['src/index.ts', 'src/bin.ts']);
