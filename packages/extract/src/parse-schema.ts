import { typeName } from '@storefront/core';
import type { ExtractField, ExtractFieldType, ParsedExtractSchema } from './types.js';

/** The longest `schema` parameter accepted (the spec's limit for `/buy/extract`). */
export const EXTRACT_SCHEMA_MAX_CHARS = 1024;

/** The most fields one schema may name. */
export const EXTRACT_MAX_FIELDS = 64;

/** The longest field name accepted. */
export const EXTRACT_FIELD_NAME_MAX_CHARS = 64;

/** The declared types, in the order messages list them. */
export const EXTRACT_FIELD_TYPES: readonly ExtractFieldType[] = Object.freeze([
  'string',
  'number',
  'integer',
  'boolean',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const TYPE_LIST = EXTRACT_FIELD_TYPES.map((type) => `\`${type}\``).join(', ');

/**
 * Read the `schema` parameter of `/buy/extract` into fields, or say exactly what is
 * wrong with it. Two forms:
 *
 * - compact: a comma list of `field[:type]`, type one of `string`, `number`, `integer`,
 *   `boolean` (ASCII case-insensitive, default `string`), whitespace around names,
 *   colons and commas ignored: `title, price:number, inStock:boolean`;
 * - JSON Schema: a string starting with `{` holding an object whose `properties` map
 *   each field to an object with a `type` among the four; a union with `null`
 *   (`["string","null"]`) takes the other type; every other keyword is ignored.
 *
 * Names start with a letter or `_`, hold only ASCII letters, digits, `_` and `-`, are at
 * most {@link EXTRACT_FIELD_NAME_MAX_CHARS} characters, are unique, and are not
 * `__proto__`; at most {@link EXTRACT_MAX_FIELDS} fields. Never throws.
 *
 * @example
 *   parseExtractSchema('title, price:number')
 *   // { ok: true, fields: [{ name: 'title', type: 'string' }, { name: 'price', type: 'number' }] }
 */
export function parseExtractSchema(schema: string): ParsedExtractSchema {
  if (typeof schema !== 'string') {
    return failure(`Expected \`schema\` to be a string, got \`${typeName(schema)}\``);
  }
  if (schema.length > EXTRACT_SCHEMA_MAX_CHARS) {
    return failure(
      `\`schema\` is ${schema.length} characters; the limit is ${EXTRACT_SCHEMA_MAX_CHARS}`,
    );
  }
  const trimmed = schema.trim();
  if (trimmed === '') {
    return failure(
      '`schema` is empty; expected a comma list of `field[:type]` or a JSON Schema with `properties`',
    );
  }
  const entries = trimmed.startsWith('{') ? jsonEntries(trimmed) : compactEntries(trimmed);
  if (!Array.isArray(entries)) return entries;
  return checkFields(entries);
}

type Entries = { name: string; type: ExtractFieldType }[] | { ok: false; message: string };

function compactEntries(schema: string): Entries {
  const entries: { name: string; type: ExtractFieldType }[] = [];
  const parts = schema.split(',');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!.trim();
    if (part === '') {
      return failure(
        `Entry ${i + 1} of \`schema\` is empty; expected \`field[:type]\` between commas`,
      );
    }
    const pieces = part.split(':');
    if (pieces.length > 2) {
      return failure(
        `Entry \`${clip(part)}\` of \`schema\` has more than one \`:\`; expected \`field[:type]\``,
      );
    }
    const name = pieces[0]!.trim();
    let type: ExtractFieldType = 'string';
    if (pieces.length === 2) {
      const raw = pieces[1]!.trim();
      const known = typeOf(raw);
      if (known === null) {
        return failure(
          raw === ''
            ? `Field \`${clip(name)}\` has \`:\` but no type; expected one of ${TYPE_LIST}`
            : `Unknown type \`${clip(raw)}\` for field \`${clip(name)}\`; expected one of ${TYPE_LIST}`,
        );
      }
      type = known;
    }
    entries.push({ name, type });
  }
  return entries;
}

function jsonEntries(schema: string): Entries {
  let parsed: unknown;
  try {
    parsed = JSON.parse(schema);
  } catch {
    return failure('`schema` starts with `{` but is not valid JSON');
  }
  const properties = isRecord(parsed) ? parsed.properties : undefined;
  if (!isRecord(properties)) {
    return failure('Expected the JSON Schema in `schema` to have a `properties` object');
  }
  const entries: { name: string; type: ExtractFieldType }[] = [];
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    if (!isRecord(property)) {
      return failure(
        `Expected property \`${clip(name)}\` of \`schema\` to be an object with a \`type\``,
      );
    }
    const declared = property.type;
    if (declared === undefined) {
      return failure(
        `Property \`${clip(name)}\` of \`schema\` has no \`type\`; expected one of ${TYPE_LIST}`,
      );
    }
    const type = jsonType(declared);
    if (type === null) {
      return failure(
        `Property \`${clip(name)}\` of \`schema\` has type \`${clip(JSON.stringify(declared))}\`; expected one of ${TYPE_LIST}, alone or with \`null\``,
      );
    }
    entries.push({ name, type });
  }
  return entries;
}

function jsonType(declared: unknown): ExtractFieldType | null {
  if (typeof declared === 'string') return typeOf(declared);
  if (!Array.isArray(declared)) return null;
  let found: ExtractFieldType | null = null;
  for (const member of declared) {
    if (typeof member !== 'string') return null;
    if (member.trim().toLowerCase() === 'null') continue;
    const type = typeOf(member);
    if (type === null || (found !== null && found !== type)) return null;
    found = type;
  }
  return found;
}

function typeOf(raw: string): ExtractFieldType | null {
  const lower = raw.trim().toLowerCase();
  return (EXTRACT_FIELD_TYPES as readonly string[]).includes(lower)
    ? (lower as ExtractFieldType)
    : null;
}

function checkFields(
  entries: readonly { name: string; type: ExtractFieldType }[],
): ParsedExtractSchema {
  if (entries.length === 0) return failure('`schema` names no fields');
  if (entries.length > EXTRACT_MAX_FIELDS) {
    return failure(`\`schema\` names ${entries.length} fields; the limit is ${EXTRACT_MAX_FIELDS}`);
  }
  const seen = new Set<string>();
  const fields: ExtractField[] = [];
  for (const { name, type } of entries) {
    if (name === '') return failure('A field of `schema` has an empty name');
    if (name.length > EXTRACT_FIELD_NAME_MAX_CHARS) {
      return failure(
        `Field name \`${clip(name)}\` is ${name.length} characters; the limit is ${EXTRACT_FIELD_NAME_MAX_CHARS}`,
      );
    }
    if (!NAME.test(name)) {
      return failure(
        `Field name \`${clip(name)}\` is not allowed; names start with a letter or \`_\` and hold only letters, digits, \`_\` and \`-\``,
      );
    }
    if (name === '__proto__') return failure('Field name `__proto__` is not allowed');
    if (seen.has(name)) return failure(`Field \`${name}\` is named more than once in \`schema\``);
    seen.add(name);
    fields.push(Object.freeze({ name, type }));
  }
  return { ok: true, fields: Object.freeze(fields) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Quote at most 40 characters of user input in a message, made well-formed. */
function clip(text: string): string {
  const safe = text.replace(/[\u0000-\u001f\u007f`]/g, '?');
  return (safe.length > 40 ? `${safe.slice(0, 40)}…` : safe).toWellFormed();
}

function failure(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
