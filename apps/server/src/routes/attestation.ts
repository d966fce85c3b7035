import {
  ATTEST_ALG,
  ATTEST_SCHEME,
  HOW_TO_VERIFY,
  MESSAGE_TEMPLATE,
  type ServiceAttestationDocument,
  verifyReceipt,
} from '@storefront/attest';
import { type ReceiptRule, StorefrontError } from '@storefront/core';
import express, { Router } from 'express';
import { retiredHttpKeys, retiredOfferReceiptKeys, retiredSigners } from '../db/signer-keys.js';
import type { AppDeps } from '../deps.js';
import { eip712KidOf, jwsKidOf } from '../doors/x402/offer-receipt.js';
import { type Ed25519PublicJwk, jwkThumbprint } from '../http/message-signature.js';
import {
  FIXED_POINT_VERSION,
  PROVENANCE_HEADER,
  RESPONSE_PROVENANCE,
} from '../pipeline/provenance.js';
import type { AnyRoute } from '../registry/types.js';
import { SIGNAL_RECEIPT_RULE } from './signal.js';

/**
 * What a verifier of the x402 extensions needs: the keys of offers and receipts (the
 * EIP-712 signer's address, the JWS key's `did:jwk` and its kid in the JWKS), and how a
 * result's `response-provenance` claim is carried.
 */
export interface X402ProofKeys {
  readonly offerReceipt: {
    readonly extension: 'offer-receipt';
    readonly eip712: { readonly address: string; readonly kid: string };
    readonly jws: { readonly kid: string; readonly jwksKid: string; readonly alg: 'EdDSA' };
    /** The keys of retired signer keys, most recently retired first: their receipts still verify. */
    readonly retired: readonly {
      readonly eip712: { readonly address: string; readonly kid: string };
      readonly jws: { readonly kid: string; readonly jwksKid: string; readonly alg: 'EdDSA' };
      readonly retiredAt: string;
    }[];
  };
  readonly responseProvenance: {
    readonly extension: typeof RESPONSE_PROVENANCE;
    readonly fixedPointVersion: typeof FIXED_POINT_VERSION;
    readonly resultCarriage: 'body';
    readonly header: typeof PROVENANCE_HEADER;
  };
}

/** The document at `/.well-known/service-attestation`: the pinned key and retired ones. */
export async function serviceAttestation(
  deps: AppDeps,
): Promise<ServiceAttestationDocument & X402ProofKeys> {
  const keys = deps.offerReceiptKeys;
  return {
    scheme: ATTEST_SCHEME,
    alg: ATTEST_ALG,
    keyId: deps.signer.keyId,
    address: deps.signer.address,
    retired: await retiredSigners(deps.db),
    message: { joinedBy: '\\n', lines: MESSAGE_TEMPLATE },
    howTo: HOW_TO_VERIFY,
    verifyEndpoint: `${deps.config.publicBaseUrl}/x402/verify`,
    receiptRules: receiptRules(deps.registry),
    offerReceipt: {
      extension: 'offer-receipt',
      eip712: { address: keys.eip712.address, kid: keys.eip712.kid },
      jws: { kid: keys.jws.kid, jwksKid: keys.jws.thumbprint, alg: 'EdDSA' },
      retired: (await retiredOfferReceiptKeys(deps.db))
        .filter(({ eip712 }) => eip712 !== keys.eip712.address)
        .map(({ eip712, jws, retiredAt }) => ({
          eip712: { address: eip712, kid: eip712KidOf(eip712) },
          jws: { kid: jwsKidOf(jws), jwksKid: jwkThumbprint(jws), alg: 'EdDSA' as const },
          retiredAt,
        })),
    },
    responseProvenance: {
      extension: RESPONSE_PROVENANCE,
      fixedPointVersion: FIXED_POINT_VERSION,
      resultCarriage: 'body',
      header: PROVENANCE_HEADER,
    },
    log: {
      origin: deps.logKey.signer.name,
      vkey: deps.logKey.vkey,
      checkpoint: `${deps.config.publicBaseUrl}/log/checkpoint`,
      tiles: `${deps.config.publicBaseUrl}/log/tile/`,
      proof: `${deps.config.publicBaseUrl}/log/proof?receipt={receiptHash}`,
      consistency: `${deps.config.publicBaseUrl}/log/consistency?old={old}&new={new}`,
      // The witnesses that cosign its checkpoints (C2SP tlog-witness), by key.
      witnesses: deps.witnesses().map((witness) => ({
        name: witness.verifier.name,
        vkey: witness.vkey,
        url: witness.url,
      })),
    },
  };
}

