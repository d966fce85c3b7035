export type { ReceiptRule } from '@storefront/core';
export { type CliIo, EXIT, report, runCli } from './cli.js';
export { checkFields, ENVELOPE_FIELDS, type FieldCheck, uncoveredFields } from './fields.js';
export {
  checkLogInclusion,
  LOG_ENTRY_FIELDS,
  type LoggedReceipt,
  type LogInclusion,
  type LogProof,
  logEntry,
  receiptHash,
} from './log.js';
export { MANIFEST_ROUTE, type ManifestVerification, verifyManifest } from './manifest.js';
export {
  ATTEST_ALG,
  ATTEST_SCHEME,
  ATTEST_SCHEMES,
  type AttestScheme,
  buildMessage,
  MESSAGE_TEMPLATE,
  type MessageFields,
  type PageLine,
  pageLineProblem,
  pageLineText,
  parseMessage,
  ROUTE_NAME,
  type SliceLine,
  sliceLineProblem,
  sliceLineText,
} from './message.js';
export { RECEIPT_ROUTES, RECEIPT_RULES, type ReceiptRoute } from './rules.js';
export {
  createSigner,
  generatePrivateKey,
  HOW_TO_VERIFY,
  NONCE_BYTES,
  type PersonalSign,
  type Signer,
  type SignerOptions,
} from './signer.js';
export type { Attestation, RetiredKey, ServiceAttestationDocument, SignMeta } from './types.js';
export {
  type PinnedKeys,
  type Verification,
  type VerifyOptions,
  verifyReceipt,
} from './verifier.js';
