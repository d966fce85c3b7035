import { encodeBase64Json } from './base64-json.js';
import { v1NetworkName } from './networks.js';

/**
 * The header a paid answer carries to say the payment settled: `X-PAYMENT-RESPONSE`
 * for a v1 payment, `PAYMENT-RESPONSE` for a v2 one, each base64 JSON of the
 * facilitator's settle response `{success, transaction, network, payer}` (x402.md §2,
 * §5). The network is named the way the payment named it: a v1 name for v1, as the
 * official v1 server reports it, and the CAIP-2 id for v2.
 */

/** The settlement header of each x402 version. */
export const SETTLEMENT_HEADERS = Object.freeze({
  1: 'X-PAYMENT-RESPONSE',
  2: 'PAYMENT-RESPONSE',
} as const);

/** A settled payment, as the facilitator reported it. */
export interface Settlement {
  /** Transaction hash. */
  readonly transaction: string;
  /** CAIP-2 id of the chain. */
  readonly network: string;
  readonly payer: string;
}

/** The decoded value of a settlement header. */
export interface SettlementResponse {
  readonly success: true;
  readonly transaction: string;
  readonly network: string;
  readonly payer: string;
  /** What x402 extensions add to the settlement (a signed receipt, a provenance claim). */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** The settlement header (name and value) for a payment of x402 version `version`. */
export function settlementHeader(
  version: 1 | 2,
  settlement: Settlement,
  extensions?: Readonly<Record<string, unknown>>,
): { readonly name: (typeof SETTLEMENT_HEADERS)[1 | 2]; readonly value: string } {
  const network =
    version === 1 ? (v1NetworkName(settlement.network) ?? settlement.network) : settlement.network;
  const response: SettlementResponse = {
    success: true,
    transaction: settlement.transaction,
    network,
    payer: settlement.payer,
    ...(extensions === undefined ? {} : { extensions }),
  };
  return { name: SETTLEMENT_HEADERS[version], value: encodeBase64Json(response) };
}
