import { URL_MAX_CHARS } from '@storefront/core';

/** The most characters (UTF-16 code units, as JavaScript counts) `content` may have. */
export const NOTARIZE_MAX_CONTENT_CHARS = 262_144;

/** The most UTF-8 bytes `content` may take (256 KiB). */
export const NOTARIZE_MAX_CONTENT_BYTES = 262_144;

/** The most characters a `url` parameter may have: the spec's URL limit, core's `URL_MAX_CHARS`. */
export const NOTARIZE_MAX_URL_CHARS = URL_MAX_CHARS;

/** The statement scheme; a new scheme gets a new number. */
export const NOTARIZE_STATEMENT_VERSION = 'storefront-notarize/1';

/** The source of inline content, as the spec names it. */
export const INLINE_SOURCE = 'inline:content';

/** Where the service publishes its pinned signer key (RFC 8615 well-known path). */
export const WELL_KNOWN_PATH = '/.well-known/service-attestation';
