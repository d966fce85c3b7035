import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'parse5';
import { describe, expect, test } from 'vitest';
import { isElement, textContent, walk } from '../src/dom.js';
import { buildTree, type Created, MAX_TREE_DEPTH } from '../src/tree.js';
import type { HtmlDocumentNode, HtmlElement, HtmlNode } from '../src/types.js';

const fresh = (): Created => ({ holders: [], titles: [], bases: [], foreignTitle: false });
const ours = (html: string) => buildTree(html, fresh());
/** parse5 with scripting on, as the tree builder reads `<noscript>`. */
const spec = (html: string) => parse(html, { scriptingEnabled: true }) as HtmlDocumentNode;

/** Every element as `name[ns]` at its depth, in document order: the tree's shape. */
function shape(root: HtmlNode): string[] {
  const out: string[] = [];
  let depth = 0;
  walk(root, {
    enter(node) {
      if (!isElement(node)) return;
      const ns = node.namespaceURI === 'http://www.w3.org/1999/xhtml' ? '' : '[foreign]';
      out.push(`${depth} ${node.tagName}${ns}`);
      depth++;
    },
    leave(node) {
      if (isElement(node)) depth--;
    },
  });
  return out;
}

/** The HTML pages of the repository's fixtures: the shared pages and every package's. */
function fixturePages(): string[] {
  const root = new URL('../../../', import.meta.url).pathname;
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules') visit(path);
      } else if (/\.html(\.gz)?$/.test(name)) files.push(path);
    }
  };
  visit(join(root, 'fixtures'));
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const fixtures = join(root, 'packages', pkg, 'test', 'fixtures');
    if (statSync(join(root, 'packages', pkg)).isDirectory()) {
      try {
        visit(fixtures);
      } catch {
        // A package without fixtures.
      }
    }
  }
  return files.sort();
}

