import { hkdfSync, randomBytes } from 'node:crypto';
import type { PaymentRequired } from '@x402/core/types';
import {
  convertNetworkStringToCAIP2,
  createOfferEIP712,
  createOfferJWS,
  createReceiptEIP712,
  createReceiptJWS,
  type JWSSigner,
  OFFER_RECEIPT,
  type SignedOffer,
  type SignedReceipt,
  type SignTypedDataFn,
} from '@x402/extensions/offer-receipt';
import { TypedDataEncoder, Wallet } from 'ethers';
import { type Ed25519PublicJwk, ed25519Key } from '../../http/message-signature.js';
import type {
  Delivery,
  Headers,
  PaidCall,
  PaymentExtensions,
  Refusal,
} from '../../pipeline/door.js';
import { RESPONSE_PROVENANCE } from '../../pipeline/provenance.js';
import { decodeBase64Json, encodeBase64Json } from './base64-json.js';
import { PAYMENT_REQUIRED_HEADER } from './requirements.js';
import { SETTLEMENT_HEADERS } from './settlement-header.js';

/**
 * The x402 `offer-receipt` extension (docs/decisions.md, "x402 offers and receipts"),
 * made with `@x402/extensions/offer-receipt`: every 402 with terms carries signed offers
 * (one EIP-712 and one JWS per accept entry) in `extensions["offer-receipt"].info.offers`;
 * every settlement response carries a signed receipt in
 * `extensions["offer-receipt"].info.receipt` (EIP-712, the form the package's client
 * reads) and both forms in `info.receipts`, beside the result's `response-provenance`
 * claim. The keys are derived from the signer key and published at
 * `/.well-known/service-attestation` and `/.well-known/jwks.json`.
 */

/** The keys that sign offers and receipts. */
export interface OfferReceiptKeys {
  /** EIP-712: a secp256k1 key; its address is what a verifier recovers. */
  readonly eip712: {
    readonly address: string;
    /** `did:pkh` of the address on the receipts' EIP-712 chain id. */
    readonly kid: string;
    readonly signTypedData: SignTypedDataFn;
  };
  /** JWS (EdDSA, Ed25519): `kid` is a `did:jwk` the package resolves offline. */
  readonly jws: {
    readonly kid: string;
    readonly jwk: Ed25519PublicJwk;
    /** The RFC 7638 thumbprint of `jwk`, its `kid` in the JWKS. */
    readonly thumbprint: string;
    readonly signer: JWSSigner;
  };
}

/** HKDF info of the offer-receipt keys, one per form. */
const EIP712_INFO = 'x402-offer-receipt/eip712/1';
const JWS_INFO = 'x402-offer-receipt/jws/1';

/** The offer-receipt keys of a signer key (HKDF-SHA256, as the other derived keys). */
export function offerReceiptKeys(signerPrivateKey: string): OfferReceiptKeys {
  const key = Buffer.from(signerPrivateKey.replace(/^0x/, ''), 'hex');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', key, 'storefront', info, 32));
  return keysOf(derive(EIP712_INFO), derive(JWS_INFO));
}

/** Random offer-receipt keys (an app built without a signer key: tests). */
export function randomOfferReceiptKeys(): OfferReceiptKeys {
  return keysOf(randomBytes(32), randomBytes(32));
}

/** The `kid` of EIP-712 offers and receipts signed by `address`: its `did:pkh`. */
export function eip712KidOf(address: string): string {
  return `did:pkh:eip155:1:${address}`;
}

/** The `kid` of JWS offers and receipts signed with `jwk`: its `did:jwk`, resolved offline. */
export function jwsKidOf(jwk: Ed25519PublicJwk): string {
  // Members in one order, whatever order the JWK was read back in (jsonb sorts them).
  const json = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x });
  return `did:jwk:${Buffer.from(json, 'utf8').toString('base64url')}`;
}

