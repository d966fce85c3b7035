import type { ErrorCode } from './errors.js';

/** A successful product result: `text` is exactly the string the receipt covers. */
export interface ProductSuccess<D> {
  readonly ok: true;
  readonly text: string;
  readonly data: D;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** An honest failure: the content was bad or the world failed. */
export interface ProductFailure<D> {
  readonly ok: false;
  readonly error: ErrorCode;
  readonly message?: string;
  readonly data?: Partial<D>;
}

/** What every product function returns (DESIGN §2). */
export type ProductResult<D> = ProductSuccess<D> | ProductFailure<D>;

/**
 * Build a successful result.
 *
 * @example
 *   ok(canonicalize(data), data)
 */
export function ok<D>(
  text: string,
  data: D,
  extra?: Readonly<Record<string, unknown>>,
): ProductSuccess<D> {
  return extra === undefined ? { ok: true, text, data } : { ok: true, text, data, extra };
}

/** Build a failed result with a catalogue code and an optional message and partial data. */
export function fail<D = never>(
  error: ErrorCode,
  message?: string,
  data?: Partial<D>,
): ProductFailure<D> {
  const result: { ok: false; error: ErrorCode; message?: string; data?: Partial<D> } = {
    ok: false,
    error,
  };
  if (message !== undefined) result.message = message;
  if (data !== undefined) result.data = data;
  return result;
}
