import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Facilitator,
  type FacilitatorRequest,
  MAX_FACILITATOR_ANSWER_BYTES,
} from '../../src/doors/x402/facilitator.js';
import {
  requirementsFor,
  v1FacilitatorRequirements,
  v2Accept,
} from '../../src/doors/x402/requirements.js';
import { handMade, PAYER } from './payments.js';
import { BASE_URL, route, TERMS } from './terms.js';

const fetchRoute = route('fetch');
const [tier] = fetchRoute.prices;
if (tier === undefined) throw new Error('fetch has a price');
const requirements = requirementsFor(fetchRoute, tier, BASE_URL, TERMS);
const v1Payment = handMade(1, requirements);
const v2Payment = handMade(2, requirements);
const TX = `0x${'9f'.repeat(32)}`;
const OTHER = `0x${'5'.repeat(40)}`;

type Reply = (res: ServerResponse, path: 'verify' | 'settle') => void;

const json =
  (status: number, body: unknown, settleBody: unknown = body): Reply =>
  (res, path) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(path === 'verify' ? body : settleBody));
  };

/**
 * How the facilitator at `/<mode>` answers. Each mode is one behaviour a real
 * facilitator (or what stands in front of it) can show.
 */
const MODES: Record<string, Reply> = {
  valid: json(
    200,
    { isValid: true, payer: PAYER.address },
    { success: true, transaction: TX, network: 'base', payer: PAYER.address },
  ),
  'valid-v2': json(
    200,
    { isValid: true, payer: PAYER.address.toLowerCase() },
    { success: true, transaction: TX, network: 'eip155:8453', payer: PAYER.address },
  ),
  'no-payer': json(200, { isValid: true }, { success: true, transaction: TX, network: 'base' }),
  invalid: json(
    200,
    {
      isValid: false,
      invalidReason: 'invalid_exact_evm_payload_signature',
      invalidMessage: 'signature does not match',
      payer: PAYER.address,
    },
    { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'base' },
  ),
  'invalid-400': json(
    400,
    { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_before' },
    { success: false, errorReason: 'invalid_transaction_state', transaction: '', network: 'base' },
  ),
  'invalid-no-reason': json(200, { isValid: false }, { success: false, transaction: '' }),
  'invalid-500': json(
    500,
    { isValid: false, invalidReason: 'unexpected_verify_error' },
    {
      success: false,
      errorReason: 'unexpected_settle_error',
    },
  ),
  'error-500': json(500, { error: 'boom' }),
  'error-503-html': (res) => {
    res.writeHead(503, { 'content-type': 'text/html' });
    res.end('<html><body>Service Unavailable</body></html>');
  },
  'not-found': (res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  },
  'garbage-text': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('OK');
  },
  'garbage-json': json(200, { ok: true }),
  'garbage-array': json(200, [true]),
  'valid-as-string': json(
    200,
    { isValid: 'true' },
    { success: 'true', transaction: TX, network: 'base' },
  ),
  'contradiction-400': json(
    400,
    { isValid: true },
    { success: true, transaction: TX, network: 'base' },
  ),
  'success-without-tx': json(
    200,
    { isValid: true },
    { success: true, transaction: '', network: 'base' },
  ),
  'success-without-network': json(200, { isValid: true }, { success: true, transaction: TX }),
  'other-payer': json(
    200,
    { isValid: true, payer: OTHER },
    { success: true, transaction: TX, network: 'base', payer: OTHER },
  ),
  'payer-not-address': json(200, { isValid: true, payer: 42 }),
  huge: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ isValid: true, padding: 'x'.repeat(MAX_FACILITATOR_ANSWER_BYTES) }));
  },
  // Never answers.
  hang: () => {},
  'hang-until-given-up': () => {},
  // Sends the head and part of the body, then nothing.
  'hang-body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"isValid":');
  },
  // Closes the connection without an answer.
  close: (res) => {
    res.socket?.destroy();
  },
};

let server: Server;
let base: string;
let closedPort: number;
const sockets = new Set<Socket>();
/** The last request each mode received. */
const received = new Map<string, { path: string; contentType: string; body: FacilitatorRequest }>();

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [, mode = '', path] = (req.url ?? '').split('/');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.set(mode, {
        path: path ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString()) as FacilitatorRequest,
      });
      const reply = MODES[mode];
      if (reply === undefined || (path !== 'verify' && path !== 'settle')) {
        res.writeHead(404).end();
        return;
      }
      reply(res, path);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A port nobody listens on: taken, then given back.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A client of the facilitator at `/<mode>`, with a short timeout for the hanging modes. */
function at(mode: string, timeoutMs = 5000): Facilitator {
  return new Facilitator({ url: `${base}/${mode}/`, timeoutMs });
}

describe('Facilitator requests', () => {
  it('POSTs a v1 payment with the v1 accept entry, chain named `base`', async () => {
    await at('valid').verify(v1Payment, requirements);
    const request = received.get('valid');
    expect(request?.path).toBe('verify');
    expect(request?.contentType).toBe('application/json');
    expect(request?.body).toStrictEqual({
      x402Version: 1,
      paymentPayload: v1Payment.raw,
      paymentRequirements: JSON.parse(JSON.stringify(v1FacilitatorRequirements(requirements))),
    });
    expect(request?.body.paymentRequirements.network).toBe('base');
  });

  it('POSTs a v2 payment with the v2 accept entry to /settle', async () => {
    await at('valid-v2').settle(v2Payment, requirements);
    const request = received.get('valid-v2');
    expect(request?.path).toBe('settle');
    expect(request?.body).toStrictEqual({
      x402Version: 2,
      paymentPayload: v2Payment.raw,
      paymentRequirements: v2Accept(requirements),
    });
  });
});

