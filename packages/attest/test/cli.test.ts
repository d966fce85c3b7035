import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize } from '@storefront/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEST_SCHEME, type CliIo, EXIT, runCli } from '../src/index.js';
import { signedResult, signedResultV1, TEST_ADDRESS, TEST_PRIVATE_KEY } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'storefront-verify-'));
const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const good = signedResult('receipt under test');
const goodFile = write('good.json', good);
const badFile = write('bad.json', { ...good, text: 'receipt under tesT' });
const doc = {
  scheme: ATTEST_SCHEME,
  alg: 'EIP-191-personal_sign',
  keyId: `${ATTEST_SCHEME}:${TEST_ADDRESS}`,
  address: TEST_ADDRESS,
  retired: [],
};
const docFile = write('service-attestation.json', doc);
/** A route the package was built without, and a document that publishes its rule. */
const echoData = { said: 'hello', times: 2 };
const echo = signedResult(canonicalize(echoData), TEST_PRIVATE_KEY, 'echo');
const echoFile = write('echo.json', { ...echo, data: echoData });
const forgedEchoFile = write('echo-forged.json', { ...echo, data: { ...echoData, times: 3 } });
const docWithRules = { ...doc, receiptRules: { echo: { kind: 'canonical-json' } } };
const docWithRulesFile = write('service-attestation-rules.json', docWithRules);

