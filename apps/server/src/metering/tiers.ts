/** The plans a key can be on (spec "Tiers"; DESIGN §4). */
export const TIERS = ['sandbox', 'prepaid', 'pro', 'business', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** What a tier allows, and how it is sold. */
export interface TierPlan {
  readonly tier: Tier;
  readonly env: 'test' | 'live';
  /** Calls in the monthly allowance (sandbox: in all); null when unmetered or none. */
  readonly included: number | null;
  /** Calls per minute. */
  readonly perMinute: number;
  /**
   * Calls of one key in flight at once (admitted and not yet finished), on every
   * instance together; one more is refused 429 `too_many_in_flight`.
   */
  readonly inFlight: number;
  readonly monthlyUsd: number;
  /**
   * What pays a call on this plan, in order: the first source with something left pays
   * (sandbox calls, the monthly allowance, purchased credits, or nothing: unmetered).
   */
  readonly pays: readonly PaySource[];
  /** The 402 refusal when no source can pay. */
  readonly exhausted: 'sandbox_exhausted' | 'insufficient_credits';
  /** Sold as a monthly subscription (checkout, renewals, the subscribe buttons). */
  readonly subscription: boolean;
  /**
   * The tier of a live key without a subscription: a new live key's, and the one a
   * plan falls to when its subscription ends (lapses). Exactly one tier is.
   */
  readonly planless: boolean;
}

/** Where a call's cost is taken from (the ledger's `source`). */
export type PaySource = 'sandbox' | 'included' | 'credits' | 'unmetered';

/** Calls per minute of an enterprise key (DESIGN §4: 3,000, configurable). */
export const ENTERPRISE_PER_MINUTE = 3000;

/** The tier table: each tier's plan. */
export type TierPlans = Readonly<Record<Tier, TierPlan>>;

/**
 * The tier table, the one definition of each plan and of the rules around plans: which
 * tiers are sold as subscriptions, which one a lapsed plan falls to (`planless`), which
 * one is unmetered (`pays: ['unmetered']`). Everything else (admission, billing, the
 * pages, the SQL) reads it. `prepaid` is a live key with no subscription: it spends
 * purchased credits only, at pro's rate window and pro's calls in flight
 * (docs/decisions.md, "Plans and the meter", "Calls in flight").
 */
const TIER_TABLE = {
  sandbox: {
    tier: 'sandbox',
    env: 'test',
    included: 100,
    perMinute: 5,
    inFlight: 2,
    monthlyUsd: 0,
    pays: ['sandbox'],
    exhausted: 'sandbox_exhausted',
    subscription: false,
    planless: false,
  },
  prepaid: {
    tier: 'prepaid',
    env: 'live',
    included: null,
    perMinute: 120,
    inFlight: 10,
    monthlyUsd: 0,
    pays: ['credits'],
    exhausted: 'insufficient_credits',
    subscription: false,
    planless: true,
  },
  pro: {
    tier: 'pro',
    env: 'live',
    included: 50_000,
    perMinute: 120,
    inFlight: 10,
    monthlyUsd: 29,
    pays: ['included', 'credits'],
    exhausted: 'insufficient_credits',
    subscription: true,
    planless: false,
  },
  business: {
    tier: 'business',
    env: 'live',
    included: 1_000_000,
    perMinute: 600,
    inFlight: 25,
    monthlyUsd: 199,
    pays: ['included', 'credits'],
    exhausted: 'insufficient_credits',
    subscription: true,
    planless: false,
  },
  enterprise: {
    tier: 'enterprise',
    env: 'live',
    included: null,
    perMinute: ENTERPRISE_PER_MINUTE,
    inFlight: 100,
    monthlyUsd: 1500,
    pays: ['unmetered'],
    exhausted: 'insufficient_credits',
    subscription: true,
    planless: false,
  },
} as const satisfies TierPlans;

/**
 * The tier table with the configured enterprise rate (`ENTERPRISE_PER_MINUTE`): built
 * once, where the app's dependencies are (`deps.ts`).
 */
export function tierPlans(enterprisePerMinute = ENTERPRISE_PER_MINUTE): TierPlans {
  return {
    ...TIER_TABLE,
    enterprise: { ...TIER_TABLE.enterprise, perMinute: enterprisePerMinute },
  };
}

type Table = typeof TIER_TABLE;

/** The tiers sold by subscription: the table's `subscription` rows. */
export type PaidTier = { [T in Tier]: Table[T]['subscription'] extends true ? T : never }[Tier];

/** The tier a live key without a subscription is on: the table's `planless` row. */
export type PlanlessTier = { [T in Tier]: Table[T]['planless'] extends true ? T : never }[Tier];

/** The tiers a live key can be put on (all but the sandbox). */
export type LiveTier = { [T in Tier]: Table[T]['env'] extends 'live' ? T : never }[Tier];

/** The tiers sold by subscription, in the table's order (cheapest first). */
export const PAID_TIERS = nonEmpty(
  TIERS.filter((tier): tier is PaidTier => TIER_TABLE[tier].subscription),
  'subscription',
);

/** The tier of a new live key, and the one a lapsed plan falls to. */
export const PLANLESS_TIER: PlanlessTier = only(
  TIERS.filter((tier): tier is PlanlessTier => TIER_TABLE[tier].planless),
  'planless',
);

/** The tiers a live key can be on, in the table's order. */
export const LIVE_TIERS = nonEmpty(
  TIERS.filter((tier): tier is LiveTier => TIER_TABLE[tier].env === 'live'),
  'live',
);

/** The tiers whose calls no meter counts (`pays: ['unmetered']`). */
export const UNMETERED_TIERS: readonly Tier[] = TIERS.filter((tier) =>
  (TIER_TABLE[tier].pays as readonly PaySource[]).includes('unmetered'),
);

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function isPaidTier(value: unknown): value is PaidTier {
  return typeof value === 'string' && (PAID_TIERS as readonly string[]).includes(value);
}

export function isLiveTier(value: unknown): value is LiveTier {
  return typeof value === 'string' && (LIVE_TIERS as readonly string[]).includes(value);
}

/** Whether `tier`'s calls are unmetered (its balance has no allowance to show). */
export function isUnmetered(tier: Tier): boolean {
  return UNMETERED_TIERS.includes(tier);
}

/** Whether `tier` has a monthly allowance of calls (`pays` includes `included`). */
export function hasAllowance(tier: Tier): boolean {
  return (TIER_TABLE[tier].pays as readonly PaySource[]).includes('included');
}

/** USDC atomic units per credit: 1 credit = $0.001 = 1000 units (6 decimals). */
export const UNITS_PER_CREDIT = 1000;

/** A call's cost in credits: its catalog price, minimum 1 (spec "Tiers"). */
export function creditsFor(amount: number): number {
  return Math.max(1, Math.ceil(amount / UNITS_PER_CREDIT));
}

function nonEmpty<T>(tiers: readonly T[], rule: string): readonly [T, ...T[]] {
  const [first, ...rest] = tiers;
  if (first === undefined) throw new Error(`The tier table has no ${rule} tier`);
  return [first, ...rest];
}

function only<T>(tiers: readonly T[], rule: string): T {
  if (tiers.length !== 1 || tiers[0] === undefined) {
    throw new Error(`The tier table must have exactly one ${rule} tier, has ${tiers.length}`);
  }
  return tiers[0];
}
