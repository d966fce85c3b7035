/**
 * The paid-call pipeline on its own: the real `runPaidCall` with a recording door, a fake
 * fetcher and a fake product runner; no HTTP, no database. Whatever a call comes to,
 * the door settles it at most once, and exactly once whenever it admitted it.
 */

import { createSigner, generatePrivateKey } from '@storefront/attest';
import type { FetchedDocument } from '@storefront/core';
import type { Fetcher } from '@storefront/safe-fetch';
import { describe, expect, it } from 'vitest';
import {
  type CallRequest,
  type Exchange,
  type PipelineDeps,
  runPaidCall,
} from '../src/pipeline/call.js';
import type { CallResult, Door, Ending, Settled } from '../src/pipeline/door.js';
import { refusal } from '../src/pipeline/refusal.js';
import type { ChargeRule, PageSource, RouteDefinition } from '../src/registry/types.js';
import type { Compute } from '../src/work/compute.js';
import { ComputeCancelledError } from '../src/work/limits.js';

/** What the test route's product says: a success, an upstream-style failure, or a missing item. */
type Verdict = 'ok' | 'fail' | 'missing';

interface ProbeParams {
  readonly url: string;
  readonly verdict: Verdict;
}

/** A route of the given charge rule whose product answers what its `verdict` param says. */
function probeRoute(chargeRule: ChargeRule): RouteDefinition<ProbeParams, PageSource, Verdict> {
  return {
    name: 'probe',
    path: '/buy/probe',
    title: 'Probe',
    description: 'A route of the pipeline test.',
    params: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 200 },
        verdict: { enum: ['ok', 'fail', 'missing'] },
      },
      required: ['url'],
      additionalProperties: false,
    },
    prices: [{ tier: 'probe', amount: 3000, includes: 'one probe' }],
    example: {
      query: { url: 'https://example.com/' },
      call: () => ({ url: 'https://example.com/' }),
      credits: 3,
    },
    receiptRule: { kind: 'equals', field: 'text' },
    chargeRule,
    response: { type: 'object' },
    closedResponse: false,
    check: (query) => ({
      ok: true,
      params: { url: query.url ?? '', verdict: (query.verdict ?? 'ok') as Verdict },
    }),
    priceFor() {
      return { tier: 'probe', amount: 3000, includes: 'one probe' };
    },
    reads: { kind: 'page', url: (params) => params.url },
    compute: (input) => input.params.verdict,
    shape(verdict, input) {
      if (verdict === 'ok') {
        return {
          ok: true,
          body: { ok: true, url: input.source.doc.url, text: 'hello' },
          text: 'hello',
        };
      }
      return verdict === 'missing'
        ? { ok: false, error: 'not_found', message: 'No such item on the page' }
        : { ok: false, error: 'parse_error', message: 'The page could not be parsed' };
    },
  };
}

/** A page for any URL: the work's fetch never leaves the process. */
const fetcher: Fetcher = {
  async fetch(url) {
    const doc: FetchedDocument = {
      requestedUrl: url,
      url,
      status: 200,
      headers: { 'content-type': 'text/html' },
      contentType: 'text/html',
      bytes: new TextEncoder().encode('<p>hello</p>'),
      truncated: false,
      redirects: [],
      fetchedAt: '2026-01-01T00:00:00.000Z',
    };
    return { ok: true, doc, timing: { headersMs: 0, bodyMs: 0, totalMs: 0 } };
  },
  close: () => Promise.resolve(),
};

/**
 * How the fake product runner behaves: runs the product; throws; drops it as a thread
 * does when its caller left while it waited; or runs it after the caller has left.
 */
type Runner = 'run' | 'throw' | 'cancelled' | 'caller-leaves';

function fakeCompute(runner: Runner, leave: () => void): Compute {
  return async (task, input) => {
    if (runner === 'throw') throw new Error('the product thread crashed');
    if (runner === 'cancelled') throw new ComputeCancelledError();
    if (runner === 'caller-leaves') leave();
    return task.run(input);
  };
}

