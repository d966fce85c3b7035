import type { Database, Queryable } from '../db/database.js';
import { joinEntries, pendingInsert } from '../log/entry.js';
import type { MintedKey } from './keys.js';
import {
  type PaySource,
  PLANLESS_TIER,
  type Tier,
  type TierPlan,
  type TierPlans,
} from './tiers.js';

/** A key as the meter sees it. */
export interface KeyRecord {
  readonly keyId: string;
  readonly env: 'test' | 'live';
  readonly tier: Tier;
  readonly tail: string;
  readonly label: string | null;
  readonly credits: number;
  readonly includedRemaining: number;
  readonly sandboxRemaining: number;
  readonly calls: number;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
  /** The processor subscription that set the key's plan, if one did. */
  readonly subscriptionId: string | null;
  /** When the key's plan stops (a subscription cancelled, unpaid or ended); null: no end set. */
  readonly planEndsAt: string | null;
}

interface KeyRow {
  key_id: string;
  env: 'test' | 'live';
  tier: Tier;
  tail: string;
  label: string | null;
  credits: string | number;
  included_remaining: string | number;
  sandbox_remaining: number;
  calls: string | number;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  subscription_id: string | null;
  plan_ends_at: Date | string | null;
}

/**
 * The tier table's planless tier as an SQL literal: generated from the table, as a
 * constant rather than a parameter because {@link KEY_COLUMNS} goes into many
 * statements. Tier names are lower-case words, so the quoting is exact.
 */
const PLANLESS = `'${PLANLESS_TIER}'`;
if (!/^'[a-z]+'$/.test(PLANLESS)) throw new Error(`Unexpected tier name ${PLANLESS}`);

/**
 * A key's columns as the meter reads them. `tier` and `included_remaining` are the
 * effective ones: once `plan_ends_at` has passed the key is on the planless tier with
 * no allowance, even before the sweeper writes the lapse down ({@link lapseEndedPlans}).
 */
export const KEY_COLUMNS = `key_id, env,
  CASE WHEN plan_ends_at <= now() THEN ${PLANLESS} ELSE tier END AS tier,
  tail, label, credits,
  CASE WHEN plan_ends_at <= now() THEN 0 ELSE included_remaining END AS included_remaining,
  sandbox_remaining, calls, created_at, last_used_at, revoked_at, subscription_id, plan_ends_at`;

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function toRecord(row: KeyRow): KeyRecord {
  return {
    keyId: row.key_id,
    env: row.env,
    tier: row.tier,
    tail: row.tail,
    label: row.label,
    credits: Number(row.credits),
    includedRemaining: Number(row.included_remaining),
    sandboxRemaining: row.sandbox_remaining,
    calls: Number(row.calls),
    createdAt: iso(row.created_at) as string,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    subscriptionId: row.subscription_id,
    planEndsAt: iso(row.plan_ends_at),
  };
}

/** A key row as {@link KEY_COLUMNS} selects it, as a {@link KeyRecord}. */
export function keyRecordOf(row: Record<string, unknown>): KeyRecord {
  return toRecord(row as unknown as KeyRow);
}

/** What {@link issueKey} decided. */
export type IssueOutcome =
  | { readonly ok: true; readonly record: KeyRecord }
  | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * Store a minted key unless `ip` already has `perHour` keys from the last hour. The
 * count and the insert run under a per-IP transaction lock, so concurrent requests
 * from one address cannot overshoot the cap (and several instances share it).
 */
