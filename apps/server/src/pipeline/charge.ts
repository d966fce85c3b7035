import { httpStatusOf, isAnswerCode, isErrorCode } from '@storefront/core';
import type { ChargeRule } from '../registry/types.js';
import type { WorkOutcome } from './outcome.js';

/**
 * What a finished call costs its caller, the one place the charge rule is applied
 * (spec "Errors"; DESIGN §4):
 * - `charge`: a delivered result the route's rule charges for;
 * - `free`: a delivered result the rule does not charge (an `ok:false` on a
 *   free-on-failure route, a probe not performed, a refused target on any route);
 * - `refuse`: answered with an error status and never charged (503 before charging,
 *   404 `not_found`, 503 `page_too_complex`), with that status.
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
  const refused = refusedStatus(outcome);
  if (refused !== null) return { kind: 'refuse', status: refused };
  if (outcome.kind === 'undeliverable') return { kind: 'refuse', status: 503 };
  if (outcome.ok) return { kind: 'charge' };
  if (outcome.error !== null && refusedTarget(outcome.error)) return { kind: 'free' };
  return route.chargeRule === 'per-attempt' ? { kind: 'charge' } : { kind: 'free' };
}

/**
 * What the rule does with an `ok:false` result, in the words `/catalog` and OpenAPI
 * publish, and the HTTP status such a result is answered with.
 */
export const CHARGE_RULES: Readonly<
  Record<ChargeRule, { readonly failure: string; readonly failureStatus: 200 | 503 }>
> = {
  'per-attempt': {
    failure: 'Charged per attempt: an ok:false result (upstream failure) is delivered and charged.',
    failureStatus: 200,
  },
  'free-on-failure': {
    failure: 'An ok:false result is delivered and not charged.',
    failureStatus: 200,
  },
  'before-charging': {
    failure: 'An undeliverable result is answered with HTTP 503 before charging.',
    failureStatus: 503,
  },
  'always-delivered': {
    failure:
      'A down or failing host is still ok:true (data.up false) and charged; ok:false means the probe could not be performed and is not charged.',
    failureStatus: 200,
  },
};

/** True when a fetch failure is a refusal of the target itself, never charged on any route. */
export function refusedTarget(error: string): boolean {
  return error === 'invalid_url' || error === 'blocked_ssrf';
}

/**
 * The HTTP status of an outcome that is answered without charging, by the one table
 * (`ERROR_STATUS`): an undeliverable result gets its code's status on a before-charging
 * route (503 for upstream and product codes); an `ok:false` result whose code is not a
 * result code (`not_found`) gets that code's status whatever the route. Null for a
 * result answered 200.
 */
export function refusedStatus(outcome: WorkOutcome): number | null {
  const code = outcome.error;
  if (outcome.kind === 'undeliverable') {
    return isErrorCode(code) ? httpStatusOf(code, true) : 503;
  }
  if (outcome.ok || code === null || !isErrorCode(code) || !isAnswerCode(code)) return null;
  return httpStatusOf(code, false);
}
