export { extractLinks } from './extract-links.js';
export { MAX_LINK_TEXT_CHARS, MAX_LINK_URL_CHARS, MAX_LINKS } from './limits.js';
export type { Link, LinksData, LinksErrorCode, LinksOptions, OriginCount } from './types.js';
