import { canonicalize, type ProductResult } from '@storefront/core';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  makeDocument,
  textArbitrary,
} from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  FEED_MAX_DATE_RAW_CHARS,
  FEED_MAX_ITEMS,
  FEED_MAX_LINK_CHARS,
  FEED_MAX_SUMMARY_CHARS,
  FEED_MAX_TITLE_CHARS,
  type FeedData,
  type FeedOptions,
  parseFeed,
} from '../src/index.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const feedContentType = fc.oneof(
  contentTypeArbitrary,
  fc.constantFrom(
    'application/rss+xml',
    'application/atom+xml',
    'application/xml; charset=iso-8859-1',
    'text/xml; charset=utf-16',
  ),
);

/** Character data as feeds write it: entities of every layer, CDATA, escaped and raw markup. */
const xmlText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: textArbitrary.map((text) => text.replace(/[<&]/g, '')) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '&amp;',
          '&lt;',
          '&gt;',
          '&quot;',
          '&#233;',
          '&#x1F600;',
          '&eacute;',
          '&amp;eacute;',
          '&amp;amp;',
          '&#150;',
          '&#0;',
          '&#xD800;',
          '&#99999999;',
          '&nbsp;',
          '&',
          '&lt;p&gt;',
          '&lt;/p&gt;',
          '&lt;script&gt;x&lt;/script&gt;',
          '<![CDATA[<b>bold</b> & more]]>',
          '<![CDATA[]]>',
          '<b>inline</b>',
          '<br/>',
          '<!-- note -->',
          '\u{1F600}',
          '\ud800',
          ' \n\t ',
          '\u00a0',
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'grapheme', maxLength: 30 })
          .map((s) => s.replace(/[<&]/g, '')),
      },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const dateText = fc.oneof(
  fc.constantFrom(
    'Fri, 02 Jan 2026 03:04:05 GMT',
    'Mon, 30 Feb 2026 00:00:00 GMT',
    '2 jan 26 3:04 +0530',
    '2026-01-02T03:04:05.123456+01:00',
    '2026-01',
    'soon',
    '',
    '9999-12-31T23:59:59-01:00',
  ),
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[<&]/g, '')),
);

const linkText = fc.constantFrom(
  'https://a.example/x',
  '/relative',
  '../up',
  '?q=1',
  'javascript:alert(1)',
  '',
  '  ',
  'mailto:a@b.example',
  'https://a.example/x?a=1&amp;b=2',
  'http://[::1',
  'ht tp://bad',
);

const extra = fc.constantFrom(
  '',
  '<guid>https://g.example/1</guid>',
  '<guid isPermaLink="false">x</guid>',
  '<dc:date>2026-01-01</dc:date>',
  '<content:encoded>&lt;p&gt;full&lt;/p&gt;</content:encoded>',
  '<hasOwnProperty/>',
  '<x:y xmlns:x="urn:x">z</x:y>',
  '<category>a</category>',
);

const rssItem = fc
  .record({ title: xmlText, link: linkText, description: xmlText, date: dateText, extra })
  .map(
    ({ title, link, description, date, extra }) =>
      `<item><title>${title}</title><link>${link}</link><description>${description}</description><pubDate>${date}</pubDate>${extra}</item>`,
  );

const atomEntry = fc
  .record({
    title: xmlText,
    type: fc.constantFrom('', ' type="html"', ' type="text"', ' type="xhtml"', ' type="image/png"'),
    href: linkText,
    base: fc.constantFrom('', ' xml:base="https://b.example/dir/"', ' xml:base="sub/"'),
    summary: xmlText,
    date: dateText,
  })
  .map(
    ({ title, type, href, base, summary, date }) =>
      `<entry${base}><title${type}>${title}</title><link href="${href.replace(/"/g, '')}"/><updated>${date}</updated><summary${type}>${type === ' type="xhtml"' ? `<div xmlns="http://www.w3.org/1999/xhtml">${summary}</div>` : summary}</summary></entry>`,
  );

/** Feed-shaped XML in the three formats, sometimes cut at a random point. */
const feedXml = fc
  .tuple(
    fc.oneof(
      fc
        .tuple(xmlText, fc.array(rssItem, { maxLength: 6 }))
        .map(
          ([title, items]) =>
            `<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>${title}</title>${items.join('')}</channel></rss>`,
        ),
      fc
        .tuple(xmlText, fc.array(rssItem, { maxLength: 6 }))
        .map(
          ([title, items]) =>
            `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>${title}</title></channel>${items.join('')}</rdf:RDF>`,
        ),
      fc
        .tuple(xmlText, fc.array(atomEntry, { maxLength: 6 }))
        .map(
          ([title, entries]) =>
            `<feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title>${entries.join('')}</feed>`,
        ),
    ),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([xml, cut]) => (cut === undefined ? xml : xml.slice(0, cut % (xml.length + 1))));

