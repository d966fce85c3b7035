import { x402Client, x402HTTPClient } from '@x402/core/client';
import { describe, expect, it } from 'vitest';
import { decodeXPaymentResponse } from 'x402-fetch';
import { SETTLEMENT_HEADERS, settlementHeader } from '../../src/doors/x402/settlement-header.js';

const settled = {
  transaction: `0x${'71'.repeat(32)}`,
  network: 'eip155:8453',
  payer: '0x15630000000000000000000000000000000055a8',
};

/** The settle response the official v2 client reads off an answer with `headers`. */
function officialV2Read(headers: Record<string, string>) {
  const client = new x402HTTPClient(new x402Client());
  return client.getPaymentSettleResponse((name) => headers[name] ?? null);
}

describe('settlementHeader', () => {
  it('answers a v1 payment with X-PAYMENT-RESPONSE naming the chain `base`, as x402-fetch reads it', () => {
    const header = settlementHeader(1, settled);
    expect(header.name).toBe('X-PAYMENT-RESPONSE');
    const expected = { success: true, ...settled, network: 'base' };
    expect(decodeXPaymentResponse(header.value)).toStrictEqual(expected);
    // The v2 client reads the v1 header too (it falls back to X-PAYMENT-RESPONSE).
    expect(officialV2Read({ 'X-PAYMENT-RESPONSE': header.value })).toStrictEqual(expected);
  });

  it('answers a v2 payment with PAYMENT-RESPONSE naming the chain by CAIP-2', () => {
    const header = settlementHeader(2, settled);
    expect(header.name).toBe('PAYMENT-RESPONSE');
    expect(officialV2Read({ 'PAYMENT-RESPONSE': header.value })).toStrictEqual({
      success: true,
      ...settled,
    });
  });

  it('keeps a chain v1 has no name for as it is', () => {
    const header = settlementHeader(1, { ...settled, network: 'eip155:1' });
    expect(decodeXPaymentResponse(header.value)).toMatchObject({ network: 'eip155:1' });
  });

  it('names one header per version', () => {
    expect(SETTLEMENT_HEADERS).toStrictEqual({ 1: 'X-PAYMENT-RESPONSE', 2: 'PAYMENT-RESPONSE' });
  });
});
