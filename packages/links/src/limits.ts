/**
 * The most unique links a graph holds (10,000). Links are taken in document order; a link
 * whose URL is not yet in a full graph is left out, so `total === MAX_LINKS` means the
 * page may have more.
 */
export const MAX_LINKS = 10_000;

/** The most characters of anchor text kept per link (500); longer text is cut. */
export const MAX_LINK_TEXT_CHARS = 500;

/**
 * The longest absolute URL a link may have (2,048 characters, the service's own `url`
 * limit, so every link can be sent back to it); longer links are left out.
 */
export const MAX_LINK_URL_CHARS = 2048;
