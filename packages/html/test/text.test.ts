import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import {
  contentRoot,
  countWords,
  findAll,
  isBoilerplate,
  loadHtml,
  readableText,
  WordCounter,
  walk,
} from '../src/index.js';

function textOf(html: string): string {
  const loaded = loadHtml(makeDocument(html));
  if (!loaded.ok) throw new Error(loaded.message);
  return readableText(contentRoot(loaded.page));
}

describe('readableText', () => {
  test('one paragraph per block, whitespace collapsed as rendered', () => {
    expect(textOf('<p>  First \n  paragraph </p><p>Second <b>bold</b>  text</p>')).toBe(
      'First paragraph\n\nSecond bold text',
    );
  });

  test('list items and table rows one per line; cells separated by a tab', () => {
    expect(
      textOf(
        '<p>Intro</p><ul><li>one</li><li>two</li></ul><table><tr><th>A<th>B<tr><td>1<td>2</table><p>End',
      ),
    ).toBe('Intro\n\none\ntwo\n\nA\tB\n1\t2\n\nEnd');
  });

  test('<br> breaks the line; <pre> keeps its whitespace', () => {
    expect(textOf('<p>a<br>b</p><pre>  x\n    y  </pre>')).toBe('a\nb\n\n  x\n    y');
  });

  test('leaves boilerplate out', () => {
    const html = `<body><header><nav><a href="/">Home</a></nav></header>
      <div class="cookie-banner">We use cookies</div><div id="ad-slot-1">Buy now</div>
      <div hidden>secret</div><div style="display: none">gone</div><div aria-hidden="true">icon</div>
      <script>var x = 1</script><style>p{}</style>
      <article><header><h1>Title</h1></header><p>Body text.</p><footer>By Ann</footer></article>
      <aside>Related</aside><footer>(c) Site</footer></body>`;
    expect(textOf(html)).toBe('Title\n\nBody text.\n\nBy Ann');
  });

  test('a class token never removes a wrapper of the main content', () => {
    const thread = `<div class="p-body-main--withSidebar"><article><p>First post</p></article>
      <article><p>Second post</p></article></div><div class="p-body-sidebar"><p>Members online</p></div>`;
    expect(textOf(thread)).toBe('First post\n\nSecond post');
    expect(textOf('<div class="layout sidebar"><main><p>Inside</p></main></div>')).toBe('Inside');
  });

  test('keeps the article when there is one, the main when there is one', () => {
    expect(textOf('<p>outside</p><main><p>inside</p></main>')).toBe('inside');
    expect(textOf('<p>outside</p><article><p>inside</p></article>')).toBe('inside');
    expect(textOf('<article><p>one</p></article><article><p>two</p></article>')).toBe('one\n\ntwo');
  });

  test('walks 10,000 levels of nesting without recursion', () => {
    const deep = `${'<div>'.repeat(10_000)}deep${'</div>'.repeat(10_000)}`;
    expect(textOf(deep)).toBe('deep');
    const spans = `<p>${'<span>'.repeat(10_000)}x`;
    expect(textOf(spans)).toBe('x');
  });
});

describe('isBoilerplate', () => {
  test.each([
    ['<nav>x</nav>', true],
    ['<aside>x</aside>', true],
    ['<div role="navigation">x</div>', true],
    ['<div class="cookie-consent">x</div>', true],
    ['<div class="cookieBanner">x</div>', true],
    ['<div class="sr-only">x</div>', true],
    ['<div class="share-buttons">x</div>', true],
    ['<div id="sidebar">x</div>', true],
    ['<div class="header-image">x</div>', false],
    ['<div class="loading">x</div>', false],
    ['<div class="adventure">x</div>', false],
    ['<div class="post-body">x</div>', false],
    ['<div class="p-body-main--withSidebar">x</div>', false],
    ['<div class="card related--open">x</div>', true],
    ['<div style="visibility:hidden">x</div>', true],
    ['<div style="display:block">x</div>', false],
  ])('%s → %s', (markup, expected) => {
    const loaded = loadHtml(makeDocument(`<body>${markup}`));
    if (!loaded.ok) throw new Error();
    const [element] = findAll(loaded.page.body!, new Set(['nav', 'aside', 'div']));
    expect(isBoilerplate(element!)).toBe(expected);
  });
});

describe('countWords', () => {
  test.each([
    ['', 0],
    ['one two  three', 3],
    ["don't stop-me now", 3],
    ['3.14 is pi', 3],
    ['日本語のテキスト', 8],
    ['한국어 텍스트', 2],
    ['مرحبا بالعالم', 2],
    ['— * | ---', 0],
  ])('%j has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });
});

test('walk visits in document order and honours skip', () => {
  const loaded = loadHtml(makeDocument('<div><p>a</p><nav><p>b</p></nav><p>c</p></div>'));
  if (!loaded.ok) throw new Error();
  const seen: string[] = [];
  walk(loaded.page.body!, {
    enter(node) {
      if ('tagName' in node) {
        seen.push(node.tagName);
        if (node.tagName === 'nav') return 'skip';
      }
    },
  });
  expect(seen).toEqual(['body', 'div', 'p', 'nav', 'p']);
});

describe('WordCounter', () => {
  test.each([
    [["don'", 't stop'], 2],
    [['e-', 'mail'], 1],
    [['\ud83d', '\ude00 ok'], 1],
    [['a\ud835', '\udc00b'], 1],
    [['\ud835', '', '\udc00'], 1],
    [['東', '京'], 2],
    [['3.', '14'], 1],
  ])('%j counts as their concatenation: %i', (pieces, expected) => {
    const counter = new WordCounter();
    for (const piece of pieces) counter.add(piece);
    expect(counter.total).toBe(expected);
    expect(counter.total).toBe(countWords(pieces.join('')));
  });
});
