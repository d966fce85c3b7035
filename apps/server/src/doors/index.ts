import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/database.js';
import type { AccessTokens } from '../metering/access-tokens.js';
import type { Meter } from '../metering/meter.js';
import type { TierPlans } from '../metering/tiers.js';
import type { Door } from '../pipeline/door.js';
import { type KeyTicket, keyDoor } from './key/door.js';
import { mcpDoor, mcpPaymentDoor } from './mcp/door.js';
import { BatchSettlement } from './x402/batch.js';
import { ledgerFor } from './x402/chain.js';
import { type X402Door, type X402Ticket, x402Door } from './x402/door.js';
import { Facilitator } from './x402/facilitator.js';
import type { Terms } from './x402/terms.js';

/** What the doors are made from (the app's dependencies have all of it). */
export interface DoorParts {
  readonly config: Pick<Config, 'payment' | 'callDeadlineMs'> & { readonly publicBaseUrl: string };
  readonly db: Database;
  readonly signer: { readonly address: string };
  readonly clock: () => Date;
  /** The key door's meter (it holds the tier table and this instance's lease). */
  readonly meter: Meter;
  readonly plans: TierPlans;
  /** OAuth access tokens, read wherever a key is. */
  readonly accessTokens: AccessTokens;
  /** Every price of a paid call (atomic units): `batch-settlement` makes their terms at start. */
  readonly prices: readonly number[];
  /** The key that authorizes `batch-settlement` claims and refunds; null: the facilitator's. */
  readonly receiverAuthorizerKey: `0x${string}` | null;
  /**
   * Schedule the redemption of `batch-settlement` vouchers, in the transaction of a
   * channel's first charge since its last redemption (the job queue's task).
   */
  readonly scheduleRedemption: (tx: Queryable) => Promise<void>;
}

/** The payment terms with the receiving address resolved (the signer's when none is configured). */
export function termsOf(deps: Pick<DoorParts, 'config' | 'signer'>): Terms {
  const { network, asset, payTo, facilitatorUrl, legacyNetworkNames, testnet } =
    deps.config.payment;
  return {
    network,
    asset,
    payTo: payTo ?? deps.signer.address,
    facilitatorUrl,
    legacyNetworkNames,
    testnet,
  };
}

/** The service's doors, made once and shared by every adapter that reaches them. */
export interface Doors {
  readonly key: Door<KeyTicket>;
  readonly x402: X402Door;
  /** The MCP door of a call with a key: the key door's meter behind MCP's 401 for a bad key. */
  readonly mcp: Door<KeyTicket>;
  /** The MCP door of a call without a key: the x402 door, paid in `_meta["x402/payment"]`. */
  readonly mcpPayment: Door<X402Ticket>;
  /** x402 `batch-settlement` and its redemption; null when not offered. */
  readonly batch: BatchSettlement | null;
}

/** Build the doors of an app (once, in its composition root). */
export function createDoors(deps: DoorParts): Doors {
  const { facilitatorUrl, facilitatorTimeoutMs, rpcUrl, network, asset, batchRedeemSeconds } =
    deps.config.payment;
  const batch =
    facilitatorUrl === null || batchRedeemSeconds === 0
      ? null
      : new BatchSettlement({
          db: deps.db,
          facilitatorUrl,
          facilitatorTimeoutMs,
          terms: termsOf(deps),
          prices: deps.prices,
          receiverAuthorizerKey: deps.receiverAuthorizerKey,
          onFirstCharge: deps.scheduleRedemption,
        });
  const x402 = x402Door({
    db: deps.db,
    facilitator:
      facilitatorUrl === null
        ? null
        : new Facilitator({ url: facilitatorUrl, timeoutMs: facilitatorTimeoutMs }),
    ledger: ledgerFor(rpcUrl, network, asset),
    terms: termsOf(deps),
    publicBaseUrl: deps.config.publicBaseUrl,
    clock: deps.clock,
    callDeadlineMs: deps.config.callDeadlineMs,
    batch,
  });
  const credential = (header: string | undefined) =>
    deps.accessTokens.credential(header, deps.clock());
  const key = keyDoor({
    meter: deps.meter,
    plans: deps.plans,
    paymentRequired: x402.paymentRequired,
    credential,
  });
  return {
    key,
    x402,
    mcp: mcpDoor(key, credential),
    mcpPayment: mcpPaymentDoor(x402),
    batch,
  };
}
