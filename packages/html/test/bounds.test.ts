import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import {
  contentRoot,
  findAll,
  HTML_MAX_ELEMENTS,
  type HtmlNode,
  type HtmlPage,
  isElement,
  loadHtml,
  MAX_TREE_DEPTH,
  readableText,
  textContent,
  walk,
} from '../src/index.js';

/** Pages whose trees are as deep or as wide as a hostile page can make them, at size `n`. */
const SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'unclosed <div>s': (n) => `${'<div>'.repeat(n)}x`,
  'unclosed <b>s': (n) => `${'<b>'.repeat(n)}x`,
  'nested table cells': (n) => `${'<table><tr><td>'.repeat(n / 5)}x`,
  '<a href>s': (n) => `${'<a href=x>'.repeat(n)}x`,
  'unclosed formatting opened again in every block': (n) =>
    `<div>${Array.from({ length: n / 2 }, (_, i) => `<b id=${i}>`).join('')}</div>${'<div>x</div>'.repeat(n / 2)}`,
  'end tags searching the formatting elements': (n) =>
    `${Array.from({ length: n / 2 }, (_, i) => `<i id=${i}>`).join('')}${'</b>'.repeat(n / 2)}x`,
};

/** Parse a page. */
function parsed(html: string): HtmlPage {
  const loaded = loadHtml(makeDocument(html));
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.page;
}

/** Every walk of the shared package over a parsed page: content root, text, a search. */
function walks(page: HtmlPage): number {
  const text = readableText(contentRoot(page));
  return text.length + textContent(page.document).length + findAll(page.document, 'a').length;
}

// A full collection before each timed run, so no run pays for the garbage of the last.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The fastest of `runs` runs, in ms: the least disturbed by whatever else the machine does. */
function fastest(work: () => unknown, runs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    collect();
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('bounds of the shared parse and walks', () => {
  // A machine busy with other test files can stall every sample of one size; a
  // quadratic walk fails every try, so a second and third try cannot hide one.
  test.each(Object.keys(SHAPES))(
    '%s cost linear time: four times the page, at most eight times the time to parse and to walk',
    { timeout: 120_000, retry: 2 },
    (name) => {
      const shape = SHAPES[name] as (n: number) => string;
      // Four times the size: linear work takes about 4 times as long, quadratic 16; the
      // bound of 8 sits far from both, so a busy machine's noise cannot decide the test.
      const n = 25_000;
      // Warm up, so the first size does not pay for compiling the code.
      walks(parsed(shape(n / 4)));
      const [small, large] = [shape(n), shape(4 * n)];
      const parse = fastest(() => parsed(large), 5) / fastest(() => parsed(small), 5);
      const [smallPage, largePage] = [parsed(small), parsed(large)];
      // The walks take tens of milliseconds: three in a row per sample, five samples.
      const thrice = (page: HtmlPage) => () => {
        for (let i = 0; i < 3; i++) walks(page);
      };
      const walk = fastest(thrice(largePage), 5) / fastest(thrice(smallPage), 5);
      expect({ parse: parse < 8, walk: walk < 8 }).toStrictEqual({ parse: true, walk: true });
    },
  );

  test('nesting as deep as the element cap allows opens no element deeper than a browser would', () => {
    // Chrome opens no element deeper than 512 levels: a deeper one opens beside the
    // current node. Every <div> is kept, in order, and the walks reach them all.
    const depth = HTML_MAX_ELEMENTS - 3;
    const loaded = loadHtml(makeDocument(`${'<div>'.repeat(depth)}deep`));
    if (!loaded.ok) throw new Error(loaded.message);
    const { page } = loaded;
    expect(page.clipped).toBe(false);
    // The walk reaches the bottom: every <div> entered and left, in order.
    let entered = 0;
    let left = 0;
    let deepest = 0;
    let level = 0;
    walk(page.document, {
      enter(node: HtmlNode) {
        if (isElement(node) && node.tagName === 'div') {
          entered++;
          level++;
          deepest = Math.max(deepest, level);
        }
      },
      leave(node: HtmlNode) {
        if (isElement(node) && node.tagName === 'div') {
          left++;
          level--;
        }
      },
    });
    // `<html>` and `<body>` are the first two of the 512 levels.
    expect([entered, left, deepest]).toStrictEqual([depth, depth, MAX_TREE_DEPTH - 2]);
    expect(textContent(page.document)).toBe('deep');
    expect(readableText(contentRoot(page))).toBe('deep');
  }, 120_000);
});