function read(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

describe('the tree from htmlparser2 against parse5 (the HTML standard)', () => {
  const pages = fixturePages();

  test('the fixture pages are many', () => {
    expect(pages.length).toBeGreaterThan(300);
  });

  test('every fixture page has the same text, in the same order', () => {
    const differ = pages.filter((page) => {
      const html = read(page);
      return textContent(ours(html)) !== textContent(spec(html));
    });
    expect(differ).toEqual([]);
  });

  test('every fixture page has the same elements in the same nesting; those nested deeper than a browser nests stop at its depth', () => {
    const differ: string[] = [];
    let deep = 0;
    for (const page of pages) {
      const html = read(page);
      const [a, b] = [shape(ours(html)), shape(spec(html))];
      const depthOf = (lines: string[]) =>
        Math.max(...lines.map((line) => Number.parseInt(line, 10)));
      if (depthOf(b) >= MAX_TREE_DEPTH - 2) {
        deep++;
        // `<html>` and `<body>` are the first two of the levels.
        if (depthOf(a) !== MAX_TREE_DEPTH - 1)
          differ.push(`${page} ${depthOf(a)} ${a.length} ${b.length}`);
      } else if (a.join('\n') !== b.join('\n')) differ.push(page);
    }
    expect(differ).toEqual([]);
    expect(deep).toBeGreaterThan(2);
  });

  test.each([
    ['head and body implied', '<title>T</title><p>x'],
    ['content after </body> and </html>', '<body><p>a</p></body></html><p>b'],
    ['a second <body> adds its attributes', '<body class=a><p>x<body id=b class=c>'],
    ['misnested formatting re-opened', '<p>Another <b>bold <i>both</b> italic?</i> text'],
    ['unclosed formatting carried into the next block', '<p><em>one<p>two<div>three</div>'],
    [
      'list items and definitions close',
      '<ul><li>a<li>b<ul><li>c</ul><li>d</ul><dl><dt>x<dd>y<dt>z</dl>',
    ],
    ['a block closes an open <p> across inline elements', '<p><span>a<div>b</div>'],
    ['headings close headings', '<h2>a<h3>b</h3>c</h2>'],
    ['a second <a> ends the first', '<a href=1>one<a href=2>two'],
    ['an end tag does not cross a block', '<span><div>a</span>b</div>'],
    ['implied table parts', '<table><td>a<td>b<tr><th>c<col></table>'],
    ['text and inline elements fostered before a table', '<table>x<b>y</b><tr><td>z</table>'],
    ['a quirks page keeps a table inside an open <p>', '<p>a<table><tr><td>b</table>'],
    ['a standards page closes it', '<!doctype html><p>a<table><tr><td>b</table>'],
    ['<noscript> is raw text', '<noscript><img src=a.png> <b>x</b></noscript><p>y'],
    [
      'SVG and MathML',
      '<svg viewBox="0 0 1 1"><foreignObject><p>a</p></foreignObject><path/></svg><math><mi>x</mi></math>',
    ],
    ['<template> content', '<template><p>a</p></template><p>b'],
    ['first newline of <pre> and <textarea>', '<pre>\n\nx</pre><textarea>\ny</textarea>'],
    ['a nested <form> is ignored', '<form id=a><form id=b><input></form>'],
    ['</p> and </br> without a start tag', 'a</p>b</br>c'],
    ['CR LF and U+0000', 'a\r\nb\rc\u0000d<script>e\u0000</script>'],
    ['duplicate attributes keep the first', '<p id=a id=b class=c>x'],
    ['character references', '<p title="a&amp;b&copy=1">&lt;&copy &notin; &#x1F600;&#0;</p>'],
    [
      'table parts and frames outside a table are ignored',
      '<div><td>a<tr><col><caption>b</caption><frame></div><template><td>c</td></template><svg><td>d</td></svg>',
    ],
    [
      'names in any case: ASCII letters lowered, other letters kept',
      '<DIV CLASS=a Data-X=1 ID=b><SPAN>x</Span><my-Widget HREF=c>w</MY-WIDGET><SVG VIEWBOX="0 0 1 1"><ForeignObject><P>y</P></foreignobject></SVG><D\u0130V>z</d\u0130v><\u00c4BBR \u00c4=1>v</\u00c4BBR></DIV>',
    ],
  ])('%s: the same tree as parse5', (_name, html) => {
    const a = ours(html);
    const b = spec(html);
    expect(shape(a)).toEqual(shape(b));
    expect(textContent(a)).toBe(textContent(b));
    const attrs = (root: HtmlNode) => {
      const out: string[] = [];
      walk(root, {
        enter(node) {
          if (isElement(node)) {
            out.push((node as HtmlElement).attrs.map((x) => `${x.name}=${x.value}`).join(' '));
          }
        },
      });
      return out;
    };
    expect(attrs(a)).toEqual(attrs(b));
  });
});

describe('elements without children or attributes', () => {
  /** Every element's tag, attributes and child count, in document order. */
  const summary = (root: HtmlNode) => {
    const out: string[] = [];
    walk(root, {
      enter(node) {
        if (isElement(node)) {
          const attrs = node.attrs.map((a) => `${a.name}=${a.value}`).join(',');
          out.push(`${node.tagName}[${attrs}]${node.childNodes.length}`);
        }
      },
    });
    return out;
  };

  test('share nothing a later page can see: merged attributes, adopted and fostered children stay on their page', () => {
    // Pages that give an element its first child or attribute in every way the builder
    // can: a second <html>/<body> merging attributes, the adoption agency moving
    // children into a copy, text and elements fostered out of a table, template content.
    const writers = [
      '<html><body><br><html lang=en><body id=b class=c>x',
      '<p><b>one<div>two</b>three</div><hr>',
      '<table>x<b>y</b><tr><td>z</table><img>',
      '<template><p>a</p></template><input><col>',
      '<a href=1>one<a href=2>two</a><wbr>',
    ];
    const reader = '<html><head></head><body><br><hr><img><input><wbr><p></p><div></div>';
    const before = summary(ours(reader));
    for (const html of writers) {
      expect(summary(ours(html))).toEqual(summary(spec(html)));
      expect(summary(ours(reader))).toEqual(before);
    }
    expect(before).toEqual(summary(spec(reader)));
  });
});

describe('a page read in pieces', () => {
  /** `text` cut into pieces of `size` characters. */
  const pieces = (text: string, size: number) => {
    const out: string[] = [];
    for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
    return out;
  };
  /** Everything a tree holds: shape, attributes, text nodes, comments, in order. */
  const dump = (root: HtmlNode) => {
    const out: string[] = [];
    walk(root, {
      enter(node) {
        if (isElement(node)) {
          out.push(`<${node.tagName} ${node.attrs.map((a) => `${a.name}=${a.value}`).join(' ')}>`);
        } else if (node.nodeName === '#text') out.push(`"${(node as { value: string }).value}"`);
        else if (node.nodeName === '#comment')
          out.push(`<!--${(node as { data: string }).data}-->`);
      },
      leave(node) {
        if (isElement(node)) out.push(`</${node.tagName}>`);
      },
    });
    return out;
  };

  test('cut anywhere, gives the tree of the whole: tags, attributes, references, comments, CR LF, <noscript>', () => {
    const html =
      '<!DOCTYPE html>\r\n<HTML lang=en><head><title>A &amp; B</title></head><body class="x y">' +
      "<p id=a title='q&quot;r'>one &copy; two&nbsp;three</p>\r\n<!-- a comment -->" +
      '<noscript><img src=n.png></NOSCRIPT><div>\r\rafter\r\n\nend</div><script>if (a < b) x();</script>' +
      '<table><td>cell</table><svg viewBox="0 0 1 1"><path d=M0/></svg>\r';
    const whole = dump(ours(html));
    for (let cut = 1; cut < html.length; cut++) {
      const two = [html.slice(0, cut), html.slice(cut)];
      expect(dump(buildTree(two, fresh())), `cut at ${cut}`).toEqual(whole);
    }
    for (const size of [1, 2, 3, 5, 11]) {
      expect(dump(buildTree(pieces(html, size), fresh())), `pieces of ${size}`).toEqual(whole);
    }
  });

  test('every fixture page in pieces gives the tree of the whole page', () => {
    for (const path of fixturePages()) {
      const html = read(path);
      const whole = dump(ours(html));
      for (const size of [97, 4096]) {
        expect(
          dump(buildTree(pieces(html, size), fresh())),
          `${path} in pieces of ${size}`,
        ).toEqual(whole);
      }
    }
  });
});
