import { parseExtractSchema } from '@storefront/extract';

/** The longest `extract` parameter of `/buy/fetch`, in UTF-16 code units (spec, Limits). */
export const FETCH_EXTRACT_MAX_CHARS = 256;

/** The most fields a `/buy/fetch` field list may name. */
export const FETCH_MAX_FIELDS = 32;

/**
 * The type a field gets on `/buy/fetch` when the list names it without `:type`.
 * `/buy/fetch` takes bare field names, so well-known numeric fields are typed here;
 * every other field is a string.
 */
export const FETCH_FIELD_TYPES: Readonly<Record<string, 'number' | 'integer' | 'boolean'>> = {
  price: 'number',
  rating: 'number',
  ratingCount: 'integer',
  reviewCount: 'integer',
  wordCount: 'integer',
};

/** A field of the typed record. */
export interface FetchField {
  readonly name: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
}

/** What the `extract` parameter of `/buy/fetch` asks for. */
export type FetchExtract =
  | { readonly ok: true; readonly mode: 'none' }
  | { readonly ok: true; readonly mode: 'summary' }
  | { readonly ok: true; readonly mode: 'fields'; readonly fields: readonly FetchField[] }
  | { readonly ok: false; readonly message: string };

/**
 * Read the `extract` parameter of `/buy/fetch`: absent or empty means none, `1` means
 * description and word count, anything else is a comma list of field names, each
 * optionally typed as in `/buy/extract`'s compact schema (`price`, `price:number`), of
 * at most {@link FETCH_EXTRACT_MAX_CHARS} characters.
 * The server answers 400 with `message` when `ok` is false.
 *
 * @example
 *   parseFetchExtract('title, price') // { ok: true, mode: 'fields', fields: [...] }
 */
export function parseFetchExtract(value: string | undefined | null): FetchExtract {
  if (value === undefined || value === null || value.trim() === '')
    return { ok: true, mode: 'none' };
  if (value.trim() === '1') return { ok: true, mode: 'summary' };
  if (value.length > FETCH_EXTRACT_MAX_CHARS) {
    return {
      ok: false,
      message: `\`extract\` is ${value.length} characters; the limit is ${FETCH_EXTRACT_MAX_CHARS}.`,
    };
  }
  const typed = value
    .split(',')
    .map((part) => part.trim())
    .map((part) => {
      if (part === '' || part.includes(':')) return part;
      const natural = FETCH_FIELD_TYPES[part];
      return natural === undefined ? part : `${part}:${natural}`;
    })
    .join(',');
  const parsed = parseExtractSchema(typed);
  if (!parsed.ok) return { ok: false, message: `\`extract\`: ${parsed.message}` };
  if (parsed.fields.length > FETCH_MAX_FIELDS) {
    return {
      ok: false,
      message: `\`extract\` names ${parsed.fields.length} fields; the limit is ${FETCH_MAX_FIELDS}.`,
    };
  }
  return { ok: true, mode: 'fields', fields: parsed.fields };
}
