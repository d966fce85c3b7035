import { finished } from 'node:stream';
import type { Attestation } from '@storefront/attest';
import { httpStatusOf, isAnswerCode, isErrorCode, StorefrontError } from '@storefront/core';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppDeps } from '../app.js';
import { EarlyStart } from '../http/early-start.js';
import { readParams } from '../http/params.js';
import { bearerKey, hashKey } from '../metering/keys.js';
import { type Admission, type AdmittedKey, admit, type Finish, finish } from '../metering/store.js';
import { creditsFor, tierPlans } from '../metering/tiers.js';
import { REGISTRY } from '../registry/index.js';
import { refusedTarget } from '../registry/shared.js';
import { challenge, dollars, type Terms } from '../registry/terms.js';
import type { PriceTier, RouteEntry, WorkOutcome } from '../registry/types.js';
import { withinDeadline } from '../work/deadline.js';
import { type CallDeadline, ComputeCancelledError, callDeadline } from '../work/limits.js';

/** The payment terms with the receiving address resolved (the signer's in development). */
export function termsOf(deps: AppDeps): Terms {
  return { ...deps.config.payment, payTo: deps.config.payment.payTo ?? deps.signer.address };
}

/**
 * Whether a finished attempt is charged, by the route's rule (spec "Errors"; DESIGN
 * §4). A refused target (malformed URL, private address) is never charged.
 */
export function isCharged(route: RouteEntry<never>, outcome: WorkOutcome): boolean {
  if (outcome.kind === 'undeliverable') return false;
  if (outcome.ok) return true;
  if (outcome.error !== null && refusedTarget(outcome.error)) return false;
  return route.chargeRule === 'per-attempt';
}

/** `Retry-After` of a call refused for the key's calls in flight (s). */
const IN_FLIGHT_RETRY_SECONDS = 1;

/** The ledger's `error` for a call whose caller left before its answer was written. */
const CLIENT_CLOSED = 'client_closed';

/** How a call's work ended: its outcome and receipt, or what it threw. */
type Done =
  | { readonly ok: true; readonly outcome: WorkOutcome; readonly attestation: Attestation | null }
  | { readonly ok: false; readonly error: unknown };

/** A call's work under way: the route's run, then the receipt's signature. */
interface Work {
  /** The `metered` the work was started with (it shows in some answers). */
  readonly metered: boolean;
  /** Settles when the work is done; never rejects. */
  readonly done: Promise<Done>;
  /** Give the work up: a product still waiting for a thread is dropped, nothing is signed. */
  stop(): void;
}