const options: fc.Arbitrary<FeedOptions | undefined> = fc.option(
  fc.record(
    {
      maxItems: fc.integer({ min: 0, max: FEED_MAX_ITEMS }),
      maxSummaryChars: fc.integer({ min: 0, max: FEED_MAX_SUMMARY_CHARS }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

function checkInvariants(result: ProductResult<FeedData>, limits: FeedOptions = {}): void {
  if (!result.ok) {
    expect(['parse_error', 'unsupported_content_type']).toContain(result.error);
    expect(typeof result.message).toBe('string');
    return;
  }
  const { data, text } = result;
  expect(text).toBe(canonicalize(data));
  expect(JSON.parse(text)).toStrictEqual(data);
  expect(Object.keys(data).sort()).toStrictEqual(['count', 'feedTitle', 'items', 'kind']);
  expect(['rss', 'atom']).toContain(data.kind);
  expect(Number.isInteger(data.count)).toBe(true);
  expect(data.count).toBe(data.items.length);
  expect(data.count).toBeLessThanOrEqual(limits.maxItems ?? FEED_MAX_ITEMS);
  expect([...data.feedTitle].length).toBeLessThanOrEqual(FEED_MAX_TITLE_CHARS);
  for (const item of data.items) {
    expect(Object.keys(item).sort()).toStrictEqual([
      'link',
      'published',
      'publishedRaw',
      'summary',
      'title',
    ]);
    expect([...item.summary].length).toBeLessThanOrEqual(
      limits.maxSummaryChars ?? FEED_MAX_SUMMARY_CHARS,
    );
    expect([...item.title].length).toBeLessThanOrEqual(FEED_MAX_TITLE_CHARS);
    expect([...item.publishedRaw].length).toBeLessThanOrEqual(FEED_MAX_DATE_RAW_CHARS);
    expect(item.link.length).toBeLessThanOrEqual(FEED_MAX_LINK_CHARS);
    expect(item.published === '' || ISO.test(item.published)).toBe(true);
    if (item.published !== '') expect(item.publishedRaw).not.toBe('');
    if (item.link !== '') {
      expect(item.link).toMatch(/^https?:\/\//);
      expect(URL.canParse(item.link)).toBe(true);
    }
    for (const value of [item.title, item.summary, data.feedTitle]) {
      expect(value).toBe(value.trim());
      expect(value).not.toMatch(/\s{2}|[\t\n\r]/);
    }
  }
}

describe('properties', () => {
  test('total on arbitrary bytes and content types', () => {
    fc.assert(
      fc.property(
        bytesArbitrary,
        feedContentType,
        fc.boolean(),
        (bytes, contentType, truncated) => {
          checkInvariants(parseFeed(makeDocument(bytes, { contentType, truncated })));
        },
      ),
      { numRuns: 600 },
    );
  });

  test('total on feed-shaped XML, with invariants on every success', () => {
    fc.assert(
      fc.property(feedXml, fc.boolean(), options, (xml, truncated, opts) => {
        const doc = makeDocument(xml, { contentType: 'application/rss+xml', truncated });
        checkInvariants(parseFeed(doc, opts), opts);
      }),
      { numRuns: 600 },
    );
  });

  test('well-formed generated feeds always succeed with every item', () => {
    fc.assert(
      fc.property(fc.tuple(xmlText, fc.array(rssItem, { maxLength: 8 })), ([title, items]) => {
        const xml = `<rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>${title}</title>${items.join('')}</channel></rss>`;
        const result = parseFeed(makeDocument(xml, { contentType: 'application/rss+xml' }));
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.data.count).toBe(items.length);
      }),
      { numRuns: 300 },
    );
  });

  test('deterministic: the same bytes give the same text from a fresh document', () => {
    fc.assert(
      fc.property(feedXml, (xml) => {
        const first = parseFeed(makeDocument(xml, { contentType: 'application/atom+xml' }));
        const second = parseFeed(
          makeDocument(new TextEncoder().encode(xml), { contentType: 'application/atom+xml' }),
        );
        expect(second).toStrictEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  test('the item cap keeps the first items in document order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 250 }), (n) => {
        const items = Array.from({ length: n }, (_, i) => `<entry><title>${i}</title></entry>`);
        const xml = `<feed xmlns="http://www.w3.org/2005/Atom">${items.join('')}</feed>`;
        const result = parseFeed(makeDocument(xml, { contentType: 'application/atom+xml' }));
        if (!result.ok) throw new Error(result.message);
        const expected = Array.from({ length: Math.min(n, FEED_MAX_ITEMS) }, (_, i) => String(i));
        expect(result.data.items.map((item) => item.title)).toStrictEqual(expected);
      }),
      { numRuns: 30 },
    );
  });
});
