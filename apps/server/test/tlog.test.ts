/**
 * The transparency log of every receipt (docs/decisions.md, "A transparency log of every
 * receipt"), end to end: a real listening service on PostgreSQL (or PGlite), paid calls
 * through the key door, the x402 door (exact and batch-settlement) and MCP, each
 * receipt's inclusion proof fetched by its hash once sequenced; then Go's reference
 * implementations (`golang.org/x/mod/sumdb/note` and `sumdb/tlog`, Debian's
 * `golang-golang-x-mod-dev`) check the checkpoint's signature, the consistency of an
 * older checkpoint, each inclusion proof and the tiles over HTTP, and fail behind a
 * mirror that edits one byte of an entry, a proof or the checkpoint.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Attestation, checkLogInclusion, logEntry, receiptHash } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { noteVerifier, openCheckpoint } from '@storefront/tlog';
import { wrapFetchWithPayment } from '@x402/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server.js';
import { buildGoCheck } from './go.js';
import { tempDir } from './helpers.js';
import { listeningServer, liveKeyAt, paymentEnv } from './listening.js';
import { type Site, startSite } from './site.js';
import { officialV2Payer } from './x402/payments.js';

const SIGNER_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

let stack: PaymentStack;
let site: Site;
let running: RunningServer;
let base: string;
let vkey: string;
let stop: () => Promise<void>;
const work = tempDir('storefront-tlog-');

/** The Go verifier, built from `test/go/tlogcheck` with Debian's Go and x/mod; null without Go. */
let tlogcheck: string | null = null;

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startSite();
  ({ server: running, stop } = await listeningServer({
    SAFE_FETCH_ALLOW: site.allow,
    ...paymentEnv(stack),
    X402_BATCH_REDEEM_SECONDS: '0',
    SIGNER_PRIVATE_KEY: SIGNER_KEY,
  }));
  await running.ready();
  base = running.url;
  const published = (await (await fetch(`${base}/.well-known/service-attestation`)).json()) as {
    log: { vkey: string };
  };
  vkey = published.log.vkey;
  tlogcheck = buildGoCheck(new URL('./go/tlogcheck/', import.meta.url));
}, 180_000);

afterAll(async () => {
  await stop?.();
  await site?.close();
  await stack?.close();
}, 60_000);

interface Proof {
  readonly ok: boolean;
  readonly receipt: string;
  readonly index: number;
  readonly size: number;
  readonly entry: string;
  readonly checkpoint: string;
  readonly proof: string[];
}

