import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Run one full garbage collection now: what a long-running process (`pnpm start`,
 * `pnpm worker`) does once it has loaded (docs/decisions.md, "A long-running process's
 * first collection").
 *
 * Until its first full collection, V8 lets the old generation grow to a limit derived from
 * the maximum heap (4 GB on a machine with 16 GB or more), not from what the process
 * holds; a crawl worker promotes a few KB of short-lived objects per
 * page, so its heap grew by about 0.75 MB a second for a crawl and a half before V8
 * first collected it, whatever it really held (45 MB). After any full collection V8
 * sizes the next limit from the live heap, so one at the start keeps the process near its
 * live size from then on. V8 offers no other way to ask for one in a running process:
 * `--expose-gc` set at run time puts `gc` into contexts created afterwards (as Jest's
 * leak detector does), and no code of the service calls it again.
 */
export function collectGarbageOnce(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
