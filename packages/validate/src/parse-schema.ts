import { canonicalize, sha256Hex } from '@storefront/core';
import RE2 from 're2';
import { compileSchema } from './compile.js';
import { translatePattern, Untranslatable } from './ecma-pattern.js';
import {
  VALIDATE_CACHE_SIZE,
  VALIDATE_FORMATS,
  VALIDATE_MAX_PATTERN_LENGTH,
  VALIDATE_MAX_PATTERN_SIZE,
  VALIDATE_MAX_PATTERNS,
  VALIDATE_MAX_PROPERTIES,
  VALIDATE_MAX_SCHEMA_DEPTH,
  VALIDATE_MAX_SCHEMA_LENGTH,
  VALIDATE_MAX_SCHEMA_NODES,
  VALIDATE_TYPE_NAMES,
} from './limits.js';
import { Lru } from './lru.js';
import { patternSize } from './pattern-size.js';
import { escapeToken } from './pointer.js';
import { depthExceededAt, findSyntaxError, position } from './read-json.js';
import { SCHEMA_VOCABULARY, unsupportedKeyword } from './subset.js';
import type { NormalizedSchema, ParsedSchema, SchemaForm } from './types.js';

/** A refusal raised while reading a schema; turned into `{ ok: false, message }`. */
class Refusal {
  constructor(readonly message: string) {}
}

const TYPE_NAMES: ReadonlySet<string> = new Set(VALIDATE_TYPE_NAMES);
const FORMATS: ReadonlySet<string> = new Set(VALIDATE_FORMATS);
const TYPE_LIST = VALIDATE_TYPE_NAMES.join(', ');
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** ajv skips a property schema named `__proto__` (its prototype-pollution guard). */
const PROTO_REFUSAL =
  'A property named `__proto__` cannot be declared (the validator would skip it); use `required` or `additionalProperties`';

/**
 * Read a `schema` parameter in one of its three forms and normalise it to one draft-07
 * schema, checking every limit of security.md §3.4. The form is decided from the text
 * alone, in this order:
 *
 * 1. after JSON whitespace, a `{` starts JSON: an object with a schema keyword as a key
 *    (or no keys) is a **JSON Schema**; otherwise, when every value is a string, a
 *    **shorthand** map of field name to type name; anything else is read as JSON Schema
 *    (and refused for its unknown keywords);
 * 2. `true` or `false` (the whole text, a JSON boolean) is a **JSON Schema**: the boolean
 *    schema that accepts, or refuses, every value;
 * 3. a `[` or `"` is refused (a schema is an object, a boolean or a field list);
 * 4. anything else is a **compact** comma list of `field[:type]`.
 *
 * The compact and shorthand forms become `{type:'object', required:[…sorted], properties:
 * {field:{type}}}`. A JSON Schema loses its annotations, and `nullable: true` adds `null`
 * to its `type`. The schema is also compiled (and cached), so a schema accepted here
 * always validates. For the server's 400 `invalid_params`; it never throws.
 *
 * @example
 *   parseSchema('id:integer,name') // { ok: true, form: 'compact', normalized: {…}, hash: '0x…' }
 */
export function parseSchema(schema: string): ParsedSchema {
  if (typeof schema !== 'string') return read(schema);
  let result = recent.get(schema);
  if (result === undefined) {
    result = read(schema);
    recent.set(schema, result);
  }
  return result;
}

/** Results by schema text: the server parses a schema once for its 400 check, then again. */
const recent = new Lru<string, ParsedSchema>(VALIDATE_CACHE_SIZE);