export async function issueKey(
  db: Database,
  minted: MintedKey,
  options: { ip: string; label: string | null; plan: TierPlan; perHour: number },
): Promise<IssueOutcome> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7306102, hashtext('issue:' || $1))", [options.ip]);
    const { rows } = await tx.query<{ n: string | number; oldest: Date | string | null }>(
      `SELECT count(*) AS n, min(issued_at) AS oldest FROM key_issuance
        WHERE ip = $1 AND issued_at > now() - interval '1 hour'`,
      [options.ip],
    );
    const used = Number(rows[0]?.n ?? 0);
    if (used >= options.perHour) {
      const oldest = rows[0]?.oldest ? new Date(rows[0].oldest).getTime() : Date.now();
      const retry = Math.max(1, Math.ceil((oldest + 3_600_000 - Date.now()) / 1000));
      return { ok: false, retryAfterSeconds: retry };
    }
    await tx.query('INSERT INTO key_issuance (ip) VALUES ($1)', [options.ip]);
    const inserted = await tx.query<KeyRow>(
      `INSERT INTO api_keys (key_id, key_hash, tail, env, tier, label, sandbox_remaining, created_ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${KEY_COLUMNS}`,
      [
        minted.keyId,
        minted.hash,
        minted.tail,
        minted.env,
        options.plan.tier,
        options.label,
        options.plan.pays.includes('sandbox') ? (options.plan.included ?? 0) : 0,
        options.ip,
      ],
    );
    return { ok: true, record: toRecord(inserted.rows[0] as KeyRow) };
  });
}

/** The key stored under `hash`, revoked or not; null when there is none. */
export async function findKeyByHash(db: Queryable, hash: string): Promise<KeyRecord | null> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`,
    [hash],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The key with public id `keyId`; null when there is none. */
export async function findKeyById(db: Queryable, keyId: string): Promise<KeyRecord | null> {
  const { rows } = await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = $1`, [
    keyId,
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The state of a key's current one-minute window after counting this call. */
export interface RateWindow {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (at least 1). */
  readonly resetSeconds: number;
}

/** Where a reserved call is paid from. */
export type ChargeSource = PaySource;

/** The key as {@link admit} found it, before this call. */
export interface AdmittedKey {
  readonly keyId: string;
  readonly tier: Tier;
  readonly tail: string;
  readonly credits: number;
  readonly revokedAt: string | null;
}

/** What {@link admit} decided; every outcome but `unknown` and `revoked` wrote its ledger row. */
export type Admission =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'revoked'; readonly key: AdmittedKey }
  | {
      readonly kind: 'reserved';
      readonly key: AdmittedKey;
      readonly window: RateWindow;
      readonly ledgerId: string;
      readonly source: ChargeSource;
    }
  | {
      readonly kind: 'rate_limited' | 'sandbox_exhausted' | 'insufficient_credits';
      readonly key: AdmittedKey;
      readonly window: RateWindow;
      readonly ledgerId: string;
    }
  | {
      readonly kind: 'too_many_in_flight';
      readonly key: AdmittedKey;
      readonly window: RateWindow;
      readonly ledgerId: string;
      /** The plan's calls in flight at once, all of them taken. */
      readonly inFlight: number;
    };

/** One call to admit: the key it came with, its route, and what it costs. */
export interface Attempt {
  readonly keyHash: string;
  readonly route: string;
  readonly price: number;
  /** Credits the call costs when credits pay for it. */
  readonly credits: number;
  readonly requestId: string | null;
}

/** What one {@link meter} statement carries; any part may be empty. */
export interface MeterBatch {
  readonly admissions?: readonly Attempt[];
  /** Ledger ids of charged calls whose answers are about to go out ({@link answerAll}). */
  readonly answers?: readonly string[];
  readonly finishes?: readonly Settlement[];
  /**
   * The log entries of the receipts these answers and finishes deliver, written to the
   * transparency log's pending entries by the same statement (docs/decisions.md, "A
   * transparency log of every receipt").
   */
  readonly logEntries?: readonly string[];
}

/** What one {@link meter} statement did. */
export interface Metered {
  /** One per attempt, in the batch's order. */
  readonly admissions: Admission[];
  /** The answered rows that were still pending and not yet answered. */
  readonly answered: Set<string>;
  /** The finished rows that were still pending. */
  readonly finished: Set<string>;
}

