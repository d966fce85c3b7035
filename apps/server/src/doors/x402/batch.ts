import { sha256Hex } from '@storefront/core';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import {
  type Network,
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
} from '@x402/core/types';
import {
  type AuthorizerSigner,
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme,
  type Channel,
  type ClaimResult,
  type SettleResult,
} from '@x402/evm/batch-settlement/server';
import { privateKeyToAccount } from 'viem/accounts';
import type { Database, Queryable } from '../../db/database.js';
import { logEntryOf } from '../../log/entry.js';
import type {
  Admission,
  Delivery,
  Ending,
  PaidCall,
  Refusal,
  Settled,
} from '../../pipeline/door.js';
import type { AnyRoute } from '../../registry/types.js';
import { decodeBase64Json, encodeBase64Json } from './base64-json.js';
import { PgChannelStorage } from './channel-storage.js';
import { MAX_PAYMENT_HEADER_CHARS, PAYMENT_HEADERS } from './payment.js';
import type { ChallengeCode, Requirements } from './requirements.js';
import { type Terms, USDC_DOMAIN } from './terms.js';

/** The scheme's name in the terms (`@x402/evm`'s `BATCH_SETTLEMENT_SCHEME`). */
export const BATCH_SCHEME = 'batch-settlement';

/** The header of the settlement answer of x402 v2 (x402.md §2). */
const PAYMENT_RESPONSE_HEADER = 'PAYMENT-RESPONSE';

/**
 * The official scheme's reason when a voucher's cumulative amount is not the channel's
 * charged total plus this call's price (`ErrCumulativeAmountMismatch`): the payer's
 * record of its channel is behind or ahead, and the 402 carries the channel's state so
 * that its client can sign again from the right base.
 */
const CUMULATIVE_MISMATCH = 'invalid_batch_settlement_evm_cumulative_amount_mismatch';

/** The longest wait after a failed start (facilitator down, or no `batch-settlement`) before the next (ms). */
const START_RETRY_MS = 30_000;

/**
 * How many calls' worth a channel's deposit is asked to be (`extra.minDeposit`, which the
 * official client deposits unless told otherwise): a deposit is an on-chain transaction
 * that one call in this many waits for, and money the payer leaves in the channel until
 * it is spent, refunded or withdrawn. The scheme's own default is 10 calls, which makes
 * every tenth call of an agent that calls often wait for the chain.
 */
export const DEPOSIT_CALLS = 100;

/** The facilitator's answer to a settlement with nothing claimed and unpaid (`ErrNothingToSettle`). */
const NOTHING_TO_SETTLE = 'invalid_batch_settlement_evm_nothing_to_settle';

/** What batch settlement needs. */
export interface BatchSettlementDeps {
  readonly db: Database;
  readonly facilitatorUrl: string;
  readonly facilitatorTimeoutMs: number;
  readonly terms: Terms;
  /** Every price a paid call can have (atomic units): their terms are made at start. */
  readonly prices: readonly number[];
  /**
   * The key that authorizes the channels' claims and refunds (their `receiverAuthorizer`);
   * null: the facilitator's, as its `/supported` names it.
   */
  readonly receiverAuthorizerKey?: `0x${string}` | null;
  /** Called in the transaction of a channel's first charge since its last redemption. */
  readonly onFirstCharge?: (tx: Queryable) => Promise<void>;
}

/** What the x402 door holds for a call admitted with a voucher (or a deposit and its voucher). */
export interface BatchTicket {
  readonly kind: 'batch';
  readonly payload: PaymentPayload;
  readonly accept: PaymentRequirements;
  readonly requirements: Requirements;
  readonly payloadHash: string;
  readonly callHash: string;
  readonly requestId: string | null;
}

/** The official resource server with the batch scheme, ready, and the terms it made. */
interface Ready {
  readonly server: x402ResourceServer;
  readonly scheme: BatchSettlementEvmScheme;
  readonly facilitator: HTTPFacilitatorClient;
  /** The batch accept entry of each price, by its amount. */
  readonly accepts: ReadonlyMap<string, PaymentRequirements>;
}