function read(schema: unknown): ParsedSchema {
  try {
    const { form, normalized } = readSchema(schema);
    let text: string;
    try {
      text = canonicalize(normalized);
    } catch (error) {
      throw new Refusal(
        `The schema holds a value with no canonical JSON form: ${(error as Error).message}`,
      );
    }
    const hash = sha256Hex(text);
    const compiled = compileSchema(normalized, hash);
    if (!compiled.ok) throw new Refusal(compiled.message);
    // Frozen: results are cached and shared between callers.
    return Object.freeze({ ok: true, normalized: deepFreeze(normalized), form, hash });
  } catch (error) {
    if (error instanceof Refusal) return Object.freeze({ ok: false, message: error.message });
    throw error;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function readSchema(schema: unknown): { form: SchemaForm; normalized: NormalizedSchema } {
  if (typeof schema !== 'string') {
    throw new Refusal(`Expected \`schema\` to be a string, got \`${typeof schema}\``);
  }
  if (schema.length > VALIDATE_MAX_SCHEMA_LENGTH) {
    throw new Refusal(
      `Expected \`schema\` to be at most ${VALIDATE_MAX_SCHEMA_LENGTH} characters, got ${schema.length}`,
    );
  }
  if (!schema.isWellFormed()) {
    throw new Refusal('Expected `schema` to be well-formed Unicode, got a lone surrogate');
  }
  const text = schema.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (text === '')
    throw new Refusal('Expected `schema` to be a field list or a JSON object, got nothing');
  const first = text[0];
  if (first === '[' || first === '"') {
    throw new Refusal(
      `Expected \`schema\` to be a compact field list or a JSON object, got JSON starting with \`${first}\``,
    );
  }
  // A JSON boolean is a boolean schema (draft-07 §4.3.2), never a compact field list.
  if (text === 'true' || text === 'false')
    return { form: 'json-schema', normalized: text === 'true' };
  if (first !== '{') return { form: 'compact', normalized: fromCompact(text) };

  const deepAt = depthExceededAt(text, VALIDATE_MAX_SCHEMA_DEPTH);
  if (deepAt !== -1) {
    throw new Refusal(
      `The schema nests arrays and objects deeper than ${VALIDATE_MAX_SCHEMA_DEPTH} levels (${position(text, deepAt)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const syntax = findSyntaxError(text);
    const detail =
      syntax === null ? 'it does not parse' : `${syntax.reason} (${position(text, syntax.offset)})`;
    throw new Refusal(`The schema starts with \`{\` but is not valid JSON: ${detail}`);
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const isShorthand =
    keys.length > 0 &&
    keys.every((key) => !SCHEMA_VOCABULARY.has(key) && typeof object[key] === 'string');
  if (isShorthand) return { form: 'shorthand', normalized: fromShorthand(object, keys) };
  const counters: Counters = { nodes: 0, properties: 0, patterns: 0 };
  return {
    form: 'json-schema',
    normalized: normalizeSchema(object, '#', counters) as NormalizedSchema,
  };
}

/** A typed-object schema from field names and type names (the compact and shorthand forms). */
function fieldsSchema(fields: ReadonlyMap<string, string>): NormalizedSchema {
  if (fields.size > VALIDATE_MAX_PROPERTIES) {
    throw new Refusal(
      `The schema lists ${fields.size} fields; at most ${VALIDATE_MAX_PROPERTIES} are allowed`,
    );
  }
  const names = [...fields.keys()].sort();
  if (fields.has('__proto__')) throw new Refusal(PROTO_REFUSAL);
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    Object.defineProperty(properties, name, {
      value: { type: fields.get(name) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { type: 'object', required: names, properties };
}

/** `id:integer, name, tags:array` → the fields, each required and typed (`string` by default). */
function fromCompact(text: string): NormalizedSchema {
  const fields = new Map<string, string>();
  const items = text.split(',');
  for (let i = 0; i < items.length; i++) {
    const item = (items[i] as string).replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
    if (item === '') {
      throw new Refusal(
        `Field ${i + 1} of the compact schema is empty (two commas, or a trailing comma)`,
      );
    }
    const parts = item.split(':');
    if (parts.length > 2) {
      throw new Refusal(
        `Expected \`field\` or \`field:type\` in the compact schema, got \`${item}\``,
      );
    }
    const name = (parts[0] as string).replace(/[ \t\n\r]+$/, '');
    const type = parts.length === 2 ? (parts[1] as string).replace(/^[ \t\n\r]+/, '') : 'string';
    if (name === '')
      throw new Refusal(`Field ${i + 1} of the compact schema has no name: \`${item}\``);
    const bad = /[{}[\]"\u0000-\u001f\u007f]/.exec(name);
    if (bad !== null) {
      throw new Refusal(
        `Field name \`${name}\` holds \`${JSON.stringify(bad[0]).slice(1, -1)}\`, which the compact form does not allow (use a JSON schema)`,
      );
    }
    if (type === '')
      throw new Refusal(`Field \`${name}\` has an empty type; expected one of ${TYPE_LIST}`);
    if (!TYPE_NAMES.has(type)) {
      throw new Refusal(`Field \`${name}\` has type \`${type}\`; expected one of ${TYPE_LIST}`);
    }
    if (fields.has(name))
      throw new Refusal(`Field \`${name}\` is listed twice in the compact schema`);
    fields.set(name, type);
  }
  return fieldsSchema(fields);
}

/** `{"id":"integer","name":"string"}` → the fields, each required and typed. */
function fromShorthand(object: Record<string, unknown>, keys: readonly string[]): NormalizedSchema {
  const fields = new Map<string, string>();
  for (const key of keys) {
    const type = object[key] as string;
    if (!TYPE_NAMES.has(type)) {
      throw new Refusal(
        `Shorthand field \`${key}\` has type \`${type}\`; expected one of ${TYPE_LIST}`,
      );
    }
    fields.set(key, type);
  }
  return fieldsSchema(fields);
}

interface Counters {
  nodes: number;
  properties: number;
  patterns: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return `a number out of range`;
  return typeof value === 'object' ? 'an object' : `\`${JSON.stringify(value)}\``;
}

/**
 * Check one subschema against the subset and return its normalised copy. Recursion is
 * bounded: the schema text nests at most {@link VALIDATE_MAX_SCHEMA_DEPTH} levels.
 */
function normalizeSchema(value: unknown, at: string, counters: Counters): unknown {
  counters.nodes++;
  if (counters.nodes > VALIDATE_MAX_SCHEMA_NODES) {
    throw new Refusal(`The schema has more than ${VALIDATE_MAX_SCHEMA_NODES} subschemas`);
  }
  if (typeof value === 'boolean') return value;
  if (!isPlainObject(value)) {
    throw new Refusal(
      `Expected a schema (an object or a boolean) at \`${at}\`, got ${describe(value)}`,
    );
  }
  const out: Record<string, unknown> = {};
  // Sorted, so which refusal is reported first does not depend on key order.
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    const here = `${at}/${escapeToken(key)}`;
    switch (key) {
      case 'type':
        out.type = checkType(v, here);
        break;
      case 'required':
        out.required = checkNames(v, here);
        break;
      case 'properties': {
        if (!isPlainObject(v))
          throw new Refusal(`Expected \`${here}\` to be an object, got ${describe(v)}`);
        const names = Object.keys(v).sort();
        if (names.includes('__proto__')) throw new Refusal(`${PROTO_REFUSAL} (at \`${here}\`)`);
        counters.properties += names.length;
        if (counters.properties > VALIDATE_MAX_PROPERTIES) {
          throw new Refusal(
            `The schema declares more than ${VALIDATE_MAX_PROPERTIES} properties in all \`properties\``,
          );
        }
        const properties: Record<string, unknown> = {};
        for (const name of names) {
          // defineProperty: a property named `__proto__` stays an own property.
          Object.defineProperty(properties, name, {
            value: normalizeSchema(v[name], `${here}/${escapeToken(name)}`, counters),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        out.properties = properties;
        break;
      }
      case 'items':
        out.items = Array.isArray(v)
          ? schemaArray(v, here, counters)
          : normalizeSchema(v, here, counters);
        break;
      case 'additionalProperties':
      case 'not':
        out[key] = normalizeSchema(v, here, counters);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        if (!Array.isArray(v))
          throw new Refusal(`Expected \`${here}\` to be an array of schemas, got ${describe(v)}`);
        out[key] = schemaArray(v, here, counters);
        break;
      case 'enum':
        if (!Array.isArray(v) || v.length === 0) {
          throw new Refusal(`Expected \`${here}\` to be a non-empty array, got ${describe(v)}`);
        }
        checkDistinct(v, here);
        out.enum = v;
        break;
      case 'const':
        out.const = v;
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          throw new Refusal(
            `Expected \`${here}\` to be a finite number, got ${describe(v)}${dataHint(v)}`,
          );
        }
        out[key] = v;
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties':
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
          throw new Refusal(
            `Expected \`${here}\` to be a non-negative integer, got ${describe(v)}${dataHint(v)}`,
          );
        }
        out[key] = v;
        break;
      case 'pattern':
        out.pattern = checkPattern(v, here, counters);
        break;
      case 'format':
        if (typeof v !== 'string')
          throw new Refusal(`Expected \`${here}\` to be a string, got ${describe(v)}`);
        if (v === 'regex') {
          throw new Refusal(
            `\`${here}\` is \`regex\`, which is not supported (it would compile document strings as patterns); the checked formats are ${VALIDATE_FORMATS.join(', ')}`,
          );
        }
        // Draft-07 §7.2: a format that is not checked is an annotation, dropped like one.
        if (FORMATS.has(v)) out.format = v;
        break;
      case 'nullable':
        if (typeof v !== 'boolean')
          throw new Refusal(`Expected \`${here}\` to be a boolean, got ${describe(v)}`);
        break;
      case '$schema':
        if (typeof v !== 'string' || !DRAFT_07.test(v)) {
          throw new Refusal(
            `Expected \`${here}\` to name draft-07 (\`http://json-schema.org/draft-07/schema#\`), got ${describe(v)}`,
          );
        }
        break;
      case '$comment':
      case 'title':
      case 'description':
        if (typeof v !== 'string')
          throw new Refusal(`Expected \`${here}\` to be a string, got ${describe(v)}`);
        break;
      case 'readOnly':
      case 'writeOnly':
        if (typeof v !== 'boolean')
          throw new Refusal(`Expected \`${here}\` to be a boolean, got ${describe(v)}`);
        break;
      case 'examples':
        if (!Array.isArray(v))
          throw new Refusal(`Expected \`${here}\` to be an array, got ${describe(v)}`);
        break;
      case 'default':
        break;
      default: {
        let message = unsupportedKeyword(key, at);
        if (at === '#' && !Object.keys(value).some((k) => SCHEMA_VOCABULARY.has(k))) {
          message += ' (a JSON object is a shorthand map only when every value is a type name)';
        }
        throw new Refusal(message);
      }
    }
  }
  if (value.nullable === true) {
    // OpenAPI 3.0: `nullable: true` adds null to the allowed types, and needs `type`.
    const type = out.type;
    if (type === undefined) {
      throw new Refusal(
        `\`${at}/nullable\` is true but \`${at}\` has no \`type\` to add \`null\` to`,
      );
    }
    if (typeof type === 'string') {
      if (type !== 'null') out.type = [type, 'null'];
    } else if (!(type as string[]).includes('null')) {
      out.type = [...(type as string[]), 'null'];
    }
  }
  return out;
}

/** Draft-07's meta-schema wants the values of `enum` distinct (equal as JSON). */
function checkDistinct(values: readonly unknown[], at: string): void {
  const seen = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    let key: string;
    try {
      key = canonicalize(values[i]);
    } catch {
      continue; // Refused later: the schema has no canonical form.
    }
    const first = seen.get(key);
    if (first !== undefined)
      throw new Refusal(`\`${at}\` lists the same value twice (entries ${first} and ${i})`);
    seen.set(key, i);
  }
}

function dataHint(value: unknown): string {
  return isPlainObject(value) && '$data' in value ? ' (`$data` references are not supported)' : '';
}

function schemaArray(values: readonly unknown[], at: string, counters: Counters): unknown[] {
  if (values.length === 0)
    throw new Refusal(`Expected \`${at}\` to hold at least one schema, got none`);
  return values.map((value, i) => normalizeSchema(value, `${at}/${i}`, counters));
}

function checkType(value: unknown, at: string): string | string[] {
  if (typeof value === 'string') {
    if (!TYPE_NAMES.has(value)) {
      throw new Refusal(`Expected \`${at}\` to be one of ${TYPE_LIST}, got \`${value}\``);
    }
    return value;
  }
  if (Array.isArray(value) && value.length > 0) {
    const seen = new Set<string>();
    for (const name of value) {
      if (typeof name !== 'string' || !TYPE_NAMES.has(name)) {
        throw new Refusal(
          `Expected every entry of \`${at}\` to be one of ${TYPE_LIST}, got ${describe(name)}`,
        );
      }
      if (seen.has(name)) throw new Refusal(`\`${at}\` lists \`${name}\` twice`);
      seen.add(name);
    }
    return value as string[];
  }
  throw new Refusal(
    `Expected \`${at}\` to be a type name or a non-empty array of them, got ${describe(value)}`,
  );
}

function checkNames(value: unknown, at: string): string[] {
  if (!Array.isArray(value))
    throw new Refusal(`Expected \`${at}\` to be an array of strings, got ${describe(value)}`);
  const seen = new Set<string>();
  for (const name of value) {
    if (typeof name !== 'string') {
      throw new Refusal(`Expected every entry of \`${at}\` to be a string, got ${describe(name)}`);
    }
    if (seen.has(name)) throw new Refusal(`\`${at}\` lists \`${name}\` twice`);
    seen.add(name);
  }
  return value as string[];
}

function checkPattern(value: unknown, at: string, counters: Counters): string {
  if (typeof value !== 'string')
    throw new Refusal(`Expected \`${at}\` to be a string, got ${describe(value)}`);
  counters.patterns++;
  if (counters.patterns > VALIDATE_MAX_PATTERNS) {
    throw new Refusal(`The schema has more than ${VALIDATE_MAX_PATTERNS} \`pattern\` keywords`);
  }
  if (value.length > VALIDATE_MAX_PATTERN_LENGTH) {
    throw new Refusal(
      `Expected \`${at}\` to be at most ${VALIDATE_MAX_PATTERN_LENGTH} characters, got ${value.length}`,
    );
  }
  const size = patternSize(value);
  if (size > VALIDATE_MAX_PATTERN_SIZE) {
    throw new Refusal(
      `\`${at}\` expands to about ${size} positions once its counted repetitions are unrolled; at most ${VALIDATE_MAX_PATTERN_SIZE} are allowed`,
    );
  }
  let translated: string;
  try {
    translated = translatePattern(value);
  } catch (error) {
    if (!(error instanceof Untranslatable)) throw error;
    throw new Refusal(
      `\`${at}\` uses ${error.construct}, which the linear-time pattern engine (RE2) cannot run; backreferences, lookaround and Unicode properties other than General_Category, Script, Any, ASCII, ASCII_Hex_Digit and White_Space are not supported`,
    );
  }
  try {
    // ajv compiles patterns with the `u` flag.
    new RE2(translated, 'u');
  } catch (error) {
    throw new Refusal(
      `\`${at}\` is not a pattern RE2 accepts (${(error as Error).message}); backreferences and lookaround are not supported`,
    );
  }
  return value;
}
