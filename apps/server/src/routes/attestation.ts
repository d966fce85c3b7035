import {
  ATTEST_ALG,
  ATTEST_SCHEME,
  HOW_TO_VERIFY,
  MESSAGE_TEMPLATE,
  RECEIPT_ROUTES,
  type ReceiptRoute,
  type ServiceAttestationDocument,
  verifyReceipt,
} from '@storefront/attest';
import { StorefrontError } from '@storefront/core';
import express, { Router } from 'express';
import type { AppDeps } from '../app.js';
import { retiredSigners } from '../db/signer-keys.js';

/** The document at `/.well-known/service-attestation`: the pinned key and retired ones. */
export async function serviceAttestation(deps: AppDeps): Promise<ServiceAttestationDocument> {
  return {
    scheme: ATTEST_SCHEME,
    alg: ATTEST_ALG,
    keyId: deps.signer.keyId,
    address: deps.signer.address,
    retired: await retiredSigners(deps.db),
    message: { joinedBy: '\\n', lines: MESSAGE_TEMPLATE },
    howTo: HOW_TO_VERIFY,
    verifyEndpoint: `${deps.config.publicBaseUrl}/x402/verify`,
  };
}

/**
 * The `route` query parameter of `POST /x402/verify`: a route name (`extract`, or
 * `/buy/extract`) whose rule re-derives the text; absent, the route is told from the
 * result's shape.
 */
function routeParam(value: unknown): { route?: ReceiptRoute } | { problem: string } {
  if (value === undefined) return {};
  const name = typeof value === 'string' ? value.replace(/^\/?buy\//, '') : null;
  if (name === null || !(RECEIPT_ROUTES as readonly string[]).includes(name)) {
    return {
      problem: `Expected \`route\` to be one of ${RECEIPT_ROUTES.join(', ')}, got \`${String(value).slice(0, 100)}\``,
    };
  }
  return { route: name as ReceiptRoute };
}

/**
 * `GET /.well-known/service-attestation` and `POST /x402/verify`. The verify route runs
 * the same checks as `storefront-verify` (`@storefront/attest`), including the
 * re-derivation of `text` from the result's own fields.
 */
export function attestationRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/.well-known/service-attestation', async (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(await serviceAttestation(deps));
  });

  router.post('/x402/verify', express.json({ limit: '1mb', strict: true }), async (req, res) => {
    const body: unknown = req.body;
    const details: { path: string; message: string }[] = [];
    const route = routeParam(req.query.route);
    if ('problem' in route) details.push({ path: '?route', message: route.problem });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      details.push({
        path: '',
        message: 'Expected a JSON object: a whole result, or {text, attestation}',
      });
    } else {
      const { text, attestation } = body as { text?: unknown; attestation?: unknown };
      if (typeof text !== 'string')
        details.push({ path: '/text', message: 'Expected `text` as a string' });
      if (typeof attestation !== 'object' || attestation === null || Array.isArray(attestation)) {
        details.push({ path: '/attestation', message: 'Expected `attestation` as an object' });
      }
    }
    if (details.length > 0) {
      throw new StorefrontError(
        'invalid_params',
        'Post a result, or {text, attestation}, as JSON',
        { details },
      );
    }
    const verification = verifyReceipt(
      body,
      await serviceAttestation(deps),
      'route' in route ? route : {},
    );
    res.json({ ok: true, ...verification });
  });

  return router;
}