/**
 * Meter a batch in one statement (`storefront_meter`, migration 0010; docs/decisions.md,
 * "Admissions, answers and commits in one statement"): finish the finished calls, count
 * the answered ones off their keys' calls in flight, then admit the new ones. Every key
 * the statement changes is locked first, in key_id order, so statements of several
 * instances never deadlock on the keys they share.
 *
 * An admission, for the key stored under its hash: count the call in the key's fixed
 * one-minute window (shared by every instance on the database) against its tier's limit,
 * pick the source (sandbox calls, the plan's allowance, credits, or unmetered), check the
 * key's calls in flight against its plan's, take the source and count the call in flight,
 * and write the attempt's ledger row: `pending` when reserved, or the refusal. The
 * admissions of one key are decided one after the other, in the batch's order, against
 * the locked row, so no balance goes negative and no key has more calls in flight than
 * its plan allows, however many calls race, on one instance or several. A revoked key
 * changes nothing and writes no row. A call refused for its calls in flight is not
 * counted in the rate window: it did no work, and its caller is told to come back in a
 * second. The order of the checks: the rate window, then the money (a call nothing would
 * pay for is told so, 402, rather than to retry), then the calls in flight. A key whose
 * `plan_ends_at` has passed is admitted on the planless tier (docs/decisions.md, "Billing:
 * period end"), whatever its row's tier still says.
 *
 * A finish keeps the reservation (charged) or gives it back, and counts the call off the
 * key's calls in flight unless its answer already did. Only a row still pending is
 * finished (`finished_at IS NULL`, which a CHECK constraint ties to `pending`; rows are
 * named by `id = ANY(...)`, so the planner reaches each through the primary key and never
 * through the sweeper's index of pending rows), so a reservation is released at most once
 * even when the sweeper races a slow request. An answer marks a charged call's row
 * `answered` and counts it off its key's calls in flight, once.
 */
export async function meter(
  db: Queryable,
  batch: MeterBatch,
  options: {
    /** The tier table (needed when the batch admits). */
    readonly plans: TierPlans | null;
    /** The instance that holds the reservations (its lease); null: none (tests). */
    readonly instanceId: string | null;
  },
): Promise<Metered> {
  const admissions = batch.admissions ?? [];
  const answers = batch.answers ?? [];
  const finishes = batch.finishes ?? [];
  if (admissions.length > 0 && options.plans === null) {
    throw new Error('meter: admissions need the tier table');
  }
  const { rows } = await db.query<MeterRow>(
    METER_SQL,
    [
      finishes.map((s) => s.ledgerId),
      finishes.map((s) => s.end.outcome),
      finishes.map((s) => s.end.charged),
      finishes.map((s) => s.end.error),
      finishes.map((s) => s.end.upstreamStatus),
      finishes.map((s) => s.end.receiptNonce),
      answers,
      admissions.map((a) => a.keyHash),
      admissions.map((a) => a.credits),
      admissions.map((a) => a.route),
      admissions.map((a) => a.price),
      admissions.map((a) => a.requestId),
      options.plans === null ? '{}' : limitsJson(options.plans),
      PLANLESS_TIER,
      options.instanceId,
      joinEntries(batch.logEntries ?? []),
    ],
    'storefront_meter',
  );
  const admitted: Admission[] = new Array(admissions.length);
  const answered = new Set<string>();
  const finished = new Set<string>();
  for (const row of rows) {
    if (row.r_kind === 'finished') finished.add(String(row.r_id));
    else if (row.r_kind === 'answered') answered.add(String(row.r_id));
    else admitted[(row.r_n as number) - 1] = admissionOf(row);
  }
  return { admissions: admitted, answered, finished };
}