function keysOf(secp256k1: Buffer, ed25519: Buffer): OfferReceiptKeys {
  const wallet = new Wallet(`0x${secp256k1.toString('hex')}`);
  const signTypedData: SignTypedDataFn = async ({ domain, types, message }) => {
    // The package hands viem's shape; ethers hashes the same EIP-712 digest.
    const digest = TypedDataEncoder.hash(
      domain as Parameters<typeof TypedDataEncoder.hash>[0],
      types,
      message,
    );
    return wallet.signingKey.sign(digest).serialized as `0x${string}`;
  };
  const ed = ed25519Key(ed25519);
  const kid = jwsKidOf(ed.jwk);
  const signer: JWSSigner = {
    kid,
    format: 'jws',
    algorithm: 'EdDSA',
    sign: async (payload) => ed.sign(payload).toString('base64url'),
  };
  return {
    eip712: { address: wallet.address, kid: eip712KidOf(wallet.address), signTypedData },
    jws: { kid, jwk: ed.jwk, thumbprint: ed.kid, signer },
  };
}

/** A header of `headers` by name, whatever its case: [its name as set, its value]. */
function headerEntry(headers: Headers, name: string): readonly [string, string] | null {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return [key, value];
  }
  return null;
}

/** The decoded object of a base64 JSON header value, or null. */
function decodedObject(value: string): Record<string, unknown> | null {
  const decoded = decodeBase64Json(value);
  return decoded.ok && typeof decoded.value === 'object' && decoded.value !== null
    ? (decoded.value as Record<string, unknown>)
    : null;
}

/** What a receipt names: the resource paid for, the payer, the chain and the transaction. */
export interface ReceiptSubject {
  readonly resourceUrl: string;
  readonly payer: string;
  /** The network as the payment named it (a v1 name or CAIP-2). */
  readonly network: string;
  /** The settlement's transaction hash; none for a settlement that moved nothing. */
  readonly transaction?: string | null | undefined;
}

/** The `offer-receipt` extension of a settlement: the receipt in both forms (EIP-712 first). */
export interface ReceiptExtension {
  readonly info: { readonly receipt: SignedReceipt; readonly receipts: SignedReceipt[] };
}

/** The signed receipt of a settled payment, in EIP-712 (`receipt`) and both forms (`receipts`). */
export async function signedReceipt(
  keys: OfferReceiptKeys,
  subject: ReceiptSubject,
): Promise<ReceiptExtension> {
  const { transaction } = subject;
  const input = {
    resourceUrl: subject.resourceUrl,
    payer: subject.payer,
    network: convertNetworkStringToCAIP2(subject.network),
    ...(typeof transaction === 'string' && transaction !== '' ? { transaction } : {}),
  };
  const receipts: SignedReceipt[] = await Promise.all([
    createReceiptEIP712(input, keys.eip712.signTypedData),
    createReceiptJWS(input, keys.jws.signer),
  ]);
  return { info: { receipt: receipts[0] as SignedReceipt, receipts } };
}

/** The terms an offer signs: one accept entry of a 402, by its index. */
export interface OfferTerms {
  readonly scheme: string;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  readonly amount: string;
  readonly maxTimeoutSeconds: number;
}

/** The signed offers of one accept entry: an EIP-712 and a JWS one. */
export function signedOffers(
  keys: OfferReceiptKeys,
  resourceUrl: string,
  terms: OfferTerms,
  acceptIndex: number,
): Promise<SignedOffer[]> {
  const input = {
    acceptIndex,
    scheme: terms.scheme,
    network: convertNetworkStringToCAIP2(terms.network),
    asset: terms.asset,
    payTo: terms.payTo,
    amount: terms.amount,
    offerValiditySeconds: terms.maxTimeoutSeconds,
  };
  return Promise.all([
    createOfferEIP712(resourceUrl, input, keys.eip712.signTypedData),
    createOfferJWS(resourceUrl, input, keys.jws.signer),
  ]);
}

/** How long signed offers are handed out again before new ones are signed (ms). */
const OFFER_REUSE_MS = 15_000;

/** Signed offers of one accept entry, as {@link signedOffers} makes them. */
export type OfferSigner = (
  resourceUrl: string,
  terms: OfferTerms,
  acceptIndex: number,
) => Promise<SignedOffer[]>;

/**
 * {@link signedOffers}, with the offers of the same terms handed out again for
 * {@link OFFER_REUSE_MS} (an offer is valid for the terms' `maxTimeoutSeconds`), so a
 * burst of 402s does not sign each: every 402 with terms, of a call or of a job, gets
 * its offers here.
 */
