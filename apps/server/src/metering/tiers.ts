/** The plans a key can be on (spec "Tiers"; DESIGN §4). */
export const TIERS = ['sandbox', 'prepaid', 'pro', 'business', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** What a tier allows. */
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
}

/** Where a call's cost is taken from (the ledger's `source`). */
export type PaySource = 'sandbox' | 'included' | 'credits' | 'unmetered';

/** Calls per minute of an enterprise key (DESIGN §4: 3,000, configurable). */
export const ENTERPRISE_PER_MINUTE = 3000;

/** The tier table: each tier's plan. */
export type TierPlans = Readonly<Record<Tier, TierPlan>>;

/**
 * The tier table, the one definition of each plan. `prepaid` is a live key with no
 * subscription: it spends purchased credits only, at pro's rate window and pro's calls
 * in flight (docs/decisions.md, "Plans and the meter", "Calls in flight").
 */
export function tierPlans(enterprisePerMinute = ENTERPRISE_PER_MINUTE): TierPlans {
  return {
    sandbox: {
      tier: 'sandbox',
      env: 'test',
      included: 100,
      perMinute: 5,
      inFlight: 2,
      monthlyUsd: 0,
      pays: ['sandbox'],
      exhausted: 'sandbox_exhausted',
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
    },
    enterprise: {
      tier: 'enterprise',
      env: 'live',
      included: null,
      perMinute: enterprisePerMinute,
      inFlight: 100,
      monthlyUsd: 1500,
      pays: ['unmetered'],
      exhausted: 'insufficient_credits',
    },
  };
}

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** USDC atomic units per credit: 1 credit = $0.001 = 1000 units (6 decimals). */
export const UNITS_PER_CREDIT = 1000;

/** A call's cost in credits: its catalog price, minimum 1 (spec "Tiers"). */
export function creditsFor(amount: number): number {
  return Math.max(1, Math.ceil(amount / UNITS_PER_CREDIT));
}
