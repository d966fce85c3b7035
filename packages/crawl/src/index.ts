export { finishCrawl, pageHash, startCrawl, stepCrawl } from './crawl-site.js';
export {
  CRAWL_MAX_CONTENT_CHARS,
  CRAWL_MAX_PAGE_LINKS,
  CRAWL_MAX_PAGES,
  CRAWL_MAX_SKIPPED,
  MAP_MAX_COLLECTED,
  MAP_MAX_FETCHES,
  MAP_MAX_LASTMOD_CHARS,
  MAP_MAX_URLS,
  SITE_MAX_URL_CHARS,
  SITEMAP_MAX_DECODED_BYTES,
  WALK_ROUND_MAX_FETCHES,
} from './limits.js';
export { finishMap, startMap, stepMap } from './map-site.js';
export {
  crawlReceiptRule,
  crawlResultSchema,
  mapReceiptRule,
  mapResultSchema,
} from './product.js';
export { readSitemap, type SitemapEntry, type SitemapRead } from './read-sitemap.js';
export { siteUrl } from './site-url.js';
export type {
  CrawlData,
  CrawlErrorCode,
  CrawlOptions,
  CrawlPage,
  CrawlRobots,
  CrawlSkip,
  CrawlState,
  FetchOutcome,
  MapCut,
  MapData,
  MapErrorCode,
  MapOptions,
  MapPending,
  MapSource,
  MapSourceKind,
  MapState,
  MapUrl,
  WalkPlan,
  WalkStop,
} from './types.js';
