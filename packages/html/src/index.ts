export { bodyKind } from './body-kind.js';
export {
  CHROME_ROLES,
  CHROME_TAGS,
  CHROME_TOKENS,
  isBoilerplate,
  NON_CONTENT_TAGS,
} from './boilerplate.js';
export { type ContentSelection, contentRoot, contentText, selectContent } from './content.js';
export {
  childrenOf,
  collapseSpaces,
  collapseWhitespace,
  findAll,
  findFirst,
  getAttr,
  isElement,
  isText,
  textContent,
  type Visitor,
  type WalkAction,
  walk,
} from './dom.js';
export { fragmentText } from './fragment.js';
export { countStartTags, HTML_MAX_ELEMENTS, HTML_MAX_PARSE_CHARS, loadHtml } from './load.js';
export { pageMemo } from './memo.js';
export {
  BLOCK_TAGS,
  countWords,
  type ReadableTextOptions,
  readableText,
  WordCounter,
} from './text.js';
export { MAX_TREE_DEPTH } from './tree.js';
export type {
  BodyKind,
  HtmlDocumentNode,
  HtmlElement,
  HtmlErrorCode,
  HtmlNode,
  HtmlPage,
  HtmlParent,
  HtmlText,
  LoadResult,
} from './types.js';
export { bareHost, httpOrigin, resolveUrl } from './urls.js';
export {
  PAGE_KINDS,
  PAGE_VERDICT_RUBRIC,
  type PageKind,
  type PageResponse,
  type PageVerdict,
  pageVerdict,
  responseVerdict,
} from './verdict.js';