// The receipts' log entries go in by the same statement (a data-modifying WITH runs once,
// whether or not the query reads it), so they commit with the answers and finishes.
const METER_SQL = `WITH logged AS (${pendingInsert(16)})
SELECT * FROM storefront_meter($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;

/** A row of `storefront_meter`. */
interface MeterRow {
  r_kind: 'finished' | 'answered' | 'admit';
  r_n: number | null;
  r_id: string | number | null;
  r_key_id: string | null;
  r_tier: Tier;
  r_tail: string;
  r_credits: string | number;
  r_revoked_at: Date | string | null;
  r_per_minute: number | null;
  r_in_flight_cap: number | null;
  r_picked: string | null;
  r_hits: number | null;
  r_reset: string | number | null;
  r_source: string | null;
  r_outcome: string | null;
}

/** What the statement decided for one attempt, as an {@link Admission}. */
function admissionOf(row: MeterRow): Admission {
  if (row.r_key_id === null) return { kind: 'unknown' };
  const key: AdmittedKey = {
    keyId: row.r_key_id,
    tier: row.r_tier,
    tail: row.r_tail,
    credits: Number(row.r_credits),
    revokedAt: iso(row.r_revoked_at),
  };
  if (row.r_hits === null || row.r_per_minute === null) return { kind: 'revoked', key };
  const limit = row.r_per_minute;
  const busy = row.r_picked === 'too_many_in_flight';
  // A call refused for its calls in flight was not counted in the window.
  const hits = busy ? row.r_hits - 1 : row.r_hits;
  const window: RateWindow = {
    allowed: hits <= limit,
    limit,
    remaining: Math.max(0, limit - hits),
    resetSeconds: Math.max(1, Math.ceil(Number(row.r_reset ?? 60))),
  };
  const ledgerId = String(row.r_id);
  if (busy) {
    return {
      kind: 'too_many_in_flight',
      key,
      window,
      ledgerId,
      inFlight: row.r_in_flight_cap ?? 0,
    };
  }
  if (row.r_outcome === 'pending') {
    return { kind: 'reserved', key, window, ledgerId, source: row.r_source as ChargeSource };
  }
  return {
    kind: row.r_outcome as 'rate_limited' | 'sandbox_exhausted' | 'insufficient_credits',
    key,
    window,
    ledgerId,
  };
}

/**
 * Admit one call of the key stored under `keyHash`: {@link meter} with one admission. The
 * service admits through its `Meter` queue (`meter.ts`), which groups admissions.
 */
export async function admit(
  db: Queryable,
  attempt: Attempt & {
    plans: TierPlans;
    /** The instance that holds the reservation (its lease); null: none (tests). */
    instanceId?: string | null;
  },
): Promise<Admission> {
  const metered = await meter(
    db,
    { admissions: [attempt] },
    { plans: attempt.plans, instanceId: attempt.instanceId ?? null },
  );
  return metered.admissions[0] as Admission;
}

/**
 * The tiers' plans as the JSON object `storefront_meter` reads them from:
 * `{"<tier>": [perMinute, inFlight, [what pays, in order], refusal], …}`. The statement
 * knows only what each source takes; a plan is defined in one place.
 */
function limitsJson(plans: TierPlans): string {
  // The table is built once (the composition root), so its JSON is too.
  let json = LIMITS_JSON.get(plans);
  if (json === undefined) {
    json = plansJson(plans);
    LIMITS_JSON.set(plans, json);
  }
  return json;
}

const LIMITS_JSON = new WeakMap<TierPlans, string>();

function plansJson(plans: TierPlans): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.values(plans).map((p) => [p.tier, [p.perMinute, p.inFlight, p.pays, p.exhausted]]),
    ),
  );
}

/** How a reserved attempt ended. */
export interface Finish {
  readonly charged: boolean;
  readonly outcome: 'delivered' | 'delivered_free' | 'undeliverable' | 'failed' | 'abandoned';
  readonly error: string | null;
  readonly upstreamStatus: number | null;
  readonly receiptNonce: string | null;
}

/** One attempt to finish: its ledger row and how it ended. */
export interface Settlement {
  readonly ledgerId: string;
  readonly end: Finish;
}

/**
 * Count charged calls whose answers are about to go out off their keys' calls in flight
 * ({@link meter} with answers only): their rows stay pending (the charge is committed once
 * the answer has been written) but are marked `answered`, so that neither that commit nor
 * a release counts them off again. Run before the answer goes out, so the caller's next
 * call, on any instance, finds the count without them (docs/decisions.md, "A call leaves
 * the in-flight count before its answer"). Returns the ids marked.
 */
export async function answerAll(db: Queryable, ledgerIds: readonly string[]): Promise<Set<string>> {
  return (await meter(db, { answers: ledgerIds }, NO_ADMISSIONS)).answered;
}

/**
 * Finish a pending attempt: keep the reservation (charged) or give it back, and count
 * the call off the key's calls in flight unless its answer already did. Returns false
 * when the row was no longer pending (the sweeper released it first).
 */
export async function finish(db: Queryable, ledgerId: string, end: Finish): Promise<boolean> {
  return (await finishAll(db, [{ ledgerId, end }])).has(ledgerId);
}

/**
 * {@link finish} for many attempts in one statement ({@link meter} with finishes only).
 * Returns the ids of the rows that were still pending.
 */
export async function finishAll(
  db: Queryable,
  settlements: readonly Settlement[],
): Promise<Set<string>> {
  return (await meter(db, { finishes: settlements }, NO_ADMISSIONS)).finished;
}

const NO_ADMISSIONS = { plans: null, instanceId: null } as const;

/**
 * Release every reservation pending for longer than `olderThanSeconds` (a crash
 * between reserve and finish): the ledger rows become `abandoned`, not charged, and
 * their units go back to their keys, through {@link finishAll}, which touches only rows
 * still pending (so a finish racing the sweep wins or loses whole). Returns how many
 * reservations were released.
 */
export async function sweepAbandoned(db: Database, olderThanSeconds: number): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `SELECT id FROM ledger
      WHERE outcome = 'pending' AND created_at < now() - make_interval(secs => $1)
      ORDER BY id LIMIT $2`,
    [olderThanSeconds, MAX_SWEEP],
  );
  if (rows.length === 0) return 0;
  const end: Finish = {
    charged: false,
    outcome: 'abandoned',
    error: 'released: no result was delivered',
    upstreamStatus: null,
    receiptNonce: null,
  };
  const released = await finishAll(
    db,
    rows.map((row) => ({ ledgerId: String(row.id), end })),
  );
  return released.size;
}

/** Most reservations one sweep releases; the next sweep takes the rest. */
const MAX_SWEEP = 5000;

/** How a reservation of an instance that is gone is finished. */
const RELEASED_BY_LEASE: Finish = {
  charged: false,
  outcome: 'abandoned',
  error: 'released: its instance stopped before delivering a result',
  upstreamStatus: null,
  receiptNonce: null,
};

/**
 * Renew the lease of instance `instanceId` (written at start-up, then every second;
 * re-created if another instance deleted it as expired).
 */
export async function renewLease(db: Queryable, instanceId: string): Promise<void> {
  await db.query(
    `INSERT INTO instances (id) VALUES ($1)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
    [instanceId],
    'storefront_lease',
  );
}

