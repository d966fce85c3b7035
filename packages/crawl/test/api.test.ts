import { gzipSync } from 'node:zlib';
import { canonicalize, StorefrontError, sha256Hex } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  finishCrawl,
  finishMap,
  MAP_MAX_FETCHES,
  readSitemap,
  SITEMAP_MAX_DECODED_BYTES,
  startCrawl,
  startMap,
  stepCrawl,
  stepMap,
} from '../src/index.js';
import { type SiteSpec, walk } from './walk.js';

const UA = 'Storefront/1 (+https://storefront.example/bot)';

function sitemap(body: string | Uint8Array, contentType = 'application/xml') {
  return readSitemap(makeDocument(body, { url: 'https://shop.example/s.xml', contentType }));
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'CRAWL_MAX_CONTENT_CHARS',
      'CRAWL_MAX_PAGES',
      'CRAWL_MAX_PAGE_LINKS',
      'CRAWL_MAX_SKIPPED',
      'MAP_MAX_COLLECTED',
      'MAP_MAX_FETCHES',
      'MAP_MAX_LASTMOD_CHARS',
      'MAP_MAX_URLS',
      'SITEMAP_MAX_DECODED_BYTES',
      'SITE_MAX_URL_CHARS',
      'WALK_ROUND_MAX_FETCHES',
      'crawlReceiptRule',
      'crawlResultSchema',
      'finishCrawl',
      'finishMap',
      'mapReceiptRule',
      'mapResultSchema',
      'pageHash',
      'readSitemap',
      'siteUrl',
      'startCrawl',
      'startMap',
      'stepCrawl',
      'stepMap',
    ]);
  });

  it('throws invalid_params for misuse, never for content', () => {
    const misuse = [
      () => startMap('ftp://shop.example/'),
      () => startMap('not a url'),
      () => startMap('https://shop.example/', { limit: 0 }),
      () => startMap('https://shop.example/', { limit: 5001 }),
      () => startMap('https://shop.example/', { limit: 1.5 }),
      () => startCrawl('https://shop.example/', { userAgent: '' }),
      () => startCrawl('https://shop.example/', { userAgent: UA, limit: 11 }),
      () => startCrawl('https://shop.example/', { userAgent: UA, format: 'html' as 'text' }),
    ];
    for (const call of misuse) {
      expect(call).toThrow(StorefrontError);
      try {
        call();
      } catch (error) {
        expect((error as StorefrontError).code).toBe('invalid_params');
      }
    }
  });

  it('plans robots.txt and the start page first, and robots.txt alone for a crawl', () => {
    expect(startMap('https://Shop.example:443/a#top').fetch).toStrictEqual([
      'https://shop.example/robots.txt',
      'https://shop.example/a',
    ]);
    expect(startCrawl('https://shop.example/a', { userAgent: UA }).fetch).toStrictEqual([
      'https://shop.example/robots.txt',
    ]);
  });

  it('does not change the state it is given', () => {
    const first = startMap('https://shop.example/');
    const before = JSON.stringify(first.state);
    stepMap(first.state, [
      {
        ok: true,
        doc: makeDocument('Sitemap: https://shop.example/s.xml\n', { contentType: 'text/plain' }),
      },
      { ok: true, doc: makeDocument('<a href="/x">x</a>', { url: 'https://shop.example/' }) },
    ]);
    expect(JSON.stringify(first.state)).toBe(before);
    const crawl = startCrawl('https://shop.example/', { userAgent: UA });
    const crawlBefore = JSON.stringify(crawl.state);
    stepCrawl(crawl.state, [{ ok: false, error: 'timeout' }]);
    expect(JSON.stringify(crawl.state)).toBe(crawlBefore);
  });
});

