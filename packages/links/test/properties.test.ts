import { fc, test } from '@fast-check/vitest';
import { joinRows } from '@storefront/core';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import { describe, expect } from 'vitest';
import { extractLinks, type LinksData, MAX_LINK_TEXT_CHARS } from '../src/index.js';

const pageUrl = fc.constantFrom(
  'https://example.com/page',
  'http://www.example.com/a/b?q=1#frag',
  'https://example.org:8443/',
  'https://xn--bcher-kva.example/dir/',
);

/** Code-unit order, as the package sorts. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function checkInvariants(data: LinksData, text: string): void {
  const urls = data.links.map((link) => link.url);
  expect(new Set(urls).size).toBe(urls.length);
  for (const link of data.links) {
    const parsed = new URL(link.url);
    expect(['http:', 'https:']).toContain(parsed.protocol);
    expect(parsed.href).toBe(link.url);
    expect(parsed.hash).toBe('');
    expect(link.url.includes('#')).toBe(false);
    expect(parsed.username + parsed.password).toBe('');
    expect(link.origin).toBe(parsed.origin);
    expect(link.text).not.toMatch(/[\t\r\n]/);
    expect(link.text.length).toBeLessThanOrEqual(MAX_LINK_TEXT_CHARS);
    expect(link.text).toBe(link.text.replace(/^ +| +$/g, ''));
  }
  expect(data.total).toBe(data.links.length);
  expect(data.internalCount + data.externalCount).toBe(data.total);
  expect(data.internalCount).toBe(data.links.filter((link) => link.internal).length);
  expect(data.byOrigin.reduce((sum, group) => sum + group.count, 0)).toBe(data.total);
  expect(data.originCount).toBe(data.byOrigin.length);
  expect(new Set(data.byOrigin.map((group) => group.origin)).size).toBe(data.originCount);
  for (let i = 1; i < data.byOrigin.length; i++) {
    const a = data.byOrigin[i - 1]!;
    const b = data.byOrigin[i]!;
    expect(a.count > b.count || (a.count === b.count && a.origin < b.origin)).toBe(true);
  }
  const origins = data.links.map((link) => link.origin);
  expect(origins).toStrictEqual([...origins].sort(byCodeUnits));
  const external = [
    ...new Set(data.links.filter((link) => !link.internal).map((link) => link.origin)),
  ].sort(byCodeUnits);
  expect(data.thirdPartyOrigins).toStrictEqual(external);
  expect(text).toBe(joinRows(data.links.map((link) => [link.text, link.url])));
}

describe('extractLinks properties', () => {
  test.prop([bytesArbitrary, contentTypeArbitrary])(
    'is total on any bytes and content type',
    (bytes, contentType) => {
      const result = extractLinks(makeDocument(bytes, { contentType }));
      if (result.ok) checkInvariants(result.data, result.text);
      else expect(['unsupported_content_type', 'parse_error']).toContain(result.error);
    },
  );

  test.prop([htmlArbitrary, pageUrl])('keeps its invariants on arbitrary HTML', (html, url) => {
    const result = extractLinks(makeDocument(html, { url }));
    // A NUL early in the body reads as binary data, not HTML.
    if (result.ok) checkInvariants(result.data, result.text);
    else expect(result.error).toBe('unsupported_content_type');
  });

  test.prop([htmlArbitrary, pageUrl])('gives the same text for the same bytes', (html, url) => {
    // Two documents, so the parse cache is not what makes the texts equal.
    const a = extractLinks(makeDocument(html, { url }));
    const b = extractLinks(makeDocument(html, { url }));
    expect(a).toStrictEqual(b);
  });

  test.prop([
    fc.array(fc.webUrl({ withFragments: true, withQueryParameters: true }), { maxLength: 30 }),
    pageUrl,
  ])('resolves every absolute http(s) href to one unique link', (hrefs, url) => {
    const html = hrefs
      .map((href, i) => `<a href="${href.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${i}</a>`)
      .join('');
    const result = extractLinks(makeDocument(html, { url }));
    if (!result.ok) throw new Error(result.error);
    checkInvariants(result.data, result.text);
    const page = new URL(url);
    page.hash = '';
    const expected = new Set<string>();
    for (const href of hrefs) {
      const target = new URL(href);
      const hadFragment = target.href.includes('#');
      target.hash = '';
      target.username = '';
      target.password = '';
      if (hadFragment && target.href === page.href) continue;
      expected.add(target.href);
    }
    expect(new Set(result.data.links.map((link) => link.url))).toStrictEqual(expected);
  });
});
