import {
  extractTables,
  parseTableFormat,
  parseTableIndex,
  receiptRule,
  resultSchema,
  TABLE_PARAM_MAX_LENGTH,
  type TableFormat,
} from '@storefront/table';
import { documentRoute } from '../document-route.js';
import { checked, enumParam, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
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
    receiptRule,
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
    data: resultSchema,
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
