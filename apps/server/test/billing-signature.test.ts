/**
 * The webhook signature scheme the development processor uses is Stripe's:
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`,
 * checked here against the official `stripe` package's own verification.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '../src/billing/dev-events.js';

const secret = 'whsec_unit_test_secret';
const payload = JSON.stringify({
  id: 'evt_unit_1',
  object: 'event',
  type: 'checkout.session.completed',
  created: 1_767_225_600,
  data: { object: { id: 'cs_unit_1', object: 'checkout.session' } },
});

function sign(body: string, key: string, t: number): string {
  const v1 = createHmac('sha256', key).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}

describe('the Stripe signature scheme', () => {
  const now = Math.floor(Date.now() / 1000);

  it('is what generateTestHeaderString writes, byte for byte', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: now });
    expect(header).toBe(sign(payload, secret, now));
  });

  it('verifies with constructEvent when computed by hand', () => {
    const event = Stripe.webhooks.constructEvent(payload, sign(payload, secret, now), secret);
    expect(event.id).toBe('evt_unit_1');
    expect(event.type).toBe('checkout.session.completed');
  });

  it('is refused for another secret, another body, or a stale timestamp', () => {
    expect(() =>
      Stripe.webhooks.constructEvent(payload, sign(payload, 'whsec_other', now), secret),
    ).toThrow(/signature/i);
    const edited = payload.replace('cs_unit_1', 'cs_unit_2');
    expect(() =>
      Stripe.webhooks.constructEvent(edited, sign(payload, secret, now), secret),
    ).toThrow(/signature/i);
    // The default tolerance is 300 s.
    expect(() =>
      Stripe.webhooks.constructEvent(payload, sign(payload, secret, now - 600), secret),
    ).toThrow(/tolerance/i);
  });

  it('is what deliverEvent sends, over HTTP, with the exact body it signed', async () => {
    const received: { header: string; body: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          header: String(req.headers['stripe-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const event = JSON.parse(payload) as Parameters<typeof deliverEvent>[2];
      const answer = await deliverEvent(`http://127.0.0.1:${port}/hook`, secret, event);
      expect(answer.status).toBe(200);
      expect(received).toHaveLength(1);
      const [one] = received;
      const verified = Stripe.webhooks.constructEvent(one?.body ?? '', one?.header ?? '', secret);
      expect(verified.id).toBe('evt_unit_1');
      expect(one?.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
