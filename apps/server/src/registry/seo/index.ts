import { auditSeo, receiptRule, resultSchema } from '@storefront/seo';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/seo`: on-page SEO audit of the page, graded under `seo-rubric/1`. */
export const seoRoute = documentRoute<UrlParams, unknown>({
  name: 'seo',
  example,
  receiptRule,
  title: 'On-page SEO audit',
  description:
    'Grade the page’s on-page SEO A–F under a published rubric: title and description length, one h1 and heading order, canonical, robots meta and X-Robots-Tag, hreflang pairs, image alt coverage, structured data, Open Graph and Twitter cards, internal links and mixed content, each with the value seen and a fix.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'seo', amount: 6000, includes: 'graded on-page SEO audit plus signed receipt' },
  chargeRule: 'free-on-failure',
  closedResponse: false,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => auditSeo(doc),
});
