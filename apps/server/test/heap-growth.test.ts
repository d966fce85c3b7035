import { getHeapStatistics } from 'node:v8';
import { expect, test } from 'vitest';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../src/heap-growth.js';

const MB = 2 ** 20;

/**
 * Make `totalMb` of garbage that lives long enough to be promoted (a ring of objects,
 * each replaced once the ring has come round), and return the largest heap in use seen.
 */
function churn(totalMb: number): number {
  const ring: unknown[] = new Array(40_000);
  let peak = 0;
  let made = 0;
  for (let i = 0; made < totalMb * MB; i++) {
    const text = `${'p'.repeat(200)}${i}`;
    ring[i % ring.length] = { text, numbers: [i, i + 1, i + 2] };
    made += 2 * text.length + 64;
    if (i % 1000 === 0) peak = Math.max(peak, getHeapStatistics().used_heap_size);
  }
  return peak;
}

test('a process keeps its heap within the growing factor of what it holds', () => {
  boundHeapGrowth();
  const held = getHeapStatistics().used_heap_size;
  // The ring itself holds about 20 MB; V8's young generation (up to 3 x 16 MB) comes on top.
  const bound = (held + 24 * MB) * (1 + HEAP_GROWING_PERCENT / 100) + 48 * MB;
  // Ten times the bound in promoted garbage: left to V8's start-up limit, the heap grew
  // to several times what the process holds.
  const peak = churn((10 * bound) / MB);
  expect(peak).toBeLessThan(bound);
});
