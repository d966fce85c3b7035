import { canonicalize, type FetchedDocument, StorefrontError } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import * as api from '../src/index.js';
import {
  FEED_MAX_BYTES,
  FEED_MAX_DATE_RAW_CHARS,
  FEED_MAX_DEPTH,
  FEED_MAX_ELEMENTS,
  FEED_MAX_HTML_CHARS,
  FEED_MAX_ITEMS,
  FEED_MAX_LINK_CHARS,
  FEED_MAX_SUMMARY_CHARS,
  FEED_MAX_TITLE_CHARS,
  type FeedErrorCode,
  type FeedOptions,
  parseFeed,
} from '../src/index.js';

const RSS = 'application/rss+xml';

function feed(body: string | Uint8Array, init: Parameters<typeof makeDocument>[1] = {}) {
  return makeDocument(body, {
    url: 'https://news.example.com/feed.xml',
    contentType: RSS,
    ...init,
  });
}

function rss(items: string, channel = '<title>T</title>'): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel>${channel}${items}</channel></rss>`;
}

function okData(doc: FetchedDocument, options?: FeedOptions) {
  const result = parseFeed(doc, options);
  if (!result.ok) throw new Error(`expected ok, got ${result.error}: ${result.message}`);
  return result;
}

describe('public API', () => {
  test('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'FEED_MAX_BYTES',
      'FEED_MAX_DATE_RAW_CHARS',
      'FEED_MAX_DEPTH',
      'FEED_MAX_ELEMENTS',
      'FEED_MAX_HTML_CHARS',
      'FEED_MAX_ITEMS',
      'FEED_MAX_LINK_CHARS',
      'FEED_MAX_SUMMARY_CHARS',
      'FEED_MAX_TITLE_CHARS',
      'parseFeed',
      'parseFeedDate',
      'receiptRule',
      'resultSchema',
    ]);
  });

  test('has the spec and security caps', () => {
    expect(FEED_MAX_ITEMS).toBe(100);
    expect(FEED_MAX_SUMMARY_CHARS).toBe(1000);
    expect(FEED_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(FEED_MAX_DEPTH).toBe(64);
    expect(FEED_MAX_ELEMENTS).toBe(100_000);
    expect(FEED_MAX_HTML_CHARS).toBe(256 * 1024);
    expect(FEED_MAX_TITLE_CHARS).toBe(500);
    expect(FEED_MAX_LINK_CHARS).toBe(2048);
    expect(FEED_MAX_DATE_RAW_CHARS).toBe(256);
  });

  test('data has exactly four fields and each item exactly five', () => {
    const result = okData(feed(rss('<item><title>a</title></item>')));
    expect(Object.keys(result.data).sort()).toStrictEqual(['count', 'feedTitle', 'items', 'kind']);
    expect(Object.keys(result.data.items[0] ?? {}).sort()).toStrictEqual([
      'link',
      'published',
      'publishedRaw',
      'summary',
      'title',
    ]);
    expect(result.text).toBe(canonicalize(result.data));
    expect(result).not.toHaveProperty('extra');
  });
});

describe('error codes', () => {
  const cases: readonly [FeedErrorCode, string, string | null][] = [
    ['parse_error', '', RSS],
    ['parse_error', '<rss><channel><title>cut', RSS],
    ['parse_error', '<!DOCTYPE r [<!ENTITY a "b">]><rss/>', RSS],
    ['parse_error', '<rss><constructor/></rss>', RSS],
    ['parse_error', '<rss><prototype>x</prototype></rss>', RSS],
    ['unsupported_content_type', '<!doctype html><p>hi', 'text/html'],
    ['unsupported_content_type', '[1, 2]', 'application/json'],
    ['unsupported_content_type', 'plain words', 'text/plain'],
    ['unsupported_content_type', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml'],
  ];
  test.each(cases)('%s for %j', (code, body, contentType) => {
    const result = parseFeed(feed(body, { contentType }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(code);
      expect(result.message).toMatch(/\S/);
      expect(result.data).toBeUndefined();
    }
  });

  test('a body labelled HTML that holds a feed is read (the body decides)', () => {
    expect(okData(feed(rss(''), { contentType: 'text/html' })).data.kind).toBe('rss');
    expect(okData(feed(rss(''), { contentType: null })).data.kind).toBe('rss');
  });
});

describe('options', () => {
  test('null and undefined mean the defaults', () => {
    const doc = feed(rss('<item/>'));
    expect(parseFeed(doc, null)).toStrictEqual(parseFeed(doc));
    expect(parseFeed(doc, {})).toStrictEqual(parseFeed(doc));
  });

  test.each([
    ['a string', 'nope'],
    ['an array', []],
    ['an unknown option', { maxitems: 3 }],
    ['a negative cap', { maxItems: -1 }],
    ['a cap above the spec', { maxItems: 101 }],
    ['a fraction', { maxSummaryChars: 1.5 }],
    ['a numeric string', { maxSummaryChars: '10' }],
    ['a summary cap above the spec', { maxSummaryChars: 1001 }],
  ])('misuse throws a StorefrontError: %s', (_name, options) => {
    const call = () => parseFeed(feed(rss('')), options as unknown as FeedOptions);
    expect(call).toThrow(StorefrontError);
    try {
      call();
    } catch (error) {
      expect((error as StorefrontError).code).toBe('invalid_params');
    }
  });

  test('maxItems 0 keeps the title and no items', () => {
    const result = okData(feed(rss('<item><title>a</title></item>')), { maxItems: 0 });
    expect(result.data).toStrictEqual({ feedTitle: 'T', kind: 'rss', count: 0, items: [] });
  });
});

describe('security', () => {
  test('a billion-laughs document is refused at once and unexpanded', () => {
    const lols = Array.from(
      { length: 10 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join('');
    const body = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${lols}]><rss><channel><title>&lol10;</title></channel></rss>`;
    const result = parseFeed(feed(body));
    expect(result).toMatchObject({ ok: false, error: 'parse_error' });
    expect(JSON.stringify(result)).not.toContain('lollol');
  });

  test('entity declarations are refused in any case and anywhere', () => {
    for (const body of [
      '<rss><!entity x "y"></rss>',
      rss('<item><description><![CDATA[<!ENTITY quoted "in a post">]]></description></item>'),
    ]) {
      expect(parseFeed(feed(body))).toMatchObject({ ok: false, error: 'parse_error' });
    }
  });

  test('a DOCTYPE with an external subset is never fetched and does not stop the parse', () => {
    const body = `<!DOCTYPE rss SYSTEM "http://127.0.0.1/evil.dtd"><rss><channel><title>ok</title></channel></rss>`;
    expect(okData(feed(body)).data.feedTitle).toBe('ok');
  });

  test('nesting at the limit is read, one level deeper is refused', () => {
    const nested = (levels: number) =>
      `<rss><channel><item><description>${'<d>'.repeat(levels)}x${'</d>'.repeat(levels)}</description></item></channel></rss>`;
    // rss, channel, item, description = 4 levels before the <d> run.
    expect(okData(feed(nested(FEED_MAX_DEPTH - 4))).data.items[0]?.summary).toBe('x');
    expect(parseFeed(feed(nested(FEED_MAX_DEPTH - 3)))).toMatchObject({
      ok: false,
      error: 'parse_error',
    });
  });

  test('element names that pollute prototypes are refused, harmless look-alikes are fine', () => {
    expect(parseFeed(feed(rss('<item><__proto__/></item>')))).toMatchObject({
      error: 'parse_error',
    });
    const result = okData(
      feed(rss('<item><hasOwnProperty>x</hasOwnProperty><toString/><title>t</title></item>')),
    );
    expect(result.data.items[0]?.title).toBe('t');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a 2 MiB title of references is parsed and cut to the title cap', () => {
    const body = rss('', `<title>${'&lt;'.repeat(512 * 1024)}</title>`);
    const result = okData(feed(body));
    expect(result.data.feedTitle).toBe(`${'<'.repeat(FEED_MAX_TITLE_CHARS - 1)}\u2026`);
  });
});

