import { expect, test } from 'vitest';
import * as html from '../src/index.js';

test('exports exactly the public API', () => {
  expect(Object.keys(html).sort()).toEqual([
    'BLOCK_TAGS',
    'CHROME_ROLES',
    'CHROME_TAGS',
    'CHROME_TOKENS',
    'HTML_MAX_ELEMENTS',
    'HTML_MAX_PARSE_CHARS',
    'NON_CONTENT_TAGS',
    'bareHost',
    'bodyKind',
    'childrenOf',
    'collapseWhitespace',
    'contentRoot',
    'contentText',
    'countStartTags',
    'countWords',
    'findAll',
    'findFirst',
    'fragmentText',
    'getAttr',
    'httpOrigin',
    'isBoilerplate',
    'isElement',
    'isText',
    'loadHtml',
    'pageMemo',
    'readableText',
    'resolveUrl',
    'selectContent',
    'textContent',
    'walk',
  ]);
});
