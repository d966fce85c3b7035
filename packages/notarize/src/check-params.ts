import { type ParamProblem, utf8ByteLength } from '@storefront/core';
import {
  NOTARIZE_MAX_CONTENT_BYTES,
  NOTARIZE_MAX_CONTENT_CHARS,
  NOTARIZE_MAX_URL_CHARS,
} from './limits.js';

/** The verdict of {@link checkNotarizeParams}. */
export type NotarizeParamCheck =
  | { readonly ok: true; readonly kind: 'url' | 'inline' }
  | {
      readonly ok: false;
      readonly error: 'invalid_params';
      readonly details: readonly ParamProblem[];
    };

/**
 * Check `/buy/notarize` query parameters before any payment: exactly one of `url` and
 * `content`; `url` a string of at most {@link NOTARIZE_MAX_URL_CHARS} characters;
 * `content` a well-formed string of at most {@link NOTARIZE_MAX_CONTENT_CHARS} characters
 * and {@link NOTARIZE_MAX_CONTENT_BYTES} UTF-8 bytes. An empty `content` is valid content.
 * A refusal is answered with HTTP 400 and never charged.
 */
export function checkNotarizeParams(params: Readonly<Record<string, unknown>>): NotarizeParamCheck {
  const details: ParamProblem[] = [];
  const { url, content } = params;
  if (url === undefined && content === undefined) {
    details.push({
      param: 'url',
      message: 'Expected exactly one of `url` and `content`, got neither',
    });
  } else if (url !== undefined && content !== undefined) {
    details.push({
      param: 'content',
      message: 'Expected exactly one of `url` and `content`, got both',
    });
  }
  if (url !== undefined) {
    if (typeof url !== 'string') {
      details.push({
        param: 'url',
        message: `Expected \`url\` to be a string, got \`${typeof url}\``,
      });
    } else if (url.length > NOTARIZE_MAX_URL_CHARS) {
      details.push({
        param: 'url',
        message: `Expected \`url\` to have at most ${NOTARIZE_MAX_URL_CHARS} characters, got ${url.length}`,
      });
    }
  }
  if (content !== undefined) {
    const problem = contentProblem(content);
    if (problem !== null) details.push({ param: 'content', message: problem });
  }
  if (details.length > 0) return { ok: false, error: 'invalid_params', details };
  return { ok: true, kind: url === undefined ? 'inline' : 'url' };
}

/** Why `content` cannot be notarized, or null when it can. */
export function contentProblem(content: unknown): string | null {
  if (typeof content !== 'string') {
    return `Expected \`content\` to be a string, got \`${content === null ? 'null' : typeof content}\``;
  }
  if (content.length > NOTARIZE_MAX_CONTENT_CHARS) {
    return `Expected \`content\` to have at most ${NOTARIZE_MAX_CONTENT_CHARS} characters, got ${content.length}`;
  }
  if (!content.isWellFormed()) {
    return 'Expected `content` to be well-formed Unicode, got a lone surrogate';
  }
  const bytes = utf8ByteLength(content);
  if (bytes > NOTARIZE_MAX_CONTENT_BYTES) {
    return `Expected \`content\` to take at most ${NOTARIZE_MAX_CONTENT_BYTES} UTF-8 bytes, got ${bytes}`;
  }
  return null;
}
