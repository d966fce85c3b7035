import { fileURLToPath } from 'node:url';
import { StorefrontError, URL_MAX_CHARS } from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import * as links from '../src/index.js';
import {
  extractLinks,
  type LinksData,
  MAX_LINK_TEXT_CHARS,
  MAX_LINK_URL_CHARS,
  MAX_LINKS,
} from '../src/index.js';

function graph(html: string, url = 'https://example.com/page'): LinksData {
  const result = extractLinks(makeDocument(html, { url }));
  if (!result.ok) throw new Error(`expected ok, got ${result.error}`);
  return result.data;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(links).sort()).toStrictEqual([
      'MAX_LINKS',
      'MAX_LINKS_TOTAL_CHARS',
      'MAX_LINK_TEXT_CHARS',
      'MAX_LINK_URL_CHARS',
      'extractLinks',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('has the documented caps', () => {
    expect([MAX_LINKS, MAX_LINK_TEXT_CHARS, MAX_LINK_URL_CHARS]).toStrictEqual([10_000, 500, 2048]);
    expect(MAX_LINK_URL_CHARS).toBe(URL_MAX_CHARS);
    expect(links.MAX_LINKS_TOTAL_CHARS).toBe(2_000_000);
  });
});

describe('error codes', () => {
  it('reports unsupported_content_type for a PDF', () => {
    const result = extractLinks(
      makeDocument('%PDF-1.7\n%\u00e2\u00e3', { contentType: 'application/pdf' }),
    );
    expect(result).toMatchObject({ ok: false, error: 'unsupported_content_type' });
  });

  it('reports parse_error when the parser gives up', async () => {
    // The tokenizer as @storefront/html resolves it (htmlparser2 is its dependency, not ours).
    const htmlparser2 = fileURLToPath(
      import.meta.resolve('htmlparser2', import.meta.resolve('@storefront/html')),
    );
    vi.resetModules();
    vi.doMock(htmlparser2, async (importOriginal) => ({
      ...(await importOriginal<Record<string, unknown>>()),
      Tokenizer: class {
        write(): void {
          throw new RangeError('engine limit');
        }
      },
    }));
    try {
      const fresh = await import('../src/index.js');
      const result = fresh.extractLinks(makeDocument('<a href="/x">x</a>'));
      expect(result).toMatchObject({ ok: false, error: 'parse_error' });
      expect(result.ok ? '' : result.message).toContain('engine limit');
    } finally {
      vi.doUnmock(htmlparser2);
      vi.resetModules();
    }
  });
});

describe('misuse', () => {
  it('throws on options that are not an object', () => {
    expect(() => extractLinks(makeDocument(''), 'x' as never)).toThrow(StorefrontError);
    expect(() => extractLinks(makeDocument(''), [] as never)).toThrow(/got `array`/);
  });

  it('throws on an unknown option', () => {
    expect(() => extractLinks(makeDocument(''), { max: 5 } as never)).toThrow(
      'Unknown option `max`: `extractLinks` takes no options',
    );
  });

  it('accepts null, undefined and an empty object', () => {
    for (const options of [null, undefined, {}]) {
      expect(extractLinks(makeDocument(''), options).ok).toBe(true);
    }
  });

  it('throws when the document URL is not an absolute http(s) URL', () => {
    for (const url of ['not a url', 'ftp://example.com/', 'file:///etc/passwd']) {
      const doc = makeDocument('<a href="https://a.example/">a</a>', { url });
      expect(() => extractLinks(doc)).toThrow(StorefrontError);
    }
  });
});

