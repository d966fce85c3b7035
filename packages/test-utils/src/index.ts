export {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  textArbitrary,
} from './arbitraries.js';
export { DEFAULT_DOCUMENT, type DocumentInit, makeDocument } from './document.js';
export {
  type FixtureProduct,
  type RunFixturesOptions,
  readFixtureDocument,
  runFixtures,
  stableJson,
} from './fixtures.js';
