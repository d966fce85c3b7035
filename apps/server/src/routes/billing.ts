import { StorefrontError } from '@storefront/core';
import express, { type Request, Router } from 'express';
import { applyEvent, type ProcessorEvent } from '../billing/events.js';
import { CREDITS_PER_CENT, TOPUP_MAX_USD, TOPUP_MIN_USD, topupCents } from '../billing/plans.js';
import type { PaymentProcessor, Purchase } from '../billing/processor.js';
import { liveSubscriptionOf, saveCheckout, usageByDay } from '../billing/store.js';
import { loadStripe } from '../billing/stripe-module.js';
import type { AppDeps } from '../deps.js';
import { invalidKey, liveKey } from '../metering/key-refusals.js';
import { bearerKey, hashKey, isKeyShaped } from '../metering/keys.js';
import { findKeyByHash, type KeyRecord } from '../metering/store.js';
import { isPaidTier, PAID_TIERS } from '../metering/tiers.js';

/** The webhook's path (DESIGN §7). */
export const WEBHOOK_PATH = '/api/webhooks/payments';

/** Largest webhook body read (Stripe's events are a few KiB; an invoice with many lines more). */
const WEBHOOK_BODY_LIMIT = '1mb';

/**
 * `POST /api/dev/subscribe`, `POST /api/dev/topup`, `GET /api/dev/usage` and the
 * payment processor's webhook `POST /api/webhooks/payments`.
 */
export function billingRoutes(deps: AppDeps): Router {
  const router = Router();
  const { processor } = deps;
  const { plans } = deps;

  router.post('/api/dev/subscribe', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const tier = query.tier;
    if (!isPaidTier(tier)) {
      throw new StorefrontError('invalid_params', 'Invalid parameters for /api/dev/subscribe', {
        details: [
          {
            param: 'tier',
            message: `Expected \`tier\` to be one of ${PAID_TIERS.join(', ')}`,
          },
        ],
      });
    }
    const key = await keyOf(req, deps);
    const current = await liveSubscriptionOf(deps.db, key.keyId);
    if (current !== null) {
      throw new StorefrontError(
        'invalid_params',
        `Key ending in \`${key.tail}\` already has a ${current.tier} subscription (${current.status}${current.endsAt ? ` until ${current.endsAt}` : ''}); a key holds one subscription at a time`,
        { details: [{ param: 'key', message: 'Expected a key without a running subscription' }] },
      );
    }
    const amountCents = plans[tier].monthlyUsd * 100;
    const purchase: Purchase = { kind: 'subscription', tier, amountCents };
    const checkout = await open(deps, processor, key, purchase, `upgraded=${tier}`);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      ok: true,
      tier,
      url: checkout.url,
      usd: plans[tier].monthlyUsd,
      checkoutId: checkout.id,
    });
  });

  router.post('/api/dev/topup', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const cents = topupCents(query.usd);
    if (cents === null) {
      throw new StorefrontError('invalid_params', 'Invalid parameters for /api/dev/topup', {
        details: [
          {
            param: 'usd',
            message: `Expected \`usd\` to be a number of dollars from ${TOPUP_MIN_USD} to ${TOPUP_MAX_USD} with at most two decimals, such as 25 or 12.50`,
          },
        ],
      });
    }
    const key = await keyOf(req, deps);
    if (key.env !== 'live') {
      throw new StorefrontError(
        'invalid_params',
        `Key ending in \`${key.tail}\` is a test key; credits are for live keys (mint one with POST /api/dev/keys?live=true, or subscribe this one)`,
        { details: [{ param: 'key', message: 'Expected a live key' }] },
      );
    }
    const credits = cents * CREDITS_PER_CENT;
    const purchase: Purchase = { kind: 'credits', credits, amountCents: cents };
    const checkout = await open(deps, processor, key, purchase, `topup=${credits}`);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ok: true, url: checkout.url, usd: cents / 100, credits, checkoutId: checkout.id });
  });

  router.get('/api/dev/usage', async (req, res) => {
    const key = await bearerOf(req, deps);
    await deps.meter.drain();
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ok: true, days: await usageByDay(deps.db, key.keyId, deps.clock()) });
  });

  router.post(
    WEBHOOK_PATH,
    // The signature covers the exact bytes: the body is read raw, never parsed first.
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.get('stripe-signature');
      if (signature === undefined || signature.trim() === '') {
        throw new StorefrontError('invalid_params', 'Missing the `Stripe-Signature` header', {
          details: [{ param: 'Stripe-Signature', message: 'Expected a signed webhook' }],
        });
      }
      const Stripe = await loadStripe();
      let verified: unknown;
      try {
        verified = Stripe.webhooks.constructEvent(raw, signature, processor.webhookSecret);
      } catch (error) {
        throw new StorefrontError(
          'invalid_params',
          `The \`Stripe-Signature\` header does not verify: ${error instanceof Error ? error.message.split('\n')[0] : 'bad signature'}`,
          { details: [{ param: 'Stripe-Signature', message: 'Signature verification failed' }] },
        );
      }
      const event = eventOf(verified);
      if (event === null) {
        throw new StorefrontError(
          'invalid_params',
          'The webhook body is not an event: expected `id`, `type`, `created` and `data.object`',
        );
      }
      const result = await applyEvent(deps.db, event, processor.kind, plans);
      deps.logger.info(
        { event: event.id, type: event.type, duplicate: result.duplicate, outcome: result.outcome },
        'payment webhook',
      );
      res.json({
        ok: true,
        received: true,
        id: event.id,
        type: event.type,
        duplicate: result.duplicate,
        outcome: result.outcome,
      });
    },
  );

  return router;
}

