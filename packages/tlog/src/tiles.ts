import { TlogError } from './errors.js';
import type { NodeId } from './tree.js';

/** The height of every tile (C2SP tlog-tiles): a tile spans 8 levels of the tree. */
export const TILE_HEIGHT = 8;
/** The number of hashes (or entries) in a full tile: 2^TILE_HEIGHT. */
export const TILE_WIDTH = 256;
/** The largest entry an entry bundle can hold (its 16-bit length prefix). */
export const MAX_ENTRY_SIZE = 0xffff;

/**
 * A tile: `level` (0 holds leaf hashes, level L the hashes of level 8·L of the tree),
 * `index` within its level and `width`, the number of hashes (1–256; 256 is a full tile).
 * An entry bundle is the tile of entries with the same `index` and `width`.
 */
export interface Tile {
  readonly level: number;
  readonly index: number;
  readonly width: number;
}

/** What `parseTilePath` recognises: a hash tile or an entry bundle. */
export type TilePath =
  | ({ readonly kind: 'hashes' } & Tile)
  | { readonly kind: 'entries'; readonly index: number; readonly width: number };

/** The C2SP encoding of a tile index: 3-digit groups, all but the last prefixed by `x`. */
function indexPath(index: number): string {
  let rest = index;
  let path = String(rest % 1000).padStart(3, '0');
  while (rest >= 1000) {
    rest = Math.floor(rest / 1000);
    path = `x${String(rest % 1000).padStart(3, '0')}/${path}`;
  }
  return path;
}

function widthSuffix(width: number): string {
  return width === TILE_WIDTH ? '' : `.p/${width}`;
}

function checkTile(level: number, index: number, width: number): void {
  if (!Number.isSafeInteger(level) || level < 0 || level > 63) {
    throw new TlogError('invalid_argument', `a tile level is 0–63, not ${level}`);
  }
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new TlogError('invalid_argument', `a tile index is a safe integer ≥ 0, not ${index}`);
  }
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) {
    throw new TlogError('invalid_argument', `a tile width is 1–${TILE_WIDTH}, not ${width}`);
  }
}

/** The path of a hash tile: `tile/<L>/<N>[.p/<W>]` (C2SP tlog-tiles), e.g. `tile/0/x001/234.p/5`. */
export function tilePath(tile: Tile): string {
  checkTile(tile.level, tile.index, tile.width);
  return `tile/${tile.level}/${indexPath(tile.index)}${widthSuffix(tile.width)}`;
}

/** The path of an entry bundle: `tile/entries/<N>[.p/<W>]` (C2SP tlog-tiles). */
export function entriesPath(index: number, width: number): string {
  checkTile(0, index, width);
  return `tile/entries/${indexPath(index)}${widthSuffix(width)}`;
}

const TILE_PATH =
  /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*)([0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/;

/**
 * Parses a tile or entry-bundle path (`tile/0/x001/234.p/5`, `tile/entries/000`); `null`
 * when it is not exactly one C2SP tlog-tiles would write.
 */
export function parseTilePath(path: string): TilePath | null {
  const match = TILE_PATH.exec(path);
  if (match === null) return null;
  const [, levelText, groups, last, widthText] = match as unknown as [
    string,
    string,
    string,
    string,
    string?,
  ];
  let index = 0;
  for (const group of groups.split('/').filter(Boolean))
    index = index * 1000 + Number(group.slice(1));
  index = index * 1000 + Number(last);
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if ((widthText !== undefined && width >= TILE_WIDTH) || !Number.isSafeInteger(index)) return null;
  const level = levelText === 'entries' ? 0 : Number(levelText);
  if (level > 63) return null;
  const tile =
    levelText === 'entries'
      ? ({ kind: 'entries', index, width } as const)
      : ({ kind: 'hashes', level, index, width } as const);
  // Only the canonical spelling: no `x000/` lead, no over-wide partial tile.
  const again = tile.kind === 'entries' ? entriesPath(index, width) : tilePath(tile);
  return again === path ? tile : null;
}

/** How many hashes of tile `(level, index)` a tree of `size` leaves holds (0 = none yet). */
export function tileWidthAt(level: number, index: number, size: number): number {
  const perHash = TILE_WIDTH ** level;
  const hashes = Math.floor(size / perHash);
  return Math.max(0, Math.min(TILE_WIDTH, hashes - index * TILE_WIDTH));
}

/** The stored nodes a tile lists, in order: level 8·L, `index·256` onward, `width` of them. */
export function tileNodes(tile: Tile): NodeId[] {
  checkTile(tile.level, tile.index, tile.width);
  const level = tile.level * TILE_HEIGHT;
  const first = tile.index * TILE_WIDTH;
  return Array.from({ length: tile.width }, (_, i) => ({ level, index: first + i }));
}

/**
 * The tiles (full and the partial one of each level) a tree of `size` leaves is published
 * as; entry bundles have the coordinates of the level-0 tiles.
 */
export function tilesOf(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; Math.floor(size / TILE_WIDTH ** level) > 0; level++) {
    const hashes = Math.floor(size / TILE_WIDTH ** level);
    for (let index = 0; index * TILE_WIDTH < hashes; index++) {
      tiles.push({ level, index, width: tileWidthAt(level, index, size) });
    }
  }
  return tiles;
}

/** Concatenates hashes into a tile's bytes. */
export function encodeTile(hashes: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(hashes));
}

/** An entry bundle (C2SP tlog-tiles): each entry prefixed by its length, 16 bits big-endian. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_SIZE) {
      throw new TlogError(
        'invalid_argument',
        `an entry has at most ${MAX_ENTRY_SIZE} bytes, not ${entry.length}`,
      );
    }
    parts.push(Uint8Array.of(entry.length >> 8, entry.length & 0xff), entry);
  }
  return new Uint8Array(Buffer.concat(parts));
}

/** The entries of an entry bundle; `null` when the bytes are not exactly a bundle. */
export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] | null {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.length) {
    if (at + 2 > bundle.length) return null;
    const length = ((bundle[at] as number) << 8) | (bundle[at + 1] as number);
    at += 2;
    if (at + length > bundle.length) return null;
    entries.push(bundle.slice(at, at + length));
    at += length;
  }
  return entries;
}
