import { logEntryOf } from '../../log/entry.js';
import type { Credential } from '../../metering/access-tokens.js';
import { type KeyRefusal, keyRefusalText } from '../../metering/key-refusals.js';
import type { Meter } from '../../metering/meter.js';
import type { AdmittedKey, ChargeSource, Finish } from '../../metering/store.js';
import { creditsFor, type TierPlans } from '../../metering/tiers.js';
import type { Door, Headers, PaidCall, Refusal } from '../../pipeline/door.js';
import { refusal } from '../../pipeline/refusal.js';
import type { PriceTier } from '../../registry/types.js';
import { dollars } from '../x402/terms.js';

/** `Retry-After` of a call refused for the key's calls in flight (s). */
const IN_FLIGHT_RETRY_SECONDS = 1;

/** The ledger's `error` for a call whose caller left before its answer was written. */
const CLIENT_CLOSED = 'client_closed';

/** What the key door holds for an admitted call: its reservation. */
export interface KeyTicket {
  readonly keyHash: string;
  readonly ledgerId: string;
  readonly source: ChargeSource;
  readonly credits: number;
}

/** What the key door needs. */
export interface KeyDoorDeps {
  /** The meter: admissions, answers and commits, grouped into statements. */
  readonly meter: Meter;
  readonly plans: TierPlans;
  /** The 402 answer with the payment terms of `call` (the x402 door's challenge). */
  paymentRequired(call: PaidCall, error: PaymentRefusal, message: string): Refusal;
  /** What an `Authorization` header names: a key or an access token (as the key's hash). */
  credential(header: string | undefined): Credential;
}

/** The 402 refusals of the key door, each answered with the payment terms. */
export type PaymentRefusal = 'payment_required' | 'sandbox_exhausted' | 'insufficient_credits';

/**
 * The key door (spec "Authentication"; DESIGN §4): a bearer key, its rate window, its
 * calls in flight and a reservation of what pays the call, decided by one atomic
 * statement (`storefront_meter`, through the {@link Meter}, which groups the calls that
 * arrive together); a charged call's reservation is committed once its answer
 * has been written, any other released before its answer goes out.
 */
