import { sha256Hex } from '@storefront/core';
import type { PaymentRequirements } from '@x402/core/types';
import type { Queryable } from '../../db/database.js';
import type { Delivery, Door, PaidCall, Refusal } from '../../pipeline/door.js';
import { refusal } from '../../pipeline/refusal.js';
import { BatchSettlement, type BatchTicket } from './batch.js';
import type { AuthorizationLedger } from './chain.js';
import {
  claimPayment,
  finishPayment,
  markSettling,
  markVerified,
  paymentById,
  paymentClaim,
  type StoredPayment,
} from './claims.js';
import type { Facilitator } from './facilitator.js';
import { checkPayment, MIN_VALIDITY_SECONDS, type Payment, readPayment } from './payment.js';
import {
  type ChallengeCode,
  challenge,
  PAYMENT_REQUIRED_HEADER,
  type Requirements,
  requirementsFor,
} from './requirements.js';
import { type SettleEnd, settleClaimed, settleEarlier } from './settle.js';
import { settlementHeader } from './settlement-header.js';
import { dollars, type Terms } from './terms.js';

/** `Retry-After` of an answer given while the facilitator could not be reached (s). */
export const FACILITATOR_RETRY_SECONDS = 5;

/** What the x402 door holds for a call admitted with `exact`: the verified, claimed payment. */
export interface ExactTicket {
  readonly kind: 'exact';
  readonly claimId: string;
  readonly payment: Payment;
  readonly requirements: Requirements;
  readonly requestId: string | null;
}

/** What the x402 door holds for an admitted call, by the scheme it is paid with. */
export type X402Ticket = ExactTicket | BatchTicket;

/** What the x402 door needs. */
export interface X402DoorDeps {
  readonly db: Queryable;
  /** Null when none is configured: payments are then answered 503, never taken. */
  readonly facilitator: Facilitator | null;
  /**
   * The token's record of authorizations, read when a settlement's outcome is unknown;
   * null when no RPC URL is configured (such a payment then stays `unknown`).
   */
  readonly ledger: AuthorizationLedger | null;
  readonly terms: Terms;
  readonly publicBaseUrl: string;
  readonly clock: () => Date;
  /**
   * The longest a call's work may take (ms): a payment must stay valid that long past
   * its verification, so that it can still be settled when the work is done.
   */
  readonly callDeadlineMs: number;
  /** `batch-settlement`, offered beside `exact` when the facilitator settles it; null: not offered. */
  readonly batch?: BatchSettlement | null;
}

/** The x402 door, and the 402 answer with the payment terms of a call (both faces). */
export interface X402Door extends Door<X402Ticket> {
  paymentRequired(call: PaidCall, error: ChallengeCode, message: string): Refusal;
}

/**
 * The keyless door (x402.md §1–3): a payment in `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT`
 * (v1) is checked against the call's terms exactly (a v2 payment also against the
 * route, tier and resource it was signed for), claimed once per `(payer, nonce)` in the
 * database (so two instances cannot both take it), and verified with the facilitator,
 * all before any work. A payment refused before settlement is released, so the same
 * header can be used again; one whose settlement was attempted is never taken again.
 * A charged call is settled before its result is released; its signed result is
 * stored first, so that when the settlement answer is lost the chain is read, and a
 * paid call's result goes to the retry of the same payment (same header, or same
 * `payment-identifier` id) without moving money again. Every payment that names a
 * payer and a nonce leaves a row in `x402_payments`.
 */
