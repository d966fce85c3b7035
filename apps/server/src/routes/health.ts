import { Router } from 'express';
import type { AppDeps } from '../deps.js';
import { DRAINING_RETRY_SECONDS } from '../pipeline/call.js';

/**
 * `GET /healthz`: liveness plus a database round trip; 503 `draining` once the instance
 * is shutting down, so a load balancer stops sending it calls.
 */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    if (deps.draining()) {
      res.status(503).set('Retry-After', String(DRAINING_RETRY_SECONDS)).json({
        ok: false,
        error: 'draining',
        message:
          'This instance is shutting down: it finishes its calls in flight and admits no new ones',
        service: 'storefront',
        draining: true,
      });
      return;
    }
    try {
      await deps.db.query('SELECT 1');
    } catch {
      res
        .status(503)
        .json({ ok: false, error: 'internal_error', message: 'The database is unavailable' });
      return;
    }
    res.json({
      ok: true,
      service: 'storefront',
      version: deps.version,
      database: deps.db.kind,
      signer: deps.signer.address,
    });
  });
  return router;
}
