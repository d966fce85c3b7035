import {
  extractTables,
  parseTableFormat,
  parseTableIndex,
  TABLE_PARAM_MAX_LENGTH,
  type TableFormat,
} from '@storefront/table';
import { documentRoute } from '../document-route.js';
import {
  BOOLEAN,
  checked,
  enumParam,
  INTEGER,
  NULLABLE_STRING,
  paramsSchema,
  STRING,
  STRINGS,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import { example } from './example.js';

interface TableParams {
  readonly url: string;
  readonly table: number | undefined;
  readonly format: TableFormat;
}

/** `/buy/table`: HTML tables as typed rows and CSV. */
export const tableRoute = {
  ...documentRoute<TableParams, unknown>({
    name: 'table',
    example,
    title: 'HTML tables',
    description:
      'Every HTML table of the page (or one, by index) as rows keyed by header and as RFC 4180 CSV; spans expanded, headers de-duplicated.',
    params: paramsSchema(
      {
        url: URL_PARAM,
        table: {
          type: 'string',
          maxLength: TABLE_PARAM_MAX_LENGTH,
          pattern: '^[0-9]+$',
          description:
            '0-based index of one table in document order; omit for all tables (up to 20).',
        },
        format: enumParam(
          ['both', 'json', 'csv'],
          'Which serialisations each table carries.',
          'both',
        ),
      },
      ['url'],
    ),
    price: { tier: 'table', amount: 6000, includes: 'tables as rows and CSV plus signed receipt' },
    chargeRule: 'before-charging',
    closedResponse: false,
    data: {
      type: 'object',
      required: ['title', 'tableCount', 'returned', 'truncatedTables', 'tables'],
      properties: {
        title: NULLABLE_STRING,
        tableCount: INTEGER,
        returned: INTEGER,
        truncatedTables: BOOLEAN,
        // Present only when a value was cut at its cap (README of @storefront/table).
        truncatedFields: { const: true },
        tables: {
          type: 'array',
          items: {
            type: 'object',
            required: ['index', 'columns', 'rowCount', 'ragged'],
            properties: {
              index: INTEGER,
              columns: STRINGS,
              rowCount: INTEGER,
              ragged: BOOLEAN,
              rows: { type: 'array', items: { type: 'object', additionalProperties: STRING } },
              csv: STRING,
            },
          },
        },
      },
    },
    check(query) {
      const index = query.table === undefined ? null : parseTableIndex(query.table);
      const format = query.format === undefined ? null : parseTableFormat(query.format);
      return checked(
        [
          urlProblem('url', query.url ?? ''),
          index === null || index.ok ? null : { param: 'table', message: index.message },
          format === null || format.ok ? null : { param: 'format', message: format.message },
        ],
        () => ({
          url: query.url as string,
          table: index?.ok ? index.value : undefined,
          format: format?.ok ? format.value : 'both',
        }),
      );
    },
    product: (doc, params) =>
      extractTables(doc, {
        format: params.format,
        ...(params.table === undefined ? {} : { table: params.table }),
      }),
  }),
  notFound: 'The page has no tables, or none at the `table` index; not charged.',
};
