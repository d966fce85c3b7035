/**
 * One reason a request's parameters are refused: an entry of the `details` of an
 * `invalid_params` answer (HTTP 400, never charged). Products' parameter checks and the
 * server's route registry both report problems in this shape.
 */
export interface ParamProblem {
  /** The query parameter at fault. */
  readonly param: string;
  /** What is wrong with it, written for the caller. */
  readonly message: string;
}

/**
 * The most characters (UTF-16 code units) of a target URL: the `url` parameter of every
 * route and the `domain` of `/buy/robots` (spec, Limits), and every URL the fetcher
 * follows.
 */
export const URL_MAX_CHARS = 2048;
