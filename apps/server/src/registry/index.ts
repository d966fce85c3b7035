import { availabilityRoute } from './products/availability.js';
import { crawlRoute } from './products/crawl.js';
import { diffRoute } from './products/diff.js';
import { dnsRoute } from './products/dns.js';
import { extractRoute } from './products/extract.js';
import { feedRoute } from './products/feed.js';
import { fetchRoute } from './products/fetch.js';
import { headersRoute } from './products/headers.js';
import { linksRoute } from './products/links.js';
import { mapRoute } from './products/map.js';
import { markdownRoute } from './products/markdown.js';
import { metadataRoute } from './products/metadata.js';
import { notarizeRoute } from './products/notarize.js';
import { pdfRoute } from './products/pdf.js';
import { robotsRoute } from './products/robots.js';
import { seoRoute } from './products/seo.js';
import { tableRoute } from './products/table.js';
import { tlsRoute } from './products/tls.js';
import { validateRoute } from './products/validate.js';
import type { AnyRoute } from './types.js';

/**
 * Every paid route, in the spec's order. Express routes, payment terms, `/catalog`,
 * `/manifest`, `/.well-known/x402`, `/x402/discovery` and `/openapi.json` are all
 * generated from this list.
 */
export const REGISTRY: readonly AnyRoute[] = Object.freeze([
  fetchRoute,
  extractRoute,
  markdownRoute,
  metadataRoute,
  linksRoute,
  robotsRoute,
  diffRoute,
  notarizeRoute,
  headersRoute,
  tableRoute,
  feedRoute,
  availabilityRoute,
  validateRoute,
  mapRoute,
  crawlRoute,
  seoRoute,
  pdfRoute,
  dnsRoute,
  tlsRoute,
]);

export type { AnyRoute, ChargeRule, PriceTier, RouteEntry } from './types.js';
