/** Objects with more members than this have their member list remembered. */
const REMEMBER_ABOVE = 64;

const remembered = new WeakMap<object, readonly string[]>();

/**
 * `Object.keys`, remembered for large objects. Listing the members of an object with
 * hundreds of thousands of them takes about half a second, and hashing, metering and
 * ordering errors each need the list; the memory goes with the object.
 */
export function keysOf(object: object): readonly string[] {
  let keys = remembered.get(object);
  if (keys === undefined) {
    keys = Object.keys(object);
    if (keys.length > REMEMBER_ABOVE) remembered.set(object, keys);
  }
  return keys;
}
