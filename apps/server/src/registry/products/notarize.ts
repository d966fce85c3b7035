import type { FetchedDocument } from '@storefront/core';
import { checkNotarizeParams, INLINE_SOURCE, notarize } from '@storefront/notarize';
import { extractText } from '@storefront/text';
import {
  failedProduct,
  fetchAndCompute,
  INTEGER,
  ISO_TIME,
  paramsSchema,
  record,
  responseSchema,
  STRING,
  signedAnswer,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { Checked, RouteEntry, WorkOutcome } from '../types.js';

type NotarizeParams = { readonly url: string } | { readonly content: string };

/** `/buy/notarize`: a signed statement of the sha256 of inline content or a page's text. */
export const notarizeRoute: RouteEntry<NotarizeParams> = {
  name: 'notarize',
  path: '/buy/notarize',
  title: 'Notarization',
  description:
    'A signed, fixed-format statement that the given content (inline, or a page’s cleaned text) had this sha256 at this time.',
  params: paramsSchema(
    {
      url: {
        ...URL_PARAM,
        description: 'A page whose cleaned text is notarized (exactly one of url, content).',
      },
      content: {
        type: 'string',
        maxLength: 262144,
        description:
          'Inline UTF-8 content of at most 256 KB to notarize (exactly one of url, content).',
      },
    },
    [],
  ),
  prices: [{ tier: 'notarize', amount: 8000, includes: 'signed notarization statement' }],
  chargeRule: 'free-on-failure',
  closedResponse: true,
  response: responseSchema(
    {
      status: INTEGER,
      text: STRING,
      fetchedAt: ISO_TIME,
      data: record({
        algorithm: { const: 'sha256' },
        contentHash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
        byteLength: INTEGER,
        source: STRING,
        sourceKind: { enum: ['url', 'inline'] },
        witnessedAt: ISO_TIME,
        statementVersion: STRING,
        verify: record({ howTo: STRING, wellKnown: STRING }),
      }),
    },
    true,
  ),
  check(query): Checked<NotarizeParams> {
    const result = checkNotarizeParams(query);
    if (!result.ok) return { ok: false, details: result.details };
    if (result.kind === 'inline') return { ok: true, params: { content: query.content as string } };
    const problem = urlProblem('url', query.url as string);
    return problem
      ? { ok: false, details: [problem] }
      : { ok: true, params: { url: query.url as string } };
  },
  priceFor: () => notarizeRoute.prices[0] as (typeof notarizeRoute.prices)[0],
  // A page's receipt: the spec notarizes its cleaned text; a body that is not a page is
  // hashed as it is. Inline content is a sha256 of at most 256 KB and stays inline.
  compute: ({ doc, baseUrl }: { doc: FetchedDocument; baseUrl: string }) => {
    const cleaned = extractText(doc);
    return notarize({ document: doc, ...(cleaned.ok ? { text: cleaned.text } : {}) }, { baseUrl });
  },
  async run(params, context): Promise<WorkOutcome> {
    const options = { baseUrl: context.publicBaseUrl };
    if ('content' in params) {
      const witnessedAt = context.clock().toISOString();
      const result = notarize({ content: params.content, witnessedAt }, options);
      if (!result.ok) throw new Error(`notarize refused checked content: ${result.error}`);
      return delivered(INLINE_SOURCE, 200, witnessedAt, result.text, result.data);
    }
    const run = await fetchAndCompute<ReturnType<typeof notarize>>(
      context,
      params.url,
      notarizeRoute.name,
      (doc) => ({ doc, baseUrl: context.publicBaseUrl }),
    );
    if (!run.ok) return run.outcome;
    const { doc, value: result } = run;
    if (!result.ok) {
      return failedProduct(doc, result.error, result.message, false);
    }
    return delivered(doc.url, doc.status, doc.fetchedAt, result.text, result.data);
  },
};

function delivered(
  url: string,
  status: number,
  fetchedAt: string,
  text: string,
  data: unknown,
): WorkOutcome {
  return signedAnswer(
    { ok: true, url, status, text, fetchedAt, data },
    { text, url, status, fetchedAt },
  );
}
