export { collectMetadata } from './collect-metadata.js';
export { extractMetadata } from './extract-metadata.js';
export {
  JSONLD_MAX_BLOCK_CHARS,
  JSONLD_MAX_DEPTH,
  JSONLD_MAX_ITEMS,
  parseJsonLd,
} from './json-ld.js';
export { OPEN_GRAPH_PREFIXES } from './meta-tags.js';
export type {
  CollectedMetadata,
  JsonLdObject,
  MetadataCounts,
  MetadataData,
  MetadataErrorCode,
  MetadataOptions,
} from './types.js';