describe('readSitemap', () => {
  it('reads namespace prefixes, CDATA, references and skips comments', () => {
    const result = sitemap(`<?xml version="1.0"?>
<!-- <url><loc>https://shop.example/commented</loc></url> -->
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <sm:url><sm:loc><![CDATA[https://shop.example/a?x=1&y=2]]></sm:loc><xhtml:link rel="alternate" href="https://shop.example/de/a"/></sm:url>
  <sm:url><sm:loc> https://shop.example/b?q=&#x41;&amp;r=&lt; </sm:loc><sm:lastmod>2026-01-01</sm:lastmod><sm:priority>0.5</sm:priority></sm:url>
  <sm:url><sm:lastmod>2026-01-01</sm:lastmod></sm:url>
</sm:urlset>`);
    expect(result).toStrictEqual({
      ok: true,
      kind: 'urlset',
      entries: [
        { loc: 'https://shop.example/a?x=1&y=2', lastmod: null },
        { loc: 'https://shop.example/b?q=A&r=<', lastmod: '2026-01-01' },
      ],
    });
  });

  it('reads gzip by its magic bytes, and refuses a decompression bomb unread', () => {
    const urlset = '<urlset><url><loc>https://shop.example/z</loc></url></urlset>';
    expect(sitemap(gzipSync(urlset), 'application/octet-stream')).toMatchObject({
      ok: true,
      entries: [{ loc: 'https://shop.example/z' }],
    });
    // 11 MiB of zeros in about 11 KB of gzip.
    const bomb = gzipSync(Buffer.alloc(SITEMAP_MAX_DECODED_BYTES + 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(sitemap(bomb, 'application/gzip')).toMatchObject({
      ok: false,
      error: 'body_too_large',
    });
  });

  it('tells sitemaps from documents that are not, without throwing', () => {
    expect(sitemap('')).toMatchObject({ ok: false, error: 'parse_error' });
    expect(sitemap('<html><body>hi</body></html>', 'text/html')).toMatchObject({
      ok: false,
      error: 'unsupported_content_type',
    });
    expect(sitemap('hello\nworld', 'text/plain')).toMatchObject({
      ok: false,
      error: 'unsupported_content_type',
    });
    expect(
      sitemap('<!DOCTYPE urlset [<!ENTITY e "x">]><urlset><url><loc>&e;</loc></url></urlset>'),
    ).toMatchObject({ ok: false, error: 'parse_error' });
    // Broken markup: what closes is read; nothing throws.
    expect(
      sitemap('<urlset><url><loc>https://shop.example/ok</loc></url><url><loc>https://sh'),
    ).toStrictEqual({
      ok: true,
      kind: 'urlset',
      entries: [{ loc: 'https://shop.example/ok', lastmod: null }],
    });
  });

  it('scans in time linear in the input, broken markup included', () => {
    const cost = (n: number) => {
      const body = `<urlset>${'<url><loc '.repeat(n)}`;
      const start = process.cpuUsage();
      sitemap(body);
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    cost(20_000);
    const small = Math.max(cost(20_000), 1);
    const large = cost(200_000);
    // Ten times the input: far less than the hundred times a quadratic scan would take.
    expect(large / small).toBeLessThan(40);
  });
});

describe('map', () => {
  it('never fetches more than MAP_MAX_FETCHES documents', () => {
    const site: Record<string, { body: string; contentType?: string }> = {
      'https://shop.example/': { body: '<title>Home</title>' },
      'https://shop.example/robots.txt': {
        contentType: 'text/plain',
        body: 'Sitemap: https://shop.example/index.xml\n',
      },
      'https://shop.example/index.xml': {
        contentType: 'application/xml',
        body: `<sitemapindex>${Array.from({ length: 100 }, (_, i) => `<sitemap><loc>https://shop.example/s${i}.xml</loc></sitemap>`).join('')}</sitemapindex>`,
      },
    };
    const { fetched, result } = walk(startMap('https://shop.example/'), stepMap, finishMap, site);
    expect(fetched).toHaveLength(MAP_MAX_FETCHES);
    expect(new Set(fetched).size).toBe(MAP_MAX_FETCHES);
    expect(result.ok && result.data.cut.unreadSources).toBe(100 - (MAP_MAX_FETCHES - 3));
  });
});

describe('crawl', () => {
  const site: SiteSpec = {
    'https://docs.example/robots.txt': {
      contentType: 'text/plain',
      body: 'User-agent: Storefront\nDisallow: /secret\n\nUser-agent: *\nDisallow: /\n',
    },
    'https://docs.example/': {
      body: '<title>Home</title><a href="/a">a</a> <a href="/secret/x">s</a> <a href="https://other.example/">o</a>',
    },
    'https://docs.example/a': { body: '<title>A</title><p>Alpha</p>' },
  };

  it('matches robots.txt on our product token, and never fetches what it disallows', () => {
    const { fetched, result } = walk(
      startCrawl('https://docs.example/', { userAgent: UA }),
      stepCrawl,
      finishCrawl,
      site,
    );
    expect(fetched).toStrictEqual([
      'https://docs.example/robots.txt',
      'https://docs.example/',
      'https://docs.example/a',
    ]);
    if (!result.ok) throw new Error(result.error);
    expect(result.data.skipped).toStrictEqual([
      { url: 'https://docs.example/secret/x', reason: 'robots' },
    ]);
    // Another crawler falls in the `*` group and may read nothing.
    const other = walk(
      startCrawl('https://docs.example/', { userAgent: 'OtherBot/2' }),
      stepCrawl,
      finishCrawl,
      site,
    );
    expect(other.fetched).toStrictEqual(['https://docs.example/robots.txt']);
    expect(other.result).toMatchObject({ ok: false, error: 'robots_disallowed' });
  });

  it('signs one hash row per page, each hash over the page without it', () => {
    const { result } = walk(
      startCrawl('https://docs.example/', { userAgent: UA }),
      stepCrawl,
      finishCrawl,
      site,
    );
    if (!result.ok) throw new Error(result.error);
    const rows = result.text.split('\n');
    expect(rows).toHaveLength(result.data.pages.length);
    result.data.pages.forEach((page, i) => {
      const { hash, ...rest } = page;
      expect(hash).toBe(sha256Hex(canonicalize(rest as never)));
      expect(rows[i]).toBe(`${hash}\t${page.url}`);
      expect(api.pageHash(page)).toBe(hash);
    });
  });
});
