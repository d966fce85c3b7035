/** The most items a result holds (spec: "at most 100"); the first ones in document order are kept. */
export const FEED_MAX_ITEMS = 100;

/** The most Unicode code points a summary holds (spec: "at most 1000 characters"). */
export const FEED_MAX_SUMMARY_CHARS = 1000;

/**
 * The most Unicode code points of a title (`feedTitle` and each item's `title`). A longer
 * title is cut to 499 code points (never inside a surrogate pair, trailing whitespace
 * trimmed) and ends with `…` (U+2026), which marks the cut.
 */
export const FEED_MAX_TITLE_CHARS = 500;

/**
 * The longest `link` returned, in characters (links are ASCII once normalised). A longer
 * URL is not cut — a cut URL points elsewhere — but skipped: the next link candidate
 * is tried, else the link is `''`.
 */
export const FEED_MAX_LINK_CHARS = 2048;

/**
 * The most Unicode code points of `publishedRaw`. Dates longer than 128 characters never
 * parse, so only an unparseable string can be longer; it is cut to 255 code points and
 * ends with `…` (U+2026), which marks the cut.
 */
export const FEED_MAX_DATE_RAW_CHARS = 256;

/**
 * The most body bytes read (5 MiB, security.md §3.1). A longer body is cut here and
 * read like a body the fetcher cut: items up to the last one that closed are kept, and
 * the item the cut fell in when it fell in that item's text (the field marked `…`).
 */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The most elements read (100,000, some 1,000 per item for 100 items). fast-xml-parser
 * spends about a microsecond per element, so a flood of empty elements is cut here and
 * read like a cut body.
 */
export const FEED_MAX_ELEMENTS = 100_000;

/** The deepest element nesting accepted (security.md §3.1 `maxNestedTags`); deeper is a `parse_error`. */
export const FEED_MAX_DEPTH = 64;

/**
 * The most characters of one field's HTML handed to the HTML parser (256 Ki), and of
 * one run of character data or CDATA handed to the XML parser (the rest of the run is
 * left out, the cut marked `…`). A summary keeps 1000 characters, so this only
 * matters for pathological markup and megabyte fields, whose parse cost and heap it
 * bounds.
 */
export const FEED_MAX_HTML_CHARS = 256 * 1024;
