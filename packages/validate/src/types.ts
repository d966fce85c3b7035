import type { ErrorCode, Sha256Hex } from '@storefront/core';
import type { VALIDATE_FORMATS, VALIDATE_TYPE_NAMES } from './limits.js';

/** Options of {@link validateDocument}: the route's `schema` and `pointer` parameters. */
export interface ValidateOptions {
  /** A compact field list, a JSON-Schema string or a shorthand map (see {@link parseSchema}). */
  readonly schema: string;
  /** An RFC 6901 JSON Pointer selecting the value to validate; empty or absent for the whole body. */
  readonly pointer?: string;
}

/** How a `schema` string was read. */
export type SchemaForm = 'compact' | 'json-schema' | 'shorthand';

/** A JSON type name; `integer` is a number without a fractional part. */
export type JsonTypeName = (typeof VALIDATE_TYPE_NAMES)[number];

/** A `format` a schema may use. */
export type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

/** One validation error. */
export interface ValidationError {
  /** RFC 6901 JSON Pointer into the fetched body (it starts with the `pointer` option). */
  readonly path: string;
  /** The failing keyword, as ajv names it (`type`, `required`, `false schema`, …). */
  readonly keyword: string;
  /** A fixed English sentence; no locale. */
  readonly message: string;
}

/** The `data` of a validate result; `text` is its canonical JSON. */
export interface ValidateData {
  /** True when the selected value satisfies the schema. */
  readonly valid: boolean;
  /** How many errors were found (at most {@link VALIDATE_MAX_COUNTED_ERRORS}). */
  readonly errorCount: number;
  /** The first errors in document order, at most {@link VALIDATE_MAX_ERRORS}. */
  readonly errors: readonly ValidationError[];
  /** True when `errors` lists fewer errors than were found, or counting stopped. */
  readonly truncated: boolean;
  /** `0x` + sha256 of the RFC 8785 form of the validated value. */
  readonly documentHash: Sha256Hex;
  /** `0x` + sha256 of the RFC 8785 form of the normalised schema. */
  readonly schemaHash: Sha256Hex;
  /** How the `schema` string was read. */
  readonly schemaForm: SchemaForm;
  /** The `pointer` option; empty for the whole body. */
  readonly pointer: string;
  /** The JSON type of the validated value. */
  readonly validatedType: JsonTypeName;
  /**
   * Present, and true, only when an error's `path` or `message` was cut at its cap
   * (`VALIDATE_MAX_PATH_CHARS`, `VALIDATE_MAX_MESSAGE_CHARS`): it then ends with `…`.
   */
  readonly truncatedFields?: true;
}

/** The failures {@link validateDocument} can report. */
export type ValidateErrorCode = Extract<
  ErrorCode,
  'body_too_large' | 'not_found' | 'parse_error' | 'unsupported_content_type'
>;

/**
 * A schema after normalisation: one draft-07 schema (plain JSON), an object or a boolean
 * schema (`true` accepts every value, `false` none).
 */
export type NormalizedSchema = boolean | { readonly [keyword: string]: unknown };

/** What {@link parseSchema} returns. */
export type ParsedSchema =
  | {
      readonly ok: true;
      /** The draft-07 schema every form is turned into; what `schemaHash` covers. */
      readonly normalized: NormalizedSchema;
      readonly form: SchemaForm;
      /** `0x` + sha256 of `canonicalize(normalized)`. */
      readonly hash: Sha256Hex;
    }
  | { readonly ok: false; readonly message: string };

/** What {@link parsePointer} returns. */
export type ParsedPointer =
  | {
      readonly ok: true;
      /** The reference tokens, unescaped (`~1` is `/`, `~0` is `~`). */
      readonly tokens: readonly string[];
    }
  | { readonly ok: false; readonly message: string };
