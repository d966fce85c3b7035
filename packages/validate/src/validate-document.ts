import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import type { ErrorObject } from 'ajv';
import { COST_KEYWORD, compileSchema, FALSE_KEYWORD, runValidator } from './compile.js';
import { documentHash, NotCanonical } from './document-hash.js';
import { type LocatedError, sortInDocumentOrder } from './document-order.js';
import {
  VALIDATE_MAX_COUNTED_ERRORS,
  VALIDATE_MAX_ERRORS,
  VALIDATE_MAX_MESSAGE_CHARS,
  VALIDATE_MAX_PATH_CHARS,
} from './limits.js';
import { parseSchema } from './parse-schema.js';
import { parsePointer, resolveTokens, unescapeToken } from './pointer.js';
import { readJson } from './read-json.js';
import type { JsonTypeName, ValidateData, ValidateOptions, ValidationError } from './types.js';

/**
 * Validate a fetched JSON document (or the value a JSON Pointer selects in it) against
 * a schema given in the compact, JSON-Schema or shorthand form. `text` is the RFC 8785
 * form of `data`: whether the value is valid, the first
 * {@link VALIDATE_MAX_ERRORS} errors in document order, and the hashes of the validated
 * value and of the normalised schema.
 *
 * Total over the document: bad bytes give `ok:false` (`parse_error`,
 * `unsupported_content_type`, `body_too_large`, or `not_found` when the pointer selects
 * nothing). A schema or pointer that {@link parseSchema} / {@link parsePointer} refuse is
 * misuse and throws a `StorefrontError` (`invalid_params`): check them first.
 *
 * @example
 *   const result = validateDocument(doc, { schema: 'id:integer,name', pointer: '/items/0' });
 *   if (result.ok) console.log(result.data.valid, result.data.errors);
 */
export function validateDocument(
  doc: FetchedDocument,
  options: Readonly<ValidateOptions>,
): ProductResult<ValidateData> {
  if (options === null || typeof options !== 'object') {
    throw new StorefrontError(
      'invalid_params',
      `Expected options to be an object, got \`${options}\``,
    );
  }
  if (typeof options.schema !== 'string') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`schema\` to be a string, got \`${typeof options.schema}\``,
    );
  }
  const pointer = options.pointer ?? '';
  const tokens = parsePointer(pointer);
  if (!tokens.ok) throw new StorefrontError('invalid_params', tokens.message);
  const schema = parseSchema(options.schema);
  if (!schema.ok)
    throw new StorefrontError('invalid_params', `Invalid \`schema\`: ${schema.message}`);
  const compiled = compileSchema(schema.normalized, schema.hash);
  if (!compiled.ok) throw new StorefrontError('invalid_params', compiled.message);

  const read = readJson(doc);
  if (!read.ok) return fail(read.error, read.message);
  const selected = resolveTokens(read.value, tokens.tokens);
  if (!selected.found) {
    return fail(
      'not_found',
      `The JSON Pointer \`${pointer}\` selects nothing: ${selected.message}`,
    );
  }

  let hash: ValidateData['documentHash'];
  try {
    hash = documentHash(selected.value);
  } catch (error) {
    // JSON.parse accepts `"\ud800"` and `1e400`; RFC 8785 (I-JSON) has no form for them.
    if (!(error instanceof NotCanonical)) throw error;
    return fail(
      'parse_error',
      `The JSON value has no canonical form (RFC 8785 needs I-JSON): it holds ${error.message}`,
    );
  }

  const run = runValidator(compiled, selected.value);
  if (run.kind === 'over-budget') {
    return fail(
      'body_too_large',
      `Validating this document against this schema needs more than its work budget of ${compiled.budget} steps`,
    );
  }
  const found = run.errors.flatMap((error) => located(error, pointer));
  const ordered = sortInDocumentOrder(found, selected.value, pointer, read.text);
  let cut = false;
  const errors: ValidationError[] = ordered
    .slice(0, VALIDATE_MAX_ERRORS)
    .map(({ path, keyword, message }) => {
      const shown = {
        path: capString(path, VALIDATE_MAX_PATH_CHARS),
        keyword,
        message: capString(message, VALIDATE_MAX_MESSAGE_CHARS),
      };
      if (shown.path !== path || shown.message !== message) cut = true;
      return shown;
    });
  const errorCount = Math.min(found.length, VALIDATE_MAX_COUNTED_ERRORS);
  const data: { -readonly [K in keyof ValidateData]: ValidateData[K] } = {
    valid: run.kind === 'done' && found.length === 0,
    errorCount,
    errors,
    truncated: run.kind === 'enough-errors' || errors.length < found.length,
    documentHash: hash,
    schemaHash: schema.hash,
    schemaForm: schema.form,
    pointer,
    validatedType: jsonType(selected.value),
  };
  // Only when a value was cut, so reports on ordinary documents keep their shape.
  if (cut) data.truncatedFields = true;
  return ok(canonicalize(data), data);
}

/** An ajv error as a located error: path in the whole body, our names for metered keywords. */
function located(error: ErrorObject, pointer: string): LocatedError[] {
  // Placeholders of branches still being tried when counting stopped.
  if (typeof error.keyword !== 'string' || error.keyword === COST_KEYWORD) return [];
  let keyword = error.keyword;
  let message = error.message ?? '';
  if (keyword === FALSE_KEYWORD) {
    const additional = error.params.reported === 'additionalProperties';
    keyword = additional ? 'additionalProperties' : 'false schema';
    message = additional ? 'must NOT be an additional property' : 'boolean schema is false';
  }
  const relative = error.instancePath;
  const tokens = relative === '' ? [] : relative.slice(1).split('/').map(unescapeToken);
  return [{ path: pointer + relative, tokens, keyword, message }];
}

/** The JSON type name of a parsed value; a number without a fraction is an `integer`. */
function jsonType(value: unknown): JsonTypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}