/**
 * Release the reservations held by instances whose lease was not renewed for
 * `leaseSeconds` (or is gone), through {@link finishAll}, so a row finished meanwhile by
 * its instance stays as it was; then delete those leases. The database's clock decides,
 * so instances' clocks need not agree. Returns how many reservations were released.
 */
export async function releaseExpiredLeases(db: Queryable, leaseSeconds: number): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `SELECT l.id FROM ledger l LEFT JOIN instances i ON i.id = l.instance_id
      WHERE l.outcome = 'pending' AND l.instance_id IS NOT NULL
        AND (i.id IS NULL OR i.heartbeat_at < now() - make_interval(secs => $1))
      ORDER BY l.id LIMIT $2`,
    [leaseSeconds, MAX_SWEEP],
    'storefront_expired_leases',
  );
  const released =
    rows.length === 0
      ? new Set<string>()
      : await finishAll(
          db,
          rows.map((row) => ({ ledgerId: String(row.id), end: RELEASED_BY_LEASE })),
        );
  if (rows.length < MAX_SWEEP) {
    await db.query(
      `DELETE FROM instances i
        WHERE i.heartbeat_at < now() - make_interval(secs => $1)
          AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.outcome = 'pending' AND l.instance_id = i.id)`,
      [leaseSeconds],
      'storefront_drop_leases',
    );
  }
  return released.size;
}

