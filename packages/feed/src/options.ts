import { StorefrontError } from '@storefront/core';
import { FEED_MAX_ITEMS, FEED_MAX_SUMMARY_CHARS } from './limits.js';
import type { FeedOptions, ReadLimits } from './types.js';

const CAPS: Readonly<Record<keyof FeedOptions, number>> = {
  maxItems: FEED_MAX_ITEMS,
  maxSummaryChars: FEED_MAX_SUMMARY_CHARS,
};

/**
 * Check the options and fill in the defaults. Misuse throws a `StorefrontError`
 * (`invalid_params`): options that are not an object, unknown names, and values that are
 * not integers between 0 and the cap.
 */
export function readOptions(options: Readonly<FeedOptions> | null | undefined): ReadLimits {
  if (options === undefined || options === null) {
    return { maxItems: FEED_MAX_ITEMS, maxSummaryChars: FEED_MAX_SUMMARY_CHARS };
  }
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected options to be an object, got \`${Array.isArray(options) ? 'array' : typeof options}\``,
    );
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(CAPS, key)) {
      throw new StorefrontError(
        'invalid_params',
        `Unknown option \`${key}\` (expected \`maxItems\` or \`maxSummaryChars\`)`,
      );
    }
  }
  return {
    maxItems: readCap(options.maxItems, 'maxItems'),
    maxSummaryChars: readCap(options.maxSummaryChars, 'maxSummaryChars'),
  };
}

function readCap(value: unknown, name: keyof FeedOptions): number {
  const cap = CAPS[name];
  if (value === undefined) return cap;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > cap) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`${name}\` to be an integer from 0 to ${cap}, got \`${String(value)}\``,
    );
  }
  return value;
}
