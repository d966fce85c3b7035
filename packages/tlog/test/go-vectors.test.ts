import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ed25519NoteKey,
  encodeTile,
  leafHash,
  openCheckpoint,
  proveConsistency,
  proveInclusion,
  signNote,
  tileNodes,
  tilePath,
  treeHash,
  verifyConsistency,
  verifyInclusion,
} from '../src/index.js';
import { b64, entry, GO_VECTORS_FILE, goVectors, memoryLog, unb64 } from './helpers.js';

const vectors = goVectors();
const log = memoryLog(1100, 13);

/** Go's tile path `tile/8/L/N` is C2SP's `tile/L/N`. */
const c2spPath = (goPath: string) => goPath.replace(/^tile\/8\//, 'tile/');

function hasGo(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('golden vectors from Go (golang.org/x/mod/sumdb)', () => {
  it('the committed vectors are what the Go program prints', (context) => {
    if (!hasGo()) {
      if (process.env.CI) throw new Error('go is not installed: CI must run the Go cross-check');
      context.skip('go is not installed (apt-get install golang-go golang-golang-x-mod-dev)');
    }
    const printed = execFileSync('go', ['run', '.'], {
      cwd: fileURLToPath(new URL('./go/vectors/', import.meta.url)),
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOFLAGS: '' },
      encoding: 'utf8',
    });
    expect(printed).toBe(readFileSync(GO_VECTORS_FILE, 'utf8'));
  }, 120_000);

  it('tree hashes', async () => {
    for (const [size, root] of Object.entries(vectors.roots)) {
      expect(b64(await treeHash(Number(size), log.read)), `size ${size}`).toBe(root);
    }
  });

  it('inclusion proofs: made the same, and each verifies', async () => {
    for (const { index, size, proof } of vectors.inclusion) {
      const made = await proveInclusion(index, size, log.read);
      expect(made.map(b64), `${index} in ${size}`).toStrictEqual(proof);
      const root = unb64(vectors.roots[String(size)] as string);
      expect(verifyInclusion(leafHash(entry(index)), index, size, made, root)).toBe(true);
    }
  });

  it('consistency proofs: made the same, and each verifies', async () => {
    for (const { old, new: size, proof } of vectors.consistency) {
      const made = await proveConsistency(old, size, log.read);
      expect(made.map(b64), `${old} to ${size}`).toStrictEqual(proof);
      const oldRoot = await treeHash(old, log.read);
      const newRoot = unb64(vectors.roots[String(size)] as string);
      expect(verifyConsistency(old, size, oldRoot, newRoot, made), `${old} to ${size}`).toBe(true);
    }
  });

  it('tile paths and tile contents', async () => {
    for (const tile of vectors.tiles) {
      const coordinates = { level: tile.level, index: tile.n, width: tile.width };
      expect(tilePath(coordinates)).toBe(c2spPath(tile.goPath));
      const data = encodeTile(await log.read(tileNodes(coordinates)));
      expect(createHash('sha256').update(data).digest('hex'), tile.goPath).toBe(tile.sha256);
    }
    for (const [key, goPath] of Object.entries(vectors.paths)) {
      const [level, index, width] = key.split('/').map(Number) as [number, number, number];
      expect(tilePath({ level, index, width })).toBe(c2spPath(goPath));
    }
  });

  it('signed note: the same key, key ID and signature bytes; Go’s note opens', () => {
    const { seed, name, vkey, text, note } = vectors.note;
    const key = ed25519NoteKey(name, new Uint8Array(Buffer.from(seed, 'hex')));
    expect(key.vkey).toBe(vkey);
    expect(signNote(text, [key.signer])).toBe(note);
    const { checkpoint } = openCheckpoint(note, key.verifier);
    expect(checkpoint.size).toBe(1000);
    expect(b64(checkpoint.root)).toBe(vectors.roots['1000']);
  });
});
