import type { SettleResponse, VerifyResponse } from '@x402/core/types';

/** A reason code as the x402 specification writes them: snake_case. */
const REASON_CODE = /^[a-z0-9_]+$/;

/**
 * Revert messages of the test token (USDC's wording) and the x402 code for each, in the
 * order the token checks them: the codes the official v2 EVM scheme gives for them.
 */
const REVERT_REASONS: readonly (readonly [RegExp, string])[] = [
  [/authorization is not yet valid/i, 'invalid_exact_evm_payload_authorization_valid_after'],
  [/authorization is expired/i, 'invalid_exact_evm_payload_authorization_valid_before'],
  [/authorization is used or canceled/i, 'invalid_exact_evm_nonce_already_used'],
  [/invalid signature/i, 'invalid_exact_evm_signature'],
  [/transfer amount exceeds balance/i, 'invalid_exact_evm_insufficient_balance'],
];

/** Any other failed transaction. */
const TRANSACTION_FAILED = 'invalid_exact_evm_transaction_failed';

/** A message longer than this is cut: it is for a person reading a log, not for parsing. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * A settle answer as this facilitator sends it: `errorReason` a reason code, `errorMessage`
 * one short line. The official v1 EVM scheme puts the raw error text of a failed transaction
 * (a replayed authorization, say) in `errorReason`; that text becomes the message and the
 * reason the code the v2 scheme would give.
 */
export function normalizeSettleResponse(result: SettleResponse): SettleResponse {
  let { errorReason, errorMessage } = result;
  if (!result.success && errorReason !== undefined && !REASON_CODE.test(errorReason)) {
    errorMessage ??= errorReason;
    errorReason =
      REVERT_REASONS.find(([pattern]) => pattern.test(errorReason ?? ''))?.[1] ??
      TRANSACTION_FAILED;
  }
  return {
    ...result,
    ...(errorReason === undefined ? {} : { errorReason }),
    ...(errorMessage === undefined ? {} : { errorMessage: tidyMessage(errorMessage) }),
  };
}

/** A verify answer with `invalidMessage` cut to one short line. */
export function normalizeVerifyResponse(result: VerifyResponse): VerifyResponse {
  const { invalidMessage } = result;
  return invalidMessage === undefined
    ? result
    : { ...result, invalidMessage: tidyMessage(invalidMessage) };
}

/**
 * One line out of a library error's text. viem's messages run to dozens of lines (the call's
 * arguments, a docs link); the node's own words are on the `Details:` line, else the first.
 */
export function tidyMessage(message: string): string {
  const lines = message.split('\n');
  const details = lines.find((line) => line.startsWith('Details: '));
  const line = (details ? details.slice('Details: '.length) : (lines[0] ?? '')).trim();
  return line.length > MAX_MESSAGE_LENGTH ? `${line.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : line;
}
