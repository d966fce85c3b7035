export { type Base64JsonResult, decodeBase64Json, encodeBase64Json } from './base64-json.js';
export {
  type BazaarExtension,
  bazaarExtension,
} from './bazaar.js';
export {
  type ClaimResult,
  claimPayment,
  finishPayment,
  markVerified,
  type PaymentClaim,
  type PaymentEnd,
  type PaymentRecord,
  type PaymentsQuery,
  paymentClaim,
  paymentsFor,
  releaseExpiredPayments,
} from './claims.js';
export {
  Facilitator,
  type FacilitatorFailure,
  type FacilitatorOptions,
  type FacilitatorRequest,
  facilitatorRequest,
  MAX_FACILITATOR_ANSWER_BYTES,
  type RequestOptions,
  type SettleResult,
  type VerifyResult,
} from './facilitator.js';
export { caip2Network, V1_NETWORK_NAMES, v1NetworkName } from './networks.js';
export {
  type AcceptedTerms,
  type CheckOptions,
  CLOCK_SKEW_SECONDS,
  checkPayment,
  type HeaderSource,
  MAX_PAYMENT_HEADER_CHARS,
  MIN_VALIDITY_SECONDS,
  PAYMENT_HEADERS,
  type Payment,
  type PaymentHeader,
  type PaymentProblem,
  type PaymentRead,
  parsePaymentHeader,
  readPayment,
} from './payment.js';
export {
  acceptEntry,
  type ChallengeBody,
  type ChallengeCode,
  challenge,
  challengeBody,
  challengeHeader,
  PAYMENT_REQUIRED_HEADER,
  paymentRequiredV2,
  type Requirements,
  requirementsFor,
  type V1AcceptEntry,
  v1AcceptEntry,
  v1FacilitatorRequirements,
  v2Accept,
} from './requirements.js';
export {
  SETTLEMENT_HEADERS,
  type Settlement,
  type SettlementResponse,
  settlementHeader,
} from './settlement-header.js';
export {
  dollars,
  MAX_TIMEOUT_SECONDS,
  type RoutePaymentMetadata,
  routePaymentMetadata,
  type Terms,
  type TokenDomain,
  USDC_DOMAIN,
} from './terms.js';
