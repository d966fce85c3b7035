export {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  textArbitrary,
} from './arbitraries.js';
export {
  CHALLENGE_PAGE_HTML,
  type CrawlSite,
  type CrawlSiteOptions,
  crawlPageHtml,
  startCrawlSite,
} from './crawl-site.js';
export {
  type StubDns,
  type StubName,
  type StubRecordType,
  startStubDns,
  type ZoneAnswer,
  zoneQuery,
} from './dns-stub.js';
export { DEFAULT_DOCUMENT, type DocumentInit, makeDocument } from './document.js';
export {
  type FixtureProduct,
  type InlineDocument,
  inlineDocument,
  type RunFixturesOptions,
  readFixtureDocument,
  readJsonFile,
  runFixtures,
  runFolderFixtures,
  stableJson,
} from './fixtures.js';
export { hostilePage } from './hostile.js';
export { edited, mutate } from './mutate.js';
export {
  buildPdf,
  type PdfLine,
  type PdfOutlineItem,
  type PdfPage,
  type PdfSpec,
  pdfString,
} from './pdf.js';
export { scalingRatio } from './scaling.js';
export {
  type GoldenResult,
  type RunSchemaFixturesOptions,
  readGoldenResults,
  runSchemaFixtures,
  schemaCheck,
} from './schema.js';
export {
  type LeafOptions,
  makeTestChain,
  type TestCertificate,
  type TestChain,
} from './tls-chain.js';
