import { URL_MAX_CHARS } from '@storefront/core';

/**
 * Bytes of robots.txt that are parsed: 500 KiB, the minimum RFC 9309 §2.5 allows.
 * Bytes beyond it are ignored, and so is the line the limit cuts through.
 */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/** Allow and Disallow rules kept per file (security.md §3.5); later rules are ignored. */
export const ROBOTS_MAX_RULES = 2000;

/** Characters of one rule's pattern (security.md §3.5); longer rules are ignored. */
export const ROBOTS_MAX_RULE_LENGTH = 2048;

/** Redirects a robots.txt fetch may take before the file counts as unavailable (RFC 9309 §2.3.1.2). */
export const ROBOTS_MAX_REDIRECTS = 5;

/** `Sitemap:` URLs kept per file; later ones are counted but not listed. */
export const ROBOTS_MAX_SITEMAPS = 100;

/** Parse warnings kept per file; later ones are counted but not listed. */
export const ROBOTS_MAX_WARNINGS = 50;

/** Bytes of llms.txt that are parsed; bytes beyond it are ignored. */
export const LLMS_TXT_MAX_BYTES = 500 * 1024;

/** Links kept per llms.txt file; later ones are counted but not listed. */
export const LLMS_TXT_MAX_LINKS = 5000;

/** Bytes of ai.txt that are parsed, as for robots.txt. */
export const AI_TXT_MAX_BYTES = 500 * 1024;

/**
 * Characters of the `domain` parameter, counted after surrounding whitespace is trimmed:
 * the spec's limit on a URL or domain (core's `URL_MAX_CHARS`).
 */
export const AUDIT_DOMAIN_MAX_LENGTH = URL_MAX_CHARS;

/** Characters of the `path` parameter (spec, Limits). */
export const AUDIT_PATH_MAX_LENGTH = 1024;

/**
 * Characters of the evaluated path once percent-encoded (security.md §3.5): a 1024-character
 * `path` of non-ASCII text can grow up to nine times when normalised.
 */
export const ROBOTS_MAX_PATH_LENGTH = 2048;

/**
 * The longest string the audit echoes from the files or the fetch (2,048 characters, UTF-16
 * code units): llms.txt title, summary and section titles, agent names, sitemap URLs, file
 * types, final URLs and the rule a verdict cites. A longer one keeps its start and ends
 * with `…` (`capString` of @storefront/core), and `data.truncatedFields` is true.
 */
export const ROBOTS_MAX_FIELD_CHARS = 2048;

/** `Content-Type` values echoed in a policy's `fetch` (256 characters), cut the same way. */
export const ROBOTS_MAX_CONTENT_TYPE_CHARS = 256;

/** File types listed per ai.txt policy (200 each for blocked and allowed); more are left out. */
export const AI_TXT_MAX_LISTED_FILE_TYPES = 200;

/** The rubric the audit follows; it changes whenever a verdict could change for the same input. */
export const ROBOTS_AUDIT_VERSION = 'robots-audit/1';
