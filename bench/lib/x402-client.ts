/**
 * The client of `x402.bench.ts`, in its own process (forked, with an IPC channel), so that
 * signing payments and reading answers do not run on the service's event loop. For each
 * run the parent sends it makes `calls` calls to one URL with `concurrency` calls in
 * flight, one side at a time:
 * - `key`: `Authorization: Bearer <key>`;
 * - `presigned`: a `PAYMENT-SIGNATURE` header signed before the calls by the official
 *   x402 client (`@x402/core` + `@x402/evm`), a fresh one per call: the server's cost of
 *   a paid call without the client's signing;
 * - `fetch`: `wrapFetchWithPayment` of `@x402/fetch`: the unpaid request, its 402, the
 *   signing and the paid request, as a user of the official client sees one call;
 * - `batch`: `batch-settlement` with the official client scheme (`@x402/evm`): each of
 *   `concurrency` lanes is one channel of the same payer (its own salt), deposited into by
 *   its first call (in the warm-up run, whose lanes the measured run keeps); every call then signs a voucher from the terms read once, sends it,
 *   and hands the answer to the client's hooks (`processPaymentResult`), as an agent that
 *   calls often does.
 * Every answer must be 200 (and for a payment, carry `PAYMENT-RESPONSE`); anything else
 * ends the run with an error.
 */
import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';

/** How the calls of a run are paid. */
export type Side = 'key' | 'presigned' | 'fetch' | 'batch';

/** One run, as the parent asks for it. */
export interface RunSpec {
  readonly side: Side;
  readonly url: string;
  readonly calls: number;
  readonly concurrency: number;
  /** The `Authorization` value of the `key` side. */
  readonly authorization?: string;
}

/** What a run measured. */
export interface RunResult {
  /** Each call's latency (ms), from sending the first request to the answer's last byte. */
  readonly times: number[];
  /** Wall time of the calls (ms), without the signing between batches of the `presigned` side. */
  readonly wallMs: number;
  /** Time (ms) to sign each `presigned` payment (one at a time, before its batch); empty otherwise. */
  readonly signMs: number[];
  /**
   * For each `fetch` call, the time (ms) from its unpaid request to the start of its paid
   * one: the 402 round trip, reading the terms, signing; empty otherwise.
   */
  readonly beforePaidMs: number[];
}

/** A message from the parent. */
export interface ClientRequest {
  readonly id: number;
  readonly run: RunSpec;
}

/** The answer to the request with the same id. */
export type ClientReply =
  | { readonly id: number; readonly ok: true; readonly result: RunResult }
  | { readonly id: number; readonly ok: false; readonly error: string };

/**
 * Payments signed at once before their calls. An official client signs `validBefore = now
 * + maxTimeoutSeconds` (60 s) and the service asks for 12 s left when it verifies, so a
 * batch must be used within 48 s: 50 calls leave room for calls of almost 1 s each.
 */
const PRESIGNED_BATCH = 50;

/** The official client for the development payer, with the test token allowed. */
function payerClient(privateKey: `0x${string}`): x402HTTPClient {
  // Spend controls allow only the assets the client knows (real USDC); the test token is not one.
  const client = new x402Client().setSpendControls(false);
  registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(privateKey)) });
  return new x402HTTPClient(client);
}

/**
 * Make `calls` calls with `concurrency` in flight, timing each; `call(i)` makes the i-th.
 */
async function drive(
  calls: number,
  concurrency: number,
  call: (i: number) => Promise<void>,
): Promise<{ times: number[]; wallMs: number }> {
  const times: number[] = new Array(calls);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, calls) }, async () => {
      while (next < calls) {
        const i = next++;
        const begun = performance.now();
        await call(i);
        times[i] = performance.now() - begun;
      }
    }),
  );
  return { times, wallMs: performance.now() - start };
}

/** Read the answer whole; throw unless it is a 200 (with `PAYMENT-RESPONSE` when `paid`). */
async function expectAnswer(response: Response, url: string, paid: boolean): Promise<void> {
  const body = await response.text();
  if (response.status !== 200) {
    throw new Error(`${url} answered ${response.status}: ${body.slice(0, 400)}`);
  }
  if (paid && response.headers.get('payment-response') === null) {
    throw new Error(`${url} answered 200 to a payment without PAYMENT-RESPONSE`);
  }
}

/** The route's payment terms, from its 402 answer to an unpaid call. */
async function paymentRequired(http: x402HTTPClient, url: string): Promise<PaymentRequired> {
  const response = await fetch(url);
  const body: unknown = await response.json();
  if (response.status !== 402) throw new Error(`${url} answered ${response.status}, not 402`);
  return http.getPaymentRequiredResponse((name) => response.headers.get(name), body);
}

async function keyRun(spec: RunSpec): Promise<RunResult> {
  const headers = { authorization: spec.authorization ?? '' };
  const run = await drive(spec.calls, spec.concurrency, async () => {
    await expectAnswer(await fetch(spec.url, { headers }), spec.url, false);
  });
  return { ...run, signMs: [], beforePaidMs: [] };
}

