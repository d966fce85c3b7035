/**
 * The longest header value a check echoes in `value`, and the longest `serverBanner`
 * (8,192 characters, UTF-16 code units); a longer one keeps its start and ends with `…`
 * (`capString` of @storefront/core), and `data.truncatedFields` is true.
 */
export const HEADERS_MAX_VALUE_CHARS = 8192;

/**
 * The longest `note` or `remediate` text (2,048 characters), cut the same way. Notes quote
 * parts of header values (cookie names, CSP sources, policy tokens).
 */
export const HEADERS_MAX_NOTE_CHARS = 2048;
