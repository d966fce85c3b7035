import type { ErrorCode } from '@storefront/core';

/** The four types a field can be declared with. */
export type ExtractFieldType = 'string' | 'number' | 'integer' | 'boolean';

/** One requested field: its name and declared type. */
export interface ExtractField {
  readonly name: string;
  readonly type: ExtractFieldType;
}

/** A value of the typed record: the declared type, or null when no rule found a valid value. */
export type ExtractValue = string | number | boolean | null;

/** What the `text` field of the result holds. */
export type ExtractFormat = 'text' | 'markdown';

/** Options of {@link extract}, one per `/buy/extract` parameter besides `url`. */
export interface ExtractOptions {
  /** The raw `schema` parameter: a compact `field[:type]` list or a JSON-Schema string (max 1024 chars). */
  readonly schema: string;
  /** `text` (default): the page's readable text. `markdown`: markdown from `@storefront/markdown`. */
  readonly format?: ExtractFormat;
}

/** The result of {@link parseExtractSchema}. */
export type ParsedExtractSchema =
  | { readonly ok: true; readonly fields: readonly ExtractField[] }
  | { readonly ok: false; readonly message: string };

/** The typed record and which fields were cast, as {@link resolveFields} returns them. */
export interface ResolvedFields {
  /** Every requested field, keys in canonical (UTF-16 code unit) order; absent fields are null. */
  readonly record: Readonly<Record<string, ExtractValue>>;
  /** Fields whose value was cast from another type, in schema order. */
  readonly coerced: readonly string[];
}

/** The `data` of a `/buy/extract` result. */
export interface ExtractData {
  /** Each requested field coerced to its declared type, keys in canonical order; absent fields are null. */
  readonly extract: Readonly<Record<string, ExtractValue>>;
  /** Field name to the type that was applied, keys in canonical order. */
  readonly schema: Readonly<Record<string, ExtractFieldType>>;
  /** Fields whose value was cast from another type, in schema order (empty when none). */
  readonly coerced: readonly string[];
  /** The page's `<title>`, whitespace collapsed, or null. */
  readonly title: string | null;
  /** The page text: readable text, or markdown when `format` is `markdown`. */
  readonly text: string;
  /** The format of {@link ExtractData.text}. */
  readonly format: ExtractFormat;
}

/** The failures {@link extract} can report. */
export type ExtractErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
