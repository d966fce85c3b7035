export { parseFeedDate } from './feed-date.js';
export {
  FEED_MAX_BYTES,
  FEED_MAX_DATE_RAW_CHARS,
  FEED_MAX_DEPTH,
  FEED_MAX_ELEMENTS,
  FEED_MAX_HTML_CHARS,
  FEED_MAX_ITEMS,
  FEED_MAX_LINK_CHARS,
  FEED_MAX_SUMMARY_CHARS,
  FEED_MAX_TITLE_CHARS,
} from './limits.js';
export { parseFeed } from './parse-feed.js';
export { receiptRule, resultSchema } from './product.js';
export type { FeedData, FeedErrorCode, FeedItem, FeedKind, FeedOptions } from './types.js';