describe('bounded strings', () => {
  test('titles over the cap are cut with a mark; at the cap they are kept whole', () => {
    const long = 'word '.repeat(200).trim(); // 999 characters
    const exact = 'e'.repeat(FEED_MAX_TITLE_CHARS);
    const astral = '\u{1F600}'.repeat(FEED_MAX_TITLE_CHARS + 1);
    const body = rss(
      `<item><title>${long}</title></item><item><title>${exact}</title></item><item><title>${astral}</title></item>`,
      `<title>${long}</title>`,
    );
    const { data } = okData(feed(body));
    const cut = `${long.slice(0, FEED_MAX_TITLE_CHARS - 1).trimEnd()}\u2026`;
    expect(data.feedTitle).toBe(cut);
    expect(data.items.map((item) => item.title)).toStrictEqual([
      cut,
      exact,
      `${'\u{1F600}'.repeat(FEED_MAX_TITLE_CHARS - 1)}\u2026`,
    ]);
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>${long}</title><entry><title>${long}</title></entry></feed>`;
    const atomData = okData(feed(atom)).data;
    expect([atomData.feedTitle, atomData.items[0]?.title]).toStrictEqual([cut, cut]);
  });

  test('links over the cap are skipped, never cut', () => {
    const path = (length: number) => `https://news.example.com/${'p'.repeat(length - 25)}`;
    expect(path(FEED_MAX_LINK_CHARS)).toHaveLength(FEED_MAX_LINK_CHARS);
    const body = rss(
      `<item><link>${path(FEED_MAX_LINK_CHARS)}</link></item>` +
        `<item><link>${path(FEED_MAX_LINK_CHARS + 1)}</link><guid>https://news.example.com/g</guid></item>` +
        `<item><link>${path(FEED_MAX_LINK_CHARS + 1)}</link></item>`,
    );
    expect(okData(feed(body)).data.items.map((item) => item.link)).toStrictEqual([
      path(FEED_MAX_LINK_CHARS),
      'https://news.example.com/g',
      '',
    ]);
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="${path(5000)}"/><link rel="alternate" href="/short"/></entry></feed>`;
    expect(okData(feed(atom)).data.items[0]?.link).toBe('https://news.example.com/short');
  });

  test('an unparseable publishedRaw over the cap is cut with a mark', () => {
    const raw = `${'x'.repeat(300)}`;
    const exact = 'y'.repeat(FEED_MAX_DATE_RAW_CHARS);
    const body = rss(
      `<item><pubDate>${raw}</pubDate></item><item><pubDate>${exact}</pubDate></item>`,
    );
    expect(okData(feed(body)).data.items.map((item) => item.publishedRaw)).toStrictEqual([
      `${'x'.repeat(FEED_MAX_DATE_RAW_CHARS - 1)}\u2026`,
      exact,
    ]);
  });

  test('the whole text stays within the documented bound on a worst-case feed', () => {
    // Every string at its cap, made of the characters JSON escapes most (a control
    // character takes 6 bytes as \u0001), links with backslashes (2 bytes each).
    const control = '&#1;';
    const link = `https://news.example.com/?${'\\'.repeat(FEED_MAX_LINK_CHARS - 26)}`;
    const item = `<item><title>${control.repeat(FEED_MAX_TITLE_CHARS + 10)}</title><link>${link}</link><pubDate>${control.repeat(FEED_MAX_DATE_RAW_CHARS + 10)}</pubDate><description>${control.repeat(FEED_MAX_SUMMARY_CHARS + 10)}</description></item>`;
    const body = rss(item.repeat(FEED_MAX_ITEMS + 5), `<title>${control.repeat(600)}</title>`);
    const { data, text } = okData(feed(body));
    expect(data.count).toBe(FEED_MAX_ITEMS);
    expect(data.items[0]?.link).toHaveLength(FEED_MAX_LINK_CHARS);
    const emptyItem = canonicalize({
      link: '',
      published: '',
      publishedRaw: '',
      summary: '',
      title: '',
    });
    const perItem =
      6 * (FEED_MAX_TITLE_CHARS + FEED_MAX_DATE_RAW_CHARS + FEED_MAX_SUMMARY_CHARS) +
      2 * FEED_MAX_LINK_CHARS +
      '2026-01-02T03:04:05.000Z'.length +
      emptyItem.length +
      1;
    const envelope = canonicalize({ count: 100, feedTitle: '', items: [], kind: 'atom' }).length;
    const bound = FEED_MAX_ITEMS * perItem + 6 * FEED_MAX_TITLE_CHARS + envelope;
    expect(bound).toBe(1_475_553);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(bound);
    expect(Buffer.byteLength(text)).toBeGreaterThan(0.9 * bound);
  });
});

