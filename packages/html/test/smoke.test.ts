import { makeDocument } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { contentRoot, loadHtml, readableText } from '../src/index.js';

test('smoke', () => {
  const doc = makeDocument(`<!doctype html><html><head><title> Hi  there </title><base href="/sub/"></head><body>
  <header><nav><a href="/">Home</a></nav></header>
  <div class="cookie-banner">Accept cookies</div>
  <main><h1>Title</h1><p>First   paragraph with <b>bold</b>.</p><ul><li>one</li><li>two</li></ul>
  <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>
  <pre>  code
   here</pre><p>line<br>break</p></main><footer>(c) 2026</footer></body></html>`);
  const loaded = loadHtml(doc);
  if (!loaded.ok) throw new Error(loaded.message);
  expect(loaded.page.title).toBe('Hi there');
  expect(loaded.page.baseUrl).toBe('https://example.com/sub/');
  console.log(JSON.stringify(readableText(contentRoot(loaded.page))));
  const deep = makeDocument('<div>'.repeat(10000) + 'x' + '</div>'.repeat(10000));
  const t = performance.now();
  const l2 = loadHtml(deep);
  if (!l2.ok) throw new Error();
  expect(readableText(contentRoot(l2.page))).toBe('x');
  console.log('deep ms', performance.now() - t);
});
