import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FEED_MAX_HTML_CHARS } from '../src/limits.js';
import { capMarked, cutCodePoints, htmlText, normalizeText } from '../src/text.js';
import { decodeXmlReferences } from '../src/xml-entities.js';
import { feedText, scanXml } from '../src/xml-scan.js';

describe('decodeXmlReferences', () => {
  test.each([
    ['&lt;&gt;&amp;&quot;&apos;', `<>&"'`],
    ['&#65;&#x41;&#X41;&#0065;', 'AAAA'],
    ['&amp;lt; &amp;#233;', '&lt; &#233;'],
    ['&#128512;', '\u{1F600}'],
    ['&#150;&#x80;&#x81;', '\u2013\u20ac\u0081'],
    ['&#0;&#xD800;&#x110000;&#99999999999999999999;', '\ufffd\ufffd\ufffd\ufffd'],
    ['&eacute; &unknown; & &#; &#x; &lt', '&eacute; &unknown; & &#; &#x; &lt'],
  ])('%j → %j', (input, expected) => {
    expect(decodeXmlReferences(input)).toBe(expected);
  });
});

describe('text helpers', () => {
  test('normalizeText collapses Unicode whitespace, drops NUL and repairs lone surrogates', () => {
    expect(normalizeText(' a\u00a0\u2003b\n\tc\u3000 ')).toBe('a b c');
    expect(normalizeText('a\u0000b\ud800')).toBe('ab\ufffd');
  });

  test('htmlText strips tags and decodes entities, and skips the parser for plain text', () => {
    expect(htmlText('<p>a</p><p>b&eacute;</p>')).toBe('a bé');
    expect(htmlText('plain  text')).toBe('plain text');
    expect(htmlText('')).toBe('');
  });

  test('htmlText parses at most FEED_MAX_HTML_CHARS of markup', () => {
    expect(htmlText('<'.repeat(2 * FEED_MAX_HTML_CHARS))).toBe('<'.repeat(FEED_MAX_HTML_CHARS));
  });

  test('capMarked keeps values up to the cap and marks a cut with an ellipsis', () => {
    expect(capMarked('abc', 3)).toBe('abc');
    expect(capMarked('abcd', 3)).toBe('ab\u2026');
    expect(capMarked('a bcd', 3)).toBe('a\u2026');
    expect(capMarked('\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}');
    expect(capMarked('\u{1F600}\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u2026');
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (raw, max) => {
          const text = raw.toWellFormed();
          const capped = capMarked(text, max);
          const points = [...text].length;
          expect([...capped].length).toBeLessThanOrEqual(max);
          expect(capped.isWellFormed()).toBe(true);
          if (points <= max) {
            expect(capped).toBe(text);
          } else {
            expect(capped.endsWith('\u2026')).toBe(true);
            expect(text.startsWith(capped.slice(0, -1))).toBe(true);
          }
          expect(capMarked(text, max)).toBe(capped);
        },
      ),
    );
  });

  test('cutCodePoints counts code points, never splits a pair and trims the cut end', () => {
    expect(cutCodePoints('abc', 5)).toBe('abc');
    expect(cutCodePoints('\u{1F600}\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}');
    expect(cutCodePoints('ab cd', 3)).toBe('ab');
    expect(cutCodePoints('abc', 0)).toBe('');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.nat(40), (text, max) => {
        const cut = cutCodePoints(text.toWellFormed(), max);
        expect([...cut].length).toBeLessThanOrEqual(max);
        expect(cut.isWellFormed()).toBe(true);
        expect(text.toWellFormed().startsWith(cut)).toBe(true);
      }),
    );
  });
});