describe('byte cap and truncation', () => {
  const bigItem = (i: number) =>
    `<item><title>Item ${i}</title><description>${'x'.repeat(100_000)}</description></item>`;

  test('a body over 5 MiB is cut there and keeps the items before the cut and the one it fell in', () => {
    const head = '<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>';
    const items = Array.from({ length: 60 }, (_, i) => bigItem(i + 1));
    const body = `${head}${items.join('')}</channel></rss>`;
    expect(body.length).toBeGreaterThan(FEED_MAX_BYTES);
    let complete = 0;
    let length = head.length;
    for (const item of items) {
      length += item.length;
      if (length > FEED_MAX_BYTES) break;
      complete++;
    }
    const result = okData(feed(body));
    // The cut falls in the next item's description, which is capped like any other.
    expect(result.data.count).toBe(complete + 1);
    expect(result.data.items.at(-1)?.title).toBe(`Item ${complete + 1}`);
    expect(result.data.items.at(-1)?.summary).toBe('x'.repeat(FEED_MAX_SUMMARY_CHARS));
    expect(result.data.items[0]?.summary).toBe('x'.repeat(FEED_MAX_SUMMARY_CHARS));
  });

  test('without the cap the same broken tail is a parse_error', () => {
    const body = rss('<item><title>one</title></item>').replace(
      '</channel></rss>',
      '<item><title>tw',
    );
    expect(parseFeed(feed(body))).toMatchObject({ ok: false, error: 'parse_error' });
    expect(okData(feed(body, { truncated: true })).data.items.map((i) => i.title)).toStrictEqual([
      'one',
      'tw\u2026',
    ]);
  });

  test('a truncated body with no complete item keeps what closed cleanly, and the item cut in its text', () => {
    const body = '<rss><channel><title>Only the title</title><item><title>cut';
    expect(okData(feed(body, { truncated: true })).data).toStrictEqual({
      feedTitle: 'Only the title',
      kind: 'rss',
      count: 1,
      items: [{ title: 'cut\u2026', link: '', published: '', publishedRaw: '', summary: '' }],
    });
    // Cut in markup, no field is cut: what closed is read, with no mark.
    const inMarkup = '<rss><channel><title>Only the title</title><item><title>cut</title><li';
    expect(okData(feed(inMarkup, { truncated: true })).data.items).toStrictEqual([
      { title: 'cut', link: '', published: '', publishedRaw: '', summary: '' },
    ]);
    expect(parseFeed(feed('<rss><chan', { truncated: true }))).toMatchObject({
      error: 'parse_error',
    });
  });

  test.each([
    ['decimal', '&#65;'],
    ['hexadecimal', '&#x41;'],
    ['predefined', '&amp;'],
    ['double-escaped', '&amp;#65;'],
  ])(
    'an item whose title is megabytes of %s references past the cap is kept, its title capped and marked',
    (_, reference) => {
      const head = '<?xml version="1.0"?><rss version="2.0"><channel><title>Refs</title>';
      const before = '<item><title>Before</title><link>https://a.example/1</link></item>';
      const title = reference.repeat(Math.ceil((6 * 1024 * 1024) / reference.length));
      const huge = `<item><link>https://a.example/2</link><title>${title}</title></item>`;
      const after = '<item><title>After</title></item>';
      const body = `${head}${before}${huge}${after}</channel></rss>`;
      expect(body.length).toBeGreaterThan(FEED_MAX_BYTES);
      const result = okData(feed(body));
      expect(result.data.count).toBe(2);
      const [first, cut] = result.data.items;
      expect(first?.title).toBe('Before');
      expect(cut?.link).toBe('https://a.example/2');
      expect([...(cut?.title ?? '')]).toHaveLength(FEED_MAX_TITLE_CHARS);
      expect(cut?.title).toMatch(/^[A&]+\u2026$/);
    },
  );

  test('a flood of elements is cut at the element cap and keeps the items before it', () => {
    const flood = '<x/>'.repeat(FEED_MAX_ELEMENTS);
    const body = rss(`<item><title>kept</title></item>${flood}<item><title>after</title></item>`);
    expect(okData(feed(body)).data.items.map((item) => item.title)).toStrictEqual(['kept']);
  });

  test('only the first 100 items are read: malformed markup after them is never seen', () => {
    const items = Array.from({ length: 120 }, (_, i) => `<item><title>${i}</title></item>`);
    const body = rss(`${items.join('')}<oops></nope>`);
    const result = okData(feed(body));
    expect(result.data.count).toBe(100);
    expect(result.data.items.at(-1)?.title).toBe('99');
  });
});

