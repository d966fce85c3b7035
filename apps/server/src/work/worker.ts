/**
 * A product thread (see `pool.ts`): runs product tasks (route `compute` functions) on the inputs the
 * pool posts, one at a time in the order they came, and posts each result back (an
 * asynchronous product's once its promise settles). A throw is posted back as a message, so one bad input never
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

/** Tasks posted while one still runs (the pool may hand a busy thread its next ones). */
const waiting: { task: string; input: unknown }[] = [];
let running = false;

port.on('message', (message: { task: string; input: unknown }) => {
  if (message.task === WARM) {
    warm();
    return;
  }
  waiting.push(message);
  if (!running) runWaiting();
});

/**
 * Run the waiting tasks one after the other, in the order they came, posting each
 * answer before the next starts. An asynchronous product (pdf) answers with a promise:
 * the next task starts once it has settled, so tasks never overlap.
 */
function runWaiting(): void {
  running = true;
  for (let next = waiting.shift(); next !== undefined; next = waiting.shift()) {
    let value: unknown;
    try {
      value = runTask(next.task, next.input);
    } catch (error) {
      threw(error);
      continue;
    }
    if (value instanceof Promise) {
      value.then((settled) => done(settled), threw).finally(runWaiting);
      return;
    }
    done(value);
  }
  running = false;
}

function done(value: unknown): void {
  try {
    port?.postMessage({ kind: 'done', value, grownMb: grownMb() });
  } catch (error) {
    threw(error);
  }
}

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
