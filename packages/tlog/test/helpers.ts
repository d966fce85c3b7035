import { readFileSync } from 'node:fs';
import { appendLeaves, type HashReader, leafHash, type NodeId } from '../src/index.js';

/** The golden vectors printed by `test/go/vectors` (Go's sumdb/tlog and sumdb/note). */
export interface GoVectors {
  readonly roots: Record<string, string>;
  readonly inclusion: readonly { index: number; size: number; proof: string[] }[];
  readonly consistency: readonly { old: number; new: number; proof: string[] }[];
  readonly tiles: readonly {
    level: number;
    n: number;
    width: number;
    goPath: string;
    sha256: string;
  }[];
  readonly paths: Record<string, string>;
  readonly note: { seed: string; name: string; vkey: string; text: string; note: string };
}

export const GO_VECTORS_FILE = new URL('./fixtures/go-vectors.json', import.meta.url);

export function goVectors(): GoVectors {
  return JSON.parse(readFileSync(GO_VECTORS_FILE, 'utf8')) as GoVectors;
}

/** The entry the Go program logs at `index`. */
export function entry(index: number): string {
  return `entry ${index}`;
}

/** An in-memory log of `size` entries `entry 0…`, appended in batches of `batch`. */
export function memoryLog(size: number, batch = 7) {
  const hashes = new Map<string, Uint8Array>();
  let frontier: readonly Uint8Array[] = [];
  let at = 0;
  while (at < size) {
    const leaves = [];
    for (let i = at; i < Math.min(size, at + batch); i++) leaves.push(leafHash(entry(i)));
    const appended = appendLeaves(at, frontier, leaves);
    for (const node of appended.nodes) hashes.set(`${node.level}/${node.index}`, node.hash);
    frontier = appended.frontier;
    at = appended.size;
  }
  const read: HashReader = (nodes: readonly NodeId[]) =>
    nodes.map((node) => {
      const hash = hashes.get(`${node.level}/${node.index}`);
      if (hash === undefined) throw new Error(`no hash ${node.level}/${node.index}`);
      return hash;
    });
  return { hashes, read, frontier };
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
export const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** A copy of `bytes` with one bit of byte `at` flipped. */
export function flip(bytes: Uint8Array, at = 0): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = (copy[at] as number) ^ 0x01;
  return copy;
}
