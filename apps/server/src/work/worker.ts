/**
 * A product thread (see `pool.ts`): runs product tasks (route `compute` functions) on the inputs the
 * pool posts, one at a time, and posts each result back (an asynchronous product's once
 * its promise settles). A throw is posted back as a message, so one bad input never
 * costs the thread. Once ready, it starts the products' warm-ups in the background.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { runTask, warmProducts } from './compute.js';

/** The message that asks for the warm-ups, not a task. */
const WARM = ':warm';

const port = parentPort;
if (port === null) throw new Error('product-worker runs as a worker thread');

/** The thread's V8 heap now (MB). */
function heapMb(): number {
  return getHeapStatistics().total_heap_size / 2 ** 20;
}

/** The heap of the loaded thread (with its warm-ups, once they are done). */
let baseline = heapMb();

/** How far the heap has grown past {@link baseline} (MB): the pool replaces a thread that grew. */
function grownMb(): number {
  return heapMb() - baseline;
}

function threw(error: unknown): void {
  const { message, stack } = error instanceof Error ? error : new Error(String(error));
  port?.postMessage({ kind: 'threw', message, stack, grownMb: grownMb() });
}

port.on('message', ({ task, input }: { task: string; input: unknown }) => {
  if (task === WARM) {
    warm();
    return;
  }
  let value: unknown;
  try {
    value = runTask(task, input);
  } catch (error) {
    threw(error);
    return;
  }
  // An asynchronous product (pdf) answers with a promise: post what it settles to. The
  // pool hands this thread its next task only after the answer, so tasks never overlap.
  if (value instanceof Promise) {
    value.then((settled) => {
      try {
        port.postMessage({ kind: 'done', value: settled, grownMb: grownMb() });
      } catch (error) {
        threw(error);
      }
    }, threw);
    return;
  }
  try {
    port.postMessage({ kind: 'done', value, grownMb: grownMb() });
  } catch (error) {
    threw(error);
  }
});
port.postMessage({ kind: 'ready' });
// Then, when the pool asks, load what products need ahead of their first call (pdf.js),
// in the background: the pool asks once a route with a warm-up has been called, so a
// service that never reads a PDF never holds pdf.js.
if ((workerData as { warm?: boolean } | null)?.warm === true) warm();

/** Start the warm-ups; what they load is part of the thread's baseline. */
function warm(): void {
  void warmProducts().then(() => {
    baseline = Math.max(baseline, heapMb());
    port?.postMessage({ kind: 'warmed' });
  });
}
