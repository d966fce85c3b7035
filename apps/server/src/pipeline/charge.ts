import { httpStatusOf, isAnswerCode, isErrorCode } from '@storefront/core';
import type { ChargeRule } from '../registry/types.js';
import type { WorkOutcome } from './outcome.js';

/**
 * What a finished call costs its caller and how it is answered, the one place the charge
 * rule is applied (spec "Errors"; DESIGN §4):
 * - `charge`: a delivered result the route's rule charges for;
 * - `free`: a delivered result the rule does not charge (an `ok:false` on a
 *   free-on-failure route, a probe not performed, a refused target on any route);
 * - `refuse`: answered with an error status and never charged (an `ok:false` result
 *   on a before-charging route, 404 `not_found`, 503 `page_too_complex`), with that status.
 */
export type Charge =
  | { readonly kind: 'charge' }
  | { readonly kind: 'free' }
  | { readonly kind: 'refuse'; readonly status: number };

/** The charge of `outcome` on a route whose rule is `rule`. */
export function chargeFor(
  route: { readonly chargeRule: ChargeRule },
  outcome: WorkOutcome,
): Charge {
  const rule = CHARGE_RULES[route.chargeRule];
  const refused = refusedStatus(outcome, rule.failureStatus === 503);
  if (refused !== null) return { kind: 'refuse', status: refused };
  if (outcome.kind === 'undeliverable') return { kind: 'refuse', status: 503 };
  if (outcome.ok) return { kind: 'charge' };
  if (outcome.error !== null && refusedTarget(outcome.error)) return { kind: 'free' };
  return rule.failureCharged ? { kind: 'charge' } : { kind: 'free' };
}

/**
 * Each charge rule: what it does with an `ok:false` result, in the words `/catalog`
 * and OpenAPI publish, the HTTP status such a result is answered with (503: answered
 * before charging), and whether a delivered one is charged.
 */
export const CHARGE_RULES: Readonly<
  Record<
    ChargeRule,
    {
      readonly failure: string;
      readonly failureStatus: 200 | 503;
      readonly failureCharged: boolean;
    }
  >
> = {
  'per-attempt': {
    failure: 'Charged per attempt: an ok:false result (upstream failure) is delivered and charged.',
    failureStatus: 200,
    failureCharged: true,
  },
  'free-on-failure': {
    failure: 'An ok:false result is delivered and not charged.',
    failureStatus: 200,
    failureCharged: false,
  },
  'before-charging': {
    failure: 'An undeliverable result is answered with HTTP 503 before charging.',
    failureStatus: 503,
    failureCharged: false,
  },
  'always-delivered': {
    failure:
      'A down or failing host is still ok:true (data.up false) and charged; ok:false means the probe could not be performed and is not charged.',
    failureStatus: 200,
    failureCharged: false,
  },
};

/** True when a fetch failure is a refusal of the target itself, never charged on any route. */
export function refusedTarget(error: string): boolean {
  return error === 'invalid_url' || error === 'blocked_ssrf';
}

/**
 * The HTTP status of an outcome that is answered without charging, by the one table
 * (`ERROR_STATUS`): an undeliverable result, or an `ok:false` result on a route that
 * answers failures `beforeCharging`, gets its code's status as answered before
 * charging (503 for upstream and product codes); an `ok:false` result whose code is not
 * a result code (`not_found`) gets that code's status whatever the route. Null for a
 * result answered 200.
 */
export function refusedStatus(outcome: WorkOutcome, beforeCharging = false): number | null {
  const code = outcome.error;
  if (outcome.kind === 'undeliverable' || (beforeCharging && !outcome.ok)) {
    return code !== null && isErrorCode(code) ? httpStatusOf(code, true) : 503;
  }
  if (outcome.ok || code === null || !isErrorCode(code) || !isAnswerCode(code)) return null;
  return httpStatusOf(code, false);
}
