import { describe, expect, it } from 'vitest';
import {
  decodeEntryBundle,
  encodeEntryBundle,
  entriesPath,
  parseTilePath,
  tilePath,
  tilesOf,
  tileWidthAt,
} from '../src/index.js';

describe('tile paths (C2SP tlog-tiles)', () => {
  it('encodes the index in 3-digit groups with `x` on all but the last', () => {
    expect(tilePath({ level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(tilePath({ level: 1, index: 5, width: 7 })).toBe('tile/1/005.p/7');
    expect(entriesPath(1000, 256)).toBe('tile/entries/x001/000');
    expect(entriesPath(0, 1)).toBe('tile/entries/000.p/1');
  });

  it('parses exactly what it writes', () => {
    expect(parseTilePath('tile/0/x001/x234/067')).toStrictEqual({
      kind: 'hashes',
      level: 0,
      index: 1234067,
      width: 256,
    });
    expect(parseTilePath('tile/2/000.p/255')).toStrictEqual({
      kind: 'hashes',
      level: 2,
      index: 0,
      width: 255,
    });
    expect(parseTilePath('tile/entries/x002/001.p/3')).toStrictEqual({
      kind: 'entries',
      index: 2001,
      width: 3,
    });
    for (const bad of [
      'tile/0/1',
      'tile/0/x000/001',
      'tile/0/001.p/256',
      'tile/0/001.p/0',
      'tile/0/001.p/07',
      'tile/64/000',
      'tile/01/000',
      'tile/8/0/000',
      'tile/data/000',
      'tile/0/000/',
      '/tile/0/000',
    ]) {
      expect(parseTilePath(bad), bad).toBeNull();
    }
  });

  it('says how wide each tile is at a tree size', () => {
    expect(tileWidthAt(0, 0, 300)).toBe(256);
    expect(tileWidthAt(0, 1, 300)).toBe(44);
    expect(tileWidthAt(0, 2, 300)).toBe(0);
    expect(tileWidthAt(1, 0, 300)).toBe(1);
    expect(tileWidthAt(1, 0, 255)).toBe(0);
    expect(tilesOf(300)).toStrictEqual([
      { level: 0, index: 0, width: 256 },
      { level: 0, index: 1, width: 44 },
      { level: 1, index: 0, width: 1 },
    ]);
    expect(tilesOf(0)).toStrictEqual([]);
  });
});

describe('entry bundles', () => {
  it('prefix each entry with its 16-bit big-endian length', () => {
    const bundle = encodeEntryBundle([Buffer.from('ab'), new Uint8Array(0), new Uint8Array(300)]);
    expect(Buffer.from(bundle.subarray(0, 6)).toString('hex')).toBe('000261620000');
    expect(bundle[6]).toBe(0x01);
    expect(bundle[7]).toBe(0x2c);
    expect(decodeEntryBundle(bundle)?.map((e) => e.length)).toStrictEqual([2, 0, 300]);
  });

  it('refuses an entry too long and a truncated bundle', () => {
    expect(() => encodeEntryBundle([new Uint8Array(65536)])).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(decodeEntryBundle(Uint8Array.of(0, 3, 1, 2))).toBeNull();
    expect(decodeEntryBundle(Uint8Array.of(0))).toBeNull();
  });
});

describe('base64', () => {
  it('matches Node’s, and refuses non-canonical or unpadded text', async () => {
    const { fromBase64, toBase64 } = await import('../src/index.js');
    for (let n = 0; n < 70; n++) {
      const bytes = new Uint8Array(Array.from({ length: n }, (_, i) => (i * 37 + n) & 255));
      const text = Buffer.from(bytes).toString('base64');
      expect(toBase64(bytes)).toBe(text);
      expect(fromBase64(text)).toStrictEqual(bytes);
    }
    for (const bad of ['A', 'AB', 'AB=', 'AB==A', 'AR==', 'A===', 'ab c'])
      expect(fromBase64(bad), bad).toBeNull();
  });
});
