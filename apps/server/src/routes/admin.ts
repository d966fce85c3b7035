import { createHash, timingSafeEqual } from 'node:crypto';
import { StorefrontError } from '@storefront/core';
import express, { type RequestHandler, Router } from 'express';
import { findSubscription } from '../billing/store.js';
import type { AppDeps } from '../deps.js';
import { addCredits, findKeyById, ledgerFor, revokeKey, setTier } from '../metering/store.js';
import { isLiveTier, LIVE_TIERS } from '../metering/tiers.js';
import { balanceBody } from './dev-keys.js';

const MAX_GRANT = 100_000_000;
const KEY_ID = /^key_[0-9a-f]{24}$/;

/**
 * The operator API (support and tests): grant credits, set a tier, revoke a key, read
 * a key's ledger. Bearer `ADMIN_TOKEN`; with no token configured none of it exists and
 * every `/admin/*` path answers the ordinary 404.
 */
export function adminRoutes(deps: AppDeps): Router {
  const router = Router();
  const token = deps.config.adminToken;
  if (token === null) return router;
  const { plans } = deps;
  const expected = digest(token);

  const authorize: RequestHandler = (req, _res, next) => {
    const match = /^Bearer[ \t]+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      throw new StorefrontError(
        'invalid_key',
        'The operator API needs `Authorization: Bearer <ADMIN_TOKEN>`',
      );
    }
    next();
  };
  const json = express.json({ limit: '4kb', strict: true });
  router.use('/admin', authorize);

  const keyIdOf = (raw: unknown): string => {
    if (typeof raw !== 'string' || !KEY_ID.test(raw)) {
      throw new StorefrontError(
        'invalid_params',
        'Expected a key id such as `key_0123…` (24 hex digits)',
        {
          details: [{ param: 'keyId', message: 'Expected `key_` followed by 24 hex digits' }],
        },
      );
    }
    return raw;
  };
  const found = async <T>(keyId: string, value: Promise<T | null>): Promise<T> => {
    const result = await value;
    if (result !== null) return result;
    const key = await findKeyById(deps.db, keyId);
    if (key === null) throw new StorefrontError('not_found', `No key \`${keyId}\``);
    throw new StorefrontError(
      'invalid_params',
      `Key \`${keyId}\` is a ${key.env} key; only live keys hold credits and plans`,
      {
        details: [{ param: 'keyId', message: 'Expected a live key' }],
      },
    );
  };

  router.get('/admin/keys/:keyId', async (req, res) => {
    const keyId = keyIdOf(req.params.keyId);
    const key = await findKeyById(deps.db, keyId);
    if (key === null) throw new StorefrontError('not_found', `No key \`${keyId}\``);
    const subscription =
      key.subscriptionId === null ? null : await findSubscription(deps.db, key.subscriptionId);
    res.json({
      ...balanceBody(key, plans.sandbox.included ?? 0, subscription),
      label: key.label,
      revokedAt: key.revokedAt,
    });
  });

  router.post('/admin/keys/:keyId/credits', json, async (req, res) => {
    const keyId = keyIdOf(req.params.keyId);
    const credits = (req.body as { credits?: unknown } | undefined)?.credits;
    if (
      typeof credits !== 'number' ||
      !Number.isSafeInteger(credits) ||
      credits < 1 ||
      credits > MAX_GRANT
    ) {
      throw new StorefrontError(
        'invalid_params',
        'Expected `{"credits": N}` with N a whole number of credits',
        {
          details: [{ param: 'credits', message: `Expected an integer from 1 to ${MAX_GRANT}` }],
        },
      );
    }
    const key = await found(keyId, addCredits(deps.db, keyId, credits));
    res.json(balanceBody(key, plans.sandbox.included ?? 0));
  });

  router.post('/admin/keys/:keyId/tier', json, async (req, res) => {
    const keyId = keyIdOf(req.params.keyId);
    const tier = (req.body as { tier?: unknown } | undefined)?.tier;
    if (!isLiveTier(tier)) {
      throw new StorefrontError(
        'invalid_params',
        `Expected \`{"tier": ${LIVE_TIERS.map((name) => `"${name}"`).join(' | ')}}\``,
        { details: [{ param: 'tier', message: `Expected ${orList(LIVE_TIERS)}` }] },
      );
    }
    const key = await found(keyId, setTier(deps.db, keyId, plans[tier]));
    res.json(balanceBody(key, plans.sandbox.included ?? 0));
  });

  router.post('/admin/keys/:keyId/revoke', async (req, res) => {
    const keyId = keyIdOf(req.params.keyId);
    const key = await revokeKey(deps.db, keyId);
    if (key === null) throw new StorefrontError('not_found', `No key \`${keyId}\``);
    res.json({ ok: true, keyId, revokedAt: key.revokedAt });
  });

  router.get('/admin/ledger', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const keyId = keyIdOf(query.keyId);
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    const after = query.after === undefined ? null : String(query.after);
    const details: { param: string; message: string }[] = [];
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      details.push({ param: 'limit', message: 'Expected an integer from 1 to 1000' });
    }
    if (after !== null && !/^\d{1,18}$/.test(after)) {
      details.push({ param: 'after', message: 'Expected a ledger id (digits)' });
    }
    if (details.length > 0) {
      throw new StorefrontError('invalid_params', 'Invalid parameters for /admin/ledger', {
        details,
      });
    }
    if ((await findKeyById(deps.db, keyId)) === null)
      throw new StorefrontError('not_found', `No key \`${keyId}\``);
    // Calls this instance answered are settled before the ledger is read.
    await deps.meter.drain();
    // One row more than asked says whether another page follows.
    const rows = await ledgerFor(deps.db, keyId, { limit: limit + 1, after });
    const entries = rows.slice(0, limit);
    res.json({
      ok: true,
      keyId,
      entries,
      next: rows.length > limit ? (entries.at(-1)?.id ?? null) : null,
    });
  });

  return router;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** `a, b, c or d`. */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
