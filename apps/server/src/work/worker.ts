/**
 * A product thread (see `pool.ts`): runs product tasks (route `compute` functions) on the inputs the
 * pool posts, one at a time, and posts each result back (an asynchronous product's once
 * its promise settles). A throw is posted back as a message, so one bad input never
 * costs the thread. Once ready, it starts the products' warm-ups in the background.
 */
import { parentPort } from 'node:worker_threads';
import { runTask, warmProducts } from './compute.js';

const port = parentPort;
if (port === null) throw new Error('product-worker runs as a worker thread');

function threw(error: unknown): void {
  const { message, stack } = error instanceof Error ? error : new Error(String(error));
  port?.postMessage({ kind: 'threw', message, stack });
}

port.on('message', ({ task, input }: { task: string; input: unknown }) => {
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
        port.postMessage({ kind: 'done', value: settled });
      } catch (error) {
        threw(error);
      }
    }, threw);
    return;
  }
  try {
    port.postMessage({ kind: 'done', value });
  } catch (error) {
    threw(error);
  }
});
port.postMessage({ kind: 'ready' });
// Then load what products need ahead of their first call (pdf.js), in the background.
void warmProducts();
