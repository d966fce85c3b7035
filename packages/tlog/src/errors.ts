/** The codes of `TlogError`: what a caller can match on. */
export const TLOG_ERROR_CODES = [
  'invalid_argument',
  'malformed_checkpoint',
  'malformed_note',
  'malformed_vkey',
  'invalid_signature',
  'unverified_note',
  'missing_hash',
] as const;

/** One of `TLOG_ERROR_CODES`. */
export type TlogErrorCode = (typeof TLOG_ERROR_CODES)[number];

/** What the library throws: misuse, or a note, key or checkpoint it cannot accept. */
export class TlogError extends Error {
  override readonly name = 'TlogError';
  readonly code: TlogErrorCode;

  constructor(code: TlogErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
