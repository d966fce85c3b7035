import { type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { dollars } from '../doors/x402/terms.js';
import { assetRoutes } from '../pages/assets.js';
import { homePage } from '../pages/home.js';
import { PAGE_CSP } from '../pages/layout.js';
import { pricingPage } from '../pages/pricing.js';
import { termsPage } from '../pages/terms.js';
import { trustPage } from '../pages/trust.js';
import { verifyPage } from '../pages/verify.js';
import { serviceAttestation } from './attestation.js';

/** How long browsers and caches keep a page rendered once per app. */
const PAGE_CACHE = 'public, max-age=300';

function sendPage(res: Response, page: string, cache = PAGE_CACHE): void {
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Cache-Control', cache);
  res.type('html').send(page);
}

/**
 * The portal pages besides `/developers` (`/`, `/pricing`, `/terms`, `/trust`, `/verify`)
 * and their assets. Every page but `/trust` is rendered once per app from the registry
 * and the tier table; `/trust` reads the signer keys on each request.
 */
export function pageRoutes(deps: AppDeps): Router {
  const router = Router();
  const { plans, registry } = deps;
  const cheapest = Math.min(...registry.flatMap((route) => route.prices.map((p) => p.amount)));
  const home = homePage({
    base: deps.config.publicBaseUrl,
    routes: registry,
    from: dollars(cheapest),
  });
  const pricing = pricingPage({ plans, routes: registry });
  const terms = termsPage(registry);
  const verify = verifyPage();

  router.use(assetRoutes());
  router.get('/', (_req, res) => sendPage(res, home));
  router.get('/pricing', (_req, res) => sendPage(res, pricing));
  router.get('/terms', (_req, res) => sendPage(res, terms));
  router.get('/verify', (_req, res) => sendPage(res, verify));
  router.get('/trust', async (_req, res) =>
    sendPage(res, trustPage(await serviceAttestation(deps))),
  );
  return router;
}
