import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createFacilitatorApp,
  createX402Facilitator,
  DEV_FACILITATOR,
  DEV_NETWORK,
  DEV_NETWORK_V1,
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_EIP712,
  type LocalChain,
  startChain,
} from '../src/index.js';
import { facilitatorBody, post, signPayment, v2Requirements } from './helpers.js';

const terms = {
  network: DEV_NETWORK,
  networkV1: DEV_NETWORK_V1,
  asset: DEV_TOKEN_ADDRESS,
  payTo: DEV_PAY_TO,
  extra: DEV_TOKEN_EIP712,
};

let chain: LocalChain;
let server: Server;
let url: string;
const reported: unknown[] = [];

// The official facilitator with hooks that throw: a stand-in for any failure inside it.
beforeAll(async () => {
  chain = await startChain();
  const facilitator = createX402Facilitator(chain.walletClient(DEV_FACILITATOR))
    .onBeforeVerify(async () => {
      throw new Error('verify broke\nwith a second line');
    })
    .onBeforeSettle(async () => {
      throw new Error('settle broke');
    });
  server = createServer(createFacilitatorApp(facilitator, { onError: (e) => reported.push(e) }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await chain?.close();
});

test('a throw inside verify or settle is a 500 JSON answer, reported, and the app serves on', async () => {
  const requirements = v2Requirements(terms, 1_000n);
  const body = facilitatorBody(
    await signPayment(DEV_PAYER.privateKey, 2, requirements),
    requirements,
  );

  const verify = await post(`${url}/verify`, body);
  expect(verify).toMatchObject({
    status: 500,
    contentType: expect.stringMatching(/^application\/json/),
    body: {
      isValid: false,
      invalidReason: 'unexpected_verify_error',
      invalidMessage: 'verify broke',
      payer: DEV_PAYER.address,
    },
  });
  const settle = await post(`${url}/settle`, body);
  expect(settle).toMatchObject({
    status: 500,
    body: {
      success: false,
      errorReason: 'unexpected_settle_error',
      errorMessage: 'settle broke',
      transaction: '',
      network: DEV_NETWORK,
    },
  });
  expect(reported.map((e) => (e as Error).message)).toEqual([
    'verify broke\nwith a second line',
    'settle broke',
  ]);
  expect((await fetch(`${url}/supported`)).status).toBe(200);
});