describe('edge cases', () => {
  test('the input document is not changed', () => {
    const doc = feed(rss('<item><title>a &amp; b</title></item>'));
    const before = Uint8Array.from(doc.bytes);
    parseFeed(doc);
    expect(doc.bytes).toStrictEqual(before);
  });

  test('relative links without a usable document URL are dropped', () => {
    const body = rss('<item><link>/a</link></item><item><link>https://x.example/b</link></item>');
    const result = okData(feed(body, { url: 'not a url' }));
    expect(result.data.items.map((item) => item.link)).toStrictEqual(['', 'https://x.example/b']);
  });

  test('items directly under <rss> are read in document order with the channel items', () => {
    const body =
      '<rss><item><title>1</title></item><channel><title>C</title><item><title>2</title></item></channel><item><title>3</title></item></rss>';
    expect(okData(feed(body)).data.items.map((item) => item.title)).toStrictEqual(['1', '2', '3']);
  });

  test('a BOM, leading whitespace and comments before the root are fine', () => {
    const body = `\ufeff\n  <!-- generated --><?xml-stylesheet href="s.xsl"?>${rss('')}`;
    expect(okData(feed(body)).data.feedTitle).toBe('T');
  });

  test.each([
    'http://purl.org/atom/ns#',
    'http://purl.org/atom/ns#draft-ietf-atompub-format-08',
    'http://purl.org/echo/',
    'http://purl.org/pie/',
    'http://example.com/newformat#',
    'http://example.com/necho',
    'uri/of/echo/namespace#',
  ])('a <feed> in the pre-1.0 Atom namespace %s is read as Atom', (ns) => {
    const body = `<feed xmlns="${ns}"><title>Old</title><entry><title>e</title><link rel="alternate" href="/e"/><issued>2004-01-02</issued></entry></feed>`;
    const { data } = okData(feed(body));
    expect(data).toMatchObject({ kind: 'atom', feedTitle: 'Old', count: 1 });
    expect(data.items[0]).toMatchObject({
      link: 'https://news.example.com/e',
      published: '2004-01-02T00:00:00.000Z',
    });
  });

  test('a <feed> in a look-alike namespace is still refused', () => {
    const result = parseFeed(feed('<feed xmlns="http://purl.org/atom/ns#draft-other"/>'));
    expect(result).toMatchObject({ ok: false, error: 'unsupported_content_type' });
  });

  test('an Atom entry without Atom dates falls back to the Dublin Core dates', () => {
    const body = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <entry><title>a</title><dcterms:modified>2026-03-02</dcterms:modified><dcterms:issued>2026-03-01</dcterms:issued></entry>
      <entry><title>b</title><dc:date>2026-03-03</dc:date><updated>2026-03-04T00:00:00Z</updated></entry>
    </feed>`;
    const items = okData(feed(body)).data.items;
    expect(items.map((item) => item.published)).toStrictEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-04T00:00:00.000Z',
    ]);
  });

  test('lone surrogates from references never reach the canonical text', () => {
    const result = okData(feed(rss('<item><title>a&#xD800;b</title></item>')));
    expect(result.data.items[0]?.title).toBe('a\ufffdb');
  });

  test('publishedRaw is well-formed even when the date text is not', () => {
    const result = okData(feed(rss('<item><pubDate>\ud800 soon</pubDate></item>')));
    expect(result.data.items[0]).toMatchObject({ published: '', publishedRaw: '\ufffd soon' });
  });

  test('the same document object gives byte-identical text twice', () => {
    const doc = feed(
      rss('<item><title>x</title><pubDate>Fri, 02 Jan 2026 03:04 EST</pubDate></item>'),
    );
    expect(okData(doc).text).toBe(okData(doc).text);
  });
});
