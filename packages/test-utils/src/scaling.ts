/**
 * How an operation's time grows with its input: the fastest of `rounds` timings of
 * `run(2)` over the fastest of `run(1)`, the two sizes alternating so that a machine
 * busy with other work slows both alike. Linear work gives about 2, quadratic about 4;
 * a test asserts the ratio, never a time, so it holds on a loaded machine.
 * `run(scale)` should take some milliseconds at scale 1 for the timer to resolve it.
 */
export function scalingRatio(run: (scale: 1 | 2) => unknown, rounds = 5): number {
  let once = Number.POSITIVE_INFINITY;
  let twice = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    for (const scale of [1, 2] as const) {
      const started = performance.now();
      run(scale);
      const elapsed = performance.now() - started;
      if (scale === 1) once = Math.min(once, elapsed);
      else twice = Math.min(twice, elapsed);
    }
  }
  return twice / Math.max(once, Number.EPSILON);
}
