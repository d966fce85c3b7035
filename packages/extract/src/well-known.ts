import { FIELD_SPECS } from './rules.js';

/**
 * The well-known field names and, for each, the labels of its rules in the order they are
 * tried (the README's table is this list). Any other name gets the generic lookup.
 */
export const WELL_KNOWN_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze(
  Object.fromEntries(
    Object.entries(FIELD_SPECS).map(([name, spec]) => [
      name,
      Object.freeze(spec.rules.map((rule) => rule.label)),
    ]),
  ),
);
