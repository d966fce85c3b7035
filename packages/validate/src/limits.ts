/** The most errors listed in `data.errors` (DESIGN §7); `truncated` says when more were found. */
export const VALIDATE_MAX_ERRORS = 100;

/**
 * The longest `path` of an error (2,048 characters, UTF-16 code units): it echoes member
 * names of the fetched document. A longer one keeps its start and ends with `…`
 * (`capString` of @storefront/core), and `data.truncatedFields` is true.
 */
export const VALIDATE_MAX_PATH_CHARS = 2048;

/** The longest `message` of an error (1,024 characters; messages quote schema values), cut the same way. */
export const VALIDATE_MAX_MESSAGE_CHARS = 1024;

/**
 * The most errors counted before validation stops (`errorCount` never exceeds it). It
 * bounds the memory a document with millions of errors can take.
 */
export const VALIDATE_MAX_COUNTED_ERRORS = 10_000;

/** The longest `schema` parameter, in UTF-16 code units (the spec's param limit). */
export const VALIDATE_MAX_SCHEMA_LENGTH = 16_384;

/** The deepest nesting of arrays and objects in a JSON schema text (security.md §3.4). */
export const VALIDATE_MAX_SCHEMA_DEPTH = 32;

/** The most subschemas (schema objects and booleans) in one schema; bounds compile time. */
export const VALIDATE_MAX_SCHEMA_NODES = 1_024;

/** The most entries of `properties` in one schema, summed over every `properties` (security.md §3.4). */
export const VALIDATE_MAX_PROPERTIES = 256;

/** The most `pattern` keywords in one schema (security.md §3.4). */
export const VALIDATE_MAX_PATTERNS = 64;

/** The longest `pattern`, in UTF-16 code units (security.md §3.4). */
export const VALIDATE_MAX_PATTERN_LENGTH = 512;

/**
 * The largest estimated size of one `pattern` once counted repetitions are expanded
 * (`a{100}` counts 100). RE2 is linear in the subject, but its per-character cost grows
 * with this size, so it is bounded and charged to the work budget.
 */
export const VALIDATE_MAX_PATTERN_SIZE = 1_000;

/** The longest `pointer` parameter, in UTF-16 code units (the spec's param limit). */
export const VALIDATE_MAX_POINTER_LENGTH = 256;

/** The deepest nesting of arrays and objects in a validated document (security.md §3.3). */
export const VALIDATE_MAX_DOCUMENT_DEPTH = 64;

/**
 * The work budget of one validation, in steps of at most about 25 ns each: one per
 * subschema applied to a value, plus its listed names and values; one per character a
 * `format`, `minLength`, `maxLength` or anchored single-chain `pattern` reads (any
 * other `pattern` costs its size per character); 20 per member an object-wide keyword
 * reads. A schema whose validator compiles to more than 64 KiB of code gets an eighth.
 * A validation that would need more stops with `body_too_large`.
 */
export const VALIDATE_MAX_WORK = 40_000_000;

/** How many compiled schemas are kept, least recently used first out. */
export const VALIDATE_CACHE_SIZE = 256;

/**
 * The `format` values that are checked. Any other format is an annotation (draft-07
 * §7.2): accepted and ignored, except `regex`, which is refused.
 */
export const VALIDATE_FORMATS = [
  'date',
  'date-time',
  'email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'json-pointer',
  'relative-json-pointer',
  'time',
  'uri',
  'uri-reference',
  'uri-template',
  'uuid',
] as const;

/** The type names of the compact and shorthand forms (and of JSON Schema's `type`). */
export const VALIDATE_TYPE_NAMES = [
  'array',
  'boolean',
  'integer',
  'null',
  'number',
  'object',
  'string',
] as const;
