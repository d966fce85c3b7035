/**
 * The receipt log's witness (docs/decisions.md, "A witness for the receipt log"): a
 * listening service submits each new checkpoint to a witness running in its own process
 * with its own key (`launchLocalWitness`, as `pnpm start` runs it); the cosigned
 * checkpoint at `/log/checkpoint` opens with both keys, in our code and in Go's
 * `golang.org/x/mod/sumdb/note`; a witness that was down cosigns the grown log once it is
 * back, from the size it last cosigned.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LoggedReceipt, receiptHash } from '@storefront/attest';
import {
  cosignatureVerifier,
  ed25519Cosigner,
  noteVerifier,
  openCheckpoint,
} from '@storefront/tlog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type LocalWitness, launchLocalWitness } from '../src/local-witness.js';
import type { RunningServer } from '../src/server.js';
import { buildGoCheck } from './go.js';
import { tempDir } from './helpers.js';
import { listeningServer, liveKeyAt } from './listening.js';

let running: RunningServer;
let stopRunning: () => Promise<void>;
let witness: LocalWitness;
let key: string;
const witnessDir = tempDir('storefront-witness-');

beforeAll(async () => {
  ({ server: running, stop: stopRunning } = await listeningServer());
  witness = await launchLocalWitness({ logVkey: running.logVkey, dataDir: witnessDir });
  running.witnessWith({
    url: witness.url,
    vkey: witness.vkey,
    verifier: cosignatureVerifier(witness.vkey),
  });
  key = await liveKeyAt(running.url, 1000);
}, 180_000);

afterAll(async () => {
  await stopRunning?.();
  await witness?.stop();
}, 60_000);

async function notarize(content: string): Promise<void> {
  const res = await fetch(`${running.url}/buy/notarize?content=${content}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
}

/** The served checkpoint once it has at least `size` entries and a line by `name`. */
async function cosignedCheckpoint(size: number, name: string): Promise<string> {
  for (;;) {
    const text = await (await fetch(`${running.url}/log/checkpoint`)).text();
    const at = Number(text.split('\n')[1]);
    if (at >= size && text.includes(`\n— ${name} `)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the receipt log, witnessed', () => {
  it('serves a checkpoint its witness cosigned, which Go opens with both keys', async () => {
    for (const content of ['one', 'two', 'three']) await notarize(content);
    const name = cosignatureVerifier(witness.vkey).name;
    const checkpoint = await cosignedCheckpoint(3, name);
    const logKey = noteVerifier(running.logVkey);
    const witnessKey = cosignatureVerifier(witness.vkey);
    const { note } = openCheckpoint(checkpoint, logKey, [witnessKey]);
    const line = note.signatures.find((s) => s.name === name);
    expect(line).toBeDefined();
    expect(witnessKey.timestampOf(line as NonNullable<typeof line>)).toBeGreaterThan(1_700_000_000);

    const published = (await (
      await fetch(`${running.url}/.well-known/service-attestation`)
    ).json()) as {
      log: { vkey: string; witnesses: { name: string; vkey: string; url: string }[] };
    };
    expect(published.log.witnesses).toStrictEqual([{ name, vkey: witness.vkey, url: witness.url }]);

    const binary = buildGoCheck(new URL('../../witness/test/go/cosigcheck/', import.meta.url));
    if (binary === null) return;
    const check = (text: string) =>
      spawnSync(binary, [running.logVkey, witness.vkey], { input: text, encoding: 'utf8' });
    const good = check(checkpoint);
    expect(good.stdout).toMatch(/^ok \d+\n$/);
    expect(good.status).toBe(0);
    const size = checkpoint.split('\n')[1] as string;
    expect(check(checkpoint.replace(`\n${size}\n`, `\n${Number(size) + 1}\n`)).status).toBe(1);
  }, 120_000);

  it('gets the grown log cosigned once a witness that was down is back', async () => {
    const name = cosignatureVerifier(witness.vkey).name;
    const before = await cosignedCheckpoint(3, name);
    const cosignedSize = Number(before.split('\n')[1]);
    await witness.stop();
    for (const content of ['four', 'five']) await notarize(content);
    // The log goes on without its witness: a bigger checkpoint, not cosigned.
    for (;;) {
      const text = await (await fetch(`${running.url}/log/checkpoint`)).text();
      if (Number(text.split('\n')[1]) >= cosignedSize + 2) {
        expect(text).not.toContain(`\n— ${name} `);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Back on the same data directory: the same key, and the size it cosigned last.
    const back = await launchLocalWitness({ logVkey: running.logVkey, dataDir: witnessDir });
    expect(back.vkey).toBe(witness.vkey);
    running.witnessWith({
      url: back.url,
      vkey: back.vkey,
      verifier: cosignatureVerifier(back.vkey),
    });
    witness = back;
    const after = await cosignedCheckpoint(cosignedSize + 2, name);
    expect(() =>
      openCheckpoint(after, noteVerifier(running.logVkey), [cosignatureVerifier(back.vkey)]),
    ).not.toThrow();
  }, 120_000);

  it('keeps sequencing while a witness holds a submission unanswered', async () => {
    // A witness that takes each submission and never answers: the log waits for it
    // (WITNESS_TIMEOUT_MS) beside its sequencing, not in front of it.
    const open = new Set<ServerResponse>();
    let submissions = 0;
    let firstArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      firstArrived = resolve;
    });
    const silent = createServer((req, res) => {
      submissions += 1;
      open.add(res);
      res.once('close', () => open.delete(res));
      req.resume();
      firstArrived();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const cosigner = ed25519Cosigner('witness.localhost/silent', new Uint8Array(32).fill(7));
    running.witnessWith({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      vkey: cosigner.vkey,
      verifier: cosignatureVerifier(cosigner.vkey),
    });
    try {
      await notarize('held');
      await arrived;
      expect(open.size).toBe(1);
      // A call made while that submission is held gets its receipt into the log.
      const res = await fetch(`${running.url}/buy/notarize?content=while-held`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as { attestation: LoggedReceipt };
      const hash = receiptHash(body.attestation);
      for (;;) {
        const proof = await fetch(`${running.url}/log/proof?receipt=${hash}`);
        if (proof.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // ...while the first submission is still held, and no second one was made.
      expect(open.size).toBe(1);
      expect(submissions).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 60_000);
});

describe('LOG_WITNESSES', () => {
  const vkey = 'witness.example/w1+df1c0a35+BIE5dw6ofRdfVqNUZsNMfszLjYqRtO43ol32D1uPybOU';
  const config = (value: string) =>
    loadConfig({ NODE_ENV: 'test', LOG_WITNESSES: value }, tempDir('storefront-witness-cfg-'));

  it('reads `<url> <vkey>` entries, separated by commas or newlines', () => {
    const witnesses = config(
      `https://w1.example/ ${vkey},\nhttp://127.0.0.1:4130 ${vkey}`,
    ).logWitnesses;
    expect(witnesses.map((w) => [w.url, w.verifier.name])).toStrictEqual([
      ['https://w1.example', 'witness.example/w1'],
      ['http://127.0.0.1:4130', 'witness.example/w1'],
    ]);
  });

  it('refuses a malformed entry or key, saying which', () => {
    expect(() => config(`w1.example ${vkey}`)).toThrow(/LOG_WITNESSES: `w1\.example/);
    expect(() => config(`https://w1.example ${vkey.replace('df1c0a35', 'df1c0a36')}`)).toThrow(
      /LOG_WITNESSES: .*key ID does not match/,
    );
  });
});
