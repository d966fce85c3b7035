import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PaymentStack } from '../src/index.js';

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