describe('scanXml', () => {
  const scan = (text: string, clipped = false, maxItems = 100) =>
    scanXml(text, { maxItems, clipped });

  test.each([
    ['<rss/>', 'feed'],
    [
      '<?xml version="1.0"?><!-- c --><!DOCTYPE rss [<!ELEMENT rss ANY>]><rss></rss><!-- after -->',
      'feed',
    ],
    ['<rss a="1>2" b=\'<\'></rss>', 'feed'],
    ['<feed/>', 'feed'],
    ['<rdf:RDF/>', 'feed'],
    ['<html/>', 'not-feed'],
    ['<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><html>', 'not-feed'],
    ['<urlset/>', 'not-feed'],
    ['hello', 'not-feed'],
    ['{"a":1}', 'not-feed'],
    ['<?xml version="1.0"?>', 'malformed'],
    ['<rss>', 'malformed'],
    ['<rss></RSS>', 'malformed'],
    ['<rss/><rss/>', 'malformed'],
    ['<rss/>text', 'malformed'],
    ['<rss><!-- x </rss>', 'malformed'],
    ['<rss><![CDATA[x</rss>', 'malformed'],
    ['<rss><a b="x></rss>', 'malformed'],
    ['<rss><!ELEMENT x></rss>', 'malformed'],
    ['<rss><!DOCTYPE x></rss>', 'malformed'],
    ['<rss>< a/></rss>', 'malformed'],
    ['<rss><1a/></rss>', 'malformed'],
    ['<rss></ rss>', 'malformed'],
    // Junk before the root: the root decides.
    ['<!DOCTYPE html><rss/>', 'feed'],
    ['<!doctype html>\n<!-- c --><?pi x?><rdf:RDF/>', 'feed'],
    ['<!doctype rss><!DOCTYPE rss><feed/>', 'feed'],
    ['\ufeff\n\ufeff<?xml version="1.0"?>\ufeff<rss/>\ufeff', 'feed'],
    ['<!DOCTYPE html><html/>', 'not-feed'],
    ['<!DOCTYPE html><urlset/>', 'not-feed'],
    ['<!DOCTYPE html>hello<rss/>', 'not-feed'],
    ['<!DOCTYPE html>', 'not-feed'],
    ['<!-- c -->text<rss/>', 'malformed'],
    ['<rss><!doctype html></rss>', 'malformed'],
    ['<rss/><!DOCTYPE rss>', 'malformed'],
  ])('%j is %s', (text, kind) => {
    expect(scan(text).kind).toBe(kind);
  });

  test('the part to parse starts at the root element', () => {
    const text =
      '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x.dtd"><!-- c --><rss></rss>';
    expect(scan(text)).toStrictEqual({
      kind: 'feed',
      start: text.indexOf('<rss>'),
      end: text.length,
    });
  });

  test('stops right after the last wanted item', () => {
    const text = '<rss><channel><item/><item></item><item/></channel></rss>';
    expect(scan(text, false, 2)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: text.indexOf('</item>') + 7,
    });
    expect(scan(text, false, 0)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: text.indexOf('<item/>') + 7,
    });
    // Items nested deeper than a channel do not count.
    const deep = '<rss><channel><x><item/></x><item/></channel></rss>';
    expect(scan(deep, false, 1)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: deep.lastIndexOf('<item/>') + 7,
    });
  });

  test('the element cap cuts like a clipped body', () => {
    const text = '<rss><channel><title>t</title><item/><x/><x/><x/></channel></rss>';
    const scanCapped = scanXml(text, { maxItems: 100, clipped: false, maxElements: 5 });
    expect(scanCapped).toStrictEqual({ kind: 'feed', start: 0, end: text.indexOf('<item/>') + 7 });
    const noItem = '<rss><title>t</title><x/><x/></rss>';
    expect(scanXml(noItem, { maxItems: 100, clipped: false, maxElements: 3 })).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: noItem.indexOf('<x/>') + 4,
    });
  });

  test('a clipped body cut in markup ends after its last complete item, or its last closed element', () => {
    const text = '<rss><channel><title>t</title><item>a</item><item><title>b</title><li';
    expect(scan(text, true)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: text.indexOf('</item>') + 7,
    });
    const noItem = '<rss><channel><title>t</title><description>b';
    expect(scan(noItem, true)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: noItem.indexOf('</title>') + 8,
    });
    expect(scan(noItem, false).kind).toBe('malformed');
  });

  test('a run of character data or CDATA past FEED_MAX_HTML_CHARS is cut there for the parser, marked', () => {
    const run = `${'a'.repeat(FEED_MAX_HTML_CHARS)}tail`;
    const text = `<rss><channel><item><title>${run}</title><description><![CDATA[${run}]]></description></item></channel></rss>`;
    const result = scan(text, false);
    const title = text.indexOf('<title>') + 7;
    const cdata = text.indexOf('<![CDATA[') + 9;
    expect(result).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: text.length,
      cuts: [
        [title + FEED_MAX_HTML_CHARS, title + run.length],
        [cdata + FEED_MAX_HTML_CHARS, cdata + run.length],
      ],
    });
    if (result.kind !== 'feed') return;
    const parsed = feedText(text, result);
    expect(parsed).toContain(`aaa\u2026</title>`);
    expect(parsed).toContain(`aaa\u2026]]></description>`);
    expect(parsed).not.toContain('tail');
    // A cut never splits a reference.
    const split = `<rss><channel><item><title>x${'&#65;'.repeat(FEED_MAX_HTML_CHARS / 4)}</title></item></channel></rss>`;
    const cut = scan(split, false);
    const at = split.indexOf('<title>') + 7 + FEED_MAX_HTML_CHARS;
    expect(split.slice(split.lastIndexOf('&', at - 1), at)).toBe('&#6');
    expect(cut.kind === 'feed' && cut.cuts?.[0]?.[0]).toBe(split.lastIndexOf('&', at - 1));
  });

  test('a clipped body cut in the text of an item is closed there, the cut marked', () => {
    const text = '<rss><channel><title>t</title><item>a</item><item><title>b';
    expect(scan(text, true)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: text.length,
      close: '\u2026</title></item></channel></rss>',
    });
    // A reference the cut left unfinished is left out.
    const reference = '<rdf:RDF><item><title>AB&#6';
    expect(scan(reference, true)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: reference.indexOf('&'),
      close: '\u2026</title></item></rdf:RDF>',
    });
    const cdata = '<feed><entry><title><![CDATA[cut';
    expect(scan(cdata, true)).toStrictEqual({
      kind: 'feed',
      start: 0,
      end: cdata.length,
      close: '\u2026]]></title></entry></feed>',
    });
    expect(scan(text, false).kind).toBe('malformed');
  });
});