/** One Express route per registry entry: params → key door → reserve → work → sign → settle. */
export function buyRoutes(deps: AppDeps): Router {
  const router = Router();
  const plans = tierPlans(deps.config.enterprisePerMinute);
  const terms = termsOf(deps);
  const base = deps.config.publicBaseUrl;
  const earlyStart = new EarlyStart(deps.earlyStart);
  /** Key hash → its calls answered here whose commits have not landed yet. */
  const answered = new Map<string, number>();

  /**
   * Start the work of one call of `route`. Early work (`early`) first lets the
   * admission statement go out: its synchronous parts (a product that runs inline, the
   * signature) would otherwise run before the pool hands the statement to a connection.
   * The work's fetches and products share the call's `deadline`.
   */
  const work = (
    route: RouteEntry<never>,
    params: never,
    metered: boolean,
    deadline: CallDeadline,
    early = false,
  ): Work => {
    const stopped = new AbortController();
    const { signal } = stopped;
    const done = (async (): Promise<Done> => {
      try {
        if (early) await new Promise<void>((resolve) => setImmediate(resolve));
        const outcome = await route.run(params, {
          ...withinDeadline(deps, deadline, signal),
          publicBaseUrl: base,
          clock: deps.clock,
          door: 'key',
          metered,
        });
        // Nobody will read an answer given up on: no signature for it.
        if (signal.aborted || outcome.kind !== 'delivered' || outcome.sign === null) {
          return { ok: true, outcome, attestation: null };
        }
        const { text, url, status, fetchedAt } = outcome.sign;
        return {
          ok: true,
          outcome,
          attestation: deps.signer.sign(text, { url, status, fetchedAt }),
        };
      } catch (error) {
        return { ok: false, error };
      }
    })();
    return { metered, done, stop: () => stopped.abort() };
  };

  // One route and a map: a paid call matches one layer, whatever the catalog's size.
  const routes = new Map(REGISTRY.map((route) => [route.path.slice('/buy/'.length), route]));
  router.get('/buy/:product', async (req: Request, res: Response, next: NextFunction) => {
    const route = routes.get(String(req.params.product).toLowerCase());
    if (route === undefined) return next();
    // The call's budget counts from here, its arrival.
    const deadline = callDeadline(deps.config.callDeadlineMs);
    // 1. Parameters: a 400 before any payment is asked or taken.
    const read = readParams(route, req.query as Record<string, unknown>);
    if (!read.ok) {
      throw new StorefrontError('invalid_params', `Invalid parameters for ${route.path}`, {
        details: read.details,
      });
    }
    const params = read.params;
    const price = route.priceFor(params);
    /** 402 with the payment terms of this call's price. */
    const paymentRequired = (error: Parameters<typeof challenge>[4], message: string) => {
      res.status(402).json(challenge(route, [price], base, terms, error, message));
    };

    // 2. The key door. No key (and no payment): 402 with the terms of these params.
    const bearer = bearerKey(req.get('authorization'));
    if (bearer.kind === 'missing') {
      paymentRequired(
        'payment_required',
        `${route.path} costs ${dollars(price.amount)} per call; pay with x402 or send an API key as \`Authorization: Bearer <key>\``,
      );
      return;
    }
    if (bearer.kind === 'malformed') {
      throw new StorefrontError('invalid_key', invalidKeyMessage(bearer, null));
    }

    // 3. The key, its rate window and the reservation: one atomic statement. For a key
    //    this instance admitted moments ago, the work starts meanwhile; nothing of it
    //    reaches the caller before the reservation.
    const keyHash = hashKey(bearer.key);
    const trusted = earlyStart.begin(keyHash);
    // This instance's answered calls of the key whose commits are still on their way
    // have ended for the caller: they do not count against its calls in flight.
    const admitting = admit(deps.db, {
      keyHash,
      route: route.name,
      price: price.amount,
      credits: creditsFor(price.amount),
      requestId: (res.locals.requestId as string | undefined) ?? null,
      plans,
      answeredHere: answered.get(keyHash) ?? 0,
    });
    const early = trusted === null ? null : work(route, params, trusted.metered, deadline, true);
    /** The work whose answer this call will give, once the admission has chosen it. */
    let current: Work | null = null;
    let left = false;
    const onClose = () => {
      if (res.writableFinished) return;
      left = true;
      early?.stop();
      current?.stop();
    };
    res.once('close', onClose);
    /** Stop the early work, if any: its answer will never be used. */
    const dropEarly = () => {
      early?.stop();
      res.off('close', onClose);
    };
    let admission: Admission;
    try {
      admission = await admitting;
    } catch (error) {
      dropEarly();
      earlyStart.settle(keyHash, early !== null, null);
      throw error;
    }
    const metered = admission.kind === 'reserved' && admission.source !== 'unmetered';
    earlyStart.settle(
      keyHash,
      early !== null,
      admission.kind === 'reserved' && admission.key.tier !== 'sandbox' ? { metered } : null,
    );
    if (admission.kind !== 'reserved') dropEarly();

    if (admission.kind === 'unknown' || admission.kind === 'revoked') {
      throw new StorefrontError(
        'invalid_key',
        invalidKeyMessage(bearer, admission.kind === 'revoked' ? admission.key : null),
      );
    }
    const { key, window } = admission;
    res.setHeader('RateLimit-Limit', String(window.limit));
    res.setHeader('RateLimit-Remaining', String(window.remaining));
    res.setHeader('RateLimit-Reset', String(window.resetSeconds));
    res.setHeader('RateLimit-Policy', `${window.limit};w=60`);
    if (admission.kind === 'rate_limited') {
      res.setHeader('Retry-After', String(window.resetSeconds));
      throw new StorefrontError(
        'rate_limited',
        `The ${key.tier} plan allows ${window.limit} calls per minute; retry in ${window.resetSeconds} s`,
      );
    }
    if (admission.kind === 'too_many_in_flight') {
      // A call in flight ends within the fetch deadline plus the product's; most sooner.
      res.setHeader('Retry-After', String(IN_FLIGHT_RETRY_SECONDS));
      throw new StorefrontError(
        'too_many_in_flight',
        `The ${key.tier} plan allows ${admission.inFlight} calls in flight at once; retry in ${IN_FLIGHT_RETRY_SECONDS} s`,
      );
    }
    if (admission.kind !== 'reserved') {
      paymentRequired(admission.kind, refusalMessage(admission.kind, key, price));
      return;
    }
    const reservation = admission;
    const release = (end: Omit<Finish, 'charged'>) =>
      finish(deps.db, reservation.ledgerId, { ...end, charged: false });

    // 4. The work (started early, or now) and its receipt. Whatever happens, the
    //    reservation is committed or released. A call whose caller leaves while its
    //    product waits for a thread is dropped from the queue.
    if (early !== null && early.metered === metered) {
      current = early;
    } else {
      // No early work, or it assumed the key's previous plan and would misstate it.
      early?.stop();
      current = work(route, params, metered, deadline);
    }
    if (left) current.stop();
    const done = await current.done;
    res.off('close', onClose);
    if (!done.ok) {
      const cancelled = done.error instanceof ComputeCancelledError;
      await release({
        outcome: 'failed',
        error: cancelled ? CLIENT_CLOSED : 'internal_error',
        upstreamStatus: null,
        receiptNonce: null,
      });
      // Nobody is left to answer.
      if (cancelled) return;
      throw done.error;
    }
    const { outcome, attestation } = done;

    // An undeliverable result (503 before charging), or a failure whose code has a
    // status of its own (`not_found` 404, `page_too_complex` 503): answered with that
    // status and never charged, on every route alike.
    const refused = refusedStatus(outcome);
    if (refused !== null) {
      await release({
        outcome: 'undeliverable',
        error: outcome.error,
        upstreamStatus: outcome.upstreamStatus,
        receiptNonce: null,
      });
      sendJson(res, refused, outcome.body);
      return;
    }

    // The caller left while the work ran: nothing can be delivered, so nothing is charged.
    if (res.destroyed || left) {
      await release({
        outcome: 'failed',
        error: CLIENT_CLOSED,
        upstreamStatus: outcome.upstreamStatus,
        receiptNonce: null,
      });
      return;
    }

    // 5. Answer. A free answer gives the reservation back first, so the balance is
    //    right by the time the caller reads the answer; a charged one is committed once
    //    the whole answer has been written, and released if the caller left before that.
    const receiptNonce = attestation?.nonce ?? null;
    const { error, upstreamStatus } = outcome;
    const body = attestation === null ? outcome.body : { ...outcome.body, attestation };
    if (!isCharged(route, outcome)) {
      await release({ outcome: 'delivered_free', error, upstreamStatus, receiptNonce });
      res.setHeader('Storefront-Charge', 'none');
      sendJson(res, 200, body);
      return;
    }
    const credits = reservation.source === 'credits' ? creditsFor(price.amount) : 0;
    res.setHeader('Storefront-Charge', `${reservation.source};credits=${credits}`);
    // From here until its commit lands the key row counts the call in flight, though
    // the caller has its answer and may send the next call at once: admission takes
    // this instance's answered calls off that count.
    answered.set(keyHash, (answered.get(keyHash) ?? 0) + 1);
    const committed = () => {
      const left = (answered.get(keyHash) ?? 1) - 1;
      if (left === 0) answered.delete(keyHash);
      else answered.set(keyHash, left);
    };
    sendJson(res, 200, body);
    const stopWatching = finished(res, (failure) => {
      stopWatching();
      const settled = deps.settlements.settle(
        reservation.ledgerId,
        failure
          ? {
              charged: false,
              outcome: 'failed',
              error: CLIENT_CLOSED,
              upstreamStatus,
              receiptNonce,
            }
          : { charged: true, outcome: 'delivered', error, upstreamStatus, receiptNonce },
      );
      void settled.finally(committed);
    });
  });
  return router;
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

/**
 * Answer a metered call: JSON, not cacheable, and sent as is. Express's `res.json`
 * would hash the body for an ETag and could answer a matching `If-None-Match` with an
 * empty 304, which for a paid call would be a charge without a result.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', json.length);
  res.setHeader('Cache-Control', 'no-store');
  res.end(json);
}

function invalidKeyMessage(bearer: ReturnType<typeof bearerKey>, key: AdmittedKey | null): string {
  if (bearer.kind === 'malformed') {
    return 'Expected `Authorization: Bearer mk_test_…` or `Bearer mk_live_…` with a key from POST /api/dev/keys';
  }
  if (key?.revokedAt) return `API key ending in \`${key.tail}\` was revoked`;
  return 'Unknown API key';
}

function refusalMessage(
  outcome: 'sandbox_exhausted' | 'insufficient_credits',
  key: AdmittedKey,
  price: PriceTier,
): string {
  if (outcome === 'sandbox_exhausted') {
    return `Sandbox key ending in \`${key.tail}\` has used all of its calls; pay per call with x402 or mint a live key`;
  }
  const credits = creditsFor(price.amount);
  return `Key ending in \`${key.tail}\` needs ${credits} credit${credits === 1 ? '' : 's'} for this call and has ${key.credits}${key.tier === 'pro' || key.tier === 'business' ? ' and no included calls left' : ''}`;
}
