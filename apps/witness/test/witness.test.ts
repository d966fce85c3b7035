import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appendLeaves,
  cosignatureVerifier,
  ed25519Cosigner,
  ed25519NoteKey,
  formatCheckpoint,
  leafHash,
  type NodeId,
  openNote,
  proveConsistency,
  signNote,
  toBase64,
} from '@storefront/tlog';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore, startWitness, Witness } from '../src/index.js';

const ORIGIN = 'log.example/receipts';
const logKey = ed25519NoteKey(ORIGIN, new Uint8Array(32).fill(3));
const strangerKey = ed25519NoteKey(ORIGIN, new Uint8Array(32).fill(4));
const cosigner = ed25519Cosigner('witness.example/w1', new Uint8Array(32).fill(5));

/** A log of entries `entry 0…` in memory: its checkpoints and consistency proofs. */
function memoryLog() {
  const hashes = new Map<string, Uint8Array>();
  let frontier: readonly Uint8Array[] = [];
  let size = 0;
  let root: Uint8Array = new Uint8Array(32);
  const read = (nodes: readonly NodeId[]) =>
    nodes.map((node) => {
      const hash = hashes.get(`${node.level}/${node.index}`);
      if (hash === undefined) throw new Error(`no hash ${node.level}/${node.index}`);
      return hash;
    });
  return {
    grow(to: number) {
      const leaves = [];
      for (let i = size; i < to; i++) leaves.push(leafHash(`entry ${i}`));
      const appended = appendLeaves(size, frontier, leaves);
      for (const node of appended.nodes) hashes.set(`${node.level}/${node.index}`, node.hash);
      ({ frontier, size, root } = appended);
    },
    checkpoint(signer = logKey.signer) {
      return signNote(formatCheckpoint({ origin: ORIGIN, size, root, extensions: [] }), [signer]);
    },
    proof: (from: number, to: number) => proveConsistency(from, to, read),
    get size() {
      return size;
    },
  };
}

function request(old: number, proof: readonly Uint8Array[], checkpoint: string): string {
  return `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${checkpoint}`;
}

let dir: string;
let clock = 1_790_000_000;
const witnessAt = (path: string) =>
  new Witness({ cosigner, logs: [logKey.verifier], store: new FileStore(path), now: () => clock });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'witness-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('add-checkpoint (C2SP tlog-witness)', () => {
  it('cosigns a first checkpoint from size 0, then one a consistency proof extends', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(300);
    const first = await witness.addCheckpoint(request(0, [], log.checkpoint()));
    expect(first).toMatchObject({ status: 200 });
    expect(first.body).toMatch(/^— witness\.example\/w1 [A-Za-z0-9+/=]+\n$/);
    const verifier = cosignatureVerifier(cosigner.vkey);
    const opened = openNote(log.checkpoint() + first.body, [logKey.verifier, verifier]);
    expect(opened.signatures.map((s) => s.name)).toStrictEqual([ORIGIN, 'witness.example/w1']);
    const cosignature = opened.signatures[1];
    expect(cosignature && verifier.timestampOf(cosignature)).toBe(clock);

    clock += 60;
    log.grow(1234);
    const second = await witness.addCheckpoint(
      request(300, await log.proof(300, 1234), log.checkpoint()),
    );
    expect(second.status).toBe(200);
    expect(() =>
      openNote(log.checkpoint() + second.body, [logKey.verifier, verifier]),
    ).not.toThrow();
    expect((await witness.latest(ORIGIN))?.size).toBe(1234);
  });

  it('answers 409 with its size when the old size is not the last it cosigned', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(10);
    await witness.addCheckpoint(request(0, [], log.checkpoint()));
    log.grow(20);
    const stale = await witness.addCheckpoint(request(0, [], log.checkpoint()));
    expect(stale).toStrictEqual({ status: 409, contentType: 'text/x.tlog.size', body: '10\n' });
  });

  it('refuses (422) a proof edited by one byte, and keeps its state', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(100);
    await witness.addCheckpoint(request(0, [], log.checkpoint()));
    log.grow(180);
    const proof = await log.proof(100, 180);
    const edited = proof.map((hash, i) => {
      if (i !== 1) return hash;
      const copy = new Uint8Array(hash);
      copy[0] = (copy[0] as number) ^ 1;
      return copy;
    });
    const answer = await witness.addCheckpoint(request(100, edited, log.checkpoint()));
    expect(answer.status).toBe(422);
    expect((await witness.latest(ORIGIN))?.size).toBe(100);
    expect((await witness.addCheckpoint(request(100, proof, log.checkpoint()))).status).toBe(200);
  });

  it('refuses (422) another root at the size it cosigned: a fork', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(5);
    await witness.addCheckpoint(request(0, [], log.checkpoint()));
    const fork = signNote(
      formatCheckpoint({
        origin: ORIGIN,
        size: 5,
        root: new Uint8Array(32).fill(9),
        extensions: [],
      }),
      [logKey.signer],
    );
    expect((await witness.addCheckpoint(request(5, [], fork))).status).toBe(422);
  });

  it('answers 404, 403 and 400 as the protocol says', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(8);
    const other = ed25519NoteKey('other.example/log', new Uint8Array(32).fill(6));
    const unknown = signNote(
      formatCheckpoint({
        origin: 'other.example/log',
        size: 0,
        root: new Uint8Array(32),
        extensions: [],
      }),
      [other.signer],
    );
    expect((await witness.addCheckpoint(request(0, [], unknown))).status).toBe(404);
    // Signed by a key the witness does not trust for this origin.
    expect(
      (await witness.addCheckpoint(request(0, [], log.checkpoint(strangerKey.signer)))).status,
    ).toBe(403);
    // The trusted key's signature, broken.
    const good = log.checkpoint();
    const broken = good.replace('\n8\n', '\n9\n');
    expect((await witness.addCheckpoint(request(0, [], broken))).status).toBe(403);
    expect((await witness.addCheckpoint(request(9, [], good))).status).toBe(400);
    expect((await witness.addCheckpoint('old 01\n\n' + good)).status).toBe(400);
    expect((await witness.addCheckpoint(good)).status).toBe(400);
    const tooLong = request(
      0,
      Array.from({ length: 64 }, () => new Uint8Array(32)),
      good,
    );
    expect((await witness.addCheckpoint(tooLong)).status).toBe(400);
    expect((await witness.addCheckpoint(request(0, [new Uint8Array(32)], good))).status).toBe(422);
    expect(await witness.latest(ORIGIN)).toBeNull();
  });

  it('lets only one of two racing requests from the same old size through', async () => {
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(50);
    await witness.addCheckpoint(request(0, [], log.checkpoint()));
    log.grow(60);
    const a = request(50, await log.proof(50, 60), log.checkpoint());
    log.grow(70);
    const b = request(50, await log.proof(50, 70), log.checkpoint());
    const answers = await Promise.all([witness.addCheckpoint(a), witness.addCheckpoint(b)]);
    expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 409]);
    expect((await witness.latest(ORIGIN))?.size).toBe(60);
  });

  it('remembers what it cosigned across a restart', async () => {
    const log = memoryLog();
    log.grow(40);
    expect((await witnessAt(dir).addCheckpoint(request(0, [], log.checkpoint()))).status).toBe(200);
    log.grow(41);
    const restarted = witnessAt(dir);
    expect((await restarted.addCheckpoint(request(0, [], log.checkpoint()))).body).toBe('40\n');
  });
});

