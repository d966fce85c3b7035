import { StorefrontError } from '@storefront/core';
import { Router } from 'express';
import { findSubscription, type SubscriptionRecord } from '../billing/store.js';
import type { AppDeps } from '../deps.js';
import { invalidKey, liveKey } from '../metering/key-refusals.js';
import { mintKey } from '../metering/keys.js';
import { findKeyByHash, issueKey, type KeyRecord } from '../metering/store.js';
import { isUnmetered, PLANLESS_TIER } from '../metering/tiers.js';

/** Keys one client IP may mint per hour (spec "Limits"). */
export const KEYS_PER_IP_PER_HOUR = 20;
const LABEL_MAX_CHARS = 64;

/** `POST /api/dev/keys` and `GET /api/dev/balance`. */
export function devKeyRoutes(deps: AppDeps): Router {
  const router = Router();
  const { plans } = deps;

  router.post('/api/dev/keys', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const live = query.live;
    const label = query.label;
    const details: { param: string; message: string }[] = [];
    if (live !== undefined && live !== 'true' && live !== 'false') {
      details.push({ param: 'live', message: 'Expected `live` to be `true` or `false`' });
    }
    if (
      label !== undefined &&
      (typeof label !== 'string' ||
        label.length > LABEL_MAX_CHARS ||
        /[\u0000-\u001f\u007f]/.test(label))
    ) {
      details.push({
        param: 'label',
        message: `Expected \`label\` to be one plain string of at most ${LABEL_MAX_CHARS} characters`,
      });
    }
    if (details.length > 0) {
      throw new StorefrontError('invalid_params', 'Invalid parameters for /api/dev/keys', {
        details,
      });
    }
    const env = live === 'true' ? 'live' : 'test';
    const minted = mintKey(env);
    const ip = clientBucket(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const issued = await issueKey(deps.db, minted, {
      ip,
      label: typeof label === 'string' && label !== '' ? label : null,
      plan: env === 'live' ? plans[PLANLESS_TIER] : plans.sandbox,
      perHour: KEYS_PER_IP_PER_HOUR,
    });
    if (!issued.ok) {
      res.setHeader('Retry-After', String(issued.retryAfterSeconds));
      throw new StorefrontError(
        'rate_limited',
        `At most ${KEYS_PER_IP_PER_HOUR} keys per IP per hour; retry in ${issued.retryAfterSeconds} s`,
      );
    }
    const base = deps.config.publicBaseUrl;
    res.status(201).json({
      ok: true,
      key: minted.key,
      keyId: issued.record.keyId,
      env,
      tail: issued.record.tail,
      tier: issued.record.tier,
      usage: {
        header: `Authorization: Bearer ${minted.key}`,
        example: `curl -H 'Authorization: Bearer ${minted.key}' '${base}/buy/fetch?url=https%3A%2F%2Fexample.com%2F'`,
        balance: `${base}/api/dev/balance`,
        catalog: `${base}/catalog`,
        ...(env === 'test'
          ? {
              sandbox: `${plans.sandbox.included} calls in all, ${plans.sandbox.perMinute} per minute, ${plans.sandbox.inFlight} in flight at once`,
            }
          : { credits: 'none yet: a live key spends prepaid credits; fund it before calling' }),
      },
      save_it:
        'This key is shown once and cannot be recovered; only its sha256 and last 4 characters are stored.',
    });
  });

  router.get('/api/dev/balance', async (req, res) => {
    const bearer = deps.accessTokens.credential(req.get('authorization'), deps.clock());
    if (bearer.kind !== 'key') throw invalidKey(bearer);
    const found = liveKey(await findKeyByHash(deps.db, bearer.keyHash));
    if (!found.ok) throw invalidKey(found.refusal);
    const { key } = found;
    const subscription =
      key.subscriptionId === null ? null : await findSubscription(deps.db, key.subscriptionId);
    res.setHeader('Cache-Control', 'no-store');
    res.json(balanceBody(key, plans.sandbox.included ?? 0, subscription));
  });

  return router;
}

/**
 * The balance answer: the spec's fields plus `tier`, `included_remaining` and, for a key
 * whose plan came from a subscription, `subscription` ({@link subscriptionBody}).
 */
export function balanceBody(
  key: KeyRecord,
  sandboxCap: number,
  subscription: SubscriptionRecord | null = null,
): Record<string, unknown> {
  return {
    ok: true,
    keyId: key.keyId,
    env: key.env,
    tier: key.tier,
    tail: key.tail,
    calls: key.calls,
    ...(key.env === 'test'
      ? { sandbox_remaining: key.sandboxRemaining, sandbox_cap: sandboxCap }
      : { credits: key.credits }),
    included_remaining:
      key.env === 'test'
        ? key.sandboxRemaining
        : isUnmetered(key.tier)
          ? null
          : key.includedRemaining,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    subscription: subscription === null ? null : subscriptionBody(subscription),
  };
}

/**
 * A subscription in the balance answer: `status` is `active`, `canceling` (it ends at
 * `ends_at`, the end of the paid period), `past_due` (a renewal failed: the plan ends
 * at `ends_at` unless a retry is paid) or `ended`.
 */
export function subscriptionBody(sub: SubscriptionRecord): Record<string, unknown> {
  return {
    id: sub.id,
    tier: sub.tier,
    status: sub.status,
    cancel_at_period_end: sub.status === 'canceling',
    current_period_end: sub.currentPeriodEnd,
    ends_at: sub.endsAt,
  };
}

/**
 * The bucket an address is counted in: IPv4 as it is, IPv6 by its /56 prefix (one
 * customer usually holds a whole /56 or /64), IPv4-mapped IPv6 as IPv4.
 */
export function clientBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  const words = groups.slice(0, 4).map((g) => Number.parseInt(g || '0', 16));
  words[3] = (words[3] ?? 0) & 0xff00;
  return `${words.map((w) => w.toString(16)).join(':')}::/56`;
}