/** A stored call paid with a voucher (`x402_vouchers`). */
interface VoucherRow {
  readonly channel_id: string;
  readonly cumulative: string;
  readonly amount: string;
  readonly payer: string;
  readonly route: string;
  readonly network: string;
  readonly call_hash: string;
  readonly result: string;
}

/**
 * x402 `batch-settlement` (docs/decisions.md, "Batch settlement"), offered beside
 * `exact` in the v2 terms of every paid route. A payer deposits into an on-chain channel
 * once (ERC-3009 or Permit2, settled by the facilitator with its first call); each call
 * then carries a cumulative voucher, checked here (its signature, against the channel's
 * mirrored balance) without the facilitator or the chain, and charged by raising the
 * channel's charged total in PostgreSQL, in the same transaction as the call's row in
 * the books (`x402_vouchers`, with the signed result). The vouchers are redeemed in
 * batches by a queued task (`redeem`): claimed on chain, then the claimed sum moved to
 * `payTo`. This is the official resource server and scheme of `@x402/core` and
 * `@x402/evm`, with their channels in PostgreSQL ({@link PgChannelStorage}); the door
 * adds the books, the retry of a voucher whose answer was lost, and the 402's faces.
 */
export class BatchSettlement {
  readonly #deps: BatchSettlementDeps;
  readonly #storage: PgChannelStorage;
  #ready: Ready | null = null;
  #starting: Promise<Ready | null> | null = null;
  /** Before this time (ms) a failed start is not tried again. */
  #retryAt = 0;
  /** The wait after the next failed start (ms): doubled after each, up to {@link START_RETRY_MS}. */
  #retryMs = 250;

  constructor(deps: BatchSettlementDeps) {
    this.#deps = deps;
    this.#storage = new PgChannelStorage(deps.db);
  }

