import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  contentRoot,
  contentText,
  countWords,
  loadHtml,
  NON_CONTENT_TAGS,
  readableText,
  resolveUrl,
  selectContent,
  WordCounter,
} from '../src/index.js';

test('loadHtml and readableText are total on arbitrary bytes and content types', () => {
  fc.assert(
    fc.property(bytesArbitrary, contentTypeArbitrary, (bytes, contentType) => {
      const loaded = loadHtml(makeDocument(bytes, { contentType }));
      if (loaded.ok) expect(typeof readableText(contentRoot(loaded.page))).toBe('string');
      else expect(['unsupported_content_type', 'parse_error']).toContain(loaded.error);
    }),
    { numRuns: 500 },
  );
});

test('the same bytes give the same text', () => {
  fc.assert(
    fc.property(htmlArbitrary, (html) => {
      const a = loadHtml(makeDocument(html));
      const b = loadHtml(makeDocument(html));
      if (!a.ok || !b.ok) return;
      expect(readableText(contentRoot(a.page))).toBe(readableText(contentRoot(b.page)));
      expect(a.page.baseUrl).toBe(b.page.baseUrl);
    }),
    { numRuns: 300 },
  );
});

test('the same bytes select the same content, and give the same main-content text', () => {
  fc.assert(
    fc.property(htmlArbitrary, (html) => {
      const a = loadHtml(makeDocument(html));
      const b = loadHtml(makeDocument(html));
      if (!a.ok || !b.ok) return;
      expect(contentText(b.page)).toBe(contentText(a.page));
      expect(selectContent(b.page).method).toBe(selectContent(a.page).method);
    }),
    { numRuns: 300 },
  );
});

test('the main content is never empty when the body has text outside scripts and styles', () => {
  fc.assert(
    fc.property(htmlArbitrary, (html) => {
      const loaded = loadHtml(makeDocument(html));
      if (!loaded.ok || loaded.page.body === null) return;
      const bodyText = readableText(loaded.page.body, {
        leaves: (element) => NON_CONTENT_TAGS.has(element.tagName),
      });
      expect(contentText(loaded.page) === '').toBe(bodyText === '');
    }),
    { numRuns: 500 },
  );
});

test('a no-break space outside the chrome is not text: the chrome is read', () => {
  // fast-check's counterexample: the body's only text is the navigation's.
  const loaded = loadHtml(makeDocument('&nbsp;<nav>!'));
  if (!loaded.ok) throw new Error('not loaded');
  expect(contentText(loaded.page)).toBe('!');
});

test('readable text never has runs of ASCII spaces or more than one blank line', () => {
  fc.assert(
    fc.property(htmlArbitrary, (html) => {
      const loaded = loadHtml(makeDocument(html));
      if (!loaded.ok) return;
      const text = readableText(contentRoot(loaded.page));
      // Outside <pre>, whitespace is collapsed; the generator's <pre> can keep runs.
      if (!/<(pre|listing|xmp|plaintext)/i.test(html)) {
        expect(text).not.toMatch(/ {2}|\n{3}/);
        expect(text).toBe(text.trim());
      }
    }),
    { numRuns: 300 },
  );
});

test('countWords agrees with its definition as a regular expression', () => {
  const solo =
    '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
  const letter = `(?:(?![${solo}])[\\p{L}\\p{N}\\p{M}])`;
  const word = new RegExp(`[${solo}]|${letter}+(?:['’.\\-]${letter}+)*`, 'gu');
  const reference = (text: string) => text.match(word)?.length ?? 0;
  const pieces = fc.constantFrom(
    'a',
    'Z',
    '9',
    'é',
    '\u0301',
    '日',
    'カ',
    'ก',
    '한',
    "'",
    '’',
    '.',
    '-',
    ' ',
    '\n',
    ',',
    '😀',
    '\ud800',
    'ا',
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(pieces).map((p) => p.join('')),
      ),
      (text) => {
        expect(countWords(text)).toBe(reference(text));
      },
    ),
    { numRuns: 1000 },
  );
});

test('WordCounter over pieces counts what countWords counts over their concatenation', () => {
  const units = fc.constantFrom(
    '',
    'a',
    'é',
    "'",
    '.',
    ' ',
    '日',
    '😀',
    '\ud83d',
    '\ude00',
    '\ud800',
    '-',
  );
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string(),
          fc.array(units).map((u) => u.join('')),
        ),
        { maxLength: 8 },
      ),
      (pieces) => {
        const counter = new WordCounter();
        for (const piece of pieces) counter.add(piece);
        expect(counter.total).toBe(countWords(pieces.join('')));
        // A separator between pieces counts as a space.
        const spaced = new WordCounter();
        pieces.forEach((piece, i) => {
          if (i > 0) spaced.separate();
          spaced.add(piece);
        });
        expect(spaced.total).toBe(countWords(pieces.join(' ')));
      },
    ),
    { numRuns: 1000 },
  );
});

test('resolveUrl returns an absolute URL or null, never throws', () => {
  fc.assert(
    fc.property(fc.string(), (href) => {
      const url = resolveUrl(href, 'https://example.com/a/');
      if (url !== null) expect(URL.canParse(url)).toBe(true);
    }),
  );
});
