type Fields = Record<string, unknown>;

/**
 * A value unlike `value` of the same kind: a number plus one, a string with an `x`
 * appended, a flipped boolean, the first member or element changed. For tests that
 * edit a signed result's fields and expect the edit to be caught.
 */
export function mutate(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'boolean') return !value;
  if (value === null) return 'x';
  if (Array.isArray(value))
    return value.length === 0 ? ['x'] : [mutate(value[0]), ...value.slice(1)];
  const record = value as Fields;
  const first = Object.keys(record)[0];
  return first === undefined ? { x: 1 } : { ...record, [first]: mutate(record[first]) };
}

/** A copy of `result` with the field at `path` (`key` or `data.key`) mutated. */
export function edited<T extends Fields>(result: T, path: string): T {
  const copy = structuredClone(result) as Fields;
  const [head, inner] = path.split('.') as [string, string | undefined];
  if (inner === undefined) copy[head] = mutate(copy[head]);
  else (copy[head] as Fields)[inner] = mutate((copy[head] as Fields)[inner]);
  return copy as T;
}