/** The receipt's inclusion proof, once the sequencer has logged it (polls; no clock). */
async function proofOf(receipt: Attestation): Promise<Proof> {
  const hash = receiptHash(receipt);
  for (;;) {
    const res = await fetch(`${base}/log/proof?receipt=${hash}`);
    if (res.status === 200) return (await res.json()) as Proof;
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('not_found');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The log's checkpoint now. */
async function checkpointNow(): Promise<string> {
  return (await fetch(`${base}/log/checkpoint`)).text();
}

/** Logged and provable: the entry is the receipt's, and the proof checks against the published key. */
async function expectLogged(receipt: Attestation): Promise<Proof> {
  const found = await proofOf(receipt);
  expect(found.entry).toBe(logEntry(receipt));
  expect(found.receipt).toBe(receiptHash(receipt));
  expect(checkLogInclusion(receipt, found, vkey)).toMatchObject({
    valid: true,
    index: found.index,
  });
  // A one-byte edit of the receipt, of the proof, or of the checkpoint fails.
  const edited = {
    ...receipt,
    nonce: `${receipt.nonce.slice(0, -1)}${receipt.nonce.endsWith('0') ? '1' : '0'}`,
  };
  expect(checkLogInclusion(edited, found, vkey).valid).toBe(false);
  if (found.proof.length > 0) {
    const first = found.proof[0] as string;
    const flipped = `${first[0] === 'A' ? 'B' : 'A'}${first.slice(1)}`;
    expect(
      checkLogInclusion(receipt, { ...found, proof: [flipped, ...found.proof.slice(1)] }, vkey)
        .valid,
    ).toBe(false);
  }
  const body = found.checkpoint.split('\n');
  body[1] = String(Number(body[1]) + 1);
  expect(checkLogInclusion(receipt, { ...found, checkpoint: body.join('\n') }, vkey)).toMatchObject(
    {
      valid: false,
    },
  );
  return found;
}

const receipts: Attestation[] = [];
let oldCheckpoint = '';

describe('every receipt enters the log', () => {
  it('publishes the log key and a checkpoint signed with it', async () => {
    const res = await fetch(`${base}/log/checkpoint`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    const { checkpoint } = openCheckpoint(await res.text(), noteVerifier(vkey));
    expect(checkpoint.origin).toBe(`${new URL(base).host}/log`);
  });

  it('a key-door result', async () => {
    const key = await liveKeyAt(base, 100);
    const res = await fetch(`${base}/buy/notarize?content=logged%20by%20key`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { attestation: Attestation };
    receipts.push(body.attestation);
    await expectLogged(body.attestation);
    oldCheckpoint = await checkpointNow();
  });

  it('an x402 exact payment', async () => {
    const pay = wrapFetchWithPayment(fetch, officialV2Payer(DEV_PAYER.privateKey)) as typeof fetch;
    const res = await pay(`${base}/buy/notarize?content=logged%20by%20x402`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { attestation: Attestation };
    receipts.push(body.attestation);
    await expectLogged(body.attestation);
  }, 60_000);

  it('an MCP tool call', async () => {
    const key = await liveKeyAt(base, 100);
    const client = new Client({ name: 'storefront-tlog-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const result = await client.callTool({
      name: 'notarize',
      arguments: { content: 'logged by mcp' },
    });
    await client.close();
    expect(result.isError).not.toBe(true);
    const receipt = (result.structuredContent as { attestation: Attestation }).attestation;
    receipts.push(receipt);
    await expectLogged(receipt);
  }, 60_000);

  it('a crawl job’s pages and its manifest', async () => {
    const key = await liveKeyAt(base, 1000);
    const created = await fetch(`${base}/jobs/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.shop.url('/'), limit: 2 }),
    });
    expect(created.status).toBe(202);
    const { jobId: id } = (await created.json()) as { jobId: string };
    let job: { status: string; manifest?: { attestation: Attestation } } = { status: 'queued' };
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await (
        await fetch(`${base}/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as typeof job;
    }
    expect(job.status).toBe('completed');
    const pages = (await (
      await fetch(`${base}/jobs/${id}/pages`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { pages: { attestation?: Attestation }[] };
    const signed = pages.pages.flatMap((p) => (p.attestation ? [p.attestation] : []));
    expect(signed.length).toBeGreaterThan(0);
    for (const receipt of [...signed, job.manifest?.attestation as Attestation]) {
      receipts.push(receipt);
      await expectLogged(receipt);
    }
  }, 120_000);
});

describe('the log as C2SP tlog-tiles', () => {
  it('serves tiles: partial ones short-lived, full ones immutable; unknown paths 404', async () => {
    const { size } = openCheckpoint(await checkpointNow(), noteVerifier(vkey)).checkpoint;
    const partial = await fetch(`${base}/log/tile/0/000.p/${Math.min(size, 255)}`);
    expect(partial.status).toBe(200);
    expect(partial.headers.get('cache-control')).toBe('public, max-age=1');
    expect((await partial.arrayBuffer()).byteLength).toBe(32 * Math.min(size, 255));
    const bundle = await fetch(`${base}/log/tile/entries/000.p/1`);
    expect(
      Buffer.from(await bundle.arrayBuffer())
        .subarray(2)
        .toString(),
    ).toBe(logEntry(receipts[0] as Attestation));
    expect((await fetch(`${base}/log/tile/0/x000/001`)).status).toBe(404);
    expect((await fetch(`${base}/log/tile/0/999`)).status).toBe(404);
    expect((await fetch(`${base}/log/tile/8/0/000`)).status).toBe(404);
    // Past one full tile (filler entries written as a door writes them): full tiles are immutable.
    await running.db.query(
      `INSERT INTO tlog_pending (entry) SELECT 'filler ' || i FROM generate_series(1, 300) AS i`,
    );
    for (;;) {
      const full = await fetch(`${base}/log/tile/0/000`);
      if (full.status === 200) {
        expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect((await full.arrayBuffer()).byteLength).toBe(32 * 256);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('answers consistency proofs between any two sizes, and refuses bad sizes', async () => {
    const { size } = openCheckpoint(await checkpointNow(), noteVerifier(vkey)).checkpoint;
    const res = await fetch(`${base}/log/consistency?old=3&new=${size}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = (await res.json()) as { old: number; new: number; proof: string[] };
    expect(body).toMatchObject({ old: 3, new: size });
    expect(body.proof.length).toBeGreaterThan(0);
    expect((await fetch(`${base}/log/consistency?old=${size + 1}`)).status).toBe(400);
    expect((await fetch(`${base}/log/consistency?new=2`)).status).toBe(400);
    expect((await fetch(`${base}/log/consistency?old=1&new=${size + 100}`)).status).toBe(400);
    expect((await fetch(`${base}/log/proof?receipt=${'ab'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${base}/log/proof?receipt=nope`)).status).toBe(400);
  });
});

/** A mirror of the log that edits what it forwards (`edit`), as a dishonest one could. */
async function startMirror(edit: (path: string, body: Buffer) => Buffer) {
  const server = http.createServer(async (req, res) => {
    const upstream = await fetch(`${base}${req.url ?? '/'}`);
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' });
    res.end(edit(req.url ?? '', body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/log`, close: () => server.close() };
}

function runGo(logUrl: string): Promise<{ code: number; output: string }> {
  const old = join(work, 'old-checkpoint.txt');
  writeFileSync(old, oldCheckpoint);
  const args = ['-log', logUrl, '-vkey', vkey, '-old', old, ...receipts.map((r) => receiptHash(r))];
  return new Promise((resolve) => {
    execFile(tlogcheck as string, args, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}${stderr}` });
    });
  });
}

/** One byte of `text` at `at` replaced by another. */
function editByte(text: string, at: number): string {
  const c = text[at] === 'A' ? 'B' : 'A';
  return `${text.slice(0, at)}${c}${text.slice(at + 1)}`;
}

describe('Go’s sumdb/note and sumdb/tlog check the log', () => {
  it('the checkpoint signature, consistency with an older checkpoint, each inclusion proof and the tiles', async (context) => {
    if (tlogcheck === null)
      context.skip('go is not installed (apt-get install golang-go golang-golang-x-mod-dev)');
    const { code, output } = await runGo(`${base}/log`);
    expect(output).toContain('(note.Open)');
    expect(output).toContain('(TileHashReader, TreeHash)');
    expect(output).toContain('(CheckTree)');
    expect(output.match(/\(CheckRecord\)/g)?.length).toBe(receipts.length);
    expect(output.trim().endsWith('ok')).toBe(true);
    expect(code).toBe(0);
  }, 120_000);

  const edits: [string, (path: string, body: Buffer) => Buffer][] = [
    [
      'an entry',
      (path: string, body: Buffer) => {
        if (!path.startsWith('/log/proof')) return body;
        const proof = JSON.parse(body.toString()) as Proof;
        return Buffer.from(JSON.stringify({ ...proof, entry: editByte(proof.entry, 20) }));
      },
    ],
    [
      'a proof',
      (path: string, body: Buffer) => {
        if (!path.startsWith('/log/proof')) return body;
        const proof = JSON.parse(body.toString()) as Proof;
        const [first = '', ...rest] = proof.proof;
        return Buffer.from(JSON.stringify({ ...proof, proof: [editByte(first, 0), ...rest] }));
      },
    ],
    [
      'the checkpoint',
      (path: string, body: Buffer) => {
        if (!path.startsWith('/log/checkpoint')) return body;
        const text = body.toString();
        return Buffer.from(editByte(text, text.indexOf('\n', text.indexOf('\n') + 1) + 3));
      },
    ],
    [
      'a tile',
      (path: string, body: Buffer) => {
        if (!path.startsWith('/log/tile/0/')) return body;
        const copy = Buffer.from(body);
        copy[5] = (copy[5] as number) ^ 1;
        return copy;
      },
    ],
  ];
  for (const [what, edit] of edits) {
    it(`fails behind a mirror that edits one byte of ${what}`, async (context) => {
      if (tlogcheck === null) context.skip('go is not installed');
      const mirror = await startMirror(edit);
      try {
        const { code, output } = await runGo(mirror.url);
        expect(output).toContain('FAIL:');
        expect(code).toBe(1);
      } finally {
        mirror.close();
      }
    }, 120_000);
  }
});