export function keyDoor(deps: KeyDoorDeps): Door<KeyTicket> {
  const release = (ticket: KeyTicket, end: Omit<Finish, 'charged'>, entry: string | null = null) =>
    deps.meter.settle(ticket.ledgerId, { ...end, charged: false }, entry);

  return {
    name: 'key',

    async admit(call) {
      const bearer = deps.credential(call.header('authorization'));
      if (bearer.kind === 'missing') {
        return deps.paymentRequired(
          call,
          'payment_required',
          `${call.route.path} costs ${dollars(call.price.amount)} per call; pay with x402 or send an API key as \`Authorization: Bearer <key>\``,
        );
      }
      const { requestId } = call;
      if (bearer.kind !== 'key') {
        return refusal('invalid_key', keyRefusalText(bearer), { requestId });
      }
      const { keyHash } = bearer;
      const admission = await deps.meter.admit({
        keyHash,
        route: call.route.name,
        price: call.price.amount,
        credits: creditsFor(call.price.amount),
        requestId,
      });
      if (admission.kind === 'unknown' || admission.kind === 'revoked') {
        const why: KeyRefusal =
          admission.kind === 'unknown'
            ? { kind: 'unknown' }
            : { kind: 'revoked', tail: admission.key.tail };
        return refusal('invalid_key', keyRefusalText(why), { requestId });
      }
      const { key, window } = admission;
      const headers: Record<string, string> = {
        'RateLimit-Limit': String(window.limit),
        'RateLimit-Remaining': String(window.remaining),
        'RateLimit-Reset': String(window.resetSeconds),
        'RateLimit-Policy': `${window.limit};w=60`,
      };
      switch (admission.kind) {
        case 'rate_limited':
          return refusal(
            'rate_limited',
            `The ${key.tier} plan allows ${window.limit} calls per minute; retry in ${window.resetSeconds} s`,
            { requestId, headers, retryAfterSeconds: window.resetSeconds },
          );
        case 'too_many_in_flight':
          // A call in flight ends within the fetch deadline plus the product's; most sooner.
          return refusal(
            'too_many_in_flight',
            `The ${key.tier} plan allows ${admission.inFlight} calls in flight at once; retry in ${IN_FLIGHT_RETRY_SECONDS} s`,
            { requestId, headers, retryAfterSeconds: IN_FLIGHT_RETRY_SECONDS },
          );
        case 'sandbox_exhausted':
        case 'insufficient_credits': {
          const terms = deps.paymentRequired(
            call,
            admission.kind,
            refusalMessage(admission.kind, key, call.price, deps.plans),
          );
          return { ...terms, headers: { ...headers, ...terms.headers } };
        }
        case 'reserved': {
          const { source, ledgerId } = admission;
          const credits = source === 'credits' ? creditsFor(call.price.amount) : 0;
          return {
            kind: 'admitted',
            ticket: { keyHash, ledgerId, source, credits },
            metered: source !== 'unmetered',
            headers,
          };
        }
      }
    },

    async settle(ticket, ending) {
      switch (ending.kind) {
        case 'charge':
          // The caller may send its next call, to any instance, as soon as it has this
          // answer: the call leaves the key's calls in flight before the answer goes out
          // (its charge is committed once the answer has been written). The receipt's log
          // entry is written by the same statement. The answer is built meanwhile and
          // written once the statement has run (`ready`).
          return {
            ok: true,
            headers: chargeHeader(ticket),
            ready: deps.meter.answer(ticket.ledgerId, logEntryOf(ending.body)),
          };
        case 'free':
          // A free answer gives the reservation back first, so the balance is right by
          // the time the caller reads the answer.
          await release(
            ticket,
            {
              outcome: 'delivered_free',
              error: ending.outcome.error,
              upstreamStatus: ending.outcome.upstreamStatus,
              receiptNonce: ending.receiptNonce,
            },
            logEntryOf(ending.body),
          );
          return { ok: true, headers: { 'Storefront-Charge': 'none' } };
        case 'refuse':
          await release(ticket, {
            outcome: 'undeliverable',
            error: ending.outcome.error,
            upstreamStatus: ending.outcome.upstreamStatus,
            receiptNonce: null,
          });
          return { ok: true, headers: {} };
        case 'failed':
          await release(ticket, {
            outcome: 'failed',
            error: ending.error === 'client_closed' ? CLIENT_CLOSED : 'internal_error',
            upstreamStatus: ending.upstreamStatus,
            receiptNonce: null,
          });
          return { ok: true, headers: {} };
      }
    },

    delivered(ticket, ending, written) {
      if (ending.kind !== 'charge') return;
      const { error, upstreamStatus } = ending.outcome;
      const { receiptNonce } = ending;
      // A charged answer is committed once written in full; released if the caller left.
      void deps.meter.settle(
        ticket.ledgerId,
        written
          ? { charged: true, outcome: 'delivered', error, upstreamStatus, receiptNonce }
          : {
              charged: false,
              outcome: 'failed',
              error: CLIENT_CLOSED,
              upstreamStatus,
              receiptNonce,
            },
      );
    },
  };
}

/** `Storefront-Charge`: what paid the call, and the credits it took. */
function chargeHeader(ticket: KeyTicket): Headers {
  return { 'Storefront-Charge': `${ticket.source};credits=${ticket.credits}` };
}

function refusalMessage(
  outcome: 'sandbox_exhausted' | 'insufficient_credits',
  key: AdmittedKey,
  price: PriceTier,
  plans: TierPlans,
): string {
  if (outcome === 'sandbox_exhausted') {
    return `Sandbox key ending in \`${key.tail}\` has used all of its calls; pay per call with x402 or mint a live key`;
  }
  const credits = creditsFor(price.amount);
  return `Key ending in \`${key.tail}\` needs ${credits} credit${credits === 1 ? '' : 's'} for this call and has ${key.credits}${plans[key.tier].pays.includes('included') ? ' and no included calls left' : ''}`;
}
