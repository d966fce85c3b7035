/** Smallest credit pack, in dollars (docs/decisions.md, "Billing: top-up limits"). */
export const TOPUP_MIN_USD = 5;
/** Largest credit pack, in dollars. */
export const TOPUP_MAX_USD = 1000;
/** Credits per cent: 1 credit = $0.001 (spec "Tiers"). */
export const CREDITS_PER_CENT = 10;

/**
 * A top-up amount as whole cents: `usd` is a decimal number of dollars with at most two
 * decimals (`25`, `12.5`, `12.50`), from {@link TOPUP_MIN_USD} to {@link TOPUP_MAX_USD}.
 * Null when it is anything else.
 */
export function topupCents(usd: unknown): number | null {
  if (typeof usd !== 'string' || !/^\d{1,4}(\.\d{1,2})?$/.test(usd)) return null;
  const [whole = '0', fraction = ''] = usd.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents < TOPUP_MIN_USD * 100 || cents > TOPUP_MAX_USD * 100) return null;
  return cents;
}

/** Cents as a dollar string: 2900 → `29.00`. */
export function centsToUsd(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
