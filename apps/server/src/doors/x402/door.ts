import type { Queryable } from '../../db/database.js';
import type { Door, PaidCall, Reply } from '../../pipeline/door.js';
import { errorReply } from '../../pipeline/replies.js';
import { claimPayment, finishPayment, markVerified, paymentClaim } from './claims.js';
import type { Facilitator } from './facilitator.js';
import { checkPayment, MIN_VALIDITY_SECONDS, type Payment, readPayment } from './payment.js';
import {
  type ChallengeCode,
  challenge,
  PAYMENT_REQUIRED_HEADER,
  type Requirements,
  requirementsFor,
} from './requirements.js';
import { settlementHeader } from './settlement-header.js';
import { dollars, type Terms } from './terms.js';

/** `Retry-After` of an answer given while the facilitator could not be reached (s). */
export const FACILITATOR_RETRY_SECONDS = 5;

/** What the x402 door holds for an admitted call: the verified, claimed payment. */
export interface X402Ticket {
  readonly claimId: string;
  readonly payment: Payment;
  readonly requirements: Requirements;
  readonly requestId: string | null;
}

/** What the x402 door needs. */
export interface X402DoorDeps {
  readonly db: Queryable;
  /** Null when none is configured: payments are then answered 503, never taken. */
  readonly facilitator: Facilitator | null;
  readonly terms: Terms;
  readonly publicBaseUrl: string;
  readonly clock: () => Date;
  /**
   * The longest a call's work may take (ms): a payment must stay valid that long past
   * its verification, so that it can still be settled when the work is done.
   */
  readonly callDeadlineMs: number;
}

/** The x402 door, and the 402 answer with the payment terms of a call (both faces). */
export interface X402Door extends Door<X402Ticket> {
  paymentRequired(call: PaidCall, error: ChallengeCode, message: string): Reply;
}

/**
 * The keyless door (x402.md §1–3): a payment in `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT`
 * (v1) is checked against the call's terms exactly, claimed once per `(payer, nonce)`
 * in the database (so two instances cannot both take it), and verified with the
 * facilitator, all before any work. A charged call is settled before its result is
 * released, and a failed settlement releases nothing; any other ending leaves the
 * authorization unsettled, so it costs the payer nothing. Every payment that names a
 * payer and a nonce leaves a row in `x402_payments`.
 */
export function x402Door(deps: X402DoorDeps): X402Door {
  const { db, facilitator, terms } = deps;
  const requirementsOf = (call: PaidCall) =>
    requirementsFor(call.route, call.price, deps.publicBaseUrl, terms);
  const challengeReply = (requirements: Requirements, error: ChallengeCode, message: string) => {
    const faces = challenge(requirements, error, message);
    return { status: 402, headers: { [PAYMENT_REQUIRED_HEADER]: faces.header }, body: faces.body };
  };
  const unavailable = (call: PaidCall, reason: string) =>
    errorReply('facilitator_unavailable', reason, {
      requestId: call.requestId,
      headers: { 'Retry-After': String(FACILITATOR_RETRY_SECONDS) },
    });
  const minValiditySeconds = MIN_VALIDITY_SECONDS + Math.ceil(deps.callDeadlineMs / 1000);

  return {
    name: 'x402',

    paymentRequired: (call, error, message) => challengeReply(requirementsOf(call), error, message),

    async admit(call) {
      const requirements = requirementsOf(call);
      const read = readPayment((name) => call.header(name));
      if (read === null) {
        const message = `${call.route.path} costs ${requirements.price} per call; pay with x402 (PAYMENT-SIGNATURE or X-PAYMENT) or send an API key as \`Authorization: Bearer <key>\``;
        return refused(challengeReply(requirements, 'payment_required', message));
      }
      if (!read.ok) return refused(challengeReply(requirements, read.error, read.message));
      const { payment } = read;
      if (facilitator === null) {
        return refused(
          unavailable(call, 'This service has no x402 facilitator configured; pay with an API key'),
        );
      }

      // The terms first, then the claim: a second use of a nonce is refused before any
      // work; a payment that does not fit is recorded as failed under its nonce.
      const now = Math.floor(deps.clock().getTime() / 1000);
      const problem = checkPayment(payment, requirements, now, { minValiditySeconds });
      const claim = await claimPayment(db, paymentClaim(payment, requirements, call.requestId));
      if (problem !== null) {
        if (claim.ok) await finishPayment(db, claim.id, { state: 'failed', error: problem.error });
        return refused(challengeReply(requirements, problem.error, problem.message));
      }
      if (!claim.ok) {
        return refused(
          challengeReply(
            requirements,
            'payment_replayed',
            `This authorization (payer ${payment.payer}, nonce ${payment.nonce}) was already used; sign a new payment`,
          ),
        );
      }

      const verified = await facilitator.verify(payment, requirements);
      if (!verified.ok) {
        await finishPayment(db, claim.id, {
          state: 'failed',
          error: `${verified.kind}: ${verified.reason}`,
        });
        if (verified.kind === 'unavailable') {
          return refused(
            unavailable(call, `The facilitator could not verify the payment: ${verified.reason}`),
          );
        }
        const detail = verified.detail === null ? '' : ` (${verified.detail})`;
        return refused(
          challengeReply(
            requirements,
            'payment_rejected',
            `The facilitator refused the payment: ${verified.reason}${detail}`,
          ),
        );
      }
      await markVerified(db, claim.id);
      return {
        kind: 'admitted',
        ticket: { claimId: claim.id, payment, requirements, requestId: call.requestId },
        metered: true,
        headers: {},
      };
    },

    async settle(ticket, ending) {
      const { claimId, payment, requirements } = ticket;
      if (ending.kind !== 'charge') {
        // Not charged: the authorization is never settled and lapses at `validBefore`.
        const error =
          ending.kind === 'failed'
            ? ending.error
            : ending.kind === 'refuse'
              ? ending.outcome.error
              : null;
        await finishPayment(db, claimId, { state: 'released', error });
        return { ok: true, headers: {} };
      }
      const settled =
        facilitator === null
          ? ({ ok: false, kind: 'unavailable', reason: 'no facilitator' } as const)
          : await facilitator.settle(payment, requirements);
      if (!settled.ok) {
        await finishPayment(db, claimId, {
          state: 'failed',
          error: `settle ${settled.kind}: ${settled.reason}`,
        });
        const why =
          settled.kind === 'rejected'
            ? `the facilitator refused it (${settled.reason}); nothing was charged`
            : `the facilitator gave no answer in time (${settled.reason}); should the transfer land anyway, quote request id ${ticket.requestId ?? 'unknown'} to support`;
        return {
          ok: false,
          reply: challengeReply(
            requirements,
            'settlement_failed',
            `The payment of ${dollars(payment.value)} could not be settled, so no result was released: ${why}`,
          ),
        };
      }
      await finishPayment(db, claimId, { state: 'settled', transaction: settled.transaction });
      const header = settlementHeader(payment.version, {
        transaction: settled.transaction,
        network: settled.network,
        payer: settled.payer,
      });
      return { ok: true, headers: { [header.name]: header.value } };
    },
  };
}

function refused(reply: Reply): { readonly kind: 'refused'; readonly reply: Reply } {
  return { kind: 'refused', reply };
}