/** A door that records what the pipeline asks of it, and answers as told. */
function recordingDoor(
  options: {
    readonly admit?: 'admit' | 'refuse';
    readonly settle?: 'ok' | 'refuse';
    /** Screen callers by their headers, as the MCP door does (none here has a key). */
    readonly screen?: boolean;
  } = {},
) {
  const calls: string[] = [];
  const endings: Ending[] = [];
  const door: Door<string> = {
    name: 'key',
    ...(options.screen === true
      ? {
          screen(request) {
            calls.push('screen');
            return request.header('authorization') === undefined
              ? refusal('invalid_key', 'No key', { requestId: request.requestId })
              : null;
          },
        }
      : {}),
    async admit(call) {
      calls.push(`admit ${call.route.name}`);
      if (options.admit === 'refuse') {
        return refusal('insufficient_credits', 'No credits left', { requestId: call.requestId });
      }
      return { kind: 'admitted', ticket: 'ticket-1', metered: true, headers: { 'X-Door': 'yes' } };
    },
    async settle(ticket, ending): Promise<Settled> {
      calls.push(`settle ${ticket} ${ending.kind}`);
      endings.push(ending);
      if (options.settle === 'refuse' && ending.kind === 'charge') {
        return { ok: false, refusal: refusal('settlement_failed', 'The payment was refused') };
      }
      return { ok: true, headers: { 'X-Settled': ending.kind } };
    },
    delivered(ticket, ending, written) {
      calls.push(`delivered ${ticket} ${ending.kind} ${written}`);
    },
  };
  return { door, calls, endings };
}

/** One call through the real pipeline; what the door heard and what the caller got. */
async function call(
  options: {
    readonly rule?: ChargeRule;
    readonly query?: Record<string, unknown>;
    readonly runner?: Runner;
    readonly door?: Parameters<typeof recordingDoor>[0];
    readonly draining?: boolean;
  } = {},
) {
  const recorded = recordingDoor(options.door);
  const left = new AbortController();
  const deps: PipelineDeps = {
    fetcher,
    compute: fakeCompute(options.runner ?? 'run', () => left.abort()),
    signer: createSigner(generatePrivateKey()),
    clock: () => new Date('2026-01-01T00:00:00.000Z'),
    publicBaseUrl: 'http://storefront.test',
    draining: () => options.draining === true,
  };
  const sent: CallResult[] = [];
  const exchange: Exchange = {
    left: left.signal,
    send(result) {
      sent.push(result);
      return Promise.resolve(true);
    },
  };
  const request: CallRequest = {
    route: probeRoute(options.rule ?? 'per-attempt'),
    query: options.query ?? { url: 'http://site.test/page' },
    requestId: 'req-1',
    header: () => undefined,
  };
  let thrown: unknown = null;
  await runPaidCall(deps, recorded.door, request, exchange, 5000).catch((error: unknown) => {
    thrown = error;
  });
  // The door hears of a delivery once its answer is written, after the call returns.
  await new Promise((resolve) => setImmediate(resolve));
  const settles = recorded.calls.filter((entry) => entry.startsWith('settle'));
  return { ...recorded, sent, thrown, settles };
}

