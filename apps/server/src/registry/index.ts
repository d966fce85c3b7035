import { availabilityRoute } from './availability/index.js';
import { crawlRoute } from './crawl/index.js';
import { diffRoute } from './diff/index.js';
import { dnsRoute } from './dns/index.js';
import { extractRoute } from './extract/index.js';
import { feedRoute } from './feed/index.js';
import { fetchRoute } from './fetch/index.js';
import { headersRoute } from './headers/index.js';
import { linksRoute } from './links/index.js';
import { mapRoute } from './map/index.js';
import { markdownRoute } from './markdown/index.js';
import { metadataRoute } from './metadata/index.js';
import { notarizeRoute } from './notarize/index.js';
import { judgedRoute, reportingRoute } from './page-verdict.js';
import { pdfRoute } from './pdf/index.js';
import { robotsRoute } from './robots/index.js';
import { seoRoute } from './seo/index.js';
import { tableRoute } from './table/index.js';
import { tlsRoute } from './tls/index.js';
import type { AnyRoute } from './types.js';
import { validateRoute } from './validate/index.js';

/**
 * Every paid route, in the spec's order. The routes whose value is a page's content are
 * judged (`judgedRoute`): a challenge, a sign-in wall or another page served in the
 * content's place is answered `not_content`, never delivered as content. Express routes, payment terms, `/catalog`,
 * `/manifest`, `/.well-known/x402`, `/x402/discovery` and `/openapi.json` are all
 * generated from this list.
 */
export const REGISTRY: readonly AnyRoute[] = Object.freeze([
  judgedRoute(fetchRoute),
  judgedRoute(extractRoute),
  judgedRoute(markdownRoute),
  judgedRoute(metadataRoute),
  judgedRoute(linksRoute),
  robotsRoute,
  judgedRoute(diffRoute),
  judgedRoute(notarizeRoute),
  reportingRoute(headersRoute),
  judgedRoute(tableRoute),
  feedRoute,
  reportingRoute(availabilityRoute),
  validateRoute,
  mapRoute,
  crawlRoute,
  judgedRoute(seoRoute),
  pdfRoute,
  dnsRoute,
  tlsRoute,
]);

export type { AnyRoute, ChargeRule, PriceTier, RouteEntry } from './types.js';
