import { describe, expect, it } from 'vitest';
import { DECODE_CHUNK_BYTES, decodeBytes, decodeChunks, parseContentType } from '../src/index.js';

const hex = (value: string) => Uint8Array.from(Buffer.from(value, 'hex'));
const ascii = (value: string) => Uint8Array.from(Buffer.from(value, 'latin1'));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));
const html = (head: string, body: Uint8Array) =>
  concat(ascii(`<!doctype html><html><head>${head}</head><body>`), body, ascii('</body></html>'));

describe('decodeBytes', () => {
  it.each([
    ['windows-1252', '636166e92080', 'café €'],
    ['iso-8859-1', '636166e92080', 'café €'], // WHATWG: latin1 labels mean windows-1252
    ['ISO-8859-2', '5a61bff3b3e6', 'Zażółć'],
    ['iso-8859-5', 'b6e3da', 'Жук'],
    ['Shift_JIS', '93fa967b8cea', '日本語'],
    ['sjis', '93fa967b8cea', '日本語'],
    ['GBK', 'd6d0cec4', '中文'],
    ['gb2312', 'd6d0cec4', '中文'],
    ['EUC-KR', 'c7d1b1b9beee', '한국어'],
  ])('decodes %s declared by the Content-Type header', (label, bytes, text) => {
    const result = decodeBytes(hex(bytes), { contentType: `text/html; charset=${label}` });
    expect(result.text).toBe(text);
    expect(result.source).toBe('content-type');
  });

  it('reads a quoted charset parameter among others', () => {
    const result = decodeBytes(hex('93fa967b8cea'), {
      contentType: 'text/plain; format=flowed; charset="shift_jis"',
    });
    expect(result).toStrictEqual({ text: '日本語', encoding: 'Shift_JIS', source: 'content-type' });
  });

  it('reads <meta charset> when the header has no charset', () => {
    const bytes = html('<meta charset="shift_jis">', hex('93fa967b8cea'));
    const result = decodeBytes(bytes, { contentType: 'text/html' });
    expect(result.encoding).toBe('Shift_JIS');
    expect(result.source).toBe('meta');
    expect(result.text).toContain('<body>日本語</body>');
  });

  it('reads <meta http-equiv=content-type content="…; charset=…">', () => {
    const bytes = html(
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">',
      hex('636166e9'),
    );
    const result = decodeBytes(bytes, { contentType: null });
    expect(result.source).toBe('meta');
    expect(result.text).toContain('café');
  });

  it('lets the header win over <meta>', () => {
    const bytes = html('<meta charset="shift_jis">', hex('d6d0cec4'));
    const result = decodeBytes(bytes, { contentType: 'text/html; charset=gbk' });
    expect(result.encoding).toBe('GBK');
    expect(result.text).toContain('中文');
  });

  it('lets a byte order mark win over the header', () => {
    const bytes = concat(hex('efbbbf'), ascii('caf'), hex('c3a9'));
    const result = decodeBytes(bytes, { contentType: 'text/html; charset=windows-1252' });
    expect(result).toStrictEqual({ text: 'café', encoding: 'UTF-8', source: 'bom' });
  });

  it.each([
    ['UTF-16LE', 'fffe630061006600e900'],
    ['UTF-16BE', 'feff0063006100660 0e9'.replace(/ /g, '')],
  ])('decodes %s from its byte order mark', (encoding, bytes) => {
    expect(decodeBytes(hex(bytes))).toStrictEqual({ text: 'café', encoding, source: 'bom' });
  });

  it('treats <meta charset=utf-16> as UTF-8, as HTML requires', () => {
    const bytes = html('<meta charset="utf-16">', hex('c3a9'));
    expect(decodeBytes(bytes).encoding).toBe('UTF-8');
    expect(decodeBytes(bytes).text).toContain('é');
  });

  it('ignores an unknown header charset and goes on to <meta>', () => {
    const bytes = html('<meta charset="euc-kr">', hex('c7d1b1b9beee'));
    const result = decodeBytes(bytes, { contentType: 'text/html; charset=klingon' });
    expect(result.source).toBe('meta');
    expect(result.text).toContain('한국어');
  });

  it('reads the encoding of an XML declaration for XML types', () => {
    const bytes = concat(
      ascii('<?xml version="1.0" encoding="ISO-8859-2"?><a>'),
      hex('b3'),
      ascii('</a>'),
    );
    const result = decodeBytes(bytes, { contentType: 'application/rss+xml' });
    expect(result.source).toBe('xml-declaration');
    expect(result.text).toBe('<?xml version="1.0" encoding="ISO-8859-2"?><a>ł</a>');
  });

  it('uses UTF-8 for undeclared bytes that are valid UTF-8', () => {
    expect(decodeBytes(ascii('<p>caf\u00c3\u00a9</p>'))).toStrictEqual({
      text: '<p>café</p>',
      encoding: 'UTF-8',
      source: 'utf-8-valid',
    });
  });

  it('falls back to windows-1252 for undeclared bytes that are not UTF-8', () => {
    expect(decodeBytes(hex('636166e9'))).toStrictEqual({
      text: 'café',
      encoding: 'windows-1252',
      source: 'default',
    });
  });

  it('replaces invalid sequences in a declared encoding instead of failing', () => {
    const result = decodeBytes(hex('61ff62'), { contentType: 'text/plain; charset=utf-8' });
    expect(result.text).toBe('a\ufffdb');
  });

  it('decodes an empty body to an empty string', () => {
    expect(decodeBytes(new Uint8Array()).text).toBe('');
  });

  it.each([
    ['UTF-16LE lone high surrogate', [0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00], '\ufffdA'],
    ['UTF-16LE lone low surrogate', [0xff, 0xfe, 0x00, 0xdc], '\ufffd'],
    ['UTF-16BE lone high surrogate', [0xfe, 0xff, 0xd8, 0x00], '\ufffd'],
    ['UTF-16LE valid pair', [0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde], '\u{1F600}'],
  ])('turns %s into well-formed text', (_name, bytes, text) => {
    const decoded = decodeBytes(Uint8Array.from(bytes)).text;
    expect(decoded).toBe(text);
    expect(decoded.isWellFormed()).toBe(true);
  });
});

