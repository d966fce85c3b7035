import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import {
  bodyKind,
  countStartTags,
  HTML_MAX_ELEMENTS,
  HTML_MAX_PARSE_CHARS,
  loadHtml,
} from '../src/index.js';

function page(html: string, init: Parameters<typeof makeDocument>[1] = {}) {
  const loaded = loadHtml(makeDocument(html, init));
  if (!loaded.ok) throw new Error(`expected a page, got ${loaded.error}: ${loaded.message}`);
  return loaded.page;
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('bodyKind', () => {
  test.each([
    ['text/html; charset=utf-8', '<p>x', 'html'],
    ['application/xhtml+xml', '<html/>', 'html'],
    ['TEXT/HTML', '<p>x', 'html'],
    ['text/plain', 'hello', 'text'],
    [null, '<!doctype html><p>x', 'html'],
    [null, 'just words', 'html'],
    ['application/octet-stream', '<p>x', 'html'],
    ['application/json', '{"a":1}', 'unsupported'],
    [null, '  {"a": 1}', 'unsupported'],
    [null, '[1,2]', 'unsupported'],
    [null, '[link] text', 'html'],
    ['image/png', 'x', 'unsupported'],
    ['application/pdf', '%PDF-1.7', 'unsupported'],
    ['text/css', 'a{}', 'unsupported'],
  ] as const)('%s with %j is %s', (contentType, body, kind) => {
    expect(bodyKind(makeDocument(body, { contentType })).kind).toBe(kind);
  });

  test.each([
    ['PDF', bytes(0x25, 0x50, 0x44, 0x46, 0x2d, 0x31)],
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a)],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0)],
    ['GIF', bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61)],
    ['binary', bytes(0x3c, 0x70, 0x3e, 0x00, 0x01)],
  ])('%s bytes are refused even when labelled text/html', (name, body) => {
    const kind = bodyKind(makeDocument(body, { contentType: 'text/html' }));
    expect(kind.kind).toBe('unsupported');
    expect(kind.reason).toContain(name);
  });

  test('UTF-16 with a BOM is text, not binary, despite its NUL bytes', () => {
    const utf16 = bytes(0xff, 0xfe, 0x3c, 0x00, 0x70, 0x00, 0x3e, 0x00, 0x68, 0x00);
    expect(bodyKind(makeDocument(utf16, { contentType: null })).kind).toBe('html');
  });
});

describe('loadHtml', () => {
  test('refuses non-HTML with unsupported_content_type and a reason', () => {
    const loaded = loadHtml(makeDocument('{"a":1}', { contentType: 'application/json' }));
    expect(loaded).toEqual({
      ok: false,
      error: 'unsupported_content_type',
      message: 'Cannot read the page as HTML: content type `application/json` is not HTML.',
    });
  });

  test('parses once per document object', () => {
    const doc = makeDocument('<title>a</title>');
    const first = loadHtml(doc);
    expect(loadHtml(doc)).toBe(first);
    expect(loadHtml(makeDocument('<title>a</title>'))).not.toBe(first);
  });

  test('the title is the first <title>, whitespace collapsed; empty is null', () => {
    expect(page('<title>  A \n  B </title><title>C</title>').title).toBe('A B');
    expect(page('<title> </title>').title).toBeNull();
    expect(page('<p>no title').title).toBeNull();
    expect(page('<title>Caf&eacute; &amp; co</title>').title).toBe('Café & co');
  });

  test('the base URL is the first <base href>, resolved against the final URL', () => {
    const url = 'https://example.com/a/b/page.html';
    expect(page('<p>x', { url }).baseUrl).toBe(url);
    expect(page('<base href="../c/">', { url }).baseUrl).toBe('https://example.com/a/c/');
    expect(page('<base target="_top"><base href="/d/"><base href="/e/">', { url }).baseUrl).toBe(
      'https://example.com/d/',
    );
    expect(page('<body><base href="https://cdn.example.net/">', { url }).baseUrl).toBe(
      'https://cdn.example.net/',
    );
    expect(page('<base href="http://[bad">', { url }).baseUrl).toBe(url);
  });

  test('decodes by BOM, header, then meta', () => {
    const cafe = bytes(0x3c, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x3e, 0x63, 0x61, 0x66, 0xe9);
    expect(
      page(cafe as unknown as string, { contentType: 'text/html; charset=windows-1252' }).title,
    ).toBe('café');
    const meta = new Uint8Array([
      ...new TextEncoder().encode('<meta charset="shift_jis"><title>'),
      0x93,
      0xfa,
      0x96,
      0x7b,
    ]);
    const loaded = loadHtml(makeDocument(meta, { contentType: 'text/html' }));
    expect(loaded.ok && loaded.page.title).toBe('日本');
    expect(loaded.ok && loaded.page.encoding).toBe('Shift_JIS');
  });

  test('text/plain is wrapped so products read it as text, markup and all', () => {
    const text = page('a < b & <c>\nline 2', { contentType: 'text/plain' });
    expect(text.kind).toBe('text');
    expect(text.title).toBeNull();
  });

  test('clips the parser input at HTML_MAX_PARSE_CHARS without splitting a surrogate pair', () => {
    const body = `${'a'.repeat(HTML_MAX_PARSE_CHARS - 1)}😀tail`;
    const clipped = page(body);
    expect(clipped.clipped).toBe(true);
    const text = clipped.body!.childNodes[0]!;
    const value = 'value' in text ? String(text.value) : '';
    expect(value).toHaveLength(HTML_MAX_PARSE_CHARS - 1);
    expect(value.endsWith('a')).toBe(true);
    expect(page('<p>short').clipped).toBe(false);
  });
});

describe('the element pre-pass', () => {
  test('counts start tags, and none in comments, scripts or styles', () => {
    expect(countStartTags('<p>a<b>b</b></p><br/>')).toBe(3);
    expect(countStartTags('a < b, 1<2, <!doctype html></p>')).toBe(0);
    expect(countStartTags('<!-- <p><p> --><p>')).toBe(1);
    expect(countStartTags('<script>"<p><p>"</script ><SCRIPT type=x>"<b>"</SCRIPT><p>')).toBe(3);
    expect(countStartTags('<style>a<b{}</style><scripty><p>')).toBe(3);
    expect(countStartTags('<script>never closed <p><p>')).toBe(1);
    expect(countStartTags('<!-- never closed <p>')).toBe(0);
    // It stops one past the cap.
    expect(countStartTags('<i>'.repeat(50), 10)).toBe(11);
  });

  test(`refuses a page that opens more than ${HTML_MAX_ELEMENTS} elements, before parsing it`, () => {
    const hostile = `<!doctype html><body>${'<div>'.repeat(HTML_MAX_ELEMENTS + 1)}`;
    expect(loadHtml(makeDocument(hostile))).toStrictEqual({
      ok: false,
      error: 'page_too_complex',
      message: 'The page has more than 150,000 elements.',
    });
    // At the cap it is parsed; scripts full of markup do not count.
    const atCap = `<!doctype html><body>${'<i>'.repeat(HTML_MAX_ELEMENTS - 3)}`;
    expect(page(atCap).clipped).toBe(false);
    const scripted = `<script>${'"<div>"+'.repeat(HTML_MAX_ELEMENTS)}1</script><p>text`;
    expect(page(scripted).body).not.toBeNull();
    // Plain text is not markup, whatever it holds.
    expect(page('<p>'.repeat(HTML_MAX_ELEMENTS + 1), { contentType: 'text/plain' }).kind).toBe(
      'text',
    );
  });
});
