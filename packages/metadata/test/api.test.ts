import { canonicalize, StorefrontError, URL_MAX_CHARS } from '@storefront/core';
import * as html from '@storefront/html';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import * as api from '../src/index.js';
import {
  collectMetadata,
  extractMetadata,
  JSONLD_MAX_BLOCK_CHARS,
  JSONLD_MAX_DEPTH,
  JSONLD_MAX_ITEMS,
  METADATA_MAX_URL_CHARS,
  OPEN_GRAPH_PREFIXES,
  parseJsonLd,
} from '../src/index.js';

// parse5 recovers from every markup error, so the only way to see loadHtml's
// `parse_error` pass through is to have loadHtml report it for one marked document.
const PARSE_ERROR_URL = 'https://parse-error.test/';
vi.mock('@storefront/html', async (importOriginal) => {
  const original = await importOriginal<typeof import('@storefront/html')>();
  return {
    ...original,
    loadHtml: (doc: { url: string }) =>
      doc.url === PARSE_ERROR_URL
        ? { ok: false, error: 'parse_error', message: 'The page could not be parsed: limit.' }
        : original.loadHtml(doc as Parameters<typeof original.loadHtml>[0]),
  };
});

function page(body: string, init: Parameters<typeof makeDocument>[1] = {}) {
  const loaded = html.loadHtml(makeDocument(body, init));
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.page;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'JSONLD_MAX_BLOCK_CHARS',
      'JSONLD_MAX_DEPTH',
      'JSONLD_MAX_ITEMS',
      'JSONLD_MAX_KEY_CHARS',
      'JSONLD_MAX_STRING_CHARS',
      'METADATA_MAX_JSONLD_CHARS',
      'METADATA_MAX_TITLE_CHARS',
      'METADATA_MAX_URL_CHARS',
      'META_MAX_KEYS',
      'META_MAX_KEY_CHARS',
      'META_MAX_VALUE_CHARS',
      'OPEN_GRAPH_PREFIXES',
      'collectMetadata',
      'extractMetadata',
      'parseJsonLd',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('has the documented caps', () => {
    expect(JSONLD_MAX_BLOCK_CHARS).toBe(1024 * 1024);
    expect(JSONLD_MAX_DEPTH).toBe(64);
    expect(JSONLD_MAX_ITEMS).toBe(100);
    expect(METADATA_MAX_URL_CHARS).toBe(URL_MAX_CHARS);
    expect(OPEN_GRAPH_PREFIXES).toStrictEqual([
      'og:',
      'article:',
      'book:',
      'music:',
      'product:',
      'profile:',
      'video:',
    ]);
    expect(Object.isFrozen(OPEN_GRAPH_PREFIXES)).toBe(true);
  });
});