describe('the door settles exactly once', () => {
  it('refused at admission: the refusal goes out, nothing is settled', async () => {
    const c = await call({ door: { admit: 'refuse' } });
    expect(c.calls).toStrictEqual(['admit probe']);
    expect(c.sent).toMatchObject([{ kind: 'refused', code: 'insufficient_credits', status: 402 }]);
  });

  it('refused by its headers (the MCP door without a key): before the params, nothing settled', async () => {
    const c = await call({
      door: { screen: true },
      query: { url: 'http://site.test/', verdict: 'maybe' },
    });
    expect(c.calls).toStrictEqual(['screen']);
    expect(c.sent).toMatchObject([{ kind: 'refused', code: 'invalid_key', status: 401 }]);
  });

  it('invalid params: answered 400 before the door is asked anything', async () => {
    const c = await call({ query: { url: 'http://site.test/', verdict: 'maybe' } });
    expect(c.calls).toStrictEqual([]);
    expect(c.sent).toHaveLength(1);
    const [answer] = c.sent;
    expect(answer).toMatchObject({ kind: 'refused', code: 'invalid_params', status: 400 });
    expect(answer?.kind === 'refused' && answer.details.map((d) => d.param)).toStrictEqual([
      'verdict',
    ]);
  });

  it('a draining instance: 503 with a retry hint, the door never asked', async () => {
    const c = await call({ draining: true });
    expect(c.calls).toStrictEqual([]);
    expect(c.sent).toMatchObject([
      { kind: 'refused', code: 'draining', status: 503, retryAfterSeconds: 1 },
    ]);
  });

  it('a charged success: settled once as a charge, delivered once written, with its receipt', async () => {
    const c = await call();
    expect(c.calls).toStrictEqual([
      'admit probe',
      'settle ticket-1 charge',
      'delivered ticket-1 charge true',
    ]);
    const [answer] = c.sent;
    expect(answer).toMatchObject({
      kind: 'delivered',
      ok: true,
      charge: 'charged',
      headers: { 'X-Door': 'yes', 'X-Settled': 'charge' },
    });
    // The receipt signs the product's text: sha256("hello").
    expect(answer?.kind === 'delivered' && answer.body.attestation).toMatchObject({
      contentHash: '0x2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    });
  });

  it('an ok:false result on a per-attempt route: delivered and charged, once', async () => {
    const c = await call({ query: { url: 'http://site.test/', verdict: 'fail' } });
    expect(c.settles).toStrictEqual(['settle ticket-1 charge']);
    expect(c.sent).toMatchObject([
      { kind: 'delivered', ok: false, error: 'parse_error', charge: 'charged' },
    ]);
  });

  it('a free ok:false result: settled once as free, delivered without a receipt', async () => {
    const c = await call({
      rule: 'free-on-failure',
      query: { url: 'http://site.test/', verdict: 'fail' },
    });
    expect(c.calls).toStrictEqual([
      'admit probe',
      'settle ticket-1 free',
      'delivered ticket-1 free true',
    ]);
    const [answer] = c.sent;
    expect(answer).toMatchObject({ kind: 'delivered', ok: false, charge: 'free' });
    expect(answer?.kind === 'delivered' && 'attestation' in answer.body).toBe(false);
  });

  it('an ok:false result on a before-charging route: refused 503, settled once as refused', async () => {
    const c = await call({
      rule: 'before-charging',
      query: { url: 'http://site.test/', verdict: 'fail' },
    });
    expect(c.calls).toStrictEqual(['admit probe', 'settle ticket-1 refuse']);
    expect(c.endings).toMatchObject([{ kind: 'refuse', status: 503 }]);
    expect(c.sent).toMatchObject([
      {
        kind: 'refused',
        code: 'parse_error',
        status: 503,
        headers: { 'X-Door': 'yes' },
        body: { ok: false, error: 'parse_error' },
      },
    ]);
  });

  it('a missing item (not_found): refused 404 on any route, settled once as refused', async () => {
    for (const rule of ['per-attempt', 'before-charging'] as const) {
      const c = await call({ rule, query: { url: 'http://site.test/', verdict: 'missing' } });
      expect([rule, c.calls]).toStrictEqual([rule, ['admit probe', 'settle ticket-1 refuse']]);
      expect(c.sent).toMatchObject([{ kind: 'refused', code: 'not_found', status: 404 }]);
    }
  });

  it('the caller left during the work: settled once as failed, nothing sent', async () => {
    const c = await call({ runner: 'caller-leaves' });
    expect(c.calls).toStrictEqual(['admit probe', 'settle ticket-1 failed']);
    expect(c.endings).toMatchObject([{ kind: 'failed', error: 'client_closed' }]);
    expect(c.sent).toStrictEqual([]);
  });

  it('the caller left while its product waited for a thread: settled once as failed', async () => {
    const c = await call({ runner: 'cancelled' });
    expect(c.calls).toStrictEqual(['admit probe', 'settle ticket-1 failed']);
    expect(c.endings).toMatchObject([{ kind: 'failed', error: 'client_closed' }]);
    expect(c.thrown).toBe(null);
    expect(c.sent).toStrictEqual([]);
  });

  it('the product throws: settled once as failed, the error goes on to the adapter', async () => {
    const c = await call({ runner: 'throw' });
    expect(c.calls).toStrictEqual(['admit probe', 'settle ticket-1 failed']);
    expect(c.endings).toMatchObject([{ kind: 'failed', error: 'internal_error' }]);
    expect((c.thrown as Error).message).toBe('the product thread crashed');
    expect(c.sent).toStrictEqual([]);
  });

  it('the settlement is refused: settled once, the refusal replaces the result', async () => {
    const c = await call({ door: { settle: 'refuse' } });
    expect(c.calls).toStrictEqual(['admit probe', 'settle ticket-1 charge']);
    expect(c.sent).toMatchObject([{ kind: 'refused', code: 'settlement_failed', status: 402 }]);
  });
});
