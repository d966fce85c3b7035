import { describe, expect, it } from 'vitest';
import * as x402 from '../../src/doors/x402/index.js';

describe('the x402 protocol core', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(x402).sort()).toStrictEqual([
      'CLOCK_SKEW_SECONDS',
      'Facilitator',
      'MAX_FACILITATOR_ANSWER_BYTES',
      'MAX_PAYMENT_HEADER_CHARS',
      'MAX_TIMEOUT_SECONDS',
      'MIN_VALIDITY_SECONDS',
      'PAYMENT_HEADERS',
      'PAYMENT_REQUIRED_HEADER',
      'SETTLEMENT_HEADERS',
      'USDC_DOMAIN',
      'V1_NETWORK_NAMES',
      'acceptEntry',
      'bazaarExtension',
      'caip2Network',
      'challenge',
      'challengeBody',
      'challengeHeader',
      'checkPayment',
      'claimPayment',
      'decodeBase64Json',
      'dollars',
      'encodeBase64Json',
      'facilitatorRequest',
      'finishPayment',
      'markVerified',
      'parsePaymentHeader',
      'paymentClaim',
      'paymentRequiredV2',
      'paymentsFor',
      'readPayment',
      'releaseExpiredPayments',
      'requirementsFor',
      'routePaymentMetadata',
      'settlementHeader',
      'v1AcceptEntry',
      'v1FacilitatorRequirements',
      'v1NetworkName',
      'v2Accept',
    ]);
  });

  it('maps the two chains version 1 names, and nothing else', () => {
    expect(x402.v1NetworkName('eip155:8453')).toBe('base');
    expect(x402.v1NetworkName('eip155:84532')).toBe('base-sepolia');
    expect(x402.v1NetworkName('eip155:1')).toBeNull();
    expect(x402.v1NetworkName('toString')).toBeNull();
    expect(x402.caip2Network('base')).toBe('eip155:8453');
    expect(x402.caip2Network('base-sepolia')).toBe('eip155:84532');
    expect(x402.caip2Network('polygon')).toBe('polygon');
  });
});
