import { canonicalize, type ReceiptRule } from '@storefront/core';
import { Router } from 'express';
import type { AppDeps } from '../deps.js';

/** The fixed sample behind `/buy/signal`: the same bytes every time. */
export const SIGNAL_SAMPLE = Object.freeze({
  sample: true,
  notice: 'Sample data for trying the API and its receipts. It is not a live market read.',
  series: 'storefront-demo/usd-index',
  asOf: '2026-01-01T00:00:00.000Z',
  interval: '1h',
  points: [
    { t: '2026-01-01T00:00:00.000Z', value: 100 },
    { t: '2026-01-01T01:00:00.000Z', value: 100.4 },
    { t: '2026-01-01T02:00:00.000Z', value: 99.8 },
    { t: '2026-01-01T03:00:00.000Z', value: 100.9 },
    { t: '2026-01-01T04:00:00.000Z', value: 101.3 },
    { t: '2026-01-01T05:00:00.000Z', value: 101.1 },
  ],
  signal: 'up',
});

/** `/buy/signal`'s `text` is the RFC 8785 JSON of its `data`. */
export const SIGNAL_RECEIPT_RULE: ReceiptRule = { kind: 'canonical-json' };

/**
 * `GET /buy/signal`: the free demo. No key, no payment; sample data (never a live
 * read), signed like every paid result so a receipt can be tried end to end.
 */
export function signalRoutes(deps: AppDeps): Router {
  const router = Router();
  const text = canonicalize(SIGNAL_SAMPLE);
  router.get('/buy/signal', (_req, res) => {
    const url = `${deps.config.publicBaseUrl}/buy/signal`;
    const fetchedAt = deps.clock().toISOString();
    const attestation = deps.signer.sign(text, { route: 'signal', url, status: 200, fetchedAt });
    res.json({
      ok: true,
      sample: true,
      url,
      status: 200,
      text,
      fetchedAt,
      data: SIGNAL_SAMPLE,
      attestation,
    });
  });
  return router;
}
