import {
  parsePointer,
  parseSchema,
  receiptRule,
  resultSchema,
  VALIDATE_MAX_POINTER_LENGTH,
  VALIDATE_MAX_SCHEMA_LENGTH,
  validateDocument,
} from '@storefront/validate';
import { documentRoute } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

interface ValidateParams {
  readonly url: string;
  readonly schema: string;
  readonly pointer: string | undefined;
}

/** `/buy/validate`: fetch a JSON endpoint and validate it against a schema. */
export const validateRoute = {
  ...documentRoute<ValidateParams, unknown>({
    name: 'validate',
    example,
    receiptRule,
    title: 'JSON validation',
    description:
      'Fetch a JSON endpoint and validate it (or the sub-document a JSON Pointer selects) against a compact, shorthand or Draft-07 schema; errors in document order.',
    params: paramsSchema(
      {
        url: URL_PARAM,
        schema: {
          type: 'string',
          minLength: 1,
          maxLength: VALIDATE_MAX_SCHEMA_LENGTH,
          description:
            'Compact `field[:type]` list, a Draft-07 JSON-Schema string (core subset), or a shorthand map of field name to type name.',
        },
        pointer: {
          type: 'string',
          maxLength: VALIDATE_MAX_POINTER_LENGTH,
          description:
            'JSON Pointer selecting the sub-document to validate; empty for the whole body.',
        },
      },
      ['url', 'schema'],
    ),
    price: { tier: 'validate', amount: 5000, includes: 'validation report plus signed receipt' },
    chargeRule: 'before-charging',
    closedResponse: false,
    data: resultSchema,
    check(query) {
      const schema = query.schema === undefined ? null : parseSchema(query.schema);
      const pointer = query.pointer === undefined ? null : parsePointer(query.pointer);
      return checked(
        [
          urlProblem('url', query.url ?? ''),
          schema === null || schema.ok ? null : { param: 'schema', message: schema.message },
          pointer === null || pointer.ok ? null : { param: 'pointer', message: pointer.message },
        ],
        () => ({
          url: query.url as string,
          schema: query.schema as string,
          pointer: query.pointer,
        }),
      );
    },
    product: (doc, params) =>
      validateDocument(doc, {
        schema: params.schema,
        ...(params.pointer === undefined ? {} : { pointer: params.pointer }),
      }),
  }),
  notFound: 'The JSON Pointer `pointer` selects nothing in the document; not charged.',
};
