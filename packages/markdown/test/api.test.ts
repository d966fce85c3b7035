import { StorefrontError, utf8ByteLength } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import * as markdown from '../src/index.js';
import {
  MARKDOWN_MAX_BYTES,
  MARKDOWN_MAX_NESTING,
  MARKDOWN_MAX_TABLE_COLUMNS,
  type MarkdownData,
  toMarkdown,
} from '../src/index.js';
import { articlePage } from './support/article.js';

/** The markdown of an HTML body (fails the test on an `ok:false` result). */
function md(html: string, init: Parameters<typeof makeDocument>[1] = {}): string {
  const result = toMarkdown(makeDocument(html, init));
  if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
  return result.text;
}

function data(html: string, init: Parameters<typeof makeDocument>[1] = {}): MarkdownData {
  const result = toMarkdown(makeDocument(html, init));
  if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
  return result.data;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(markdown).sort()).toStrictEqual([
      'MARKDOWN_MAX_BYTES',
      'MARKDOWN_MAX_NESTING',
      'MARKDOWN_MAX_TABLE_COLUMNS',
      'MARKDOWN_MAX_TITLE_CHARS',
      'receiptRule',
      'resultSchema',
      'toMarkdown',
    ]);
  });

  it('caps the markdown at 200 KiB of UTF-8', () => {
    expect(MARKDOWN_MAX_BYTES).toBe(204_800);
    expect(MARKDOWN_MAX_NESTING).toBe(16);
    expect(MARKDOWN_MAX_TABLE_COLUMNS).toBe(64);
    expect(markdown.MARKDOWN_MAX_TITLE_CHARS).toBe(1000);
  });
});

describe('result', () => {
  it('carries every data field, and text is exactly data.markdown', () => {
    const doc = makeDocument('<title> The  title </title><h1>Hi</h1><p>Two words.</p>', {
      redirects: ['http://example.com/a', 'https://example.com/b'],
    });
    const result = toMarkdown(doc);
    expect(result).toStrictEqual({
      ok: true,
      text: '# Hi\n\nTwo words.',
      data: {
        markdown: '# Hi\n\nTwo words.',
        title: 'The title',
        wordCount: 3,
        contentType: 'text/html; charset=utf-8',
        bytes: doc.bytes.length,
        truncated: false,
        redirects: ['http://example.com/a', 'https://example.com/b'],
      },
    });
    // A copy: the result never shares the document's array.
    expect(result.ok && result.data.redirects).not.toBe(doc.redirects);
  });

  it('counts the words of the content, not the markdown syntax', () => {
    const result = data(
      '<h2>One two</h2><ul><li><a href="/x">three</a> <code>four()</code></li></ul>' +
        '<p><img src="/i.png" alt="five six"> ***</p><pre><code>seven = eight</code></pre>' +
        '<table><tr><th>nine</th><th>ten</th></tr></table>',
    );
    expect(result.wordCount).toBe(10);
  });

  it('reports the raw upstream size and a null content type', () => {
    const bytes = new TextEncoder().encode('<p>é</p>');
    const result = data('<p>é</p>', { contentType: null });
    expect(result.bytes).toBe(bytes.length);
    expect(result.contentType).toBeNull();
  });

  it('gives byte-identical text for the same bytes, whether the parse is shared or not', () => {
    const html = articlePage(7, 30_000);
    const doc = makeDocument(html);
    const first = toMarkdown(doc);
    const again = toMarkdown(doc);
    const fresh = toMarkdown(makeDocument(html));
    expect(again).toStrictEqual(first);
    expect(fresh).toStrictEqual(first);
  });

  it('writes no trailing newline and an empty page as an empty string', () => {
    expect(md('<p>x</p>')).toBe('x');
    expect(md('')).toBe('');
    // A page whose only text is chrome is read whole rather than given back empty.
    expect(md('<nav>only chrome</nav>')).toBe('only chrome');
    expect(md('<nav><script>x()</script></nav>')).toBe('');
  });
});