async function presignedRun(http: x402HTTPClient, spec: RunSpec): Promise<RunResult> {
  const required = await paymentRequired(http, spec.url);
  const times: number[] = [];
  const signMs: number[] = [];
  let wallMs = 0;
  for (let done = 0; done < spec.calls; done += PRESIGNED_BATCH) {
    const headers: Record<string, string>[] = [];
    for (let i = 0; i < Math.min(PRESIGNED_BATCH, spec.calls - done); i++) {
      const start = performance.now();
      headers.push(http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)));
      signMs.push(performance.now() - start);
    }
    const batch = await drive(headers.length, spec.concurrency, async (i) => {
      const payment = headers[i] as Record<string, string>;
      await expectAnswer(await fetch(spec.url, { headers: payment }), spec.url, true);
    });
    times.push(...batch.times);
    wallMs += batch.wallMs;
  }
  return { times, wallMs, signMs, beforePaidMs: [] };
}

async function fetchRun(http: x402HTTPClient, spec: RunSpec): Promise<RunResult> {
  const beforePaidMs: number[] = [];
  const run = await drive(spec.calls, spec.concurrency, async () => {
    // The wrapper makes two requests per call; a wrapper per call tells its two apart.
    let unpaidAt: number | null = null;
    let paidAt: number | null = null;
    const marked: typeof fetch = (input, init) => {
      if (unpaidAt === null) unpaidAt = performance.now();
      else paidAt = performance.now();
      return fetch(input, init);
    };
    await expectAnswer(await wrapFetchWithPayment(marked, http)(spec.url), spec.url, true);
    if (unpaidAt === null || paidAt === null) {
      throw new Error(`@x402/fetch did not make an unpaid and a paid request to ${spec.url}`);
    }
    beforePaidMs.push(paidAt - unpaidAt);
  });
  return { ...run, signMs: [], beforePaidMs };
}

/** The official client paying with `batch-settlement` on the payer's channel `salt`. */
function batchClient(privateKey: `0x${string}`, salt: `0x${string}`): x402HTTPClient {
  const signer = toClientEvmSigner(privateKeyToAccount(privateKey));
  // Deposits of 2,000 calls: one deposit per lane for the whole run.
  const scheme = new BatchSettlementEvmScheme(signer, {
    salt,
    depositPolicy: { depositMultiplier: 2000 },
  });
  return new x402HTTPClient(
    new x402Client().setSpendControls(false).register('eip155:8453', scheme),
  );
}

/**
 * The lanes of each width: the warm-up run of a width opens (deposits into) its
 * channels, and the measured run that follows goes on with them.
 */
const batchLanes = new Map<number, x402HTTPClient[]>();

async function batchRun(payerKey: `0x${string}`, spec: RunSpec): Promise<RunResult> {
  let lanes = batchLanes.get(spec.concurrency);
  if (lanes === undefined) {
    const width = spec.concurrency;
    lanes = Array.from({ length: width }, (_, lane) =>
      batchClient(
        payerKey,
        `0x${(process.pid * 1000 + width * 64 + lane).toString(16).padStart(64, '0')}`,
      ),
    );
    batchLanes.set(width, lanes);
  }
  const first = lanes[0] as x402HTTPClient;
  const required = await paymentRequired(first, spec.url);
  const signMs: number[] = [];
  const times: number[] = new Array(spec.calls);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    lanes.map(async (http) => {
      while (next < spec.calls) {
        const i = next++;
        const begun = performance.now();
        const payload = await http.createPaymentPayload(required);
        signMs.push(performance.now() - begun);
        const response = await fetch(spec.url, {
          headers: http.encodePaymentSignatureHeader(payload),
        });
        await expectAnswer(response, spec.url, true);
        await http.processPaymentResult(
          payload,
          (name) => response.headers.get(name),
          response.status,
        );
        times[i] = performance.now() - begun;
      }
    }),
  );
  return { times, wallMs: performance.now() - start, signMs, beforePaidMs: [] };
}

function main(): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('x402-client.ts runs as a forked child only');
  const { payerKey } = JSON.parse(process.argv[2] ?? '{}') as { payerKey: `0x${string}` };
  const http = payerClient(payerKey);
  const runs: Record<Side, (spec: RunSpec) => Promise<RunResult>> = {
    key: keyRun,
    presigned: (spec) => presignedRun(http, spec),
    fetch: (spec) => fetchRun(http, spec),
    batch: (spec) => batchRun(payerKey, spec),
  };
  process.on('message', (request: ClientRequest) => {
    runs[request.run.side](request.run).then(
      (result) => send({ id: request.id, ok: true, result } satisfies ClientReply),
      (error: unknown) =>
        send({
          id: request.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        } satisfies ClientReply),
    );
  });
  // The parent closes the channel when it is done; then nothing keeps this process alive.
  process.on('disconnect', () => process.exit(0));
}

main();