export function offerSigner(keys: OfferReceiptKeys, clock: () => Date): OfferSigner {
  const cache = new Map<string, { readonly at: number; readonly offers: Promise<SignedOffer[]> }>();
  return (resourceUrl, terms, acceptIndex) => {
    const { scheme, network, asset, payTo, amount, maxTimeoutSeconds } = terms;
    const key = JSON.stringify([
      resourceUrl,
      acceptIndex,
      scheme,
      network,
      asset,
      payTo,
      amount,
      maxTimeoutSeconds,
    ]);
    const now = clock().getTime();
    const held = cache.get(key);
    if (held !== undefined && now - held.at < OFFER_REUSE_MS) return held.offers;
    if (cache.size > 1000) cache.clear();
    const offers = signedOffers(keys, resourceUrl, terms, acceptIndex);
    cache.set(key, { at: now, offers });
    offers.catch(() => cache.delete(key));
    return offers;
  };
}

/**
 * The x402 extensions of every answer (`PaymentExtensions`): signed offers beside the
 * terms of a 402 (both faces: the `PAYMENT-REQUIRED` v2 terms, and the JSON body's for
 * its one `exact` entry), a signed receipt and the `response-provenance` claim in the
 * settlement response of a paid result (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`).
 */
export function x402Extensions(
  keys: OfferReceiptKeys,
  publicBaseUrl: string,
  clock: () => Date,
): PaymentExtensions {
  const offersOf = offerSigner(keys, clock);

  return {
    async refused(_call: PaidCall, refused: Refusal): Promise<Refusal> {
      const entry = headerEntry(refused.headers, PAYMENT_REQUIRED_HEADER);
      if (entry === null) return refused;
      const terms = decodedObject(entry[1]) as PaymentRequired | null;
      if (terms === null || !Array.isArray(terms.accepts) || terms.resource === undefined) {
        return refused;
      }
      const resourceUrl = terms.resource.url;
      const perAccept = await Promise.all(
        terms.accepts.map((accept, index) => offersOf(resourceUrl, accept, index)),
      );
      const extension = { info: { offers: perAccept.flat() } };
      const withOffers = {
        ...terms,
        extensions: { ...terms.extensions, [OFFER_RECEIPT]: extension },
      };
      const body = refused.body as Record<string, unknown> | null;
      // The JSON body's one entry is the v2 terms' first (`exact`), in its v1 face.
      const v1Body =
        body !== null && typeof body === 'object' && body.x402Version === 1
          ? {
              ...body,
              extensions: { [OFFER_RECEIPT]: { info: { offers: perAccept[0] ?? [] } } },
            }
          : body;
      return {
        ...refused,
        headers: { ...refused.headers, [entry[0]]: encodeBase64Json(withOffers) },
        body: v1Body,
      };
    },

    async delivered(call: PaidCall, delivery: Delivery): Promise<Delivery> {
      const entry =
        headerEntry(delivery.headers, SETTLEMENT_HEADERS[2]) ??
        headerEntry(delivery.headers, SETTLEMENT_HEADERS[1]);
      if (entry === null) return delivery;
      const settlement = decodedObject(entry[1]);
      if (settlement === null || settlement.success !== true) return delivery;
      const { payer, network, transaction } = settlement;
      if (typeof payer !== 'string' || typeof network !== 'string') return delivery;
      const extensions = {
        ...(settlement.extensions as Record<string, unknown> | undefined),
        [OFFER_RECEIPT]: await signedReceipt(keys, {
          // The resource the terms and offers name: the route's URL, as `requirementsFor`.
          resourceUrl: `${publicBaseUrl}${call.route.path}`,
          payer,
          network,
          transaction: typeof transaction === 'string' ? transaction : null,
        }),
        ...(delivery.provenance === undefined
          ? {}
          : { [RESPONSE_PROVENANCE]: delivery.provenance }),
      };
      return {
        ...delivery,
        headers: {
          ...delivery.headers,
          [entry[0]]: encodeBase64Json({ ...settlement, extensions }),
        },
      };
    },
  };
}
