import { describe, expect, it } from 'vitest';
import * as attest from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(attest).sort()).toStrictEqual([
      'ATTEST_ALG',
      'ATTEST_SCHEME',
      'EXIT',
      'HOW_TO_VERIFY',
      'MESSAGE_TEMPLATE',
      'NONCE_BYTES',
      'buildMessage',
      'createSigner',
      'generatePrivateKey',
      'parseMessage',
      'report',
      'runCli',
      'verifyReceipt',
    ]);
  });
});
