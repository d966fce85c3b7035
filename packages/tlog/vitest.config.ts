import { storefrontProject } from '../../vitest.shared';

export default storefrontProject('@storefront/tlog');
