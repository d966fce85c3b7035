import { randomBytes } from 'node:crypto';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import type { Hex } from 'viem';
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts';
import { createPaymentHeader } from 'x402/client';
import { PaymentRequirementsSchema } from 'x402/types';
import { encodeBase64Json } from '../../src/doors/x402/base64-json.js';
import { type Payment, parsePaymentHeader } from '../../src/doors/x402/payment.js';
import {
  challenge,
  type Requirements,
  v1FacilitatorRequirements,
  v2Accept,
} from '../../src/doors/x402/requirements.js';

/** A payer with a fixed key (nothing on chain is touched). */
export const PAYER: LocalAccount = privateKeyToAccount(`0x${'4c'.repeat(32)}`);

/** Now, in Unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * An `X-PAYMENT` value signed by the official v1 client (x402@1.2.0) for the v1 face of
 * `requirements` (with the chain's v1 name, as that client needs).
 */
export async function officialV1Header(requirements: Requirements): Promise<string> {
  const entry = PaymentRequirementsSchema.parse(v1FacilitatorRequirements(requirements));
  return createPaymentHeader(PAYER as never, 1, entry);
}

/**
 * A `PAYMENT-SIGNATURE` value signed by the official v2 client (@x402/core +
 * @x402/evm 2.27.0) from the `PAYMENT-REQUIRED` header we send.
 */
export async function officialV2Header(requirements: Requirements): Promise<string> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: PAYER });
  const http = new x402HTTPClient(client);
  const { header, body } = challenge(requirements, 'payment_required', 'Payment required');
  const required = http.getPaymentRequiredResponse(
    (name) => (name === 'PAYMENT-REQUIRED' ? header : null),
    body,
  ) as PaymentRequired;
  const payload = await http.createPaymentPayload(required);
  const headers = http.encodePaymentSignatureHeader(payload);
  const value = headers['PAYMENT-SIGNATURE'];
  if (value === undefined) throw new Error('the v2 client sent no PAYMENT-SIGNATURE');
  return value;
}

/** The fields of a hand-made payment, all of which a test may change. */
export interface PaymentFields {
  readonly scheme: string;
  readonly network: string;
  readonly amount: string;
  readonly asset: string;
  readonly payTo: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly validAfter: string;
  readonly validBefore: string;
  readonly nonce: string;
  readonly signature: string;
}

/** Fields of a payment that fits `requirements` exactly at `now`. */
export function fittingFields(requirements: Requirements, now = nowSeconds()): PaymentFields {
  return {
    scheme: 'exact',
    network: requirements.network,
    amount: requirements.amount,
    asset: requirements.asset,
    payTo: requirements.payTo,
    from: PAYER.address,
    to: requirements.payTo,
    value: requirements.amount,
    validAfter: String(now - 600),
    validBefore: String(now + requirements.maxTimeoutSeconds),
    nonce: `0x${randomBytes(32).toString('hex')}`,
    signature: `0x${'ab'.repeat(65)}`,
  };
}

/** The decoded payload of a v1 (`X-PAYMENT`) or v2 (`PAYMENT-SIGNATURE`) payment. */
export function rawPayment(
  version: 1 | 2,
  requirements: Requirements,
  fields: PaymentFields,
): Record<string, unknown> {
  const payload = {
    signature: fields.signature,
    authorization: {
      from: fields.from,
      to: fields.to,
      value: fields.value,
      validAfter: fields.validAfter,
      validBefore: fields.validBefore,
      nonce: fields.nonce,
    },
  };
  if (version === 1) {
    return { x402Version: 1, scheme: fields.scheme, network: fields.network, payload };
  }
  return {
    x402Version: 2,
    resource: { url: requirements.resource },
    accepted: {
      ...v2Accept(requirements),
      scheme: fields.scheme,
      network: fields.network,
      amount: fields.amount,
      asset: fields.asset,
      payTo: fields.payTo,
    },
    payload,
  };
}

/** A parsed hand-made payment; throws if it does not parse. */
export function handMade(
  version: 1 | 2,
  requirements: Requirements,
  change: Partial<PaymentFields> = {},
  now = nowSeconds(),
): Payment {
  const v1Name = version === 1 ? { network: requirements.v1Network ?? requirements.network } : {};
  const fields = { ...fittingFields(requirements, now), ...v1Name, ...change };
  const header = version === 1 ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE';
  const read = parsePaymentHeader(
    header,
    encodeBase64Json(rawPayment(version, requirements, fields)),
  );
  if (!read.ok) throw new Error(read.message);
  return read.payment;
}

/**
 * The official v2 client paying from `privateKey` (the development wallet's, in tests on
 * the local chain), with the client's spend controls off: the test token is not one of
 * its default assets.
 */
export function officialV2Payer(privateKey: string): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, {
    signer: toClientEvmSigner(privateKeyToAccount(privateKey as Hex)),
  });
  client.setSpendControls(false);
  return client;
}
