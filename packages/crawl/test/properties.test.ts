import { canonicalize } from '@storefront/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  finishCrawl,
  finishMap,
  MAP_MAX_FETCHES,
  startCrawl,
  startMap,
  stepCrawl,
  stepMap,
} from '../src/index.js';
import { type SiteSpec, walk } from './walk.js';

const HOSTS = [
  'https://shop.example',
  'https://www.shop.example',
  'http://shop.example:8080',
  'https://other.example',
];
const PATHS = ['/', '/a', '/b?x=1', '/c#frag', '/%C3%A9', '/Z', '/private/p', '/d/../e', ' /f '];

const url = fc
  .tuple(fc.constantFrom(...HOSTS), fc.constantFrom(...PATHS))
  .map(([host, path]) => `${host}${path}`);
const lastmod = fc.option(
  fc.constantFrom('2026-01-01', '2025-12-31T23:00:00Z', '', 'x'.repeat(80)),
);

/** A random site: robots.txt naming some sitemaps, urlsets and indexes, a start page of links. */
const siteArbitrary = fc
  .record({
    sitemaps: fc.array(
      fc.record({
        index: fc.boolean(),
        gzip: fc.boolean(),
        entries: fc.array(fc.tuple(url, lastmod), { maxLength: 12 }),
      }),
      { maxLength: 5 },
    ),
    links: fc.array(url, { maxLength: 10 }),
    robots: fc.constantFrom(
      '',
      'User-agent: *\nDisallow: /private\n',
      'User-agent: *\nDisallow: /\n',
    ),
  })
  .map(({ sitemaps, links, robots }): SiteSpec => {
    const site: Record<string, SiteSpec[string]> = {};
    const names = sitemaps.map((_, i) => `https://shop.example/s${i}.xml`);
    site['https://shop.example/robots.txt'] = {
      contentType: 'text/plain',
      body: `${robots}${names.map((name) => `Sitemap: ${name}\n`).join('')}`,
    };
    sitemaps.forEach((sitemap, i) => {
      const tag = sitemap.index ? 'sitemap' : 'url';
      const entries = sitemap.entries
        .map(
          ([loc, mod]) =>
            `<${tag}><loc>${loc.replace(/&/g, '&amp;')}</loc>${mod === null ? '' : `<lastmod>${mod}</lastmod>`}</${tag}>`,
        )
        .join('');
      site[names[i] as string] = {
        contentType: 'application/xml',
        gzip: sitemap.gzip,
        body: `<${sitemap.index ? 'sitemapindex' : 'urlset'}>${entries}</${sitemap.index ? 'sitemapindex' : 'urlset'}>`,
      };
    });
    for (const path of ['/', '/a', '/Z', '/private/p']) {
      site[`https://shop.example${path}`] = {
        body: `<title>${path}</title>${links.map((link) => `<a href="${link}">l</a>`).join(' ')}`,
      };
    }
    return site;
  });

describe('map properties', () => {
  test('the same site gives the same bytes; URLs are sorted, unique, same-site, within the caps', () => {
    fc.assert(
      fc.property(siteArbitrary, fc.integer({ min: 1, max: 20 }), (site, limit) => {
        const run = () =>
          walk(startMap('https://shop.example/', { limit }), stepMap, finishMap, site);
        const first = run();
        const second = run();
        expect(canonicalize(second.result as never)).toBe(canonicalize(first.result as never));
        expect(first.fetched.length).toBeLessThanOrEqual(MAP_MAX_FETCHES);
        if (!first.result.ok) return;
        const { data, text } = first.result;
        expect(text).toBe(canonicalize(data as never));
        const urls = data.urls.map((entry) => entry.url);
        expect(urls.length).toBeLessThanOrEqual(limit);
        expect([...urls].sort()).toStrictEqual(urls);
        expect(new Set(urls).size).toBe(urls.length);
        for (const found of urls) {
          const host = new URL(found).hostname;
          expect(host === 'shop.example' || host === 'www.shop.example').toBe(true);
          expect(found).not.toContain('#');
        }
        for (const entry of data.urls) {
          if (entry.lastmod !== null) expect(entry.lastmod.length).toBeLessThanOrEqual(64);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('crawl properties', () => {
  test('the same site gives the same bytes; robots.txt is obeyed; one row per page', () => {
    fc.assert(
      fc.property(
        siteArbitrary,
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom('text', 'markdown' as const),
        (site, limit, format) => {
          const run = () =>
            walk(
              startCrawl('https://shop.example/', { userAgent: 'Storefront/1', limit, format }),
              stepCrawl,
              finishCrawl,
              site,
            );
          const first = run();
          const second = run();
          expect(canonicalize(second.result as never)).toBe(canonicalize(first.result as never));
          expect(second.fetched).toStrictEqual(first.fetched);
          const robots = site['https://shop.example/robots.txt']?.body ?? '';
          const pagesFetched = first.fetched.filter((fetched) => !fetched.endsWith('/robots.txt'));
          expect(pagesFetched.length).toBeLessThanOrEqual(limit);
          for (const fetched of pagesFetched) {
            expect(new URL(fetched).origin).toBe('https://shop.example');
            if (robots.includes('Disallow: /private')) expect(fetched).not.toContain('/private');
          }
          if (robots.includes('Disallow: /\n')) expect(pagesFetched).toStrictEqual([]);
          if (!first.result.ok) return;
          const { data, text } = first.result;
          expect(text.split('\n')).toStrictEqual(
            data.pages.map((page) => `${page.hash}\t${page.url}`),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
