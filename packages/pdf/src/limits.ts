/** The most pages one call reads (100); later pages are left out and `truncated` is true. */
export const PDF_MAX_PAGES = 100;

/**
 * The most characters (UTF-16 code units) of page text one result carries (1 Mi); the
 * page where the budget runs out is cut and ends with `…`, later pages are left out.
 */
export const PDF_MAX_TEXT_CHARS = 1024 * 1024;

/** The most outline entries kept (500), in document order, depth first. */
export const PDF_MAX_OUTLINE_ITEMS = 500;

/** The deepest outline nesting kept (8 levels); deeper entries are left out. */
export const PDF_MAX_OUTLINE_DEPTH = 8;

/** The longest metadata value or outline title (1,000 characters), cut with `…`. */
export const PDF_MAX_FIELD_CHARS = 1000;

/** The longest `pages` selection (64 characters). */
export const PDF_MAX_PAGES_PARAM_CHARS = 64;
