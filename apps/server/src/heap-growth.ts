import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How far V8 lets the old generation grow past what the last full collection left
 * before it collects again: 50%.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Keep a long-running process (`pnpm start`, `pnpm worker`) near what it holds
 * (docs/decisions.md, "A long-running process's heap"): fix V8's heap growing factor at
 * 1 + {@link HEAP_GROWING_PERCENT}/100, then run one full collection, from which the next
 * limit is set.
 *
 * Left alone, V8 let a crawl worker's heap grow by a few KB of promoted garbage per page
 * (a page's objects outlive two scavenges while they wait for the network and the
 * commit) to 150–180 MB before its first full collection, though the worker holds about
 * 45 MB. One collection at start did not help on its own: V8 sets the next limit from
 * the collector's speed against the program's, and at start-up it allowed four times the
 * live heap (43 → 182 MB). V8 reads the growing factor at each full collection, so
 * setting it at run time takes effect from the next one; `--expose-gc` set at run time
 * puts `gc` into contexts created afterwards (as Jest's leak detector does), and no code
 * of the service calls it again. Worker threads share the flag; the product threads'
 * heaps have their own bounds as well.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
