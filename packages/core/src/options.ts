import { StorefrontError } from './errors.js';

/** A value's type as messages name it: `null`, `array`, or its `typeof`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The options object of a product function, checked the same way everywhere: `null`
 * and `undefined` mean none; anything but a plain object, or an option the product does
 * not know, is misuse and throws `StorefrontError` (`invalid_params`) naming it.
 *
 * @param options what the caller passed
 * @param known the option names the product takes
 * @param product the function's name, for the message
 * @returns the options as a record (a new empty one for `null` and `undefined`)
 * @example
 *   const { table, format } = readOptions(options, ['table', 'format'], 'extractTables');
 */
export function readOptions(
  options: unknown,
  known: readonly string[],
  product: string,
): Readonly<Record<string, unknown>> {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected the options of \`${product}\` to be an object, null or undefined, got \`${typeName(options)}\``,
    );
  }
  for (const key of Object.keys(options).sort()) {
    if (!known.includes(key)) {
      const takes = known.length === 0 ? 'takes no options' : `takes \`${known.join('`, `')}\``;
      throw new StorefrontError(
        'invalid_params',
        `Unknown option \`${key}\`: \`${product}\` ${takes}`,
      );
    }
  }
  return options as Readonly<Record<string, unknown>>;
}
