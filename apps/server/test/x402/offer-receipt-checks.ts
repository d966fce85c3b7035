import { createHash } from 'node:crypto';
import type { SettleResponse } from '@x402/core/types';
import {
  type EIP712SignedReceipt,
  type JWSSignedReceipt,
  type SignedReceipt,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from '@x402/extensions/offer-receipt';
import { canonicalize as cyberphone } from 'json-canonicalize';
import { expect } from 'vitest';

// What a client checks of the x402 `response-provenance` claim and `offer-receipt`
// receipts, with implementations that are not the service's: `json-canonicalize` for
// RFC 8785 and `@x402/extensions`' own verification, against the published keys.

/** A claim as it travels. */
export interface Claim {
  readonly responseHash: string;
  readonly fixedPointVersion: string;
  readonly resultCarriage: string;
  readonly method: string;
  readonly dataVintage: string;
}

/** What a verifier needs of the service, from its published documents only. */
export interface Published {
  readonly eip712Address: string;
  readonly jwsKid: string;
  readonly jwk: { kty: string; crv: string; x: string };
}

export async function published(base: string): Promise<Published> {
  const attestation = (await (await fetch(`${base}/.well-known/service-attestation`)).json()) as {
    offerReceipt: { eip712: { address: string }; jws: { kid: string; jwksKid: string } };
  };
  const { keys } = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as {
    keys: { kid: string; kty: string; crv: string; x: string; purpose?: string }[];
  };
  const key = keys.find((k) => k.kid === attestation.offerReceipt.jws.jwksKid);
  if (key === undefined) throw new Error('the offer-receipt key is not in the JWKS');
  expect(key.purpose).toBe('x402-offer-receipt');
  return {
    eip712Address: attestation.offerReceipt.eip712.address,
    jwsKid: attestation.offerReceipt.jws.kid,
    jwk: { kty: key.kty, crv: key.crv, x: key.x },
  };
}

/**
 * A client's own re-derivation, with `json-canonicalize` (not the server's JCS): the
 * inputs from the query the client sent (WHATWG `URLSearchParams`, values as strings, a
 * repeated name an array), the result the body it received.
 */
export function rederive(endpoint: string, inputs: unknown, result: unknown, claim: Claim): string {
  const canonical = cyberphone({
    endpoint,
    inputs,
    result,
    method: claim.method,
    dataVintage: claim.dataVintage,
  } as never);
  return `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

/** Verify a receipt in both forms with the package's own functions, against the published keys. */
export async function expectReceipts(
  settlement: Pick<SettleResponse, 'extensions' | 'payer' | 'transaction'>,
  keys: Published,
  resourceUrl: string,
): Promise<void> {
  const info = (
    settlement.extensions as Record<string, { info: Record<string, unknown> }> | undefined
  )?.['offer-receipt']?.info;
  expect(info).toBeDefined();
  const receipts = info?.receipts as SignedReceipt[];
  const eip712 = receipts.find((r) => r.format === 'eip712') as EIP712SignedReceipt;
  const jws = receipts.find((r) => r.format === 'jws') as JWSSignedReceipt;
  expect(info?.receipt).toStrictEqual(eip712);

  const recovered = await verifyReceiptSignatureEIP712(eip712);
  expect(recovered.signer.toLowerCase()).toBe(keys.eip712Address.toLowerCase());
  expect(recovered.payload).toMatchObject({
    resourceUrl,
    payer: settlement.payer,
    network: 'eip155:8453',
    transaction: settlement.transaction,
  });
  // EIP-712: a one-byte edit of the payload recovers another signer.
  const editedUrl = `${resourceUrl.slice(0, -1)}${resourceUrl.endsWith('e') ? 'f' : 'e'}`;
  const forged = await verifyReceiptSignatureEIP712({
    ...eip712,
    payload: { ...eip712.payload, resourceUrl: editedUrl },
  });
  expect(forged.signer.toLowerCase()).not.toBe(keys.eip712Address.toLowerCase());

  // JWS: verified with the published JWK, and with the key its `did:jwk` kid names.
  const payload = await verifyReceiptSignatureJWS(jws, keys.jwk);
  expect(payload).toMatchObject({ resourceUrl, payer: settlement.payer, network: 'eip155:8453' });
  expect(await verifyReceiptSignatureJWS(jws)).toStrictEqual(payload);
  const header = JSON.parse(
    Buffer.from(jws.signature.split('.')[0] as string, 'base64url').toString(),
  ) as { kid: string; alg: string };
  expect(header).toStrictEqual({ alg: 'EdDSA', kid: keys.jwsKid });
  // One byte of the signed payload changed: the signature fails.
  const [h, p, s] = jws.signature.split('.') as [string, string, string];
  const bytes = Buffer.from(p, 'base64url');
  bytes[bytes.length - 2] = (bytes[bytes.length - 2] as number) ^ 1;
  const tampered = { ...jws, signature: `${h}.${bytes.toString('base64url')}.${s}` };
  await expect(verifyReceiptSignatureJWS(tampered, keys.jwk)).rejects.toThrow();
}
