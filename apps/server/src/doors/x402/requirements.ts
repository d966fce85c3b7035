import { type ERROR_STATUS, type ErrorCode, StorefrontError } from '@storefront/core';
import type { Network, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import {
  declarePaymentIdentifierExtension,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import type { AnyRoute, JsonSchema, PriceTier } from '../../registry/types.js';
import { encodeBase64Json } from './base64-json.js';
import { type BazaarExtension, bazaarExtension } from './bazaar.js';
import { v1NetworkName } from './networks.js';
import {
  dollars,
  MAX_TIMEOUT_SECONDS,
  type Terms,
  type TokenDomain,
  USDC_DOMAIN,
} from './terms.js';

/**
 * What one call must pay: the route, the price tier its parameters select, and the
 * service's terms, resolved once. Every face of the terms (the v1 accept entry of the
 * JSON body, the v2 `PAYMENT-REQUIRED` header, the requirements sent to the
 * facilitator) and every check of a payment is derived from this one object.
 */
export interface Requirements {
  readonly scheme: 'exact';
  /** CAIP-2 chain id. */
  readonly network: string;
  /** The chain's x402 v1 name (`base`), or null when version 1 has none. */
  readonly v1Network: string | null;
  /** Price in atomic units of the asset, a decimal string (`3000`). */
  readonly amount: string;
  /** The same price as the spec's dollar string (`$0.003`). */
  readonly price: string;
  readonly asset: string;
  readonly payTo: string;
  readonly maxTimeoutSeconds: number;
  /** Absolute URL of the route (no query). */
  readonly resource: string;
  readonly description: string;
  readonly mimeType: 'application/json';
  /** The route's name: the ledger's `route`. */
  readonly route: string;
  readonly tier: string;
  readonly includes: string;
  /** EIP-712 domain of the asset. */
  readonly token: TokenDomain;
  /** Whether the JSON body names the chain by its v1 name (see {@link Terms}). */
  readonly legacyNetworkNames: boolean;
  /** JSON Schema of the route's query. */
  readonly queryParams: JsonSchema;
  /** JSON Schema of the route's 200 answer. */
  readonly output: JsonSchema;
  /** The Bazaar declaration of a GET route; none for the job API's POST. */
  readonly bazaar: BazaarExtension | null;
}

/**
 * The requirements of a call of `route` at price tier `price`. Throws when the terms
 * ask for v1 network names on a chain that has none (the configuration refuses that at
 * start-up) or when the price is not a whole number of atomic units.
 */
export function requirementsFor(
  route: AnyRoute,
  price: PriceTier,
  baseUrl: string,
  terms: Terms,
): Requirements {
  if (!Number.isSafeInteger(price.amount) || price.amount < 0) {
    throw new StorefrontError(
      'internal_error',
      `Expected the price of \`${route.path}\` tier \`${price.tier}\` to be a whole number of atomic units, got \`${price.amount}\``,
    );
  }
  const v1Network = v1NetworkName(terms.network);
  if (terms.legacyNetworkNames && v1Network === null) {
    throw new StorefrontError(
      'internal_error',
      `X402_LEGACY_NETWORK_NAMES is on but x402 v1 has no name for \`${terms.network}\``,
    );
  }
  return {
    scheme: 'exact',
    network: terms.network,
    v1Network,
    amount: String(price.amount),
    price: dollars(price.amount),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    resource: `${baseUrl}${route.path}`,
    description: route.description,
    mimeType: 'application/json',
    route: route.name,
    tier: price.tier,
    includes: price.includes,
    token: terms.token ?? USDC_DOMAIN,
    legacyNetworkNames: terms.legacyNetworkNames,
    queryParams: route.params,
    output: route.response,
    bazaar: bazaarExtension(route),
  };
}

/**
 * One x402 v1 accept entry: the spec's fields (`scheme`, `network`, `amount`, `price`,
 * `asset`, `payTo`, `extra.tier`/`extra.includes`) and those a v1 client requires
 * (`maxAmountRequired`, `resource`, `description`, `mimeType`, `maxTimeoutSeconds`,
 * `outputSchema`, and the token's EIP-712 domain in `extra.name`/`extra.version`).
 */
export interface V1AcceptEntry {
  readonly scheme: 'exact';
  readonly network: string;
  readonly amount: string;
  readonly price: string;
  readonly asset: string;
  readonly payTo: string;
  readonly maxAmountRequired: string;
  readonly resource: string;
  readonly description: string;
  readonly mimeType: string;
  readonly maxTimeoutSeconds: number;
  readonly outputSchema: {
    readonly input: {
      readonly type: 'http';
      readonly method: 'GET';
      readonly discoverable: true;
      readonly queryParams: JsonSchema;
    };
    readonly output: JsonSchema;
  };
  readonly extra: {
    readonly tier: string;
    readonly includes: string;
    readonly name: string;
    readonly version: string;
  };
}

/** The v1 accept entry of `requirements` with the chain named `network`. */
function v1Entry(requirements: Requirements, network: string): V1AcceptEntry {
  const r = requirements;
  return {
    scheme: r.scheme,
    network,
    amount: r.amount,
    price: r.price,
    asset: r.asset,
    payTo: r.payTo,
    maxAmountRequired: r.amount,
    resource: r.resource,
    description: r.description,
    mimeType: r.mimeType,
    maxTimeoutSeconds: r.maxTimeoutSeconds,
    outputSchema: {
      input: { type: 'http', method: 'GET', discoverable: true, queryParams: r.queryParams },
      output: r.output,
    },
    extra: { tier: r.tier, includes: r.includes, name: r.token.name, version: r.token.version },
  };
}

/**
 * The accept entry of the JSON 402 body: the chain is its CAIP-2 id (the spec's
 * `eip155:8453`), or its v1 name when the terms ask for legacy names.
 */
export function v1AcceptEntry(requirements: Requirements): V1AcceptEntry {
  const network =
    requirements.legacyNetworkNames && requirements.v1Network !== null
      ? requirements.v1Network
      : requirements.network;
  return v1Entry(requirements, network);
}

/**
 * The requirements a facilitator gets with a v1 payment: the accept entry with the
 * chain's v1 name whatever the body showed, because the v1 facilitator path resolves
 * only v1 names and requires the payment's network to equal it. Throws when the chain
 * has no v1 name (`checkPayment` refuses v1 payments there first).
 */
export function v1FacilitatorRequirements(requirements: Requirements): V1AcceptEntry {
  if (requirements.v1Network === null) {
    throw new StorefrontError(
      'internal_error',
      `x402 v1 has no name for \`${requirements.network}\`; v1 payments cannot be verified`,
    );
  }
  return v1Entry(requirements, requirements.v1Network);
}

/**
 * The v2 accept entry of `requirements` (x402 v2 `PaymentRequirements`, `extra` holding
 * the token's EIP-712 domain, the tier and what it includes); also the requirements a
 * facilitator gets with a v2 payment.
 */
export function v2Accept(requirements: Requirements): PaymentRequirements {
  const r = requirements;
  return {
    scheme: r.scheme,
    // The configuration admits only `eip155:<chain id>`, the CAIP-2 form the type names.
    network: r.network as Network,
    amount: r.amount,
    asset: r.asset,
    payTo: r.payTo,
    maxTimeoutSeconds: r.maxTimeoutSeconds,
    extra: { name: r.token.name, version: r.token.version, tier: r.tier, includes: r.includes },
  };
}

/**
 * The `payment-identifier` extension as every 402 declares it: optional. A payer may name
 * its payment with an id of its own, and a retry with the same id gets the result of a
 * payment already made instead of paying again.
 */
const PAYMENT_ID_EXTENSION = declarePaymentIdentifierExtension(false);

/**
 * The x402 v2 `PaymentRequired` of `requirements` (x402 v2 §5.1), with `message` as its
 * `error` (the v2 specification's human-readable reason), the `exact` accept entry and
 * any `more` (`batch-settlement`'s, when offered), and the
 * `bazaar` and `payment-identifier` extensions.
 */
export function paymentRequiredV2(
  requirements: Requirements,
  message: string,
  more: readonly PaymentRequirements[] = [],
): PaymentRequired {
  return {
    x402Version: 2,
    error: message,
    resource: {
      url: requirements.resource,
      description: requirements.description,
      mimeType: requirements.mimeType,
    },
    accepts: [v2Accept(requirements), ...more],
    extensions: {
      ...(requirements.bazaar === null ? {} : { bazaar: requirements.bazaar }),
      [PAYMENT_IDENTIFIER]: PAYMENT_ID_EXTENSION,
    },
  };
}

/** The name of the header that carries the v2 terms on a 402. */
export const PAYMENT_REQUIRED_HEADER = 'PAYMENT-REQUIRED';

/** The error codes a 402 carrying payment terms can have: every code whose status is 402. */
export type ChallengeCode = {
  [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends 402 ? C : never;
}[ErrorCode];

/** The JSON body of a 402 with terms: our error shape around x402 v1's `{x402Version, accepts}`. */
export interface ChallengeBody {
  readonly ok: false;
  readonly error: ChallengeCode;
  readonly message: string;
  readonly x402Version: 1;
  readonly accepts: readonly [V1AcceptEntry];
}

/**
 * Both faces of a 402 with the terms of `requirements`: the JSON body (x402 v1, read by
 * v1 clients) and the `PAYMENT-REQUIRED` header value (x402 v2, read first by current
 * clients). They describe the same single payment; `more` adds v2 entries for other
 * schemes (v1 has only `exact`). The v2 terms' `error` is `reason`: the message, or a
 * scheme's machine-readable code that its client acts on.
 */
export function challenge(
  requirements: Requirements,
  error: ChallengeCode,
  message: string,
  more: readonly PaymentRequirements[] = [],
  reason: string = message,
): { readonly body: ChallengeBody; readonly header: string } {
  return {
    body: { ok: false, error, message, x402Version: 1, accepts: [v1AcceptEntry(requirements)] },
    header: encodeBase64Json(paymentRequiredV2(requirements, reason, more)),
  };
}

/** The JSON body of a 402 for a call of `route` at `price` (see {@link challenge}). */
export function challengeBody(
  route: AnyRoute,
  price: PriceTier,
  baseUrl: string,
  terms: Terms,
  error: ChallengeCode,
  message: string,
): ChallengeBody {
  return challenge(requirementsFor(route, price, baseUrl, terms), error, message).body;
}

/** The `PAYMENT-REQUIRED` header value for a call of `route` at `price` (see {@link challenge}). */
export function challengeHeader(
  route: AnyRoute,
  price: PriceTier,
  baseUrl: string,
  terms: Terms,
  message: string,
): string {
  return encodeBase64Json(
    paymentRequiredV2(requirementsFor(route, price, baseUrl, terms), message),
  );
}

/** The v1 accept entry of `route` at `price`, as discovery lists every tier. */
export function acceptEntry(
  route: AnyRoute,
  price: PriceTier,
  baseUrl: string,
  terms: Terms,
): V1AcceptEntry {
  return v1AcceptEntry(requirementsFor(route, price, baseUrl, terms));
}
