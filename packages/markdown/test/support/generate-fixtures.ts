/**
 * Writes the fixtures whose input cannot be typed by hand: legacy-encoded bytes, binary
 * bodies, and the large generated pages kept as `input.html.gz`. Run it from the package
 * folder, then regenerate the expected files with `vitest -u` and review them:
 *
 *   node --import tsx test/support/generate-fixtures.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { articlePage } from './article.js';

const root = join(import.meta.dirname, '..', 'fixtures');

// iconv-lite, as @storefront/core's decoder (whatwg-encoding) uses it.
const fromCore = createRequire(join(import.meta.dirname, '..', '..', '..', 'core', 'package.json'));
const fromWhatwg = createRequire(fromCore.resolve('whatwg-encoding'));
const iconv = fromWhatwg('iconv-lite') as { encode(text: string, encoding: string): Uint8Array };

function write(name: string, files: Record<string, string | Uint8Array>): void {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(folder, file), content);
}

function documentJson(fields: Record<string, unknown>): string {
  return `${JSON.stringify(fields, null, 2)}\n`;
}

// windows-1252: curly quotes, en dash, euro sign and accented letters are single bytes
// 0x80-0xFF that are not valid UTF-8.
write('charset-windows-1252', {
  'input.html': iconv.encode(
    '<html><head><title>Caf\u00e9 \u2013 men\u00fc</title></head><body>\n' +
      '<h1>Caf\u00e9 cr\u00e8me \u2013 \u20ac 3,50</h1>\n' +
      '<p>\u201cQuoted\u201d text with na\u00efve r\u00e9sum\u00e9 and \u2026 ellipsis.</p>\n' +
      '</body></html>\n',
    'windows-1252',
  ),
  'document.json': documentJson({ contentType: 'text/html; charset=windows-1252' }),
});

const japanese =
  '<h1>\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8</h1>\n' +
  '<p>\u3053\u308c\u306f<strong>Shift_JIS</strong>\u3067\u66f8\u304b\u308c\u305f\u6bb5\u843d\u3067\u3059\u3002\u30ab\u30bf\u30ab\u30ca\u3001\u6f22\u5b57\u3001\u5168\u89d2\uff21\uff22\uff23\u3002</p>\n' +
  '<ul><li>\u9805\u76ee\u4e00</li><li>\u9805\u76ee\u4e8c</li></ul>\n';

// Shift_JIS declared by the Content-Type header only.
write('charset-shift-jis-header', {
  'input.html': iconv.encode(
    `<html><head><title>\u30c6\u30b9\u30c8</title></head><body>\n${japanese}</body></html>\n`,
    'Shift_JIS',
  ),
  'document.json': documentJson({ contentType: 'text/html; charset=Shift_JIS' }),
});

// Shift_JIS declared by `<meta charset>` only; the header names no charset.
write('charset-shift-jis-meta', {
  'input.html': iconv.encode(
    `<html><head><meta charset="shift_jis"><title>\u30e1\u30bf</title></head><body>\n${japanese}</body></html>\n`,
    'Shift_JIS',
  ),
  'document.json': documentJson({ contentType: 'text/html' }),
});

// Not HTML: a PDF and a PNG, labelled as what they are, and a PNG labelled as HTML.
write('not-html-pdf', {
  'input.html': new TextEncoder().encode(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n',
  ),
  'document.json': documentJson({ contentType: 'application/pdf' }),
});
const png = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
  0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
  0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
  0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
  0x42, 0x60, 0x82,
]);
write('not-html-png', {
  'input.html': png,
  'document.json': documentJson({ contentType: 'image/png' }),
});
write('not-html-png-labelled-html', {
  'input.html': png,
  'document.json': documentJson({ contentType: 'text/html; charset=utf-8' }),
});

// A minified page of about 3 MB on a single line: many blocks, no newline anywhere.
{
  const blocks: string[] = [];
  let size = 0;
  for (let i = 0; size < 3_000_000; i++) {
    const block =
      i % 7 === 0
        ? `<h2>Part ${i}</h2>`
        : i % 7 === 3
          ? `<ul><li>item ${i}a</li><li>item ${i}b with <a href="/p/${i}">a link</a></li></ul>`
          : `<p>Paragraph ${i} of a page minified onto one line, with <em>some</em> <strong>formatting</strong> and <code>code</code>.</p>`;
    blocks.push(block);
    size += block.length;
  }
  const html = `<!doctype html><html><head><title>One line</title></head><body><main>${blocks.join('')}</main></body></html>`;
  write('huge-single-line-page', { 'input.html.gz': gzipSync(html, { level: 9 }) });
}

// Ten thousand levels of nesting: divs, quotes, lists, spans, emphasis and links, with
// text every 500 levels. Lists and quotes past the nesting cap are flattened.
{
  const open: string[] = [];
  const close: string[] = [];
  const tags = [
    'div',
    'blockquote',
    'ul',
    'li',
    'span',
    'em',
    'section',
    'ol',
    'li',
    'a href="/deep"',
  ];
  for (let level = 0; level < 10_000; level++) {
    const tag = tags[level % tags.length]!;
    open.push(`<${tag}>${level % 500 === 0 ? `level ${level} ` : ''}`);
    close.push(`</${tag.split(' ')[0]}>`);
  }
  const html = `<!doctype html><html><head><title>Deep</title></head><body>${open.join('')}bottom${close.reverse().join('')}<p>after the deep part</p></body></html>`;
  write('deeply-nested-10000-levels', { 'input.html.gz': gzipSync(html, { level: 9 }) });
}

// An article whose markdown is longer than the 200 KiB cap.
write('cap-200kb-truncated', {
  'input.html.gz': gzipSync(articlePage(2026, 420_000), { level: 9 }),
  'document.json': documentJson({ url: 'https://example.com/news/long-article' }),
});