  /**
   * Read the facilitator's kinds and make the terms of every price; null when the
   * facilitator cannot be reached or does not settle `batch-settlement` on the network
   * (tried again by a later call, after a wait that grows from 250 ms to 30 s; `now`
   * tries at once).
   */
  start({ now = false } = {}): Promise<Ready | null> {
    if (this.#ready !== null) return Promise.resolve(this.#ready);
    if (this.#starting === null && !now && Date.now() < this.#retryAt) {
      return Promise.resolve(null);
    }
    this.#starting ??= this.#initialize()
      .catch(() => null)
      .then((ready) => {
        this.#ready = ready;
        if (ready === null) {
          this.#retryAt = Date.now() + this.#retryMs;
          this.#retryMs = Math.min(START_RETRY_MS, this.#retryMs * 2);
        }
        this.#starting = null;
        return ready;
      });
    return this.#starting;
  }

  async #initialize(): Promise<Ready | null> {
    const { terms } = this.#deps;
    const network = terms.network as Network;
    const facilitator = new HTTPFacilitatorClient({
      url: this.#deps.facilitatorUrl,
      timeoutMs: this.#deps.facilitatorTimeoutMs,
    });
    const authorizer = this.#deps.receiverAuthorizerKey ?? null;
    const scheme = new BatchSettlementEvmScheme(terms.payTo as `0x${string}`, {
      storage: this.#storage,
      ...(authorizer === null
        ? {}
        : { receiverAuthorizerSigner: privateKeyToAccount(authorizer) as AuthorizerSigner }),
    });
    const server = new x402ResourceServer(facilitator).register(network, scheme);
    await server.initialize();
    if (server.getSupportedKind(2, network, BATCH_SCHEME) === undefined) return null;
    const token = terms.token ?? USDC_DOMAIN;
    const accepts = new Map<string, PaymentRequirements>();
    for (const price of new Set(this.#deps.prices)) {
      if (price <= 0) continue;
      const [accept] = await server.buildPaymentRequirements({
        scheme: BATCH_SCHEME,
        network,
        payTo: terms.payTo,
        price: {
          amount: String(price),
          asset: terms.asset,
          extra: {
            name: token.name,
            version: token.version,
            minDeposit: String(price * DEPOSIT_CALLS),
          },
        },
        maxTimeoutSeconds: 60,
      });
      if (accept !== undefined) accepts.set(String(price), accept);
    }
    return { server, scheme, facilitator, accepts };
  }

  /** The batch accept entry of a call's terms, with its tier; null until ready. */
  accept(requirements: Requirements): PaymentRequirements | null {
    const accept = this.#ready?.accepts.get(requirements.amount);
    if (accept === undefined) return null;
    return {
      ...accept,
      maxTimeoutSeconds: requirements.maxTimeoutSeconds,
      extra: { ...accept.extra, tier: requirements.tier, includes: requirements.includes },
    };
  }

  /** The v2 payment of a request when it pays with `batch-settlement`; null otherwise. */
  static payloadOf(call: Pick<PaidCall, 'header'>): PaymentPayload | null {
    const value = call.header(PAYMENT_HEADERS[2].toLowerCase());
    if (value === undefined || value.length > MAX_PAYMENT_HEADER_CHARS) return null;
    const decoded = decodeBase64Json(value.trim());
    if (!decoded.ok || !isObject(decoded.value)) return null;
    const payload = decoded.value;
    const accepted = payload.accepted;
    if (payload.x402Version !== 2 || !isObject(accepted) || accepted.scheme !== BATCH_SCHEME) {
      return null;
    }
    return payload as unknown as PaymentPayload;
  }

  /**
   * Admit a call paid with a voucher: the stored result when this very voucher already
   * paid for this call (its answer was lost); else the voucher checked by the official
   * scheme (locally while the channel's mirrored on-chain state is fresh, else by the
   * facilitator; a deposit always by the facilitator), which reserves the channel for
   * this call. `challenge` makes the 402 of a refusal, with the entries given.
   */
  async admit(
    call: PaidCall,
    payload: PaymentPayload,
    requirements: Requirements,
    challenge: (
      code: ChallengeCode,
      message: string,
      corrective?: { readonly accept: PaymentRequirements; readonly reason: string },
    ) => Refusal,
  ): Promise<Admission<BatchTicket>> {
    const ready = await this.start();
    const accept = this.accept(requirements);
    if (ready === null || accept === null) {
      return challenge(
        'payment_invalid',
        'batch-settlement is not offered at the moment (the facilitator does not settle it); pay with exact',
      );
    }
    const payloadHash = sha256Hex(JSON.stringify(payload));
    const callHash = sha256Hex(JSON.stringify([call.route.name, call.params]));
    // A voucher already charged fails every check below (it was signed for a call whose
    // answer was lost, possibly through another instance): it gets the result it paid for.
    const refuse = async (
      code: ChallengeCode,
      message: string,
      corrective?: { readonly accept: PaymentRequirements; readonly reason: string },
    ): Promise<Refusal | Delivery> => {
      const earlier = await voucherByPayload(this.#deps.db, payloadHash);
      if (earlier === null) return challenge(code, message, corrective);
      if (earlier.route !== requirements.route || earlier.call_hash !== callHash) {
        return challenge(
          'payment_mismatch',
          'This voucher already paid for another call (another route or other parameters); sign a voucher for this call',
        );
      }
      return paidEarlier(earlier);
    };
    const resource = (payload as { resource?: { url?: unknown } }).resource?.url;
    if (resource !== undefined && resource !== requirements.resource) {
      return refuse(
        'payment_mismatch',
        `resource.url: this payment was signed for ${String(resource)}, but this call is ${requirements.resource} (tier ${requirements.tier}); sign the terms of this call`,
      );
    }
    if (ready.server.findMatchingRequirements([accept], payload) === undefined) {
      return refuse(
        'payment_mismatch',
        `This payment's accepted terms are not this call's: ${requirements.route} costs ${requirements.price} (${requirements.amount} atomic units) with batch-settlement; sign these terms`,
      );
    }
    let verified: Awaited<ReturnType<x402ResourceServer['verifyPayment']>>;
    try {
      verified = await ready.server.verifyPayment(payload, accept);
    } catch (error) {
      return refuse(
        'payment_rejected',
        `The voucher could not be verified: ${(error as Error).message}`,
      );
    }
    if (!verified.isValid) {
      const reason = verified.invalidReason ?? 'invalid';
      const detail = verified.invalidMessage ? ` (${verified.invalidMessage})` : '';
      if (reason === CUMULATIVE_MISMATCH) {
        // The official 402 of this case: the channel's state, for the payer to resync.
        const corrected = await ready.server.createPaymentRequiredResponse(
          [accept],
          { url: requirements.resource },
          reason,
          undefined,
          undefined,
          payload,
        );
        return refuse(
          'payment_rejected',
          `The voucher's cumulative amount is not this channel's charged total plus ${requirements.price}: ${reason}${detail}. The terms carry the channel's state; sign again from it`,
          corrected.accepts[0] === undefined ? undefined : { accept: corrected.accepts[0], reason },
        );
      }
      return refuse('payment_rejected', `The voucher was refused: ${reason}${detail}`);
    }
    if (verified.skipHandler !== undefined) return this.#refund(ready, payload, accept, challenge);
    return {
      kind: 'admitted',
      ticket: {
        kind: 'batch',
        payload,
        accept,
        requirements,
        payloadHash,
        callHash,
        requestId: call.requestId,
      },
      metered: true,
      headers: {},
    };
  }

  /**
   * Settle an admitted call: a charged one raises its channel's charged total (and, with
   * a deposit, first has the facilitator make the deposit on chain), its row in the books
   * written in the same transaction; anything else gives the channel back unchanged.
   */
  async settle(
    ticket: BatchTicket,
    ending: Ending,
    challenge: (code: ChallengeCode, message: string) => Refusal,
  ): Promise<Settled> {
    const ready = this.#ready;
    if (ready === null) throw new Error('batch settlement settled a call before it was ready');
    const { payload, accept, requirements } = ticket;
    if (ending.kind !== 'charge') {
      await ready.server
        .createPaymentCancellationDispatcher(payload, accept)
        .cancel({ reason: ending.kind === 'failed' ? 'handler_threw' : 'handler_failed' });
      return { ok: true, headers: {} };
    }
    const result = JSON.stringify(ending.body);
    const entry = logEntryOf(ending.body);
    let settled: SettleResponse;
    try {
      settled = await this.#storage.charging(
        (tx, before, after) => this.#book(tx, ticket, before, after, result, entry),
        () => ready.server.settlePayment(payload, accept),
      );
    } catch (error) {
      const reason =
        error instanceof SettleError
          ? (error.errorReason ?? error.message)
          : (error as Error).message;
      return {
        ok: false,
        refusal: challenge(
          'settlement_failed',
          `The payment of ${requirements.price} could not be settled, so no result was released: it was refused (${reason}); nothing was charged`,
        ),
      };
    }
    if (!settled.success) {
      return {
        ok: false,
        refusal: challenge(
          'settlement_failed',
          `The payment of ${requirements.price} could not be settled, so no result was released: ${settled.errorReason ?? 'refused'}; nothing was charged`,
        ),
      };
    }
    return { ok: true, headers: { [PAYMENT_RESPONSE_HEADER]: encodeBase64Json(settled) } };
  }

  /**
   * A cooperative refund (a `refund` voucher at the channel's charged total): no work is
   * done and nothing is charged; the facilitator claims what was charged and pays the
   * rest of the channel back to the payer now, and the answer says so.
   */
  async #refund(
    ready: Ready,
    payload: PaymentPayload,
    accept: PaymentRequirements,
    challenge: (code: ChallengeCode, message: string) => Refusal,
  ): Promise<Delivery | Refusal> {
    let settled: SettleResponse;
    try {
      settled = await ready.server.settlePayment(payload, accept);
    } catch (error) {
      settled = {
        success: false,
        errorReason:
          error instanceof SettleError
            ? (error.errorReason ?? error.message)
            : (error as Error).message,
        transaction: '',
        network: accept.network,
      };
    }
    if (!settled.success) {
      return challenge(
        'settlement_failed',
        `The refund could not be made: ${settled.errorReason ?? 'refused'}; the channel is unchanged`,
      );
    }
    const channelId = (payload.payload as { voucher?: { channelId?: string } }).voucher?.channelId;
    const body = {
      ok: true,
      message: 'Refund made: the unspent balance of the channel went back to the payer',
      channelId: channelId ?? null,
      transaction: settled.transaction,
    };
    return {
      kind: 'delivered',
      body,
      headers: { [PAYMENT_RESPONSE_HEADER]: encodeBase64Json(settled) },
      ok: true,
      error: null,
      message: null,
      charge: 'free',
    };
  }

