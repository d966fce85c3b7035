/**
 * Writes the generated fixture inputs (binary bodies, legacy encodings, large gzipped pages).
 * Run from the package folder: `node --import tsx test/generate-fixtures.ts`. The output is
 * deterministic, so re-running it changes nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('./fixtures/', import.meta.url).pathname;

/** Concatenate ASCII strings and raw byte runs. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      for (const char of part) {
        const code = char.charCodeAt(0);
        if (code > 0x7f) throw new Error(`Not ASCII: ${char}`);
        out.push(code);
      }
    } else {
      out.push(...part);
    }
  }
  return Uint8Array.from(out);
}

function write(name: string, input: Uint8Array | string, document: object, file = 'input.html') {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), input);
  writeFileSync(join(folder, 'document.json'), `${JSON.stringify(document, null, 2)}\n`);
}

// Binary bodies: a minimal PDF sniffed from bytes, and a PNG served as text/html.
write(
  'non-html-pdf',
  bytes(
    '%PDF-1.4\n',
    [0x25, 0xe2, 0xe3, 0xcf, 0xd3],
    '\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n',
  ),
  { url: 'https://example.com/report', contentType: 'application/octet-stream' },
);
write(
  'non-html-png-labelled-html',
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    [
      0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
      0x01,
    ],
    [0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89],
  ),
  { url: 'https://example.com/logo', contentType: 'text/html; charset=utf-8' },
);

// windows-1252: Café, naïve, €, “quoted”, Zürich.
const cp1252Body = (meta: string) =>
  bytes(
    `<!doctype html><html><head>${meta}<title>Caf`,
    [0xe9],
    '</title></head><body>\n<a href="/menu">Caf',
    [0xe9],
    ' menu</a>\n<a href="/z',
    [0xfc],
    'rich">Z',
    [0xfc],
    'rich office</a>\n<a href="https://other.example/">',
    [0x93],
    'na',
    [0xef],
    've',
    [0x94],
    ' prices in ',
    [0x80],
    '</a>\n</body></html>\n',
  );
write('windows-1252-charset-header', cp1252Body(''), {
  url: 'https://example.com/',
  contentType: 'text/html; charset=windows-1252',
});
write('windows-1252-charset-meta', cp1252Body('<meta charset="windows-1252">'), {
  url: 'https://example.com/',
  contentType: 'text/html',
});

// Shift_JIS: ホーム (home), 商品一覧 (catalogue), 会社概要 (about), お問い合わせ (contact), 東京 (Tokyo).
const HOME = [0x83, 0x7a, 0x81, 0x5b, 0x83, 0x80];
const CATALOGUE = [0x8f, 0xa4, 0x95, 0x69, 0x88, 0xea, 0x97, 0x97];
const ABOUT = [0x89, 0xef, 0x8e, 0xd0, 0x8a, 0x54, 0x97, 0x76];
const CONTACT = [0x82, 0xa8, 0x96, 0xe2, 0x82, 0xa2, 0x8d, 0x87, 0x82, 0xed, 0x82, 0xb9];
const TOKYO = [0x93, 0x8c, 0x8b, 0x9e];
const sjisBody = (meta: string) =>
  bytes(
    `<!doctype html><html><head>${meta}<title>`,
    HOME,
    '</title></head><body>\n<nav><a href="/">',
    HOME,
    '</a> <a href="/products/">',
    CATALOGUE,
    '</a> <a href="/about">',
    ABOUT,
    '</a></nav>\n<footer><a href="https://maps.example/tokyo">',
    TOKYO,
    '</a> <a href="/contact">',
    CONTACT,
    '</a></footer>\n</body></html>\n',
  );
write('shift-jis-charset-header', sjisBody(''), {
  url: 'https://example.jp/',
  contentType: 'text/html; charset=Shift_JIS',
});
write(
  'shift-jis-charset-meta',
  sjisBody('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">'),
  { url: 'https://example.jp/', contentType: 'text/html' },
);

// About 3 MB on one line: 30,000 anchors over five URLs between long runs of text, and one
// anchor wrapped around a megabyte of text.
{
  const parts: string[] = ['<!doctype html><html><head><title>Huge</title></head><body><p>'];
  const filler = 'lorem ipsum dolor sit amet '.repeat(2);
  for (let i = 0; i < 30_000; i++) {
    parts.push(filler, `<a href="/item/${i % 5}">item ${i % 5} (copy ${i})</a> `);
  }
  parts.push('<a href="https://big.example/">', 'word '.repeat(200_000), '</a></p></body></html>');
  const html = parts.join('');
  if (html.includes('\n')) throw new Error('must be one line');
  write(
    'huge-single-line',
    gzipSync(Buffer.from(html), { level: 9 }),
    { url: 'https://example.com/huge' },
    'input.html.gz',
  );
}

// 10,000 nested <div>s around one link, then 10,000 nested anchors (an <object> between
// each pair keeps the parser from closing the outer anchor), cycling over three URLs.
{
  const depth = 10_000;
  const parts: string[] = ['<!doctype html><html><head><title>Deep</title></head><body>'];
  parts.push(
    '<div>'.repeat(depth),
    '<a href="/bottom">Bottom of the divs</a>',
    '</div>'.repeat(depth),
  );
  for (let i = 0; i < depth; i++) parts.push(`<a href="/n${i % 3}">L${i} <object>`);
  parts.push('innermost', '</object></a>'.repeat(depth), '</body></html>');
  write(
    'deep-nesting',
    gzipSync(Buffer.from(parts.join('')), { level: 9 }),
    { url: 'https://example.com/deep' },
    'input.html.gz',
  );
}
