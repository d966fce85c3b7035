/**
 * The Stripe processor: checkout sessions are created through the official `stripe`
 * client (here against a loopback stand-in of Stripe's API, which records what it is
 * sent), and the webhook verifies with the configured endpoint secret only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeProcessor } from '../src/billing/processor.js';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const WEBHOOK_SECRET = 'whsec_stripe_processor_test';
const schema = uniqueSchema();
let server: RunningServer;
let api: http.Server;
const seen: { method: string; path: string; auth: string; form: URLSearchParams; raw: string }[] =
  [];

beforeAll(async () => {
  let n = 0;
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        auth: String(req.headers.authorization),
        form: new URLSearchParams(raw),
        raw,
      });
      n += 1;
      const id = `cs_test_stand_in_${n}`;
      res.setHeader('content-type', 'application/json');
      res.setHeader('request-id', `req_${n}`);
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.com/c/pay/${id}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const { port } = api.address() as AddressInfo;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: tempDir('storefront-stripe-'),
    LOG_LEVEL: 'silent',
    STRIPE_SECRET_KEY: 'sk_test_stand_in',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_BUSINESS: 'price_business123',
    ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
  });
  if (config.billing.stripe === null) throw new Error('Stripe is not configured');
  server = await startServer(config, {
    schema,
    logger: pino({ level: 'silent' }),
    processor: stripeProcessor(config.billing.stripe, {
      apiBase: new URL(`http://127.0.0.1:${port}`),
    }),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => {
    if (api === undefined) return resolve();
    api.close(() => resolve());
    // The Stripe client keeps its connection alive.
    api.closeAllConnections();
  });
  await dropSchema(schema);
});

async function liveKey(): Promise<{ key: string; keyId: string }> {
  const res = await fetch(`${server.url}/api/dev/keys?live=true`, { method: 'POST' });
  const body = (await res.json()) as { key: string; keyId: string };
  return { key: body.key, keyId: body.keyId };
}

async function post(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the Stripe processor', () => {
  it('opens a subscription checkout with an inline monthly price and the key id, never the key', async () => {
    const key = await liveKey();
    const res = await post(`/api/dev/subscribe?key=${key.key}&tier=pro`);
    expect(res.status).toBe(200);
    const request = seen.at(-1);
    expect(res.body).toMatchObject({
      ok: true,
      tier: 'pro',
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_stand_in_\d+$/),
    });
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/checkout/sessions');
    expect(request?.auth).toBe('Bearer sk_test_stand_in');
    const form = request?.form ?? new URLSearchParams();
    expect(Object.fromEntries(form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2900',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][quantity]': '1',
      'metadata[keyId]': key.keyId,
      'metadata[kind]': 'subscription',
      'metadata[tier]': 'pro',
      'subscription_data[metadata][keyId]': key.keyId,
      'subscription_data[metadata][tier]': 'pro',
      client_reference_id: key.keyId,
      success_url: `${server.url}/developers?upgraded=pro`,
    });
    expect(request?.raw).not.toContain(key.key);
    expect(request?.raw).not.toContain(encodeURIComponent(key.key));
  });

  it('uses the configured price id of a tier', async () => {
    const key = await liveKey();
    expect((await post(`/api/dev/subscribe?key=${key.key}&tier=business`)).status).toBe(200);
    const form = Object.fromEntries(seen.at(-1)?.form ?? []);
    expect(form['line_items[0][price]']).toBe('price_business123');
    expect(form['line_items[0][price_data][unit_amount]']).toBeUndefined();
  });

  it('opens a one-time payment for a credit pack', async () => {
    const key = await liveKey();
    const res = await post(`/api/dev/topup?key=${key.key}&usd=25`);
    expect(res.body).toMatchObject({ ok: true, usd: 25, credits: 25_000 });
    expect(Object.fromEntries(seen.at(-1)?.form ?? [])).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '2500',
      'metadata[keyId]': key.keyId,
      'metadata[kind]': 'credits',
      'metadata[credits]': '25000',
      'payment_intent_data[metadata][credits]': '25000',
      success_url: `${server.url}/developers?topup=25000`,
    });
  });

  it('grants on an event signed with the endpoint secret only', async () => {
    const key = await liveKey();
    const opened = await post(`/api/dev/topup?key=${key.key}&usd=5`);
    const payload = JSON.stringify({
      id: 'evt_stripe_processor_1',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: opened.body.checkoutId,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          metadata: { keyId: key.keyId, kind: 'credits', credits: '5000' },
        },
      },
    });
    const send = (secret: string) =>
      fetch(`${server.url}/api/webhooks/payments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
        },
        body: payload,
      });
    expect((await send('whsec_someone_else')).status).toBe(400);
    const ok = await send(WEBHOOK_SECRET);
    expect(ok.status).toBe(200);
    const balance = await fetch(`${server.url}/api/dev/balance`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(((await balance.json()) as { credits: number }).credits).toBe(5000);
  });

  it('has no development checkout pages', async () => {
    const res = await fetch(`${server.url}/dev-checkout/cs_dev_${'0'.repeat(24)}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: 'not_found' });
  });
});
