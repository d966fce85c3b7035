import { TABLE_PARAM_MAX_LENGTH } from './limits.js';
import type { TableFormat } from './types.js';

/** What a parameter parser returns: the value, or a message for an `invalid_params` answer. */
export type ParamResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

const FORMATS: readonly TableFormat[] = ['both', 'json', 'csv'];

/**
 * Parse the `table` query parameter: 1 to {@link TABLE_PARAM_MAX_LENGTH} ASCII digits, a
 * 0-based table index. Signs, spaces, decimals and exponents are refused.
 *
 * @example
 *   parseTableIndex('2') // { ok: true, value: 2 }
 */
export function parseTableIndex(value: string): ParamResult<number> {
  if (typeof value !== 'string' || value.length === 0) {
    return {
      ok: false,
      message: 'Expected `table` to be a non-negative integer, got an empty value',
    };
  }
  if (value.length > TABLE_PARAM_MAX_LENGTH) {
    return {
      ok: false,
      message: `Expected \`table\` to be at most ${TABLE_PARAM_MAX_LENGTH} characters, got ${value.length}`,
    };
  }
  if (!/^[0-9]+$/.test(value)) {
    return {
      ok: false,
      message: `Expected \`table\` to be a non-negative integer (digits only), got \`${value}\``,
    };
  }
  return { ok: true, value: Number(value) };
}

/**
 * Parse the `format` query parameter: exactly `both`, `json` or `csv`.
 *
 * @example
 *   parseTableFormat('csv') // { ok: true, value: 'csv' }
 */
export function parseTableFormat(value: string): ParamResult<TableFormat> {
  if ((FORMATS as readonly string[]).includes(value))
    return { ok: true, value: value as TableFormat };
  const shown = typeof value === 'string' ? value.slice(0, 32) : String(value);
  return {
    ok: false,
    message: `Expected \`format\` to be \`both\`, \`json\` or \`csv\`, got \`${shown}\``,
  };
}
