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
  readonly monthlyUsd: number;
}

/** Calls per minute of an enterprise key (DESIGN §4: 3,000, configurable). */
export const ENTERPRISE_PER_MINUTE = 3000;

/**
 * The tier table. `prepaid` is a live key with no subscription: it spends purchased
 * credits only, at pro's rate window (docs/decisions.md, "Live keys without a plan").
 */
export function tierPlans(
  enterprisePerMinute = ENTERPRISE_PER_MINUTE,
): Readonly<Record<Tier, TierPlan>> {
  return {
    sandbox: { tier: 'sandbox', env: 'test', included: 100, perMinute: 5, monthlyUsd: 0 },
    prepaid: { tier: 'prepaid', env: 'live', included: null, perMinute: 120, monthlyUsd: 0 },
    pro: { tier: 'pro', env: 'live', included: 50_000, perMinute: 120, monthlyUsd: 29 },
    business: {
      tier: 'business',
      env: 'live',
      included: 1_000_000,
      perMinute: 600,
      monthlyUsd: 199,
    },
    enterprise: {
      tier: 'enterprise',
      env: 'live',
      included: null,
      perMinute: enterprisePerMinute,
      monthlyUsd: 1500,
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
