import { constants, PerformanceObserver } from 'node:perf_hooks';
import { expect, test } from 'vitest';
import { collectGarbageOnce } from '../src/first-collection.js';

/** The kinds of the garbage collections the process reports from now until `stop`. */
function watchCollections(): { kinds: number[]; next: () => Promise<void>; stop: () => void } {
  const kinds: number[] = [];
  let wake: (() => void) | null = null;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
    }
    wake?.();
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    kinds,
    next: () => new Promise<void>((resolve) => (wake = resolve)),
    stop: () => observer.disconnect(),
  };
}

test('runs a full (mark-compact) collection, and can run again', async () => {
  for (let round = 0; round < 2; round++) {
    const watch = watchCollections();
    try {
      const reported = watch.next();
      collectGarbageOnce();
      await reported;
      expect(watch.kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    } finally {
      watch.stop();
    }
  }
});
