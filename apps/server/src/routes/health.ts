import { Router } from 'express';
import type { AppDeps } from '../app.js';

/** `GET /healthz`: liveness plus a database round trip. */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
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