/** Open a checkout for `key` and record it; the browser comes back to /developers. */
async function open(
  deps: AppDeps,
  processor: PaymentProcessor,
  key: KeyRecord,
  purchase: Purchase,
  success: string,
) {
  const base = deps.config.publicBaseUrl;
  const checkout = await processor.createCheckout({
    keyId: key.keyId,
    purchase,
    successUrl: `${base}/developers?${success}`,
    cancelUrl: `${base}/developers?checkout=cancelled`,
  });
  await saveCheckout(deps.db, {
    id: checkout.id,
    processor: processor.kind,
    keyId: key.keyId,
    purchase,
    url: checkout.url,
  });
  return checkout;
}

/**
 * The key of a billing request: query `key` (spec "Key and billing routes"), or the
 * bearer header. Missing: 400; malformed, unknown or revoked: 401 `invalid_key`.
 */
async function keyOf(req: Request, deps: AppDeps): Promise<KeyRecord> {
  const query = req.query as Record<string, unknown>;
  const raw = query.key;
  if (raw === undefined && req.get('authorization') !== undefined) return bearerOf(req, deps);
  if (raw === undefined || raw === '') {
    throw new StorefrontError('invalid_params', 'Missing `key`', {
      details: [{ param: 'key', message: 'Expected the API key, mk_test_… or mk_live_…' }],
    });
  }
  if (typeof raw !== 'string' || !isKeyShaped(raw)) {
    throw new StorefrontError('invalid_key', 'Expected `key` to be an mk_test_… or mk_live_… key');
  }
  return known(deps, raw);
}

async function bearerOf(req: Request, deps: AppDeps): Promise<KeyRecord> {
  const bearer = bearerKey(req.get('authorization'));
  if (bearer.kind !== 'key') throw invalidKey(bearer);
  return known(deps, bearer.key);
}

async function known(deps: AppDeps, raw: string): Promise<KeyRecord> {
  const found = liveKey(await findKeyByHash(deps.db, hashKey(raw)));
  if (!found.ok) throw invalidKey(found.refusal);
  return found.key;
}

function eventOf(value: unknown): ProcessorEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, type, created, data } = value as Record<string, unknown>;
  const object = (data as { object?: unknown } | null | undefined)?.object;
  if (
    typeof id !== 'string' ||
    id === '' ||
    id.length > 255 ||
    typeof type !== 'string' ||
    typeof created !== 'number' ||
    !Number.isFinite(created) ||
    typeof object !== 'object' ||
    object === null
  ) {
    return null;
  }
  return { id, type, created, data: { object: object as Record<string, unknown> } };
}
