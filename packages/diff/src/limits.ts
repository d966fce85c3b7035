/** The change-claim scheme; a new claim format gets a new number. */
export const DIFF_CLAIM_VERSION = 'storefront-diff/1';

/** The most characters (UTF-16 code units) `prevText` may have. */
export const DIFF_MAX_PREV_TEXT_CHARS = 262_144;

/** The length of a `prevHash`: `0x` + 64 hex digits. */
export const DIFF_MAX_PREV_HASH_CHARS = 66;

/** The most strings in `diff.hunks`, headers and markers included (DESIGN §7). */
export const DIFF_MAX_HUNK_LINES = 400;

/**
 * The longest string in `diff.hunks` (4,096 characters, UTF-16 code units, the `+`, `-` or
 * space prefix included): a longer line keeps its start and ends with `…` (`capString` of
 * @storefront/core), and `diff.truncated` is true, since the hunks no longer apply as a patch.
 */
export const DIFF_MAX_HUNK_LINE_CHARS = 4096;

/** Unchanged lines shown around each change by default. */
export const DIFF_CONTEXT_LINES = 3;

/**
 * The largest edit distance (lines added plus removed) the exact diff searches for.
 * Beyond it the diff falls back to the coarse form (see the README).
 */
export const DIFF_MAX_EDIT_DISTANCE = 2000;

/** The most steps (line comparisons plus diagonals visited) the exact diff may take. */
export const DIFF_MAX_WORK = 10_000_000;
