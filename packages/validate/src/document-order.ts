import { keysOf } from './object-keys.js';
import { escapeToken } from './pointer.js';

/** An error with its path split into (unescaped) tokens relative to the validated value. */
export interface LocatedError {
  readonly path: string;
  readonly tokens: readonly string[];
  readonly keyword: string;
  readonly message: string;
}

/** A canonical array index (ECMA-262 §6.1.7): the names a JavaScript object lists first. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

/**
 * Sort errors into document order: by the position of their path in a pre-order walk of
 * the document (a value before its members, members in the order they appear in the
 * source text, array elements by index), then by keyword, then by message (UTF-16 code
 * unit order). A member named twice counts at its first appearance.
 *
 * `JSON.parse` keeps source order for every member name except array-index-like ones
 * (`"0"`, `"17"`), which JavaScript lists first; only for objects that hold such a name,
 * and only when an error path passes through them, is the source text scanned again for
 * the true order.
 */
export function sortInDocumentOrder(
  errors: readonly LocatedError[],
  root: unknown,
  rootPointer: string,
  text: string,
): LocatedError[] {
  if (errors.length < 2) return [...errors];
  // Pass 1: which members of which objects the error paths go through, and which of
  // those objects list members in another order than the source.
  const wanted = new Map<object, Set<string>>();
  const needSource = new Map<string, object>();
  for (const error of errors) {
    let value = root;
    let pointer = rootPointer;
    for (const token of error.tokens) {
      if (value === null || typeof value !== 'object') break;
      if (!Array.isArray(value)) {
        let names = wanted.get(value);
        if (names === undefined) {
          names = new Set();
          wanted.set(value, names);
          const keys = keysOf(value);
          if (keys.length > 1 && isArrayIndex(keys[0] as string)) needSource.set(pointer, value);
        }
        names.add(token);
      }
      value = (value as Record<string, unknown>)[token];
      pointer += `/${escapeToken(token)}`;
    }
  }

  const sourceOrder = new Map<object, readonly string[]>();
  if (needSource.size > 0) {
    for (const [pointer, keys] of collectKeyOrders(text, new Set(needSource.keys()))) {
      const object = needSource.get(pointer);
      if (object !== undefined) sourceOrder.set(object, keys);
    }
  }
  const ordinals = new Map<object, Map<string, number>>();
  const ordinalOf = (object: object, key: string): number => {
    let map = ordinals.get(object);
    if (map === undefined) {
      map = indexOf(sourceOrder.get(object) ?? keysOf(object), wanted.get(object));
      ordinals.set(object, map);
    }
    return map.get(key) ?? Number.POSITIVE_INFINITY;
  };

  const keyed = errors.map((error) => {
    const position: number[] = [];
    let value = root;
    for (const token of error.tokens) {
      if (Array.isArray(value)) {
        position.push(Number(token));
        value = value[Number(token)];
      } else if (value !== null && typeof value === 'object') {
        position.push(ordinalOf(value, token));
        value = (value as Record<string, unknown>)[token];
      } else {
        position.push(Number.POSITIVE_INFINITY);
        value = undefined;
      }
    }
    return { error, position };
  });
  keyed.sort((a, b) => {
    const n = Math.min(a.position.length, b.position.length);
    for (let i = 0; i < n; i++) {
      const x = a.position[i] as number;
      const y = b.position[i] as number;
      if (x !== y) return x < y ? -1 : 1;
    }
    if (a.position.length !== b.position.length) return a.position.length - b.position.length;
    if (a.error.keyword !== b.error.keyword) return a.error.keyword < b.error.keyword ? -1 : 1;
    if (a.error.message !== b.error.message) return a.error.message < b.error.message ? -1 : 1;
    return 0;
  });
  return keyed.map((entry) => entry.error);
}

/** The first position of each wanted name in a member list. */
function indexOf(
  keys: readonly string[],
  wanted: ReadonlySet<string> | undefined,
): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (wanted?.has(key) !== false && !map.has(key)) map.set(key, i);
  }
  return map;
}

interface Frame {
  readonly object: boolean;
  readonly pointer: string;
  index: number;
  readonly keys: string[] | null;
}

/**
 * The member names, in source order, of the objects at the given pointers of a valid
 * JSON text. One iterative pass that builds no values.
 */
export function collectKeyOrders(text: string, wanted: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const frames: Frame[] = [];
  const n = text.length;
  let i = 0;
  let pointer = '';

  const skipSpace = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const readString = (): string => {
    const start = i;
    let escaped = false;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i += 2;
      } else if (c === 0x22) {
        i++;
        break;
      } else {
        i++;
      }
    }
    const literal = text.slice(start, i);
    return escaped ? (JSON.parse(literal) as string) : literal.slice(1, -1);
  };
  // Read a member name and its colon; the next value is that member.
  const readMember = (frame: Frame) => {
    skipSpace();
    const key = readString();
    frame.keys?.push(key);
    pointer = `${frame.pointer}/${escapeToken(key)}`;
    skipSpace();
    i++; // the colon
  };

  while (i <= n) {
    skipSpace();
    const c = text[i];
    let closedEmpty = false;
    if (c === '{' || c === '[') {
      const object = c === '{';
      const frame: Frame = {
        object,
        pointer,
        index: 0,
        keys: object && wanted.has(pointer) ? [] : null,
      };
      frames.push(frame);
      i++;
      skipSpace();
      if (text[i] === (object ? '}' : ']')) {
        closedEmpty = true;
      } else {
        if (object) readMember(frame);
        else pointer = `${frame.pointer}/0`;
        continue;
      }
    } else if (c === '"') {
      readString();
    } else {
      // A number, true, false or null.
      while (i < n && !',]} \t\n\r'.includes(text[i] as string)) i++;
    }
    // After a value: close containers until a comma starts the next value.
    for (;;) {
      if (!closedEmpty) skipSpace();
      closedEmpty = false;
      const frame = frames[frames.length - 1];
      if (frame === undefined) return out;
      if (text[i] === ',') {
        i++;
        if (frame.object) {
          readMember(frame);
        } else {
          frame.index++;
          pointer = `${frame.pointer}/${frame.index}`;
        }
        break;
      }
      i++; // `}` or `]`
      frames.pop();
      if (frame.keys !== null) {
        out.set(frame.pointer, frame.keys);
        if (out.size === wanted.size) return out;
      }
    }
  }
  return out;
}
