export { type CliIo, EXIT, report, runCli } from './cli.js';
export {
  checkFields,
  ENVELOPE_FIELDS,
  type FieldCheck,
  RECEIPT_ROUTES,
  type ReceiptRoute,
  uncoveredFields,
} from './fields.js';
export {
  ATTEST_ALG,
  ATTEST_SCHEME,
  buildMessage,
  MESSAGE_TEMPLATE,
  type MessageFields,
  parseMessage,
} from './message.js';
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
