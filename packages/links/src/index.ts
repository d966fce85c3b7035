export { extractLinks } from './extract-links.js';
export {
  MAX_LINK_TEXT_CHARS,
  MAX_LINK_URL_CHARS,
  MAX_LINKS,
  MAX_LINKS_TOTAL_CHARS,
} from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export type { Link, LinksData, LinksErrorCode, LinksOptions, OriginCount } from './types.js';