  /** The call's row in the books, in the transaction of its charge. */
  async #book(
    tx: Queryable,
    ticket: BatchTicket,
    before: Channel,
    after: Channel,
    result: string,
    entry: string | null,
  ): Promise<void> {
    const amount = BigInt(after.chargedCumulativeAmount) - BigInt(before.chargedCumulativeAmount);
    // The voucher's row and its result's log entry in one statement.
    await tx.query(
      `WITH voucher AS (
         INSERT INTO x402_vouchers (channel_id, cumulative, amount, payer, route, network,
                                    call_hash, payload_hash, request_id, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10))
       INSERT INTO tlog_pending (entry) SELECT $11::text WHERE $11::text IS NOT NULL`,
      [
        after.channelId.toLowerCase(),
        after.chargedCumulativeAmount,
        amount.toString(),
        after.channelConfig.payer.toLowerCase(),
        ticket.requirements.route,
        ticket.accept.network,
        ticket.callHash,
        ticket.payloadHash,
        ticket.requestId,
        result,
        entry,
      ],
      'x402_voucher_book',
    );
    if (BigInt(before.chargedCumulativeAmount) <= BigInt(before.totalClaimed)) {
      await this.#deps.onFirstCharge?.(tx);
    }
  }

  /**
   * Redeem: claim every channel's vouchers charged past what is claimed on chain, in
   * batches, then move everything claimed and unpaid to `payTo`. Safe to run again at
   * any time: a channel whose charged total is claimed is left alone.
   */
  async redeem(): Promise<{ claims: ClaimResult[]; settle?: SettleResult }> {
    const ready = await this.start();
    if (ready === null) throw new Error('batch settlement is not available (the facilitator)');
    const manager = this.manager(ready);
    const claims = await manager.claim({ maxClaimsPerBatch: 100 });
    // Settled whether or not this run claimed: a refund claims what its channel was
    // charged, and a run that stopped after its claims left them unsettled.
    try {
      return { claims, settle: await manager.settle() };
    } catch (error) {
      if ((error as Error).message.includes(NOTHING_TO_SETTLE)) return { claims };
      throw error;
    }
  }

  /** The official channel manager of the scheme, for `payTo` and the terms' token. */
  manager(ready: Ready): BatchSettlementChannelManager {
    const { terms } = this.#deps;
    return ready.scheme.createChannelManager(
      ready.facilitator,
      terms.network as Network,
      terms.asset as `0x${string}`,
    );
  }
}