function io(stdin = ''): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdin: async () => stdin,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    fetchText: async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      return response.text();
    },
  };
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/.well-known/service-attestation') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(doc));
    } else if (req.url === '/with-rules/.well-known/service-attestation') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(docWithRules));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('storefront-verify', () => {
  it('prints its usage to stdout and exits 0 on --help', async () => {
    const streams = io();
    expect(await runCli(['--help'], streams)).toBe(EXIT.valid);
    expect(streams.out.join('\n')).toMatch(/--pin/);
    expect(streams.err).toEqual([]);
  });

  it('exits 0 and prints one line per check for a valid receipt pinned by address', async () => {
    const t = io();
    expect(await runCli([goodFile, '--pin', TEST_ADDRESS], t)).toBe(EXIT.valid);
    expect(t.out).toStrictEqual([
      'contentHash  pass  sha256(text) matches the signed contentHash',
      `signature    pass  EIP-191 signer ${TEST_ADDRESS}`,
      'pinnedKey    pass  signer is a pinned key',
      'envelope     pass  url, status and fetchedAt match the signed message',
      'fields       n/a   no field besides text to compare',
      'covers       text, url, status, fetchedAt',
      'not covered  (nothing)',
      `valid (${ATTEST_SCHEME}:${TEST_ADDRESS})`,
    ]);
  });

  it('says which envelope fields it compared: a /buy/fetch result has no fetchedAt', async () => {
    const { fetchedAt, ...body } = signedResult('page text');
    const t = io();
    expect(
      await runCli(
        [write('fetch.json', { ...body, title: 'A page', bytes: 9 }), '--pin', TEST_ADDRESS],
        t,
      ),
    ).toBe(EXIT.valid);
    expect(t.out.slice(3, 7)).toStrictEqual([
      `envelope     pass  url and status match the signed message; fetchedAt not in the result (signed fetchedAt ${fetchedAt})`,
      'fields       n/a   no field of the /buy/fetch result restates text',
      'covers       text, url, status',
      'not covered  title, bytes',
    ]);
  });

  it('exits 1 for a result whose data was edited, and names the route it checked', async () => {
    const data = { title: 'Example', counts: { jsonLd: 0 }, openGraph: {} };
    const metadata = { ...signedResult(canonicalize(data), TEST_PRIVATE_KEY, 'metadata'), data };
    expect(await runCli([write('metadata.json', metadata), '--pin', TEST_ADDRESS], io())).toBe(
      EXIT.valid,
    );
    const t = io();
    const edited = { ...metadata, data: { ...data, title: 'Forged' } };
    expect(await runCli([write('edited.json', edited), '--pin', TEST_ADDRESS], t)).toBe(
      EXIT.invalid,
    );
    expect(t.out[0]).toMatch(/^contentHash {2}pass/);
    expect(t.out[4]).toBe(
      'fields       FAIL  the fields of the /buy/metadata result do not give the signed text',
    );
    expect(t.out.at(-1)).toBe('NOT VALID');
    const named = io();
    expect(
      await runCli(
        [write('named.json', metadata), '--pin', TEST_ADDRESS, '--route', '/buy/fetch'],
        named,
      ),
    ).toBe(EXIT.invalid);
    expect(named.out).toContain(
      '  - The receipt was signed for a /buy/metadata result, not /buy/fetch.',
    );
  });

  it('exits 1 for a tampered receipt and says which check failed', async () => {
    const t = io();
    expect(await runCli([badFile, '--pin', TEST_ADDRESS], t)).toBe(EXIT.invalid);
    expect(t.out[0]).toMatch(/^contentHash {2}FAIL/);
    expect(t.out.at(-1)).toBe('NOT VALID');
  });

  it('reads the receipt from standard input', async () => {
    const t = io(JSON.stringify(good));
    expect(await runCli(['--pin', TEST_ADDRESS], t)).toBe(EXIT.valid);
    expect(await runCli(['-', `--pin=${TEST_ADDRESS}`], io(JSON.stringify(good)))).toBe(EXIT.valid);
  });

  it('takes the pin from a service-attestation file', async () => {
    expect(await runCli([goodFile, '--pin', docFile], io())).toBe(EXIT.valid);
  });

  it('takes the pin from a service-attestation URL', async () => {
    const t = io();
    expect(await runCli([goodFile, '--pin', `${base}/.well-known/service-attestation`], t)).toBe(
      EXIT.valid,
    );
    const missing = io();
    expect(await runCli([goodFile, '--pin', `${base}/nope`], missing)).toBe(EXIT.badInput);
    expect(missing.err.join('\n')).toMatch(/HTTP 404/);
  });

  it('checks the fields of a route it was built without by the pinned document’s rule', async () => {
    for (const pin of [docWithRulesFile, `${base}/with-rules/.well-known/service-attestation`]) {
      const t = io();
      expect(await runCli([echoFile, '--pin', pin], t)).toBe(EXIT.valid);
      expect(t.out[4]).toBe(
        'fields       pass  text re-derived from the fields of the /buy/echo result matches',
      );
      const forged = io();
      expect(await runCli([forgedEchoFile, '--pin', pin], forged)).toBe(EXIT.invalid);
      expect(forged.out).toContain(
        '  - `text` is not the canonical JSON of `data`: `data` was changed after signing.',
      );
    }
  });

  it('says, without failing, that it has no rule for a route when none is pinned', async () => {
    const t = io();
    expect(await runCli([forgedEchoFile, '--pin', docFile], t)).toBe(EXIT.valid);
    expect(t.out.slice(4)).toStrictEqual([
      'fields       n/a   no receipt rule known for /buy/echo: its fields were not compared',
      'covers       text, url, status, fetchedAt',
      'not covered  data.said, data.times',
      "  note: No receipt rule is known for /buy/echo, so its fields were not compared with `text` (the signature, `text` and the envelope were); give the route's rule in `rules`, or pin a service-attestation document that publishes `receiptRules`.",
      `valid (${ATTEST_SCHEME}:${TEST_ADDRESS})`,
    ]);
  });

  it('still verifies a storefront-attest/1 receipt, against the same document', async () => {
    const t = io();
    const old = write('old.json', signedResultV1('an old receipt'));
    expect(await runCli([old, '--pin', docFile], t)).toBe(EXIT.valid);
    expect(t.out.at(-1)).toBe(`valid (storefront-attest/1:${TEST_ADDRESS})`);
  });

  it('exits 1 when pinned to another address', async () => {
    expect(
      await runCli([goodFile, '--pin', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'], io()),
    ).toBe(EXIT.invalid);
  });

  it.each([
    ['no pin', [goodFile]],
    ['a pin without value', [goodFile, '--pin']],
    ['an unknown option', [goodFile, '--pin', TEST_ADDRESS, '--fast']],
    ['two inputs', [goodFile, goodFile, '--pin', TEST_ADDRESS]],
    ['a missing file', [join(dir, 'nope.json'), '--pin', TEST_ADDRESS]],
    ['input that is not JSON', [write('junk.json', 'not json'), '--pin', TEST_ADDRESS]],
    ['a pin file that is not a document', [goodFile, '--pin', write('pin.json', { hello: 1 })]],
    ['a pin that is neither address nor file', [goodFile, '--pin', '0x1234']],
    ['a route that is not a route name', [goodFile, '--pin', TEST_ADDRESS, '--route', 'No Pe']],
    ['a route without value', [goodFile, '--pin', TEST_ADDRESS, '--route']],
  ])('exits 2 on bad input: %s', async (_name, argv) => {
    const t = io();
    expect(await runCli(argv, t)).toBe(EXIT.badInput);
    expect(t.err.length).toBeGreaterThan(0);
    expect(t.out).toStrictEqual([]);
  });

  it('says why a pin is unusable', async () => {
    const t = io();
    await runCli([goodFile, '--pin', '0x1234'], t);
    expect(t.err.join('\n')).toMatch(/neither an address .* nor an http\(s\) URL/);
  });

  it('works as a real process with stdin and exit codes', () => {
    const bin = join(import.meta.dirname, '../src/bin.ts');
    const run = (input: string, pin: string) =>
      spawnSync(
        process.execPath,
        ['--conditions=@storefront/source', '--import', 'tsx', bin, '--pin', pin],
        {
          input,
          encoding: 'utf8',
        },
      );
    const valid = run(JSON.stringify(good), TEST_ADDRESS);
    expect(valid.status).toBe(0);
    expect(valid.stdout.trim().split('\n')).toHaveLength(8);
    expect(run(JSON.stringify({ ...good, text: 'x' }), TEST_ADDRESS).status).toBe(1);
    const bad = run('{', TEST_ADDRESS);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/not JSON/);
  });
});
