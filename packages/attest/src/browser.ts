/**
 * What the `/verify` page's bundle exposes (`globalThis.StorefrontVerify`): the receipt
 * verifier, and the parts of a log inclusion check that need no Ed25519 (the page checks
 * the checkpoint's signature with the browser's WebCrypto).
 */
export { fromBase64, leafHash, parseCheckpoint, verifyInclusion } from '@storefront/tlog';
export { logEntry } from './log.js';
export { verifyReceipt } from './verifier.js';