describe('parseContentType', () => {
  it.each([
    ['text/html', { mediaType: 'text/html', charset: null }],
    ['Text/HTML; Charset=UTF-8', { mediaType: 'text/html', charset: 'UTF-8' }],
    ['application/json;charset="utf-8";x=1', { mediaType: 'application/json', charset: 'utf-8' }],
    ['text/html; charset=', { mediaType: 'text/html', charset: null }],
  ])('parses %j', (value, expected) => {
    expect(parseContentType(value)).toStrictEqual(expected);
  });

  it.each(['', 'html', 'text/', ' / ', 'text/html/x'])('refuses %j', (value) => {
    expect(parseContentType(value)).toBeNull();
  });
});

describe('decodeChunks', () => {
  const utf8 = (value: string) => Uint8Array.from(Buffer.from(value, 'utf8'));
  const bodies: [string, Uint8Array, string | null][] = [
    ['UTF-8 with characters of 2, 3 and 4 bytes', utf8('é€😀 a'.repeat(50)), 'text/html'],
    ['a BOM', concat(hex('efbbbf'), utf8('<p>é'.repeat(40))), null],
    [
      'invalid UTF-8 (windows-1252 then)',
      concat(utf8('<p>é'.repeat(40)), hex('ff80')),
      'text/html',
    ],
    [
      'invalid UTF-8 with a charset (U+FFFD then)',
      concat(utf8('ab'.repeat(40)), hex('ff')),
      'text/html; charset=utf-8',
    ],
    ['Shift_JIS (one piece)', hex('8382815b'.repeat(30)), 'text/html; charset=Shift_JIS'],
    ['a <meta charset>', html('<meta charset="windows-1252">', hex('e9'.repeat(60))), 'text/html'],
    ['empty', new Uint8Array(0), 'text/html'],
  ];

  it.each(bodies)(
    '%s: the pieces join to what decodeBytes gives, with the same decision',
    (_name, bytes, contentType) => {
      const whole = decodeBytes(bytes, { contentType });
      for (const size of [1, 2, 3, 5, 7, 64, 1 << 20]) {
        const pieces = decodeChunks(bytes, { contentType }, size);
        expect(pieces.chunks.join('')).toBe(whole.text);
        expect([pieces.encoding, pieces.source]).toEqual([whole.encoding, whole.source]);
      }
    },
  );

  it('cuts UTF-8 into pieces of about the given bytes, never inside a character', () => {
    const text = 'é€😀 x'.repeat(20_000);
    const { chunks } = decodeChunks(utf8(text), { contentType: 'text/html' });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      // A character cut by the previous piece's end is decoded whole in this one.
      expect(Buffer.byteLength(chunk, 'utf8')).toBeLessThanOrEqual(DECODE_CHUNK_BYTES + 3);
      expect(chunk.isWellFormed()).toBe(true);
    }
    expect(chunks.join('')).toBe(text);
  });
});
