import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyReceipt } from '@storefront/attest';
import { canonicalize } from '@storefront/core';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signedBareNotarize } from '../lib/bare-notarize.js';
import { express } from '../lib/server-deps.js';

// The floor of "Service overhead" must carry every proof a paid answer of the key door
// carries, or the goal measured from it would ask less of the service than it should.
// The receipt and the claim are checked from their definitions, not with the code that
// made them.

const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const CONTENT = 'a statement for the floor';
const dataDir = mkdtempSync(join(tmpdir(), 'floor-test-'));
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.set('query parser', 'simple');
  app.get(
    '/buy/notarize',
    await signedBareNotarize('http://floor.test', SIGNER_KEY, dataDir, { claim: true }),
  );
  server = app.listen(0, '127.0.0.1') as unknown as Server;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

test("the floor's answer carries the receipt, the claim and the RFC 9421 signature of a paid answer", async () => {
  const target = `/buy/notarize?content=${encodeURIComponent(CONTENT)}`;
  const answer = await fetch(`${base}${target}`);
  expect(answer.status).toBe(200);
  const raw = Buffer.from(await answer.arrayBuffer());
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;

  // The receipt: valid against the signer's address.
  const address = new Wallet(SIGNER_KEY).address;
  const receipt = verifyReceipt(body, address, { route: 'notarize' });
  expect(receipt.problems).toEqual([]);
  expect(receipt.valid).toBe(true);

  // The claim: sha256 of the JCS form of its five members, the result being the body.
  const claimHeader = answer.headers.get('response-provenance');
  expect(claimHeader).not.toBeNull();
  const claim = JSON.parse(Buffer.from(claimHeader as string, 'base64').toString('utf8')) as {
    responseHash: string;
    method: string;
    dataVintage: string;
  };
  const fixedPoint = canonicalize({
    dataVintage: claim.dataVintage,
    endpoint: '/buy/notarize',
    inputs: { content: CONTENT },
    method: claim.method,
    result: body,
  });
  expect(claim.responseHash).toBe(
    `sha256:${createHash('sha256').update(fixedPoint, 'utf8').digest('hex')}`,
  );

  // The RFC 9421 signature: made by `endSigned`, whose signatures the server's own tests
  // verify with an independent library; here, that it covers the floor's claim and body.
  expect(answer.headers.get('content-digest')).toBe(
    `sha-256=:${createHash('sha256').update(raw).digest('base64')}:`,
  );
  expect(answer.headers.get('signature-input')).toMatch(
    /^sig1=\("@status" "content-digest" "@method";req "@path";req "@query";req "response-provenance"\);created=\d+;keyid="[^"]+";alg="ed25519";tag="storefront"$/,
  );
  expect(answer.headers.get('signature')).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
});