/** Where the keys of the service's HTTP message signatures are published. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** A key of the JWKS: the public JWK, its thumbprint, and whether it signs today. */
export interface PublishedHttpKey extends Ed25519PublicJwk {
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
  readonly status: 'current' | 'retired';
  readonly retiredAt?: string;
  /** What the key signs when not HTTP answers: the x402 offers and receipts (JWS). */
  readonly purpose?: 'x402-offer-receipt';
}

/**
 * The document at `/.well-known/jwks.json`: the Ed25519 key of the RFC 9421 signatures
 * of answers and webhooks first (`status: current`), then those derived from the retired
 * signer keys, most recently retired first; last, the Ed25519 keys of the JWS offers
 * and receipts of x402 payments (`purpose: x402-offer-receipt`), the current one first,
 * then those of the retired signer keys.
 */
export async function httpSignatureJwks(deps: AppDeps): Promise<{ keys: PublishedHttpKey[] }> {
  const keys: PublishedHttpKey[] = [];
  /** Add `jwk` once (by thumbprint), as the current or a retired key. */
  const add = (
    jwk: Ed25519PublicJwk,
    retiredAt: string | null,
    purpose?: PublishedHttpKey['purpose'],
  ) => {
    const kid = jwkThumbprint(jwk);
    if (keys.some((key) => key.kid === kid)) return;
    keys.push({
      kty: jwk.kty,
      crv: jwk.crv,
      x: jwk.x,
      kid,
      alg: 'EdDSA',
      use: 'sig',
      ...(retiredAt === null ? { status: 'current' } : { status: 'retired', retiredAt }),
      ...(purpose === undefined ? {} : { purpose }),
    });
  };
  add(deps.httpSignatureKey.jwk, null);
  for (const { jwk, retiredAt } of await retiredHttpKeys(deps.db)) add(jwk, retiredAt);
  add(deps.offerReceiptKeys.jws.jwk, null, 'x402-offer-receipt');
  for (const { jws, retiredAt } of await retiredOfferReceiptKeys(deps.db)) {
    add(jws, retiredAt, 'x402-offer-receipt');
  }
  return { keys };
}

/** Each route's receipt rule by name, from the registry (and `/buy/signal`'s). */
export function receiptRules(registry: readonly AnyRoute[]): Readonly<Record<string, ReceiptRule>> {
  return Object.fromEntries([
    ['signal', SIGNAL_RECEIPT_RULE],
    ...registry.map((route) => [route.name, route.receiptRule] as const),
  ]);
}

/**
 * The `route` query parameter of `POST /x402/verify`: a route name (`extract`, or
 * `/buy/extract`) whose rule re-derives the text. A scheme-2 receipt names its route
 * itself (the parameter must agree); a scheme-1 receipt's route is told from its shape
 * when the parameter is absent.
 */
function routeParam(
  value: unknown,
  routes: readonly string[],
): { route?: string } | { problem: string } {
  if (value === undefined) return {};
  const name = typeof value === 'string' ? value.replace(/^\/?buy\//, '') : null;
  if (name === null || !routes.includes(name)) {
    return {
      problem: `Expected \`route\` to be one of ${routes.join(', ')}, got \`${String(value).slice(0, 100)}\``,
    };
  }
  return { route: name };
}

/**
 * `GET /.well-known/service-attestation` and `POST /x402/verify`. The verify route runs
 * the same checks as `storefront-verify` (`@storefront/attest`), including the
 * re-derivation of `text` from the result's own fields.
 */
export function attestationRoutes(deps: AppDeps): Router {
  const router = Router();
  const routeNames = ['signal', ...deps.registry.map((route) => route.name)];

  router.get('/.well-known/service-attestation', async (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Link', `<${JWKS_PATH}>; rel="jwks"; type="application/jwk-set+json"`);
    res.json(await serviceAttestation(deps));
  });

  router.get(JWKS_PATH, async (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/jwk-set+json');
    res.send(JSON.stringify(await httpSignatureJwks(deps)));
  });

  router.post('/x402/verify', express.json({ limit: '1mb', strict: true }), async (req, res) => {
    const body: unknown = req.body;
    const details: { path: string; message: string }[] = [];
    const route = routeParam(req.query.route, routeNames);
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
      'route' in route && route.route !== undefined ? { route: route.route } : {},
    );
    res.json({ ok: true, ...verification });
  });

  return router;
}