describe('graph', () => {
  it('takes pageOrigin from the final URL, not the requested one or the base', () => {
    const doc = makeDocument('<base href="https://cdn.example/"><a href="x">x</a>', {
      requestedUrl: 'http://old.example/',
      url: 'https://user:pw@www.example.com:8443/a#frag',
    });
    const result = extractLinks(doc);
    expect(result.ok && result.data.pageOrigin).toBe('https://www.example.com:8443');
    expect(result.ok && result.data.links[0]).toStrictEqual({
      url: 'https://cdn.example/x',
      text: 'x',
      origin: 'https://cdn.example',
      internal: false,
    });
  });

  it('counts links in navigation, header, footer and hidden elements alike', () => {
    const data = graph(
      '<header><a href="/h">h</a></header><nav><a href="/n">n</a></nav><main><a href="/m">m</a></main>' +
        '<footer><a href="/f">f</a></footer><div hidden><a href="/hidden">x</a></div>',
    );
    expect(data.total).toBe(5);
  });

  it('keeps the first MAX_LINKS distinct URLs in document order', () => {
    const anchors: string[] = [];
    for (let i = 0; i < MAX_LINKS + 50; i++) anchors.push(`<a href="/l/${i}">${i}</a>`);
    // A later anchor for a kept URL still supplies its text.
    anchors.push('<a href="/l/0">zero</a>', '<a href="/empty"></a>');
    const data = graph(`<a href="/l/0"></a>${anchors.join('')}`);
    expect(data.total).toBe(MAX_LINKS);
    expect(data.internalCount).toBe(MAX_LINKS);
    const urls = new Set(data.links.map((link) => link.url));
    expect(urls.has(`https://example.com/l/${MAX_LINKS - 1}`)).toBe(true);
    expect(urls.has(`https://example.com/l/${MAX_LINKS}`)).toBe(false);
    expect(urls.has('https://example.com/empty')).toBe(false);
    expect(data.links.find((link) => link.url === 'https://example.com/l/0')?.text).toBe('0');
  });

  it(`leaves out links longer than ${MAX_LINK_URL_CHARS} characters`, () => {
    const path = 'a'.repeat(MAX_LINK_URL_CHARS);
    const fits = `https://example.com/${'b'.repeat(MAX_LINK_URL_CHARS - 'https://example.com/'.length)}`;
    const data = graph(`<a href="/${path}">long</a><a href="${fits}">fits</a>`);
    expect(data.links.map((link) => link.text)).toStrictEqual(['fits']);
    expect(data.links[0]?.url.length).toBe(MAX_LINK_URL_CHARS);
  });

  it(`cuts anchor text at ${MAX_LINK_TEXT_CHARS} characters with a mark, never splitting a surrogate pair`, () => {
    const keep = MAX_LINK_TEXT_CHARS - 1;
    const long = graph(`<a href="/x">${'y'.repeat(MAX_LINK_TEXT_CHARS * 3)}</a>`);
    expect(long.links[0]?.text).toBe(`${'y'.repeat(keep)}…`);
    const emoji = graph(`<a href="/x">${'y'.repeat(keep - 1)}\u{1F600}z</a>`);
    expect(emoji.links[0]?.text).toBe(`${'y'.repeat(keep - 1)}…`);
    const exact = graph(`<a href="/x">${'y'.repeat(MAX_LINK_TEXT_CHARS)}</a>`);
    expect(exact.links[0]?.text).toBe('y'.repeat(MAX_LINK_TEXT_CHARS));
    // Text that goes on after a space at the cap is cut too, though what is kept fits.
    const after = graph(`<a href="/x">${'y'.repeat(MAX_LINK_TEXT_CHARS)} <b>more</b></a>`);
    expect(after.links[0]?.text).toBe(`${'y'.repeat(keep)}…`);
    const trailing = graph(`<a href="/x">${'y'.repeat(MAX_LINK_TEXT_CHARS)} <b> </b> </a>`);
    expect(trailing.links[0]?.text).toBe('y'.repeat(MAX_LINK_TEXT_CHARS));
    const spaced = graph(`<a href="/x">${' '.repeat(10_000)}a${' \n\t'.repeat(10_000)}b</a>`);
    expect(spaced.links[0]?.text).toBe('a b');
  });

  it('collapses whitespace and &nbsp; so rows never hold tabs or line breaks', () => {
    const data = graph(
      '<a href="/x">\tA\u00a0\u00a0B\r\nC&#9;D</a><a href="/y">\u3000wide\u3000</a>',
    );
    expect(data.links.map((link) => link.text)).toStrictEqual(['A B C D', '\u3000wide\u3000']);
  });

  it('prefers visible text over a fallback from any anchor of the same URL', () => {
    const data = graph(
      '<a href="/x" aria-label="label"></a><a href="/x" title="title"><img alt="alt"></a><a href="/x">visible</a>',
    );
    expect(data.links[0]?.text).toBe('visible');
    const fallback = graph(
      '<a href="/x" title="title"><img alt=""></a><a href="/x" aria-label="label"></a>',
    );
    expect(fallback.links[0]?.text).toBe('title');
  });

  it('treats http and https, ports and www of the page host as internal', () => {
    const data = graph(
      '<a href="http://example.com/">1</a><a href="https://www.example.com:81/">2</a><a href="https://sub.example.com/">3</a>',
      'https://example.com/',
    );
    expect(data.links.map((link) => [link.text, link.internal])).toStrictEqual([
      ['1', true],
      ['3', false],
      ['2', true],
    ]);
  });

  it('shares one parse with other products of the same document', () => {
    const doc = makeDocument('<a href="/x">x</a>');
    const loaded = loadHtml(doc);
    const first = extractLinks(doc);
    expect(loadHtml(doc)).toBe(loaded);
    expect(extractLinks(doc)).toStrictEqual(first);
  });
});