describe('the witness over HTTP', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('serves add-checkpoint and describes itself', async () => {
    const data = mkdtempSync(join(tmpdir(), 'witness-http-'));
    dirs.push(data);
    const witness = await startWitness({
      name: 'witness.example/w2',
      logs: [logKey.vkey],
      dataDir: data,
    });
    try {
      const log = memoryLog();
      log.grow(3);
      const post = (body: string) =>
        fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body });
      const ok = await post(request(0, [], log.checkpoint()));
      expect(ok.status).toBe(200);
      const line = await ok.text();
      const verifier = cosignatureVerifier(witness.vkey);
      expect(() => openNote(log.checkpoint() + line, [logKey.verifier, verifier])).not.toThrow();
      const conflict = await post(request(0, [], log.checkpoint()));
      expect(conflict.status).toBe(409);
      expect(conflict.headers.get('content-type')).toBe('text/x.tlog.size');
      expect(await conflict.text()).toBe('3\n');
      expect((await fetch(`${witness.url}/add-checkpoint`)).status).toBe(405);
      expect((await post('x'.repeat(70_000))).status).toBe(413);
      const about = (await (await fetch(`${witness.url}/`)).json()) as {
        vkey: string;
        logs: string[];
      };
      expect(about).toMatchObject({ vkey: witness.vkey, logs: [ORIGIN] });
      // The same key after a restart on the same data directory.
      const again = await startWitness({
        name: 'witness.example/w2',
        logs: [logKey.vkey],
        dataDir: data,
      });
      expect(again.vkey).toBe(witness.vkey);
      await again.close();
    } finally {
      await witness.close();
    }
  });
});

describe('cosignatures checked by Go (golang.org/x/mod/sumdb/note)', () => {
  const program = fileURLToPath(new URL('./go/cosigcheck/', import.meta.url));
  let binary: string | null = null;

  it('accepts the cosigned checkpoint and refuses one-byte edits', async (context) => {
    try {
      execFileSync('go', ['version'], { stdio: 'ignore' });
    } catch {
      if (process.env.CI) throw new Error('go is not installed: CI must run the Go check');
      context.skip();
    }
    const out = mkdtempSync(join(tmpdir(), 'cosigcheck-'));
    binary = join(out, 'cosigcheck');
    execFileSync('go', ['build', '-o', binary, '.'], {
      cwd: program,
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOFLAGS: '' },
    });
    const witness = witnessAt(dir);
    const log = memoryLog();
    log.grow(77);
    const line = (await witness.addCheckpoint(request(0, [], log.checkpoint()))).body;
    const cosigned = log.checkpoint() + line;
    const check = (note: string) =>
      spawnSync(binary as string, [logKey.vkey, cosigner.vkey], { input: note, encoding: 'utf8' });
    const good = check(cosigned);
    expect(good.stdout).toBe(`ok ${clock}\n`);
    expect(good.status).toBe(0);
    expect(check(cosigned.replace('\n77\n', '\n78\n')).status).toBe(1);
    const at = cosigned.length - 20;
    const flipped =
      cosigned.slice(0, at) + (cosigned[at] === 'A' ? 'B' : 'A') + cosigned.slice(at + 1);
    expect(check(flipped).status).toBe(1);
    // Without the witness's line the log's signature alone is not enough.
    expect(check(log.checkpoint()).status).toBe(1);
    rmSync(out, { recursive: true, force: true });
  }, 120_000);
});
