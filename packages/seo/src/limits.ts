/**
 * The longest `value` a check echoes (2,048 characters, UTF-16 code units); a longer one
 * keeps its start and ends with `…` (`capString` of @storefront/core), and
 * `data.truncatedFields` is true.
 */
export const SEO_MAX_VALUE_CHARS = 2048;

/** The longest `note` or `remediate` text (2,048 characters), cut the same way. */
export const SEO_MAX_NOTE_CHARS = 2048;

/** How many items (URLs, hreflang pairs, heading skips) a value or note lists before "and N more". */
export const SEO_MAX_LISTED = 10;
