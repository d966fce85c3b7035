import { randomBytes } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner, uptoPermit2WitnessTypes } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import type { Address, Hex, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_CHAIN_ID, type PaymentStack, PERMIT2_ADDRESS } from '../src/index.js';

/** The resource the test payments are for. */
const RESOURCE = 'http://127.0.0.1/buy/test';

/** What payment terms take from a stack. */
type Terms = Pick<PaymentStack, 'network' | 'networkV1' | 'asset' | 'payTo' | 'extra'>;

/** v2 terms for `amount` atomic units of the stack's test USDC. */
export function v2Requirements(stack: Terms, amount: bigint): PaymentRequirements {
  return {
    scheme: 'exact',
    network: stack.network,
    amount: amount.toString(),
    asset: stack.asset,
    payTo: stack.payTo,
    maxTimeoutSeconds: 60,
    extra: { ...stack.extra },
  };
}

/** v1 terms (network `base`) for `amount` atomic units of the stack's test USDC. */
export function v1Requirements(stack: Terms, amount: bigint): PaymentRequirements {
  return {
    scheme: 'exact',
    network: stack.networkV1,
    maxAmountRequired: amount.toString(),
    resource: RESOURCE,
    description: 'a test payment',
    mimeType: 'application/json',
    payTo: stack.payTo,
    maxTimeoutSeconds: 60,
    asset: stack.asset,
    extra: { ...stack.extra },
  } as unknown as PaymentRequirements;
}

/**
 * A payment signed by the official x402 client code (`x402Client` with the EVM `exact`
 * scheme), as a paying client would send it, for the given terms.
 */
export async function signPayment(
  privateKey: Hex,
  version: 1 | 2,
  requirements: PaymentRequirements,
): Promise<PaymentPayload> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(privateKey)) });
  // The test token is not a default asset of the client's spend controls.
  client.setSpendControls(false);
  const paymentRequired =
    version === 2
      ? { x402Version: 2, resource: { url: RESOURCE }, accepts: [requirements] }
      : { x402Version: 1, error: 'payment required', accepts: [requirements] };
  return client.createPaymentPayload(paymentRequired as never);
}

/**
 * An x402 v2 `upto` payment signed by the official client code (`x402Client` with the
 * `UptoEvmScheme` of `@x402/evm/upto/client`, default spend controls), for the given terms.
 * `extensions` are the 402's declared extensions (`eip2612GasSponsoring` makes the client
 * sign an EIP-2612 approval of Permit2 when its allowance is short, which it reads through
 * `publicClient`).
 */
export async function signUptoPayment(
  privateKey: Hex,
  requirements: PaymentRequirements,
  options: { extensions?: Record<string, unknown>; publicClient?: PublicClient } = {},
): Promise<PaymentPayload> {
  const client = new x402Client();
  const account = privateKeyToAccount(privateKey);
  client.register(
    'eip155:*',
    new UptoEvmScheme(toClientEvmSigner(account, options.publicClient as never)),
  );
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: RESOURCE },
    accepts: [requirements],
    ...(options.extensions ? { extensions: options.extensions } : {}),
  });
}

/** The Permit2 authorization of an `upto` payload, fields as the official client writes them. */
export interface UptoAuthorization {
  from: Address;
  permitted: { token: Address; amount: string };
  spender: Address;
  nonce: string;
  deadline: string;
  witness: { to: Address; facilitator: Address; validAfter: string };
}

/** A fresh random Permit2 nonce, in decimal like the official client's. */
export function randomPermit2Nonce(): string {
  return BigInt(`0x${randomBytes(32).toString('hex')}`).toString();
}

/**
 * Sign an `upto` Permit2 authorization by hand (EIP-712 with the official witness types), for
 * payloads the official client would not make: an expired deadline, another spender.
 */
export async function signUptoAuthorization(
  privateKey: Hex,
  authorization: UptoAuthorization,
): Promise<{ signature: Hex; permit2Authorization: UptoAuthorization }> {
  const { permitted, witness } = authorization;
  const signature = await privateKeyToAccount(privateKey).signTypedData({
    domain: { name: 'Permit2', chainId: DEV_CHAIN_ID, verifyingContract: PERMIT2_ADDRESS },
    types: uptoPermit2WitnessTypes,
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: permitted.token, amount: BigInt(permitted.amount) },
      spender: authorization.spender,
      nonce: BigInt(authorization.nonce),
      deadline: BigInt(authorization.deadline),
      witness: {
        to: witness.to,
        facilitator: witness.facilitator,
        validAfter: BigInt(witness.validAfter),
      },
    },
  });
  return { signature, permit2Authorization: authorization };
}

/** A whole v2 payment around a hand-signed `upto` payload. */
export function uptoPayment(
  payload: { signature: Hex; permit2Authorization: UptoAuthorization },
  requirements: PaymentRequirements,
): PaymentPayload {
  return { x402Version: 2, resource: { url: RESOURCE }, accepted: requirements, payload } as never;
}

/** The `/verify` or `/settle` body for a payment. */
export function facilitatorBody(payload: PaymentPayload, requirements: PaymentRequirements) {
  return {
    x402Version: payload.x402Version,
    paymentPayload: payload,
    paymentRequirements: requirements,
  };
}

export interface JsonAnswer {
  status: number;
  contentType: string | null;
  body: Record<string, unknown>;
}

/** POST `body` (JSON unless a string) and read the JSON answer. */
export async function post(url: string, body: unknown): Promise<JsonAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as Record<string, unknown>,
  };
}
