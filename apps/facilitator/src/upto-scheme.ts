import type {
  FacilitatorContext,
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  VerifyResponse,
} from '@x402/core/types';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { UptoEvmScheme } from '@x402/evm/upto/facilitator';
import type { Address } from 'viem';
import { PERMIT2, PERMIT2_ADDRESS } from './contracts.js';

/** The official upto facilitator's verdict when its simulation of `settle` fails for a reason it does not look for. */
const SIMULATION_FAILED = 'permit2_simulation_failed';

/** The official code for Permit2's `InvalidNonce` (`@x402/evm`'s `ErrPermit2InvalidNonce`). */
const NONCE_SPENT = 'permit2_invalid_nonce';

const NONCE_SPENT_MESSAGE =
  'the Permit2 nonce of this authorization is already used or cancelled: the payment was settled before';

/**
 * The official `upto` facilitator scheme of `@x402/evm`, with one verdict made precise. When
 * its simulation of the settlement fails, the official scheme looks for a missing proxy, a
 * short balance and a short Permit2 allowance, and otherwise answers
 * `permit2_simulation_failed`, which is what a replayed payment (its Permit2 nonce already
 * spent) gets. Here that verdict is checked against Permit2's nonce bitmap, and a spent nonce
 * is answered `permit2_invalid_nonce`, the official code for Permit2's `InvalidNonce`.
 * Everything else is the official scheme's.
 */
export class UptoEvmSchemeWithNonceCheck extends UptoEvmScheme {
  readonly #reader: FacilitatorEvmSigner;

  constructor(signer: FacilitatorEvmSigner) {
    super(signer);
    this.#reader = signer;
  }

  override async verify(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    context?: FacilitatorContext,
    extensions?: Record<string, unknown>,
  ): Promise<VerifyResponse> {
    const result = await super.verify(payload, requirements, context, extensions);
    if (result.invalidReason !== SIMULATION_FAILED || !(await this.#nonceSpent(payload))) {
      return result;
    }
    return { ...result, invalidReason: NONCE_SPENT, invalidMessage: NONCE_SPENT_MESSAGE };
  }

  override async settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    context?: FacilitatorContext,
  ): Promise<SettleResponse> {
    const result = await super.settle(payload, requirements, context);
    if (result.errorReason !== SIMULATION_FAILED || !(await this.#nonceSpent(payload))) {
      return result;
    }
    return { ...result, errorReason: NONCE_SPENT, errorMessage: NONCE_SPENT_MESSAGE };
  }

  /** Whether Permit2 has the payload's nonce as used; false when that cannot be read. */
  async #nonceSpent(payload: PaymentPayload): Promise<boolean> {
    const { from, nonce } = (
      payload.payload as { permit2Authorization: { from: Address; nonce: string } }
    ).permit2Authorization;
    try {
      const value = BigInt(nonce);
      const word = (await this.#reader.readContract({
        address: PERMIT2_ADDRESS,
        abi: PERMIT2.abi,
        functionName: 'nonceBitmap',
        args: [from, value >> 8n],
      })) as bigint;
      return (word & (1n << (value & 0xffn))) !== 0n;
    } catch {
      return false;
    }
  }
}
