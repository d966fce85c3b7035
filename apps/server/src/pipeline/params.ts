import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { AnyRoute, ParamProblem, RouteDefinition, Source } from '../registry/types.js';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Read a route's query: every value a single string, checked against the route's
 * params schema (lengths, enums, required, unknown names), then by the route's own
 * checks. Returns the typed params or every problem found.
 */
export function readParams<P>(
  route: RouteDefinition<P, Source, unknown> | AnyRoute,
  query: Readonly<Record<string, unknown>>,
): { ok: true; params: P } | { ok: false; details: ParamProblem[] } {
  // No prototype: a parameter named `__proto__` is an own name like any other, so the
  // schema refuses it as unknown instead of the assignment silently dropping it.
  const flat: Record<string, string> = Object.create(null);
  const details: ParamProblem[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string') flat[name] = value;
    else details.push({ param: name, message: `Expected \`${name}\` once, as a plain value` });
  }
  if (details.length > 0) return { ok: false, details };

  let validate = compiled.get(route.params);
  if (validate === undefined) {
    validate = ajv.compile(route.params);
    compiled.set(route.params, validate);
  }
  if (!validate(flat)) {
    return { ok: false, details: (validate.errors ?? []).map((error) => problemOf(error, route)) };
  }
  const result = route.check(flat);
  return result.ok
    ? { ok: true, params: result.params }
    : { ok: false, details: [...result.details] };
}

function problemOf(error: ErrorObject, route: AnyRoute): ParamProblem {
  const param = error.instancePath.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        param: String(params.missingProperty),
        message: `\`${String(params.missingProperty)}\` is required`,
      };
    case 'additionalProperties': {
      const known = Object.keys((route.params.properties ?? {}) as object).join(', ');
      return {
        param: String(params.additionalProperty),
        message: `Unknown parameter \`${String(params.additionalProperty)}\`; ${route.path} takes ${known}`,
      };
    }
    case 'maxLength':
      return {
        param,
        message: `Expected \`${param}\` to have at most ${String(params.limit)} characters`,
      };
    case 'minLength':
      return { param, message: `Expected \`${param}\` to be non-empty` };
    case 'enum':
      return {
        param,
        message: `Expected \`${param}\` to be one of ${(params.allowedValues as string[]).map((v) => `\`${v}\``).join(', ')}`,
      };
    case 'pattern':
      return { param, message: `Expected \`${param}\` to match ${String(params.pattern)}` };
    default:
      return { param, message: `\`${param}\` ${error.message ?? 'is invalid'}` };
  }
}
