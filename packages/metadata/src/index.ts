export { collectMetadata } from './collect-metadata.js';
export {
  extractMetadata,
  METADATA_MAX_JSONLD_CHARS,
  METADATA_MAX_TITLE_CHARS,
  METADATA_MAX_URL_CHARS,
} from './extract-metadata.js';
export {
  JSONLD_MAX_BLOCK_CHARS,
  JSONLD_MAX_DEPTH,
  JSONLD_MAX_ITEMS,
  JSONLD_MAX_KEY_CHARS,
  JSONLD_MAX_STRING_CHARS,
  parseJsonLd,
} from './json-ld.js';
export {
  META_MAX_KEY_CHARS,
  META_MAX_KEYS,
  META_MAX_VALUE_CHARS,
  OPEN_GRAPH_PREFIXES,
} from './meta-tags.js';
export { receiptRule, resultSchema } from './product.js';
export type {
  CollectedMetadata,
  JsonLdObject,
  MetadataCounts,
  MetadataData,
  MetadataErrorCode,
  MetadataOptions,
} from './types.js';