describe('error codes', () => {
  it.each([
    ['application/json', '{"a": 1}'],
    ['application/pdf', '%PDF-1.7\n'],
    ['image/png', '\u0089PNG\r\n\u001a\n'],
    ['text/html', '%PDF-1.7\n binary'],
  ])('refuses %s bodies with unsupported_content_type', (contentType, body) => {
    const result = toMarkdown(makeDocument(body, { contentType }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe('unsupported_content_type');
    expect(!result.ok && result.data).toMatchObject({ contentType, redirects: [] });
  });

  it('passes a parse failure of the page through as parse_error', async () => {
    vi.resetModules();
    vi.doMock('@storefront/html', async (importOriginal) => ({
      ...(await importOriginal<typeof import('@storefront/html')>()),
      loadHtml: () => ({
        ok: false,
        error: 'parse_error',
        message: 'The page could not be parsed: limit.',
      }),
    }));
    try {
      const fresh = await import('../src/index.js');
      const result = fresh.toMarkdown(makeDocument('<p>x</p>'));
      expect(result).toStrictEqual({
        ok: false,
        error: 'parse_error',
        message: 'The page could not be parsed: limit.',
        data: { contentType: 'text/html; charset=utf-8', bytes: 8, redirects: [] },
      });
    } finally {
      vi.doUnmock('@storefront/html');
      vi.resetModules();
    }
  });

  it('throws StorefrontError on misuse of options, and accepts none, null and {}', () => {
    const doc = makeDocument('<p>x</p>');
    expect(toMarkdown(doc).ok).toBe(true);
    expect(toMarkdown(doc, null).ok).toBe(true);
    expect(toMarkdown(doc, {}).ok).toBe(true);
    for (const bad of ['x', 3, [], true]) {
      expect(() => toMarkdown(doc, bad as never)).toThrow(StorefrontError);
    }
    expect(() => toMarkdown(doc, { format: 'html' } as never)).toThrow(
      'Unknown option `format`: `toMarkdown` takes no options',
    );
    try {
      toMarkdown(doc, 'x' as never);
    } catch (error) {
      expect((error as StorefrontError).code).toBe('invalid_params');
    }
  });
});

describe('elements', () => {
  it('resolves links and images against <base href>', () => {
    expect(
      md(
        '<base href="https://cdn.example.org/a/"><p><a href="b">l</a> <img src="../c.png" alt="i"></p>',
      ),
    ).toBe('[l](https://cdn.example.org/a/b) ![i](https://cdn.example.org/c.png)');
  });

  it('turns javascript: links into text and drops data: images, keeping their alt text', () => {
    expect(
      md('<p><a href="javascript:go()">go</a> <img src="data:image/png;base64,AA" alt="pic"></p>'),
    ).toBe('go pic');
  });

  it('writes code spans and fences longer than any backtick run inside', () => {
    expect(md('<p><code>a``b</code></p>')).toBe('```a``b```');
    expect(md('<pre><code class="language-sh">echo ```</code></pre>')).toBe(
      '````sh\necho ```\n````',
    );
  });

  it('keeps task items, ordered starts and nested lists', () => {
    expect(
      md('<ol start="4"><li><input type="checkbox" checked> a<ul><li>b</li></ul></li></ol>'),
    ).toBe('4. [x] a\n   - b');
  });

  it('aligns table columns and escapes pipes in cells', () => {
    expect(
      md('<table><tr><th align="right">a|b</th><th style="text-align:center">c</th></tr></table>'),
    ).toBe('| a\\|b | c |\n| --: | :-: |');
  });

  it('flattens lists and quotes nested deeper than the cap', () => {
    const html = `${'<blockquote>'.repeat(40)}deep${'</blockquote>'.repeat(40)}`;
    const text = md(html);
    expect(text).toBe(`${'> '.repeat(MARKDOWN_MAX_NESTING)}deep`);
  });

  it('keeps at most MARKDOWN_MAX_TABLE_COLUMNS columns, joining the rest into the last', () => {
    const cells = Array.from({ length: 70 }, (_, i) => `<td>c${i}</td>`).join('');
    const text = md(`<table><tr>${cells}</tr><tr><td colspan="1000">wide</td></tr></table>`);
    const header = text.split('\n')[0]!;
    expect(header.split(' | ')).toHaveLength(MARKDOWN_MAX_TABLE_COLUMNS);
    expect(header).toContain('c63 c64 c65 c66 c67 c68 c69 |');
  });

  it('reads text/plain as paragraphs of escaped text and has no title', () => {
    const result = data('# one\nline two\n\n\n- three', { contentType: 'text/plain' });
    expect(result.markdown).toBe('\\# one\nline two\n\n\\- three');
    expect(result.title).toBeNull();
  });
});

describe('the 200 KiB cap', () => {
  it('cuts a long page after a whole block and says so', () => {
    const result = data(articlePage(3, 400_000));
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.markdown)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(utf8ByteLength(result.markdown)).toBeGreaterThan(MARKDOWN_MAX_BYTES - 2_000);
    // Every fence that opens also closes.
    expect(result.markdown.match(/^ *```/gm)!.length % 2).toBe(0);
    expect(result.markdown.endsWith('\n')).toBe(false);
  });

  it('cuts a huge preformatted block after its last whole line that fits, not before it', () => {
    // A page whose notes are one 270 KB preformatted block after a short heading.
    const lines = Array.from({ length: 9_000 }, (_, i) => `note ${i}: ${'x'.repeat(20)}`).join(
      '\n',
    );
    const result = data(
      `<main><h1>Release notes</h1><p>All of them.</p><pre>${lines}</pre></main>`,
    );
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.markdown)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(utf8ByteLength(result.markdown)).toBeGreaterThan(MARKDOWN_MAX_BYTES - 100);
    expect(result.markdown).toMatch(
      /^# Release notes\n\nAll of them\.\n\n```\nnote 0: x+\n.*\nnote \d+: x{20}\n```$/s,
    );
  });

  it('cuts a long paragraph after earlier blocks at a space', () => {
    const words = Array.from({ length: 60_000 }, (_, i) => `word${i}`).join(' ');
    const result = data(`<h1>Title</h1><p>${words}</p>`);
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.markdown)).toBeGreaterThan(MARKDOWN_MAX_BYTES - 20);
    expect(result.markdown).toMatch(/^# Title\n\nword0 word1 .* word\d+$/s);
  });

  it('does not mark a page that fits', () => {
    const result = data(articlePage(3, 20_000));
    expect(result.truncated).toBe(false);
  });

  it('counts the cap in UTF-8 bytes, never cutting a character', () => {
    const paragraphs = Array.from({ length: 30_000 }, (_, i) => `<p>日本語 ${i}</p>`).join('');
    const result = data(paragraphs);
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.markdown)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(result.markdown).toMatch(/日本語( \d+)?$/);
  });

  it('cuts a page that is one huge paragraph at a space, and one huge code block after a line', () => {
    const words = Array.from({ length: 60_000 }, (_, i) => `word${i}`).join(' ');
    const paragraph = data(`<p>${words}</p>`);
    expect(paragraph.truncated).toBe(true);
    expect(paragraph.markdown).toMatch(/^word0 word1 .* word\d+$/s);
    expect(utf8ByteLength(paragraph.markdown)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);

    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n');
    const code = data(`<pre><code>${lines}</code></pre>`);
    expect(code.truncated).toBe(true);
    expect(code.markdown).toMatch(/^```\nline 0\n.*\nline \d+\n```$/s);
    expect(utf8ByteLength(code.markdown)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
  });
});

describe('speed', () => {
  it('converts 100 KB article pages without trouble (timed only in the benchmark)', () => {
    for (const seed of [11, 12, 13]) {
      const html = articlePage(seed, 100_000);
      const result = toMarkdown(makeDocument(html));
      expect(result.ok).toBe(true);
      expect(result.ok && result.data.wordCount).toBeGreaterThan(5_000);
    }
  });
});