describe('Facilitator.verify', () => {
  it.each<[string, 1 | 2, unknown]>([
    ['valid', 1, { ok: true, payer: PAYER.address }],
    ['valid-v2', 2, { ok: true, payer: PAYER.address.toLowerCase() }],
    ['no-payer', 1, { ok: true, payer: v1Payment.payer }],
    [
      'invalid',
      1,
      {
        ok: false,
        kind: 'rejected',
        reason: 'invalid_exact_evm_payload_signature',
        detail: 'signature does not match',
      },
    ],
    [
      'invalid-400',
      2,
      {
        ok: false,
        kind: 'rejected',
        reason: 'invalid_exact_evm_payload_authorization_valid_before',
        detail: null,
      },
    ],
    ['invalid-no-reason', 1, { ok: false, kind: 'rejected', reason: 'unspecified', detail: null }],
  ])('maps the answer of a facilitator that says %s', async (mode, version, expected) => {
    const payment = version === 1 ? v1Payment : v2Payment;
    expect(await at(mode).verify(payment, requirements)).toStrictEqual(expected);
  });

  it.each<[string, RegExp]>([
    ['invalid-500', /the facilitator answered HTTP 500/],
    ['error-500', /the verify answer \(HTTP 500\) is not usable: no boolean `isValid`/],
    ['error-503-html', /the verify answer \(HTTP 503\) is not usable: not JSON: <html>/],
    ['not-found', /the verify answer \(HTTP 404\) is not usable: not JSON/],
    ['garbage-text', /the verify answer \(HTTP 200\) is not usable: not JSON: OK/],
    ['garbage-json', /the verify answer \(HTTP 200\) is not usable: no boolean `isValid`/],
    ['garbage-array', /not a JSON object/],
    ['valid-as-string', /no boolean `isValid`/],
    ['contradiction-400', /the facilitator answered HTTP 400/],
    ['other-payer', /`payer` 0x5{40}, but the payment is from 0x/],
    ['payer-not-address', /a `payer` that is not an address/],
    ['huge', /the verify answer is larger than 65536 bytes/],
    ['close', /could not reach the facilitator for verify: /],
  ])('takes %s for unavailable, never for success', async (mode, reason) => {
    const result = await at(mode).verify(v1Payment, requirements);
    expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(result.ok === false && result.kind === 'unavailable' && result.reason).toMatch(reason);
  });

  it('gives up on a facilitator that never answers, at the timeout', async () => {
    expect(await at('hang', 300).verify(v1Payment, requirements)).toStrictEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'no verify answer within 300 ms',
    });
  });

  it('gives up on an answer whose body stops coming, at the timeout', async () => {
    expect(await at('hang-body', 300).verify(v1Payment, requirements)).toStrictEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'no verify answer within 300 ms',
    });
  });

  it('takes a per-request timeout over the client default', async () => {
    const result = await at('hang', 60_000).verify(v1Payment, requirements, { timeoutMs: 200 });
    expect(result).toMatchObject({ kind: 'unavailable', reason: 'no verify answer within 200 ms' });
  });

  it('stops when the caller gives the request up', async () => {
    const stop = new AbortController();
    const facilitator = at('hang-until-given-up', 60_000);
    const pending = facilitator.verify(v1Payment, requirements, { signal: stop.signal });
    // Abort once the facilitator has the request, so the abort cuts a request in flight.
    await until(() => received.has('hang-until-given-up'));
    stop.abort();
    expect(await pending).toStrictEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'the verify request was given up',
    });
  });

  it('reports a refused connection as unavailable', async () => {
    const facilitator = new Facilitator({ url: `http://127.0.0.1:${closedPort}`, timeoutMs: 5000 });
    expect(await facilitator.verify(v1Payment, requirements)).toStrictEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'could not reach the facilitator for verify: ECONNREFUSED',
    });
  });
});

describe('Facilitator.settle', () => {
  it('returns the transaction, the chain as CAIP-2 and the payer', async () => {
    expect(await at('valid').settle(v1Payment, requirements)).toStrictEqual({
      ok: true,
      transaction: TX,
      network: 'eip155:8453',
      payer: PAYER.address,
    });
    expect(await at('no-payer').settle(v1Payment, requirements)).toMatchObject({
      ok: true,
      payer: v1Payment.payer,
    });
  });

  it.each<[string, string]>([
    ['invalid', 'insufficient_funds'],
    ['invalid-400', 'invalid_transaction_state'],
    ['invalid-no-reason', 'unspecified'],
  ])('maps %s to rejected with the reason', async (mode, reason) => {
    expect(await at(mode).settle(v2Payment, requirements)).toStrictEqual({
      ok: false,
      kind: 'rejected',
      reason,
      detail: null,
    });
  });

  it.each<[string, RegExp]>([
    ['invalid-500', /the facilitator answered HTTP 500/],
    ['error-500', /no boolean `success`/],
    ['garbage-text', /not JSON/],
    ['valid-as-string', /no boolean `success`/],
    ['contradiction-400', /HTTP 400/],
    ['success-without-tx', /success without a transaction hash/],
    ['success-without-network', /success without a `network`/],
    ['other-payer', /`payer` 0x5{40}/],
    ['close', /could not reach the facilitator for settle/],
  ])('takes %s for unavailable, never for success', async (mode, reason) => {
    const result = await at(mode).settle(v1Payment, requirements);
    expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(result.ok === false && result.kind === 'unavailable' && result.reason).toMatch(reason);
  });

  it('gives up on a settlement that never answers, at the timeout', async () => {
    expect(await at('hang', 300).settle(v2Payment, requirements)).toStrictEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'no settle answer within 300 ms',
    });
  });
});

/** Resolve once `condition` holds, checking on each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve));
}