describe('error codes', () => {
  it('reports unsupported_content_type for a body that is not HTML', () => {
    const result = extractMetadata(makeDocument('%PDF-1.4', { contentType: 'application/pdf' }));
    expect(result).toStrictEqual({
      ok: false,
      error: 'unsupported_content_type',
      message: 'Cannot read the page as HTML: content type `application/pdf` is not HTML.',
    });
  });

  it('passes parse_error through from the shared parse', () => {
    const result = extractMetadata(makeDocument('<title>x</title>', { url: PARSE_ERROR_URL }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('parse_error');
  });

  it('throws invalid_params for options it does not know', () => {
    const doc = makeDocument('<title>x</title>');
    expect(() => extractMetadata(doc, { jsonLd: false } as never)).toThrow(StorefrontError);
    expect(() => extractMetadata(doc, 'x' as never)).toThrow(
      'Expected the options of `extractMetadata` to be an object, null or undefined, got `string`',
    );
    try {
      extractMetadata(doc, [] as never);
    } catch (error) {
      expect((error as StorefrontError).code).toBe('invalid_params');
    }
    expect(extractMetadata(doc, null).ok).toBe(true);
    expect(extractMetadata(doc, {}).ok).toBe(true);
  });
});

describe('extractMetadata', () => {
  it('signs the canonical JSON of data', () => {
    const result = extractMetadata(
      makeDocument('<title>T</title><meta name="description" content="D">'),
    );
    if (!result.ok) throw new Error('expected ok');
    expect(result.text).toBe(canonicalize(result.data));
    expect(result.text).toBe(
      '{"canonical":null,"counts":{"jsonLd":0,"openGraph":0,"standard":1,"twitter":0},"jsonLd":[],"openGraph":{},"standard":{"description":"D"},"title":"T","twitter":{}}',
    );
  });

  it('shares one collection between products reading the same page', () => {
    const doc = makeDocument('<meta property="og:title" content="Shared">');
    const loaded = html.loadHtml(doc);
    if (!loaded.ok) throw new Error('expected ok');
    const first = collectMetadata(loaded.page);
    expect(collectMetadata(loaded.page)).toBe(first);
    const result = extractMetadata(doc);
    expect(result.ok && result.data.openGraph).toBe(first.openGraph);
  });

  it('keeps a `__proto__` meta name as an own key', () => {
    const { standard } = collectMetadata(page('<meta name="__proto__" content="x">'));
    expect(Object.hasOwn(standard, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(standard)).toBe(Object.prototype);
  });

  it('ignores metadata inside <template> and SVG', () => {
    const collected = collectMetadata(
      page(
        '<template><meta name="description" content="inert"><link rel="canonical" href="/t"></template>' +
          '<svg><script type="application/ld+json">{"@type":"Thing"}</script><link rel="canonical" href="/svg"/></svg>' +
          '<meta name="description" content="live">',
      ),
    );
    expect(collected.standard).toStrictEqual({ description: 'live' });
    expect(collected.canonical).toBeNull();
    expect(collected.jsonLd).toStrictEqual([]);
  });

  it('refuses canonical links that do not resolve to http(s)', () => {
    expect(
      collectMetadata(page('<link rel="canonical" href="mailto:a@b.c">')).canonical,
    ).toBeNull();
    expect(collectMetadata(page('<link rel="canonical" href="http://[::1">')).canonical).toBeNull();
    expect(collectMetadata(page('<link rel="canonical">')).canonical).toBeNull();
    expect(collectMetadata(page('<link rel="canonical" href="//cdn.example/x">')).canonical).toBe(
      'https://cdn.example/x',
    );
  });

  it('keeps at most JSONLD_MAX_ITEMS objects per page', () => {
    const block = `<script type="application/ld+json">[${Array.from({ length: 60 }, (_, i) => `{"n":${i}}`).join(',')}]</script>`;
    const { jsonLd } = collectMetadata(page(block + block + block));
    expect(jsonLd).toHaveLength(JSONLD_MAX_ITEMS);
    expect(jsonLd[59]).toStrictEqual({ n: 59 });
    expect(jsonLd[60]).toStrictEqual({ n: 0 });
    expect(jsonLd[99]).toStrictEqual({ n: 39 });
  });

  it('takes the charset from the first of <meta charset> and http-equiv', () => {
    const { standard } = collectMetadata(
      page(
        '<meta charset=" UTF-8 "><meta http-equiv="content-type" content="text/html; charset=\'koi8-r\'">',
      ),
    );
    expect(standard.charset).toBe('utf-8');
    expect(
      collectMetadata(
        page('<meta http-equiv="Content-Type" content="text/html;charset=\'koi8-r\'">'),
      ).standard.charset,
    ).toBe('koi8-r');
    expect(
      collectMetadata(page('<meta http-equiv="Content-Type" content="text/html">')).standard,
    ).toStrictEqual({ 'http-equiv:content-type': 'text/html' });
  });

  it('adds less than one parse to the shared parse', () => {
    const row =
      '<div class="card"><h2>Item</h2><p>Some <b>text</b> and a <a href="/x">link</a>.</p>' +
      '<meta itemprop="sku" content="1"><script type="application/ld+json">{"@type":"Thing","name":"n"}</script></div>';
    const body = `<head><title>T</title><meta property="og:title" content="x"></head><body>${row.repeat(2000)}</body>`;
    let parse = Number.POSITIVE_INFINITY;
    let collect = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      const doc = makeDocument(body);
      let start = performance.now();
      const loaded = html.loadHtml(doc);
      parse = Math.min(parse, performance.now() - start);
      if (!loaded.ok) throw new Error('expected ok');
      start = performance.now();
      collectMetadata(loaded.page);
      collect = Math.min(collect, performance.now() - start);
    }
    expect(collect).toBeLessThan(parse);
  });
});

describe('parseJsonLd', () => {
  it('flattens arrays and @graph, carrying @context to members without their own', () => {
    expect(
      parseJsonLd(
        JSON.stringify({
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'A' },
            [{ '@type': 'B', '@context': { '@vocab': 'https://example.org/' } }],
            'text',
            null,
          ],
        }),
      ),
    ).toStrictEqual([
      { '@context': 'https://schema.org', '@type': 'A' },
      { '@type': 'B', '@context': { '@vocab': 'https://example.org/' } },
    ]);
  });

  it('keeps a @graph container that says more than @context and @graph, before its members', () => {
    expect(
      parseJsonLd('{"@context":"c","@id":"#page","@graph":{"@type":"A"},"name":"container"}'),
    ).toStrictEqual([
      { '@context': 'c', '@id': '#page', name: 'container' },
      { '@context': 'c', '@type': 'A' },
    ]);
  });

  it('flattens nested @graph containers', () => {
    expect(parseJsonLd('[{"@graph":[{"@graph":[{"x":1}]}]},{"y":2}]')).toStrictEqual([
      { x: 1 },
      { y: 2 },
    ]);
  });

  it('tolerates wrappers in any combination', () => {
    for (const text of [
      '<!-- {"a":1} -->',
      '<![CDATA[{"a":1}]]>',
      '/*<![CDATA[*/{"a":1}/*]]>*/',
      '<!--//<![CDATA[\n{"a":1};\n//]]>-->',
      '\ufeff {"a":1} ;',
    ]) {
      expect(parseJsonLd(text)).toStrictEqual([{ a: 1 }]);
    }
  });

  it('returns null for broken, empty, oversized and too deep blocks', () => {
    expect(parseJsonLd('{"a":')).toBeNull();
    expect(parseJsonLd('   ')).toBeNull();
    expect(parseJsonLd('<!-- -->')).toBeNull();
    expect(parseJsonLd(`{"a":"${'x'.repeat(JSONLD_MAX_BLOCK_CHARS)}"}`)).toBeNull();
    const nest = (depth: number) => '['.repeat(depth - 1) + '{}' + ']'.repeat(depth - 1);
    expect(parseJsonLd(nest(JSONLD_MAX_DEPTH))).toStrictEqual([{}]);
    expect(parseJsonLd(nest(JSONLD_MAX_DEPTH + 1))).toBeNull();
    expect(parseJsonLd('['.repeat(100000) + ']'.repeat(100000))).toBeNull();
  });

  it('returns an empty list for valid JSON without objects', () => {
    expect(parseJsonLd('"text"')).toStrictEqual([]);
    expect(parseJsonLd('[1, true, null]')).toStrictEqual([]);
  });

  it('makes every value canonicalisable', () => {
    const [item] = parseJsonLd('{"s":"\\udc00x","\\ud800":1,"n":-1e999,"z":-0}') ?? [];
    expect(item).toStrictEqual({ s: '\ufffdx', '\ufffd': 1, n: null, z: -0 });
    expect(canonicalize(item)).toBe('{"n":null,"s":"\ufffdx","z":0,"\ufffd":1}');
  });

  it('caps the number of objects', () => {
    expect(parseJsonLd('[{"a":1},{"a":2},{"a":3}]', 2)).toStrictEqual([{ a: 1 }, { a: 2 }]);
  });
});
