import { storefrontBuild } from '../../tsup.shared';

export default storefrontBuild();
