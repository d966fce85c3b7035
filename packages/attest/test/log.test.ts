import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize } from '@storefront/core';
import {
  appendLeaves,
  ed25519NoteKey,
  formatCheckpoint,
  leafHash,
  type NodeId,
  proveInclusion,
  signNote,
  toBase64,
} from '@storefront/tlog';
import { describe, expect, it } from 'vitest';
import {
  ATTEST_SCHEME,
  type Attestation,
  type CliIo,
  checkLogInclusion,
  EXIT,
  logEntry,
  receiptHash,
  runCli,
} from '../src/index.js';
import { signedResult, TEST_ADDRESS } from './helpers.js';

const result = signedResult('a receipt in the log');
const receipt = result.attestation as Attestation;
const key = ed25519NoteKey('storefront.example/log', new Uint8Array(32).fill(3));

/** A log of five entries, the receipt's at index 3, and the receipt's proof answer. */
async function logWithReceipt() {
  const entries = ['a', 'b', 'c', logEntry(receipt), 'e'];
  const tree = appendLeaves(
    0,
    [],
    entries.map((e) => leafHash(e)),
  );
  const stored = new Map(tree.nodes.map((n) => [`${n.level}/${n.index}`, n.hash]));
  const read = (nodes: readonly NodeId[]) =>
    nodes.map((n) => stored.get(`${n.level}/${n.index}`) as Uint8Array);
  const body = formatCheckpoint({
    origin: key.signer.name,
    size: 5,
    root: tree.root,
    extensions: [],
  });
  return {
    index: 3,
    checkpoint: signNote(body, [key.signer]),
    proof: (await proveInclusion(3, 5, read)).map(toBase64),
  };
}

describe('log entries', () => {
  it('are the canonical JSON of five receipt fields; the receipt hash is its SHA-256', () => {
    const entry = logEntry(receipt);
    expect(Object.keys(JSON.parse(entry))).toStrictEqual([
      'contentHash',
      'keyId',
      'nonce',
      'signature',
      'signedAt',
    ]);
    expect(entry).not.toContain(' ');
    const { contentHash, keyId, nonce, signature, signedAt } = receipt;
    expect(entry).toBe(canonicalize({ signedAt, signature, nonce, keyId, contentHash }));
    expect(logEntry({ ...receipt, nonce: 'a"\\\n\u2028é' })).toBe(
      canonicalize({ contentHash, keyId, nonce: 'a"\\\n\u2028é', signature, signedAt }),
    );
    expect(() => logEntry({ ...receipt, nonce: 1 } as never)).toThrow(TypeError);
    expect(receiptHash(receipt)).toMatch(/^[0-9a-f]{64}$/);
    expect(logEntry({ ...receipt, verify: undefined } as never)).toBe(entry);
  });

  it('checkLogInclusion passes for the receipt and fails for one byte edited anywhere', async () => {
    const found = await logWithReceipt();
    expect(checkLogInclusion(receipt, found, key.vkey)).toStrictEqual({
      valid: true,
      origin: 'storefront.example/log',
      size: 5,
      index: 3,
      problem: null,
    });
    const nonce = `${receipt.nonce.slice(0, -1)}${receipt.nonce.endsWith('a') ? 'b' : 'a'}`;
    expect(checkLogInclusion({ ...receipt, nonce }, found, key.vkey).valid).toBe(false);
    expect(checkLogInclusion(receipt, { ...found, index: 2 }, key.vkey).valid).toBe(false);
    const [first = '', ...rest] = found.proof;
    const edited = [`${first[0] === 'A' ? 'B' : 'A'}${first.slice(1)}`, ...rest];
    expect(checkLogInclusion(receipt, { ...found, proof: edited }, key.vkey).valid).toBe(false);
    const checkpoint = found.checkpoint.replace('\n5\n', '\n6\n');
    expect(checkLogInclusion(receipt, { ...found, checkpoint }, key.vkey).problem).toMatch(
      /not signed by the log key \(invalid_signature\)/,
    );
    const other = ed25519NoteKey('storefront.example/log', new Uint8Array(32).fill(4));
    expect(checkLogInclusion(receipt, found, other.vkey).valid).toBe(false);
  });
});

describe('storefront-verify --log-proof', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-verify-log-'));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const io = (): CliIo & { out: string[]; err: string[] } => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      stdin: async () => '',
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      fetchText: async () => '',
    };
  };
  const resultFile = write('result.json', result);

  it('checks the receipt, then its inclusion under the log key of the pinned document', async () => {
    const proofFile = write('proof.json', await logWithReceipt());
    const doc = write('doc.json', {
      scheme: ATTEST_SCHEME,
      alg: 'EIP-191-personal_sign',
      keyId: `${ATTEST_SCHEME}:${TEST_ADDRESS}`,
      address: TEST_ADDRESS,
      retired: [],
      log: { vkey: key.vkey },
    });
    const run = io();
    expect(await runCli([resultFile, '--pin', doc, '--log-proof', proofFile], run)).toBe(
      EXIT.valid,
    );
    expect(run.out.slice(-2)).toStrictEqual([
      'log          pass  entry 3 of storefront.example/log at size 5: the inclusion proof leads to the signed checkpoint',
      'valid, and in the log',
    ]);
  });

  it('fails on an edited proof, and needs a log key', async () => {
    const found = await logWithReceipt();
    const [first = '', ...rest] = found.proof;
    const proofFile = write('edited.json', {
      ...found,
      proof: [`${first[0] === 'A' ? 'B' : 'A'}${first.slice(1)}`, ...rest],
    });
    const run = io();
    const args = [resultFile, '--pin', TEST_ADDRESS, '--log-proof', proofFile];
    expect(await runCli([...args, '--log-key', key.vkey], run)).toBe(EXIT.invalid);
    expect(run.out.at(-2)).toMatch(/^log {10}FAIL {2}the proof does not lead from entry 3/);
    const missing = io();
    expect(await runCli(args, missing)).toBe(EXIT.badInput);
    expect(missing.err.join('\n')).toContain('--log-proof needs the log key');
  });
});
