/**
 * Writes the generated fixture inputs (binary bodies, legacy encodings, many tables, large
 * gzipped pages). Run from the package folder: `node --import tsx test/generate-fixtures.ts`.
 * The output is deterministic, so re-running it changes nothing.
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

function write(
  name: string,
  input: Uint8Array | string,
  document: object | null,
  options: object | null = null,
  file = 'input.html',
) {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), input);
  if (document !== null) {
    writeFileSync(join(folder, 'document.json'), `${JSON.stringify(document, null, 2)}\n`);
  }
  if (options !== null) {
    writeFileSync(join(folder, 'options.json'), `${JSON.stringify(options, null, 2)}\n`);
  }
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

// windows-1252: Café, Zürich, “naïve”, €, and a non-breaking space (0xA0) as an empty cell.
const cp1252Body = (meta: string) =>
  bytes(
    `<!doctype html><html><head>${meta}<title>Caf`,
    [0xe9],
    ' prices</title></head><body>\n<table>\n<tr><th>Caf',
    [0xe9],
    '</th><th>City</th><th>Price (',
    [0x80],
    ')</th></tr>\n<tr><td>',
    [0x93],
    'Na',
    [0xef],
    've',
    [0x94],
    '</td><td>Z',
    [0xfc],
    'rich</td><td>4,50</td></tr>\n<tr><td>Plain</td><td>',
    [0xa0],
    '</td><td>3,00</td></tr>\n</table>\n</body></html>\n',
  );
write('windows-1252-charset-header', cp1252Body(''), {
  contentType: 'text/html; charset=windows-1252',
});
write('windows-1252-charset-meta', cp1252Body('<meta charset="windows-1252">'), {
  contentType: 'text/html',
});

// Shift_JIS: 品名 (item), 価格 (price), 数量 (quantity), りんご (apple), みかん (mandarin), 合計 (total).
const ITEM = [0x95, 0x69, 0x96, 0xbc];
const PRICE = [0x89, 0xbf, 0x8a, 0x69];
const QUANTITY = [0x90, 0x94, 0x97, 0xca];
const APPLE = [0x82, 0xe8, 0x82, 0xf1, 0x82, 0xb2];
const MANDARIN = [0x82, 0xdd, 0x82, 0xa9, 0x82, 0xf1];
const TOTAL = [0x8d, 0x87, 0x8c, 0x76];
const sjisBody = (meta: string) =>
  bytes(
    `<!doctype html><html><head>${meta}<title>`,
    PRICE,
    '</title></head><body>\n<table>\n<thead><tr><th>',
    ITEM,
    '</th><th>',
    PRICE,
    '</th><th>',
    QUANTITY,
    '</th></tr></thead>\n<tbody><tr><td>',
    APPLE,
    '</td><td>120</td><td>3</td></tr>\n<tr><td>',
    MANDARIN,
    '</td><td>80</td><td>5</td></tr></tbody>\n<tfoot><tr><td>',
    TOTAL,
    '</td><td colspan="2">760</td></tr></tfoot>\n</table>\n</body></html>\n',
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

// 23 tables: the first 20 are returned and truncatedTables is true.
{
  const parts = ['<!doctype html>\n<title>Many tables</title>\n'];
  for (let i = 0; i < 23; i++) {
    parts.push(
      `<table><tr><th>Table</th><th>Square</th></tr><tr><td>${i}</td><td>${i * i}</td></tr></table>\n`,
    );
  }
  write('more-than-20-tables', parts.join(''), null);
}

// About 3 MB on one line: long paragraphs with a small table in the middle and one at the end.
{
  const filler = `<p>${'lorem ipsum dolor sit amet '.repeat(40)}</p>`;
  const table = (n: number) =>
    `<table><tr><th>Block</th><th>Note</th></tr><tr><td>${n}</td><td>${'x'.repeat(20)}</td></tr></table>`;
  const html = [
    '<!doctype html><html><head><title>Huge</title></head><body>',
    filler.repeat(1400),
    table(1),
    filler.repeat(1400),
    table(2),
    '</body></html>',
  ].join('');
  if (html.includes('\n')) throw new Error('must be one line');
  write('huge-single-line', gzipSync(Buffer.from(html), { level: 9 }), null, null, 'input.html.gz');
}

// 10,000 tables nested one per cell, then a table whose cell holds 10,000 nested <div>s.
{
  const depth = 10_000;
  const html = [
    '<!doctype html><html><head><title>Deep</title></head><body>',
    '<table><tr><td>'.repeat(depth),
    'innermost',
    '</td></tr></table>'.repeat(depth),
    '<table><tr><th>Deep cell</th></tr><tr><td>',
    '<div>'.repeat(depth),
    'bottom',
    '</div>'.repeat(depth),
    '</td></tr></table></body></html>',
  ].join('');
  write('deep-nesting', gzipSync(Buffer.from(html), { level: 9 }), null, null, 'input.html.gz');
  write(
    'deep-nesting-last-table',
    gzipSync(Buffer.from(html), { level: 9 }),
    null,
    { table: depth },
    'input.html.gz',
  );
}