export function x402Door(deps: X402DoorDeps): X402Door {
  const { db, facilitator, ledger, terms } = deps;
  const batch = deps.batch ?? null;
  const requirementsOf = (call: PaidCall) =>
    requirementsFor(call.route, call.price, deps.publicBaseUrl, terms);
  /**
   * The 402 of a call: `exact`, and `batch-settlement` beside it in the v2 terms when
   * offered (`batch402` replaces its entry, and the v2 `error`, with the scheme's
   * corrective terms: the channel's state for a payer to resync).
   */
  const challengeRefusal = (
    requirements: Requirements,
    error: ChallengeCode,
    message: string,
    batch402?: { readonly accept: PaymentRequirements; readonly reason: string },
  ): Refusal => {
    const offered = batch402?.accept ?? batch?.accept(requirements) ?? null;
    const faces = challenge(
      requirements,
      error,
      message,
      offered === null ? [] : [offered],
      batch402?.reason,
    );
    return refusal(error, message, {
      headers: { [PAYMENT_REQUIRED_HEADER]: faces.header },
      body: faces.body,
    });
  };
  const unavailable = (call: PaidCall, reason: string) =>
    refusal('facilitator_unavailable', reason, {
      requestId: call.requestId,
      retryAfterSeconds: FACILITATOR_RETRY_SECONDS,
    });
  const minValiditySeconds = MIN_VALIDITY_SECONDS + Math.ceil(deps.callDeadlineMs / 1000);
  const nowSeconds = () => Math.floor(deps.clock().getTime() / 1000);

  const settleRecorded = (
    claimId: string,
    payment: Payment,
    requirements: Requirements,
    keepResult: boolean,
  ): Promise<SettleEnd> =>
    settleClaimed(
      { db, facilitator, ledger, clock: deps.clock },
      claimId,
      payment,
      requirements,
      keepResult,
    );

  /** The result a payment already made paid for, with its settlement header. */
  const paidResult = (
    payment: Pick<Payment, 'version' | 'payer'>,
    transaction: string,
    network: string,
    stored: unknown,
  ): Delivery => {
    const header = settlementHeader(payment.version, {
      transaction,
      network,
      payer: payment.payer,
    });
    // The result this door stored before settling: a result body of the pipeline's.
    const body = (stored ?? {}) as Record<string, unknown>;
    const ok = body.ok === true;
    return {
      kind: 'delivered',
      body,
      headers: { [header.name]: header.value },
      ok,
      error: ok || typeof body.error !== 'string' ? null : body.error,
      message: ok || typeof body.message !== 'string' ? null : body.message,
      charge: 'paid-earlier',
    };
  };

  const settlementFailed = (
    requirements: Requirements,
    payment: Payment,
    end: { readonly certain: boolean; readonly reason: string },
    requestId: string | null,
  ) => {
    const why = end.certain
      ? `it was refused (${end.reason}); nothing was charged`
      : `its outcome is not known yet (${end.reason}). Send the same payment again (the same ${payment.header} header) to receive the result if the transfer lands; nothing is charged otherwise (request id ${requestId ?? 'unknown'})`;
    return challengeRefusal(
      requirements,
      'settlement_failed',
      `The payment of ${dollars(payment.value)} could not be settled, so no result was released: ${why}`,
    );
  };

  /**
   * A payment already made for this call, presented again (its own header, or a new
   * one with its `payment-identifier` id): the stored result when it was paid (reading
   * the chain first when its settlement is unknown, and settling it again when the
   * payment is its own and still unsettled); null when it is certain it was never paid
   * and can no longer be, so the call goes on as a new one.
   */
  async function earlier(
    row: StoredPayment,
    call: PaidCall,
    requirements: Requirements,
    own: Payment | null,
  ): Promise<Refusal | Delivery | null> {
    const replayed = (message: string) =>
      challengeRefusal(requirements, 'payment_replayed', message);
    if (row.state === 'settled') {
      return row.result === null || row.transaction === null
        ? replayed(`Payment ${row.nonce} of ${row.payer} was already used and its result delivered`)
        : paidResult(
            { version: row.x402Version, payer: row.payer },
            row.transaction,
            row.network,
            row.result,
          );
    }
    const again = await settleEarlier(
      { db, facilitator, ledger, clock: deps.clock },
      row,
      own,
      requirements,
      true,
    );
    switch (again.kind) {
      case 'paid': {
        const payer =
          again.again && own !== null ? own : { version: row.x402Version, payer: row.payer };
        return paidResult(payer, again.transaction, again.network, row.result);
      }
      case 'busy':
        return replayed(
          `Payment ${row.nonce} of ${row.payer} is in use by a call in progress; retry in a few seconds`,
        );
      case 'expired':
        return null;
      case 'unknown':
        return challengeRefusal(
          requirements,
          'settlement_failed',
          `An earlier payment of this call (nonce ${row.nonce}) has an unknown outcome until it expires; retry with that payment's own header${again.reason === null ? '' : ` (${again.reason})`}`,
        );
      case 'unpaid':
        // `unpaid` comes only from settling the payer's own payment again.
        return settlementFailed(requirements, own as Payment, again.end, call.requestId);
    }
  }

  return {
    name: 'x402',

    paymentRequired: (call, error, message) =>
      challengeRefusal(requirementsOf(call), error, message),

    async admit(call) {
      const requirements = requirementsOf(call);
      const batchPayload = batch === null ? null : BatchSettlement.payloadOf(call);
      if (batch !== null && batchPayload !== null) {
        return batch.admit(call, batchPayload, requirements, (code, message, corrective) =>
          challengeRefusal(requirements, code, message, corrective),
        );
      }
      if (batch !== null) void batch.start();
      const read = readPayment((name) => call.header(name));
      if (read === null) {
        const message = `${call.route.path} costs ${requirements.price} per call; pay with x402 (PAYMENT-SIGNATURE or X-PAYMENT) or send an API key as \`Authorization: Bearer <key>\``;
        return challengeRefusal(requirements, 'payment_required', message);
      }
      if (!read.ok) return challengeRefusal(requirements, read.error, read.message);
      const { payment } = read;
      if (facilitator === null) {
        return unavailable(
          call,
          'This service has no x402 facilitator configured; pay with an API key',
        );
      }

      // The terms first, then the claim: a second use of a nonce is refused before any
      // work; a payment that does not fit is released under its nonce, unburned.
      const problem = checkPayment(payment, requirements, nowSeconds(), { minValiditySeconds });
      const hashes = {
        callHash: sha256Hex(JSON.stringify([call.route.name, call.params])),
        payloadHash: sha256Hex(JSON.stringify(payment.raw)),
      };
      const claim = await claimPayment(
        db,
        paymentClaim(payment, requirements, call.requestId, hashes),
      );
      if (!claim.ok) {
        const row = claim.existing;
        // The same payment again, after an answer that carried no result.
        if (row !== null && row.payloadHash === hashes.payloadHash && holdsResult(row)) {
          if (row.route !== requirements.route || row.callHash !== hashes.callHash) {
            return challengeRefusal(requirements, 'payment_mismatch', OTHER_CALL);
          }
          const answer = await earlier(row, call, requirements, payment);
          if (answer !== null) return answer;
        }
        if (problem !== null) return challengeRefusal(requirements, problem.error, problem.message);
        return challengeRefusal(
          requirements,
          'payment_replayed',
          `This authorization (payer ${payment.payer}, nonce ${payment.nonce}) was already used; sign a new payment`,
        );
      }
      const release = (error: string) => finishPayment(db, claim.id, { state: 'released', error });
      if (problem !== null) {
        await release(problem.error);
        return challengeRefusal(requirements, problem.error, problem.message);
      }

      const verified = await facilitator.verify(payment, requirements);
      if (!verified.ok) {
        await release(`${verified.kind}: ${verified.reason}`);
        if (verified.kind === 'unavailable') {
          return unavailable(
            call,
            `The facilitator could not verify the payment: ${verified.reason}`,
          );
        }
        const detail = verified.detail === null ? '' : ` (${verified.detail})`;
        return challengeRefusal(
          requirements,
          'payment_rejected',
          `The facilitator refused the payment: ${verified.reason}${detail}`,
        );
      }
      // A verified payment naming the id of an earlier one: that one's result, if paid.
      if (payment.paymentId !== null) {
        const row = await paymentById(db, payment.payer, payment.paymentId, claim.id);
        if (row !== null) {
          if (row.route !== requirements.route || row.callHash !== hashes.callHash) {
            await release('payment_mismatch');
            return challengeRefusal(requirements, 'payment_mismatch', OTHER_CALL_ID);
          }
          const answer = await earlier(row, call, requirements, null);
          if (answer !== null) {
            await release(`payment id ${payment.paymentId} answered by payment ${row.nonce}`);
            return answer;
          }
        }
      }
      await markVerified(db, claim.id);
      return {
        kind: 'admitted',
        ticket: {
          kind: 'exact',
          claimId: claim.id,
          payment,
          requirements,
          requestId: call.requestId,
        },
        metered: true,
        headers: {},
      };
    },

    async settle(ticket, ending) {
      if (ticket.kind === 'batch') {
        if (batch === null) throw new Error('a batch-settlement call without batch settlement');
        return batch.settle(ticket, ending, (code, message) =>
          challengeRefusal(ticket.requirements, code, message),
        );
      }
      const { claimId, payment, requirements } = ticket;
      if (ending.kind !== 'charge') {
        // Not charged: the authorization is never settled, and may be used again.
        const error =
          ending.kind === 'failed'
            ? ending.error
            : ending.kind === 'refuse'
              ? ending.outcome.error
              : null;
        await finishPayment(db, claimId, { state: 'released', error });
        return { ok: true, headers: {} };
      }
      await markSettling(db, claimId, ending.body);
      const end = await settleRecorded(claimId, payment, requirements, false);
      if (!end.paid) {
        return {
          ok: false,
          refusal: settlementFailed(requirements, payment, end, ticket.requestId),
        };
      }
      const header = settlementHeader(payment.version, {
        transaction: end.transaction,
        network: end.network,
        payer: payment.payer,
      });
      return { ok: true, headers: { [header.name]: header.value } };
    },
  };
}

const OTHER_CALL =
  'This payment already paid for another call (another route or other parameters); sign the terms of this call';
const OTHER_CALL_ID =
  'This payment-identifier id already names a payment for another call; use a new id for a new call';

/** Whether a row may hold a result for a retry: unknown, stale, or paid with a result kept. */
function holdsResult(row: StoredPayment): boolean {
  return row.state === 'unknown' || row.stale || (row.state === 'settled' && row.result !== null);
}
