import { describe, expect, it } from 'vitest';
import * as attest from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(attest).sort()).toStrictEqual([
      'ATTEST_ALG',
      'ATTEST_SCHEME',
      'ATTEST_SCHEMES',
      'ENVELOPE_FIELDS',
      'EXIT',
      'HOW_TO_VERIFY',
      'LOG_ENTRY_FIELDS',
      'MANIFEST_ROUTE',
      'MESSAGE_TEMPLATE',
      'NONCE_BYTES',
      'RECEIPT_ROUTES',
      'RECEIPT_RULES',
      'ROUTE_NAME',
      'buildMessage',
      'checkFields',
      'checkLogInclusion',
      'createSigner',
      'generatePrivateKey',
      'logEntry',
      'pageLineProblem',
      'pageLineText',
      'parseMessage',
      'receiptHash',
      'report',
      'runCli',
      'sliceLineProblem',
      'sliceLineText',
      'uncoveredFields',
      'verifyManifest',
      'verifyReceipt',
    ]);
  });
});
