import Ajv, {
  _,
  type CodeKeywordDefinition,
  type ErrorObject,
  Name,
  str,
  type ValidateFunction,
} from 'ajv';
import RE2 from 're2';
import { translatePattern } from './ecma-pattern.js';
import { FORMAT_CHECKS } from './formats.js';
import { VALIDATE_CACHE_SIZE, VALIDATE_MAX_COUNTED_ERRORS, VALIDATE_MAX_WORK } from './limits.js';
import { Lru } from './lru.js';
import { keysOf } from './object-keys.js';
import { analyzePattern } from './pattern-size.js';
import type { NormalizedSchema } from './types.js';

/** Keyword added to every subschema of the compiled copy: charges the budget, caps errors. */
export const COST_KEYWORD = 'storefrontCost';
/** Keyword that replaces a `false` subschema in the compiled copy, so it is metered too. */
export const FALSE_KEYWORD = 'storefrontFalse';

/** ajv's own names for the error list and count inside a compiled function. */
const ERRORS = new Name('errors');
const V_ERRORS = new Name('vErrors');

/** Thrown out of a compiled validator when the work budget runs out. */
const OVER_BUDGET = Object.freeze({ reason: 'over-budget' });
/** Thrown out of a compiled validator when more errors than the cap were found. */
const ENOUGH_ERRORS = Object.freeze({ reason: 'enough-errors' });

/**
 * The budget of the validation in progress. Validation is synchronous, so one meter
 * serves every compiled validator; {@link runValidator} resets it before each run.
 */
class Meter {
  left = 0;
  cap = 0;
  found: ErrorObject[] = [];

  reset(budget: number, cap: number): void {
    this.left = budget;
    this.cap = cap;
    this.found = [];
  }

  /** The member count of an object (large objects are listed once). */
  keys(value: object): number {
    return keysOf(value).length;
  }

  /** Called by the compiled code when the budget is spent or the error cap is passed. */
  stop(errors: ErrorObject[] | null, count: number): never {
    if (count > this.cap) {
      this.found = errors ?? [];
      throw ENOUGH_ERRORS;
    }
    throw OVER_BUDGET;
  }
}

const METER = new Meter();

/** The charge of one subschema: `w` per application, `s` per string character, `k` per object member. */
interface Cost {
  readonly w: number;
  readonly s: number;
  readonly k: number;
}

/**
 * At the start of every subschema: charge its cost, then stop when the budget is spent
 * or too many errors were found. Runs before `const`, `enum` and the applicators.
 */
