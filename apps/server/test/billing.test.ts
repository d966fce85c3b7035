/**
 * Billing against a real listening server with the development processor: checkout
 * pages paid over HTTP, the webhook's signature, exactly-once events under concurrent
 * redelivery, renewals, top-ups, period ends, events out of order, and the usage history.
 */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentProcessor } from '../src/app.js';
import { lapseEndedPlans } from '../src/billing/store.js';
import { loadConfig } from '../src/config.js';
import { mintKey } from '../src/metering/keys.js';
import { issueKey } from '../src/metering/store.js';
import { tierPlans } from '../src/metering/tiers.js';
import { type RunningServer, startServer } from '../src/server.js';
import { DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { ADMIN_TOKEN } from './keys.js';

const schema = uniqueSchema();
let server: RunningServer;
let base: string;
const plans = tierPlans();

beforeAll(async () => {
  server = await startServer(
    loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: tempDir('storefront-billing-'),
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN,
      ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
    }),
    { schema, logger: pino({ level: 'silent' }) },
  );
  base = server.url;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await dropSchema(schema);
});

type Body = Record<string, unknown>;

interface Key {
  readonly key: string;
  readonly keyId: string;
}

/** A key stored directly (the public route allows 20 per IP per hour). */
async function mint(env: 'test' | 'live'): Promise<Key> {
  const minted = mintKey(env);
  const issued = await issueKey(server.db, minted, {
    ip: `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
    label: null,
    plan: env === 'live' ? plans.prepaid : plans.sandbox,
    perHour: 1000,
  });
  if (!issued.ok) throw new Error('issuance refused');
  return { key: minted.key, keyId: minted.keyId };
}

async function json(path: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Body) };
}

async function balance(key: Key): Promise<Body> {
  const { status, body } = await json('/api/dev/balance', {
    headers: { authorization: `Bearer ${key.key}` },
  });
  expect(status).toBe(200);
  return body;
}

/** One paid call; returns its HTTP status. */
async function call(key: Key): Promise<number> {
  const res = await fetch(`${base}/buy/notarize?content=${randomBytes(4).toString('hex')}`, {
    headers: { authorization: `Bearer ${key.key}` },
  });
  await res.arrayBuffer();
  return res.status;
}

interface LedgerRow {
  route: string;
  units: number;
  source: string;
  outcome: string;
  event_id: string | null;
}

async function grants(keyId: string): Promise<LedgerRow[]> {
  const { rows } = await server.db.query<LedgerRow>(
    `SELECT route, units, source, outcome, event_id FROM ledger
      WHERE key_id = $1 AND outcome IN ('granted', 'lapsed') ORDER BY id`,
    [keyId],
  );
  return rows.map((row) => ({ ...row, units: Number(row.units) }));
}

/** POST an event to the webhook, signed with `secret` (the server's by default). */
async function deliver(
  event: Body,
  options: { secret?: string; body?: string } = {},
): Promise<{ status: number; body: Body }> {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? server.processor.webhookSecret,
  });
  return json('/api/webhooks/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: options.body ?? payload,
  });
}

const unix = (ms: number) => Math.floor(ms / 1000);
const DAY = 86_400;

function stripeEvent(type: string, object: Body, created = unix(Date.now())): Body {
  return {
    id: `evt_test_${randomBytes(10).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

function sessionCompleted(input: {
  keyId: string;
  subscription?: string;
  tier?: string;
  credits?: number;
}): Body {
  const subscription = input.subscription ?? null;
  return stripeEvent('checkout.session.completed', {
    id: `cs_test_${randomBytes(10).toString('hex')}`,
    object: 'checkout.session',
    mode: subscription === null ? 'payment' : 'subscription',
    payment_status: 'paid',
    status: 'complete',
    subscription,
    customer: 'cus_test',
    metadata:
      subscription === null
        ? { keyId: input.keyId, kind: 'credits', credits: String(input.credits) }
        : { keyId: input.keyId, kind: 'subscription', tier: input.tier ?? 'pro' },
  });
}

function invoice(
  type: 'invoice.paid' | 'invoice.payment_failed',
  input: { subscription: string; keyId: string; tier: string; reason: string; start: number },
): Body {
  return stripeEvent(type, {
    id: `in_test_${randomBytes(8).toString('hex')}`,
    object: 'invoice',
    billing_reason: input.reason,
    parent: {
      type: 'subscription_details',
      subscription_details: {
        subscription: input.subscription,
        metadata: { keyId: input.keyId, tier: input.tier },
      },
    },
    lines: { data: [{ period: { start: input.start, end: input.start + 30 * DAY } }] },
  });
}

function subscriptionObject(input: {
  id: string;
  keyId: string;
  status?: string;
  cancelAtPeriodEnd?: boolean;
  periodEnd: number;
}): Body {
  return {
    id: input.id,
    object: 'subscription',
    status: input.status ?? 'active',
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    cancel_at: input.cancelAtPeriodEnd ? input.periodEnd : null,
    metadata: { keyId: input.keyId, tier: 'pro' },
    items: { data: [{ current_period_end: input.periodEnd }] },
  };
}

/** Subscribe through the route and pay on the development checkout page, as a browser does. */
async function subscribeAndPay(key: Key, tier: string): Promise<Body> {
  const subscribed = await json(
    `/api/dev/subscribe?key=${encodeURIComponent(key.key)}&tier=${tier}`,
    { method: 'POST' },
  );
  expect(subscribed.status).toBe(200);
  const url = subscribed.body.url as string;
  const paid = await fetch(`${url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`/developers?upgraded=${tier}`);
  return balance(key);
}

describe('subscribe and topup: bad input', () => {
  it('answers 400 for a bad tier or a missing key, 401 for a malformed or unknown key', async () => {
    const key = await mint('live');
    const badTier = await json(`/api/dev/subscribe?key=${key.key}&tier=gold`, { method: 'POST' });
    expect(badTier.status).toBe(400);
    expect(badTier.body).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(JSON.stringify(badTier.body.details)).toMatch(/pro, business, enterprise/);

    const noKey = await json('/api/dev/subscribe?tier=pro', { method: 'POST' });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({
      ok: false,
      error: 'invalid_params',
      message: 'Missing `key`',
    });

    const malformed = await json('/api/dev/subscribe?key=mk_live_short&tier=pro', {
      method: 'POST',
    });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ ok: false, error: 'invalid_key' });

    const unknown = mintKey('live').key;
    const notFound = await json(`/api/dev/topup?key=${unknown}&usd=10`, { method: 'POST' });
    expect(notFound.status).toBe(401);
    expect(notFound.body).toMatchObject({
      ok: false,
      error: 'invalid_key',
      message: 'Unknown API key',
    });
    // Nothing was opened for any of them.
    const { rows } = await server.db.query('SELECT 1 FROM checkouts WHERE key_id = $1', [
      key.keyId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it.each(['abc', '4.99', '1000.01', '5.001', '-5', '', '1e3', '0x10'])(
    'refuses usd=%j with 400',
    async (usd) => {
      const key = await mint('live');
      const res = await json(`/api/dev/topup?key=${key.key}&usd=${encodeURIComponent(usd)}`, {
        method: 'POST',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, error: 'invalid_params' });
      expect(JSON.stringify(res.body.details)).toMatch(/from 5 to 1000/);
    },
  );

  it('refuses a test key on topup with 400, and takes a live one with the documented shape', async () => {
    const test = await mint('test');
    const refused = await json(`/api/dev/topup?key=${test.key}&usd=10`, { method: 'POST' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(refused.body.message).toMatch(/test key/);

    const live = await mint('live');
    const ok = await json(`/api/dev/topup?key=${live.key}&usd=12.34`, { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      ok: true,
      url: expect.stringMatching(new RegExp(`^${base}/dev-checkout/cs_dev_[0-9a-f]{24}$`)),
      usd: 12.34,
      credits: 12_340,
      checkoutId: expect.stringMatching(/^cs_dev_/),
    });
  });

  it('answers subscribe with {ok, tier, url} and refuses a second subscription of one key', async () => {
    const key = await mint('live');
    const first = await json(`/api/dev/subscribe?tier=business`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, tier: 'business', usd: 199 });
    expect(first.body.url).toMatch(new RegExp(`^${base}/dev-checkout/cs_dev_`));
    await subscribeAndPay(key, 'pro');
    const again = await json(`/api/dev/subscribe?key=${key.key}&tier=business`, {
      method: 'POST',
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already has a pro subscription/);
  });
});

describe('the webhook', () => {
  it('refuses a bad signature, a tampered body and a missing header with 400, changing nothing', async () => {
    const key = await mint('live');
    const event = sessionCompleted({ keyId: key.keyId, credits: 5000 });
    const wrong = await deliver(event, { secret: 'whsec_not_the_right_one' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(wrong.body.message).toMatch(/Stripe-Signature/);

    const tampered = await deliver(event, {
      body: JSON.stringify({ ...event, id: 'evt_tampered' }),
    });
    expect(tampered.status).toBe(400);

    const unsigned = await json('/api/webhooks/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);

    expect((await balance(key)).credits).toBe(0);
    expect(await grants(key.keyId)).toEqual([]);
    const { rows } = await server.db.query('SELECT 1 FROM webhook_events WHERE id IN ($1, $2)', [
      event.id,
      'evt_tampered',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('grants once when the same event arrives twice and ten times at once', async () => {
    const key = await mint('live');
    const event = sessionCompleted({ keyId: key.keyId, credits: 7000 });
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, duplicate: false, id: event.id });
    const again = await deliver(event);
    expect(again.body).toMatchObject({ ok: true, duplicate: true });

    const other = sessionCompleted({ keyId: key.keyId, credits: 3000 });
    const parallel = await Promise.all(Array.from({ length: 10 }, () => deliver(other)));
    expect(parallel.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(parallel.filter((r) => r.body.duplicate === false)).toHaveLength(1);

    expect((await balance(key)).credits).toBe(10_000);
    const rows = await grants(key.keyId);
    expect(rows).toEqual([
      {
        route: 'billing/topup',
        units: 7000,
        source: 'credits',
        outcome: 'granted',
        event_id: event.id,
      },
      {
        route: 'billing/topup',
        units: 3000,
        source: 'credits',
        outcome: 'granted',
        event_id: other.id,
      },
    ]);
  });

  it('records events it does not handle, once', async () => {
    const event = stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge' });
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatch(/^ignored: charge.refunded is not handled/);
    expect((await deliver(event)).body.duplicate).toBe(true);
  });
});

describe('the development checkout', () => {
  it('pays a subscription from the page over HTTP: a test key becomes a live pro key', async () => {
    const key = await mint('test');
    const subscribed = await json(`/api/dev/subscribe?key=${key.key}&tier=pro`, { method: 'POST' });
    expect(subscribed.status).toBe(200);
    expect(subscribed.body).toMatchObject({ ok: true, tier: 'pro' });

    const pageRes = await fetch(subscribed.body.url as string);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await pageRes.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<title>Development checkout · Storefront<\/title>/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain('$29.00 per month');
    expect(html).toContain('The pro plan, billed monthly');
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    expect(action).toBe(`/dev-checkout/${subscribed.body.checkoutId as string}/pay`);
    expect(html).toMatch(/<button type="submit"[^>]*>Pay \$29\.00 per month<\/button>/);

    // The form, as a browser without JavaScript sends it, then the redirect it follows.
    const paid = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('/developers?upgraded=pro');
    const portal = await fetch(new URL(paid.headers.get('location') ?? '', base));
    expect(portal.status).toBe(200);
    expect(await portal.text()).toMatch(/<html/);

    const after = await balance(key);
    expect(after).toMatchObject({
      env: 'live',
      tier: 'pro',
      included_remaining: 50_000,
      credits: 0,
      subscription: { tier: 'pro', status: 'active', cancel_at_period_end: false, ends_at: null },
    });
    expect((after.subscription as Body).current_period_end).toEqual(expect.any(String));
    // checkout.session.completed granted; the first invoice (subscription_create) did not.
    expect(await grants(key.keyId)).toEqual([
      expect.objectContaining({ route: 'billing/subscribe', units: 50_000, source: 'included' }),
    ]);
    // The same key still works, now on the allowance.
    expect(await call(key)).toBe(200);
    expect((await balance(key)).included_remaining).toBe(49_999);

    // Paying again re-sends the same events, which are applied once.
    const twice = await fetch(`${base}${action}`, { method: 'POST', redirect: 'manual' });
    expect(twice.status).toBe(303);
    expect(await grants(key.keyId)).toHaveLength(1);
    expect((await balance(key)).included_remaining).toBe(49_999);
  });

  it('adds exactly the purchased credits for a top-up', async () => {
    const key = await mint('live');
    const topup = await json(`/api/dev/topup?key=${key.key}&usd=12.34`, { method: 'POST' });
    const page = await (await fetch(topup.body.url as string)).text();
    expect(page).toContain('12,340 credits');
    expect(page).toContain('$12.34');
    const paid = await fetch(`${topup.body.url as string}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('/developers?topup=12340');
    expect((await balance(key)).credits).toBe(12_340);
    expect(await grants(key.keyId)).toEqual([
      expect.objectContaining({ route: 'billing/topup', units: 12_340, source: 'credits' }),
    ]);
    // A call now spends credits (notarize costs 8).
    expect(await call(key)).toBe(200);
    expect((await balance(key)).credits).toBe(12_332);
  });

  it('shows a subscription with one form per action, and its Renew form renews', async () => {
    const key = await mint('live');
    const subscribed = await subscribeAndPay(key, 'pro');
    const sub = subscribed.subscription as Body;
    expect(await call(key)).toBe(200);
    const res = await fetch(`${base}/dev-checkout/subscriptions/${sub.id as string}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    const actions = [...html.matchAll(/<form method="post" action="([^"]+)">/g)].map((m) => m[1]);
    expect(actions).toEqual(
      ['renew', 'fail', 'cancel', 'resume', 'end'].map(
        (action) => `/dev-checkout/subscriptions/${sub.id as string}/${action}`,
      ),
    );
    const renewed = await fetch(`${base}${actions[0]}`, { method: 'POST', redirect: 'manual' });
    expect(renewed.status).toBe(303);
    expect(renewed.headers.get('location')).toBe('/developers?subscription=renew');
    expect((await balance(key)).included_remaining).toBe(50_000);
  });

  it('answers an unknown checkout with an HTML 404', async () => {
    const res = await fetch(`${base}/dev-checkout/cs_dev_${'0'.repeat(24)}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/<h1>Checkout not found<\/h1>/);
  });
});

describe('renewals and period ends', () => {
  it('refreshes the allowance on a paid renewal, once per period', async () => {
    const key = await mint('live');
    const before = await subscribeAndPay(key, 'pro');
    const subId = (before.subscription as Body).id as string;
    expect(await call(key)).toBe(200);
    expect(await call(key)).toBe(200);
    expect((await balance(key)).included_remaining).toBe(49_998);

    const renewed = await fetch(`${base}/dev-checkout/subscriptions/${subId}/renew`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(renewed.status).toBe(303);
    const after = await balance(key);
    expect(after.included_remaining).toBe(50_000);
    expect(
      new Date((after.subscription as Body).current_period_end as string).getTime(),
    ).toBeGreaterThan(
      new Date((before.subscription as Body).current_period_end as string).getTime(),
    );
    // Another event for a period already granted grants nothing.
    const periodStart = unix(
      new Date((before.subscription as Body).current_period_end as string).getTime(),
    );
    const replay = await deliver(
      invoice('invoice.paid', {
        subscription: subId,
        keyId: key.keyId,
        tier: 'pro',
        reason: 'subscription_cycle',
        start: periodStart,
      }),
    );
    expect(replay.body.outcome).toMatch(/already granted/);
    expect((await grants(key.keyId)).map((g) => g.route)).toEqual([
      'billing/subscribe',
      'billing/renew',
    ]);
  });

  it('keeps a cancelled tier until its period end, then admits the key on credits only', async () => {
    const key = await mint('live');
    const subscribed = await subscribeAndPay(key, 'pro');
    const sub = subscribed.subscription as Body;
    const cancelled = await fetch(`${base}/dev-checkout/subscriptions/${sub.id as string}/cancel`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(cancelled.status).toBe(303);
    const canceling = await balance(key);
    expect(canceling).toMatchObject({
      tier: 'pro',
      included_remaining: 50_000,
      subscription: {
        status: 'canceling',
        cancel_at_period_end: true,
        ends_at: sub.current_period_end,
      },
    });
    expect(await call(key)).toBe(200);
    expect((await balance(key)).included_remaining).toBe(49_999);

    // The period ends (moved to the past here): admission reads the stored end at once,
    // before anything writes the lapse down.
    await server.db.query(
      "UPDATE api_keys SET plan_ends_at = now() - interval '1 second' WHERE key_id = $1",
      [key.keyId],
    );
    expect(await balance(key)).toMatchObject({
      tier: 'prepaid',
      included_remaining: 0,
      credits: 0,
    });
    expect(await call(key)).toBe(402);
    expect(await grants(key.keyId)).toHaveLength(1);

    // The sweep writes the lapse: the allowance left, and the subscription has ended.
    expect(await lapseEndedPlans(server.db, key.keyId)).toEqual([key.keyId]);
    expect(await grants(key.keyId)).toEqual([
      expect.objectContaining({ route: 'billing/subscribe', outcome: 'granted' }),
      expect.objectContaining({ route: 'billing/lapse', outcome: 'lapsed', units: 49_999 }),
    ]);
    expect(await balance(key)).toMatchObject({
      tier: 'prepaid',
      subscription: { status: 'ended' },
    });
    // Credits bought later pay calls as usual.
    await deliver(sessionCompleted({ keyId: key.keyId, credits: 100 }));
    expect(await call(key)).toBe(200);
  });

  it('lets a failed renewal end the plan at the paid period end, taking nothing back', async () => {
    const key = await mint('live');
    const subscribed = await subscribeAndPay(key, 'business');
    const sub = subscribed.subscription as Body;
    expect(await call(key)).toBe(200);
    const failed = await fetch(`${base}/dev-checkout/subscriptions/${sub.id as string}/fail`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(failed.status).toBe(303);
    expect(await balance(key)).toMatchObject({
      tier: 'business',
      included_remaining: 999_999,
      subscription: { status: 'past_due', ends_at: sub.current_period_end },
    });
    // The retry is paid: the plan continues with a fresh allowance.
    await fetch(`${base}/dev-checkout/subscriptions/${sub.id as string}/renew`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(await balance(key)).toMatchObject({
      tier: 'business',
      included_remaining: 1_000_000,
      subscription: { status: 'active', ends_at: null },
    });
  });

  it('ends the plan at once when the subscription is deleted', async () => {
    const key = await mint('live');
    const subscribed = await subscribeAndPay(key, 'enterprise');
    expect(subscribed).toMatchObject({ tier: 'enterprise', included_remaining: null });
    expect(await call(key)).toBe(200);
    const sub = subscribed.subscription as Body;
    await fetch(`${base}/dev-checkout/subscriptions/${sub.id as string}/end`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(await balance(key)).toMatchObject({
      tier: 'prepaid',
      subscription: { status: 'ended' },
    });
    expect(await call(key)).toBe(402);
    expect((await grants(key.keyId)).map((g) => [g.route, g.source])).toEqual([
      ['billing/subscribe', 'unmetered'],
      ['billing/lapse', 'unmetered'],
    ]);
  });
});

describe('events out of order', () => {
  it('grants a renewal that arrives before its checkout, and the checkout then grants nothing', async () => {
    const key = await mint('test');
    const subscription = `sub_test_${randomBytes(8).toString('hex')}`;
    const start = unix(Date.now());
    const renewal = await deliver(
      invoice('invoice.paid', {
        subscription,
        keyId: key.keyId,
        tier: 'pro',
        reason: 'subscription_cycle',
        start,
      }),
    );
    expect(renewal.body.outcome).toMatch(/^applied: allowance/);
    expect(await balance(key)).toMatchObject({
      env: 'live',
      tier: 'pro',
      included_remaining: 50_000,
    });
    const checkout = await deliver(sessionCompleted({ keyId: key.keyId, subscription }));
    expect(checkout.body.outcome).toMatch(/already granted/);
    expect((await grants(key.keyId)).map((g) => g.route)).toEqual(['billing/renew']);
  });

  it('grants once when a checkout and its first invoice arrive at the same time', async () => {
    const key = await mint('live');
    const subscription = `sub_test_${randomBytes(8).toString('hex')}`;
    const checkout = sessionCompleted({ keyId: key.keyId, subscription, tier: 'business' });
    const first = invoice('invoice.paid', {
      subscription,
      keyId: key.keyId,
      tier: 'business',
      reason: 'subscription_create',
      start: unix(Date.now()),
    });
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, () => deliver(checkout)),
      ...Array.from({ length: 3 }, () => deliver(first)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(await grants(key.keyId)).toEqual([
      expect.objectContaining({ route: 'billing/subscribe', units: 1_000_000 }),
    ]);
    expect(await balance(key)).toMatchObject({
      tier: 'business',
      included_remaining: 1_000_000,
      subscription: { status: 'active', current_period_end: expect.any(String) },
    });
  });

  it('grants nothing for a checkout whose subscription was deleted first', async () => {
    const key = await mint('live');
    const subscription = `sub_test_${randomBytes(8).toString('hex')}`;
    const deleted = await deliver(
      stripeEvent('customer.subscription.deleted', {
        ...subscriptionObject({
          id: subscription,
          keyId: key.keyId,
          status: 'canceled',
          periodEnd: unix(Date.now()),
        }),
        ended_at: unix(Date.now()),
      }),
    );
    expect(deleted.body.outcome).toMatch(/ended before its checkout arrived/);
    const checkout = await deliver(sessionCompleted({ keyId: key.keyId, subscription }));
    expect(checkout.body.outcome).toMatch(/already ended; nothing granted/);
    expect(await balance(key)).toMatchObject({ tier: 'prepaid', included_remaining: 0 });
    expect(await grants(key.keyId)).toEqual([]);
  });

  it('ignores a subscription update older than one already applied', async () => {
    const key = await mint('live');
    const subscribed = await subscribeAndPay(key, 'pro');
    const sub = subscribed.subscription as Body;
    const periodEnd = unix(new Date(sub.current_period_end as string).getTime());
    const now = unix(Date.now());
    const cancel = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({
        id: sub.id as string,
        keyId: key.keyId,
        cancelAtPeriodEnd: true,
        periodEnd,
      }),
      now,
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: sub.id as string, keyId: key.keyId, periodEnd }),
      now - 60,
    );
    expect((await deliver(cancel)).body.outcome).toMatch(/cancels at/);
    expect((await deliver(older)).body.outcome).toMatch(/newer update/);
    expect(await balance(key)).toMatchObject({
      tier: 'pro',
      subscription: { status: 'canceling' },
    });
  });

  it('lets a late paid retry of an ended-unpaid subscription grant nothing once the key subscribed again', async () => {
    const key = await mint('live');
    const old = `sub_test_${randomBytes(8).toString('hex')}`;
    const start = unix(Date.now()) - 40 * DAY;
    await deliver(sessionCompleted({ keyId: key.keyId, subscription: old, tier: 'pro' }));
    // Its renewal fails; the period paid for ended ten days ago, so the plan ends now.
    const failed = await deliver(
      invoice('invoice.payment_failed', {
        subscription: old,
        keyId: key.keyId,
        tier: 'pro',
        reason: 'subscription_cycle',
        start: start + 30 * DAY,
      }),
    );
    expect(failed.body.outcome).toMatch(/payment for .* failed/);
    expect(await balance(key)).toMatchObject({ tier: 'prepaid', included_remaining: 0 });
    // The key subscribes again, to business.
    expect(await subscribeAndPay(key, 'business')).toMatchObject({ tier: 'business' });
    const late = await deliver(
      invoice('invoice.paid', {
        subscription: old,
        keyId: key.keyId,
        tier: 'pro',
        reason: 'subscription_cycle',
        start: start + 30 * DAY,
      }),
    );
    expect(late.body.outcome).toMatch(/grants nothing/);
    expect(await balance(key)).toMatchObject({ tier: 'business', included_remaining: 1_000_000 });
    expect((await grants(key.keyId)).map((g) => g.route)).toEqual([
      'billing/subscribe',
      'billing/lapse',
      'billing/subscribe',
    ]);
  });

  it('ignores a renewal of a subscription it cannot attribute', async () => {
    const res = await deliver(
      stripeEvent('invoice.paid', {
        id: 'in_orphan',
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        parent: { subscription_details: { subscription: 'sub_orphan', metadata: {} } },
        lines: { data: [{ period: { start: 1, end: 2 } }] },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatch(/^ignored: subscription sub_orphan is unknown/);
  });
});

describe('usage history', () => {
  it('gives 30 UTC days of charged calls and spent credits, today last', async () => {
    const key = await mint('live');
    await deliver(sessionCompleted({ keyId: key.keyId, credits: 1000 }));
    for (let i = 0; i < 3; i++) expect(await call(key)).toBe(200);
    const res = await json('/api/dev/usage', { headers: { authorization: `Bearer ${key.key}` } });
    expect(res.status).toBe(200);
    const days = res.body.days as { date: string; calls: number; credits: number }[];
    expect(res.body.ok).toBe(true);
    expect(days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.at(-1)).toEqual({ date: today, calls: 3, credits: 24 });
    expect(days.slice(0, -1).every((d) => d.calls === 0 && d.credits === 0)).toBe(true);
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort());

    const anonymous = await json('/api/dev/usage');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ ok: false, error: 'invalid_key' });
  });
});

describe('production', () => {
  it('refuses to start without Stripe, and never builds the development processor there', () => {
    const production = {
      NODE_ENV: 'production',
      SIGNER_PRIVATE_KEY: `0x${'2'.repeat(64)}`,
      DATABASE_URL: 'postgresql://db/x',
      X402_PAY_TO: `0x${'3'.repeat(40)}`,
      FACILITATOR_URL: 'https://facilitator.example',
    };
    expect(() => loadConfig(production, '/')).toThrow(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required in production/,
    );
    const config = loadConfig(
      { ...production, STRIPE_SECRET_KEY: 'sk_live_x1', STRIPE_WEBHOOK_SECRET: 'whsec_x1' },
      '/',
    );
    expect(config.billing.stripe?.webhookSecret).toBe('whsec_x1');
    expect(paymentProcessor({ ...config, publicBaseUrl: 'https://s.example' }).kind).toBe('stripe');
    expect(() =>
      paymentProcessor({
        ...config,
        billing: { stripe: null },
        publicBaseUrl: 'https://s.example',
      }),
    ).toThrow(/refused in production/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x1' }, '/')).toThrow(/go together/);
  });
});