/**
 * At shutdown, once its calls have ended: release whatever instance `instanceId` still
 * holds (nothing, after a clean drain) and give up its lease. Returns how many
 * reservations were released.
 */
export async function endLease(db: Queryable, instanceId: string): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `SELECT id FROM ledger WHERE outcome = 'pending' AND instance_id = $1`,
    [instanceId],
  );
  const released =
    rows.length === 0
      ? new Set<string>()
      : await finishAll(
          db,
          rows.map((row) => ({ ledgerId: String(row.id), end: RELEASED_BY_LEASE })),
        );
  await db.query('DELETE FROM instances WHERE id = $1', [instanceId]);
  return released.size;
}

/** Add purchased credits to a key (operator API). Returns the key after the change. */
export async function addCredits(
  db: Queryable,
  keyId: string,
  credits: number,
): Promise<KeyRecord | null> {
  const { rows } = await db.query<KeyRow>(
    `UPDATE api_keys SET credits = credits + $2 WHERE key_id = $1 AND env = 'live'
     RETURNING ${KEY_COLUMNS}`,
    [keyId, credits],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Put a live key on `plan`, granting the plan's allowance (operator API, renewals). */
export async function setTier(
  db: Queryable,
  keyId: string,
  plan: TierPlan,
): Promise<KeyRecord | null> {
  const { rows } = await db.query<KeyRow>(
    `UPDATE api_keys SET tier = $2, included_remaining = $3, plan_ends_at = NULL
      WHERE key_id = $1 AND env = 'live'
     RETURNING ${KEY_COLUMNS}`,
    [keyId, plan.tier, plan.included ?? 0],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Revoke a key; later calls with it answer 401. Idempotent. */
export async function revokeKey(db: Queryable, keyId: string): Promise<KeyRecord | null> {
  const { rows } = await db.query<KeyRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE key_id = $1
     RETURNING ${KEY_COLUMNS}`,
    [keyId],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** One ledger row as the operator API shows it. */
export interface LedgerEntry {
  readonly id: string;
  readonly keyId: string;
  readonly route: string;
  readonly price: number;
  readonly units: number;
  readonly source: string;
  readonly charged: boolean;
  readonly outcome: string;
  readonly error: string | null;
  readonly upstreamStatus: number | null;
  readonly receiptNonce: string | null;
  readonly requestId: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  /** The payment processor event of a grant (`outcome: granted`); null for calls. */
  readonly eventId: string | null;
}

/** A key's ledger, oldest first, `limit` rows after id `after`. */
export async function ledgerFor(
  db: Queryable,
  keyId: string,
  options: { limit: number; after: string | null },
): Promise<LedgerEntry[]> {
  const { rows } = await db.query<{
    id: string;
    key_id: string;
    route: string;
    price: number;
    units: number;
    source: string;
    charged: boolean;
    outcome: string;
    error: string | null;
    upstream_status: number | null;
    receipt_nonce: string | null;
    request_id: string | null;
    created_at: Date | string;
    finished_at: Date | string | null;
    event_id: string | null;
  }>(`SELECT * FROM ledger WHERE key_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [
    keyId,
    options.after ?? '0',
    options.limit,
  ]);
  return rows.map((row) => ({
    id: String(row.id),
    keyId: row.key_id,
    route: row.route,
    price: row.price,
    units: row.units,
    source: row.source,
    charged: row.charged,
    outcome: row.outcome,
    error: row.error,
    upstreamStatus: row.upstream_status,
    receiptNonce: row.receipt_nonce,
    requestId: row.request_id,
    createdAt: iso(row.created_at) as string,
    finishedAt: iso(row.finished_at),
    eventId: row.event_id,
  }));
}
