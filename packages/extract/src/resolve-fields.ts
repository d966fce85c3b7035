import { capString, StorefrontError } from '@storefront/core';
import type { HtmlPage } from '@storefront/html';
import { type Coerced, coerce } from './coerce.js';
import { scalarOf } from './lookup.js';
import { EXTRACT_FIELD_TYPES } from './parse-schema.js';
import { type FieldSpec, fieldSpec } from './rules.js';
import { PageSources } from './sources.js';
import type { ExtractField, ExtractFieldType, ExtractValue, ResolvedFields } from './types.js';

/**
 * The longest string value of a typed record (10,000 characters, UTF-16 code units); a
 * longer one keeps its start and ends with `…` (`capString` of @storefront/core). Numbers
 * are never read from strings this long.
 */
export const EXTRACT_MAX_VALUE_CHARS = 10_000;

/**
 * Resolve typed fields from a parsed page, metascraper style: each field has an ordered
 * list of small rules (JSON-LD, then OpenGraph, then meta, then microdata, then the
 * field's fallbacks); the first value that is valid for the declared type wins, and a
 * field no rule satisfies is null. Shared by `/buy/extract` and `/buy/fetch?extract=…`.
 * A repeated field name is resolved once, with its first type. String values are capped at
 * {@link EXTRACT_MAX_VALUE_CHARS}.
 *
 * @example
 *   const loaded = loadHtml(doc);
 *   if (loaded.ok) resolveFields(loaded.page, [{ name: 'price', type: 'number' }]);
 *   // { record: { price: 1299 }, coerced: ['price'] }
 */
export function resolveFields(page: HtmlPage, fields: readonly ExtractField[]): ResolvedFields {
  const sources = new PageSources(page);
  const values = new Map<string, ExtractValue>();
  const coerced: string[] = [];
  for (const field of fields) {
    checkField(field);
    if (values.has(field.name)) continue;
    const found = resolveField(fieldSpec(field.name), field.type, sources);
    const value = found === null ? null : found.value;
    values.set(
      field.name,
      typeof value === 'string' ? capString(value, EXTRACT_MAX_VALUE_CHARS) : value,
    );
    if (found?.cast === true) coerced.push(field.name);
  }
  const names = [...values.keys()].sort();
  return { record: Object.fromEntries(names.map((name) => [name, values.get(name)!])), coerced };
}

function resolveField(
  spec: FieldSpec,
  type: ExtractFieldType,
  sources: PageSources,
): Coerced | null {
  for (const rule of spec.rules) {
    for (const candidate of rule.read(sources)) {
      const raw = scalarOf(candidate, spec.keys);
      if (raw === null) continue;
      const typed = coerce(raw, type);
      if (typed === null) continue;
      if (type === 'string' && spec.check !== undefined) {
        const checked = spec.check(typed.value as string, sources.page);
        if (checked === null) continue;
        return { value: checked, cast: typed.cast };
      }
      return typed;
    }
  }
  return null;
}

function checkField(field: ExtractField): void {
  if (
    field === null ||
    typeof field !== 'object' ||
    typeof field.name !== 'string' ||
    !(EXTRACT_FIELD_TYPES as readonly string[]).includes(field.type)
  ) {
    throw new StorefrontError(
      'invalid_params',
      `Expected each field to be \`{ name: string, type: 'string' | 'number' | 'integer' | 'boolean' }\`, got \`${JSON.stringify(field) ?? String(field)}\``,
    );
  }
}