const costKeyword: CodeKeywordDefinition = {
  keyword: COST_KEYWORD,
  schemaType: 'object',
  before: 'const',
  code(cxt) {
    const { gen, data } = cxt;
    const { w, s, k } = cxt.schema as Cost;
    const meter = gen.scopeValue('obj', { ref: METER });
    gen.code(_`${meter}.left -= ${w}`);
    if (s > 0) {
      gen.if(_`typeof ${data} == "string"`, () =>
        gen.code(_`${meter}.left -= ${data}.length * ${s}`),
      );
    }
    if (k > 0) {
      gen.if(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`, () =>
        gen.code(_`${meter}.left -= ${meter}.keys(${data}) * ${k}`),
      );
    }
    gen.if(_`${meter}.left < 0 || ${ERRORS} > ${meter}.cap`, () =>
      gen.code(_`${meter}.stop(${V_ERRORS}, ${ERRORS})`),
    );
  },
};

/** A metered `false` subschema; `params.reported` names the keyword its error is reported under. */
const falseKeyword: CodeKeywordDefinition = {
  keyword: FALSE_KEYWORD,
  schemaType: 'string',
  error: {
    message: 'boolean schema is false',
    params: ({ schemaCode }) => _`{reported: ${schemaCode}}`,
  },
  code(cxt) {
    cxt.fail();
  },
};

/**
 * `anyOf` as ajv has it, except that branches are tried without listing their errors
 * (like ajv's own `not`): a failing `anyOf` reports one error at its value, and the
 * errors of branches still being tried never pile up.
 */
const anyOfKeyword: CodeKeywordDefinition = {
  keyword: 'anyOf',
  schemaType: 'array',
  trackErrors: true,
  error: { message: 'must match a schema in anyOf' },
  code(cxt) {
    const { gen } = cxt;
    const branches = cxt.schema as unknown[];
    const valid = gen.let('valid', false);
    const branchValid = gen.name('_valid');
    gen.block(() => {
      for (let i = 0; i < branches.length; i++) {
        cxt.subschema(
          {
            keyword: 'anyOf',
            schemaProp: i,
            compositeRule: true,
            createErrors: false,
            allErrors: false,
          },
          branchValid,
        );
        gen.assign(valid, _`${valid} || ${branchValid}`);
        gen.if(_`!${valid}`);
      }
    });
    cxt.result(
      valid,
      () => cxt.reset(),
      () => {
        cxt.reset();
        cxt.error(true);
      },
    );
  },
};

/** `oneOf` as ajv has it, with branches tried without listing their errors (see `anyOf`). */
const oneOfKeyword: CodeKeywordDefinition = {
  keyword: 'oneOf',
  schemaType: 'array',
  trackErrors: true,
  error: {
    message: 'must match exactly one schema in oneOf',
    params: ({ params }) => _`{passingSchemas: ${params.passing}}`,
  },
  code(cxt) {
    const { gen } = cxt;
    const branches = cxt.schema as unknown[];
    const valid = gen.let('valid', false);
    const passing = gen.let('passing', null);
    const branchValid = gen.name('_valid');
    cxt.setParams({ passing });
    gen.block(() => {
      for (let i = 0; i < branches.length; i++) {
        cxt.subschema(
          {
            keyword: 'oneOf',
            schemaProp: i,
            compositeRule: true,
            createErrors: false,
            allErrors: false,
          },
          branchValid,
        );
        if (i > 0) {
          // A second passing branch: invalid, and the remaining branches are not tried.
          gen
            .if(_`${branchValid} && ${valid}`)
            .assign(valid, false)
            .assign(passing, _`[${passing}, ${i}]`)
            .else();
        }
        gen.if(branchValid, () => {
          gen.assign(valid, true);
          gen.assign(passing, i);
        });
      }
    });
    cxt.result(
      valid,
      () => cxt.reset(),
      () => {
        cxt.reset();
        cxt.error(true);
      },
    );
  },
};

/**
 * `required` as ajv has it, with one fix: when not listing all errors (inside `not`,
 * `anyOf` and `oneOf` branches), ajv's own code tests `… && (missing = name)`, which is
 * false for the member name `""`, so a missing `""` went unnoticed there.
 */
const requiredKeyword: CodeKeywordDefinition = {
  keyword: 'required',
  type: 'object',
  schemaType: 'array',
  error: {
    message: ({ params: { missingProperty } }) =>
      str`must have required property '${missingProperty}'`,
    params: ({ params: { missingProperty } }) => _`{missingProperty: ${missingProperty}}`,
  },
  code(cxt) {
    const { gen, data, it } = cxt;
    const names = cxt.schema as string[];
    if (names.length === 0) return;
    const list = gen.scopeValue('obj', { ref: names });
    const has = gen.scopeValue('func', { ref: Object.prototype.hasOwnProperty });
    gen.forOf('name', list, (name) => {
      gen.if(_`!${has}.call(${data}, ${name})`, () => {
        cxt.setParams({ missingProperty: name });
        cxt.error();
        if (!it.allErrors) gen.break();
      });
    });
  },
};

/**
 * ajv calls this as `regExp(pattern, flags)` with the schema's ECMAScript pattern; it
 * runs as its RE2 translation, in time linear in the subject. `parseSchema` has checked
 * that the translation exists.
 */
const re2Engine = Object.assign(
  (pattern: string, flags: string) => new RE2(translatePattern(pattern), flags),
  { code: 'new RE2' },
);

function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    logger: false,
    $data: false,
    // `required` and `properties` look at own members only, never at `toString`.
    ownProperties: true,
    addUsedSchema: false,
    code: { regExp: re2Engine },
  });
  ajv.removeKeyword('anyOf');
  ajv.removeKeyword('oneOf');
  ajv.removeKeyword('required');
  ajv.addKeyword(costKeyword);
  ajv.addKeyword(falseKeyword);
  ajv.addKeyword(anyOfKeyword);
  ajv.addKeyword(oneOfKeyword);
  ajv.addKeyword(requiredKeyword);
  for (const [name, check] of Object.entries(FORMAT_CHECKS)) {
    ajv.addFormat(name, { type: 'string', validate: check });
  }
  return ajv;
}

/**
 * Compiled validators by schema hash. ajv keeps every compiled schema's regular
 * expressions and helpers in its instance, so a fresh instance is started after every
 * {@link VALIDATE_CACHE_SIZE} compilations; older validators keep working.
 */
const cache = new Lru<string, CompiledSchema>(VALIDATE_CACHE_SIZE);
let ajv: Ajv | null = null;
let compiledByThisAjv = 0;

/**
 * Generated code larger than this is not optimised by V8 (TurboFan's bytecode limit);
 * measured 10 to 20 times slower per step, so such validators get a smaller budget.
 */
const LARGE_VALIDATOR_CHARS = 65_536;
const LARGE_VALIDATOR_DIVISOR = 8;

/** A compiled schema and the work budget its runs get. */
export interface CompiledSchema {
  readonly validate: ValidateFunction;
  readonly budget: number;
}

/** Compile a normalised schema (or take it from the cache). Never throws. */
export function compileSchema(
  normalized: NormalizedSchema,
  hash: string,
): ({ ok: true } & CompiledSchema) | { ok: false; message: string } {
  const cached = cache.get(hash);
  if (cached !== undefined) return { ok: true, ...cached };
  if (ajv === null || compiledByThisAjv >= VALIDATE_CACHE_SIZE) {
    ajv = createAjv();
    compiledByThisAjv = 0;
  }
  compiledByThisAjv++;
  const metered = meter(normalized) as object | boolean;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(metered);
  } catch (error) {
    return { ok: false, message: `The schema does not compile: ${(error as Error).message}` };
  } finally {
    // A `true` root schema stays a boolean, which ajv does not keep by reference.
    if (typeof metered === 'object') ajv.removeSchema(metered);
  }
  const large = validate.toString().length > LARGE_VALIDATOR_CHARS;
  const compiled = {
    validate,
    budget: large ? Math.floor(VALIDATE_MAX_WORK / LARGE_VALIDATOR_DIVISOR) : VALIDATE_MAX_WORK,
  };
  cache.set(hash, compiled);
  return { ok: true, ...compiled };
}

/** The outcome of one metered run. */
export type RunOutcome =
  | { readonly kind: 'done'; readonly errors: readonly ErrorObject[] }
  | { readonly kind: 'enough-errors'; readonly errors: readonly ErrorObject[] }
  | { readonly kind: 'over-budget' };

/** Run a compiled validator under its work budget and the error cap. */
export function runValidator(compiled: CompiledSchema, value: unknown): RunOutcome {
  const { validate } = compiled;
  METER.reset(compiled.budget, VALIDATE_MAX_COUNTED_ERRORS);
  try {
    const valid = validate(value);
    return { kind: 'done', errors: valid ? [] : (validate.errors ?? []) };
  } catch (error) {
    if (error === ENOUGH_ERRORS) return { kind: 'enough-errors', errors: METER.found };
    if (error === OVER_BUDGET) return { kind: 'over-budget' };
    throw error;
  } finally {
    METER.found = [];
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The number of JSON values in a value (bounded: schemas nest at most 32 levels). */
function jsonSize(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + jsonSize(item), 1);
  if (isObject(value))
    return Object.values(value).reduce((sum: number, item) => sum + jsonSize(item), 1);
  return 1;
}

/**
 * What one member costs a keyword that reads every member of an object: `Object.keys`
 * and `for…in` on a large object take about 500 ns per member (measured).
 */
const MEMBER_WEIGHT = 20;

/** The cost of applying one subschema (see {@link VALIDATE_MAX_WORK}). */
function costOf(schema: Record<string, unknown>): Cost {
  let w = 1;
  let s = 0;
  let k = 0;
  if (Array.isArray(schema.type)) w += schema.type.length;
  if (Array.isArray(schema.required)) w += schema.required.length;
  if (isObject(schema.properties)) w += Object.keys(schema.properties).length;
  if (Array.isArray(schema.items)) w += schema.items.length;
  if (Array.isArray(schema.enum)) {
    w += jsonSize(schema.enum);
    k += schema.enum.filter(isObject).length;
  }
  if (schema.const !== undefined) {
    w += jsonSize(schema.const);
    if (isObject(schema.const)) k += 1;
  }
  if (typeof schema.pattern === 'string') {
    // A narrow pattern runs on RE2's DFA at one step per character; any other pattern is
    // charged its size per character, its cost when RE2 falls back to the NFA.
    const shape = analyzePattern(schema.pattern);
    s += shape.narrow ? 1 : Math.max(shape.size, 1);
    if (shape.narrow) w += shape.size;
  }
  if (schema.format !== undefined) s += 1;
  if (schema.minLength !== undefined) s += 1;
  if (schema.maxLength !== undefined) s += 1;
  if (schema.minProperties !== undefined) k += 1;
  if (schema.maxProperties !== undefined) k += 1;
  if (schema.additionalProperties !== undefined) k += 1;
  return { w, s, k: k * MEMBER_WEIGHT };
}

const METERED_FALSE = (reported: string) => ({
  [COST_KEYWORD]: { w: 1, s: 0, k: 0 },
  [FALSE_KEYWORD]: reported,
});

/**
 * The copy that is compiled: every subschema object gets the cost keyword, and every
 * `false` subschema becomes a metered subschema that always fails (a `false`
 * `additionalProperties` is reported under that keyword, at the extra member).
 */
function meter(schema: unknown, reported = 'false schema'): unknown {
  if (schema === true) return true;
  if (schema === false) return METERED_FALSE(reported);
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { [COST_KEYWORD]: costOf(source) };
  for (const key of Object.keys(source)) {
    const value = source[key];
    switch (key) {
      case 'properties': {
        const properties: Record<string, unknown> = {};
        for (const name of Object.keys(value as object)) {
          Object.defineProperty(properties, name, {
            value: meter((value as Record<string, unknown>)[name]),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        out.properties = properties;
        break;
      }
      case 'items':
        out.items = Array.isArray(value) ? value.map((item) => meter(item)) : meter(value);
        break;
      case 'additionalProperties':
        out.additionalProperties = meter(value, 'additionalProperties');
        break;
      case 'not':
        out.not = meter(value);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        out[key] = (value as unknown[]).map((item) => meter(item));
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}