/** The stored call a voucher paid for, by the hash of the payment as sent. */
async function voucherByPayload(db: Queryable, payloadHash: string): Promise<VoucherRow | null> {
  const { rows } = await db.query<VoucherRow>(
    `SELECT channel_id, cumulative::text AS cumulative, amount::text AS amount, payer, route,
            network, call_hash, result
       FROM x402_vouchers WHERE payload_hash = $1`,
    [payloadHash],
    'x402_voucher_by_payload',
  );
  return rows[0] ?? null;
}

/** The result a voucher already paid for, with the settlement answer it had. */
function paidEarlier(row: VoucherRow): Delivery {
  const settled: SettleResponse = {
    success: true,
    payer: row.payer as `0x${string}`,
    transaction: '',
    network: row.network as Network,
    amount: '',
    extra: {
      chargedAmount: row.amount,
      channelState: { channelId: row.channel_id, chargedCumulativeAmount: row.cumulative },
    },
  };
  const body = JSON.parse(row.result) as Record<string, unknown>;
  const ok = body.ok === true;
  return {
    kind: 'delivered',
    body,
    headers: { [PAYMENT_RESPONSE_HEADER]: encodeBase64Json(settled) },
    ok,
    error: ok || typeof body.error !== 'string' ? null : body.error,
    message: ok || typeof body.message !== 'string' ? null : body.message,
    charge: 'paid-earlier',
  };
}

/** Every price a paid call of `routes` can have. */
export function pricesOf(routes: readonly AnyRoute[]): number[] {
  return routes.flatMap((route) => route.prices.map((tier) => tier.amount));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
