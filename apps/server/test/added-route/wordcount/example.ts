import type { RouteExample } from '../../../src/registry/types.js';

/** `/buy/wordcount`'s example: its own fixture page, served by the fixture site. */
export const example: RouteExample = {
  query: { url: 'https://example.com/' },
  call: (site) => ({ url: site.url('/wordcount/page.html') }),
  credits: 2,
  pages: {
    '/wordcount/page.html': {
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><html><head><title>Three little words</title></head><body><h1>Counting</h1><p>One two three four five.</p></body></html>',
    },
  },
};
