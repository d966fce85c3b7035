/**
 * A product thread (see `pool.ts`): runs product tasks (route `compute` functions) on the inputs the
 * pool posts, one at a time, and posts each result back. A throw is posted back as a
 * message, so one bad input never costs the thread.
 */
import { parentPort } from 'node:worker_threads';
import { runTask } from './compute.js';

const port = parentPort;
if (port === null) throw new Error('product-worker runs as a worker thread');

port.on('message', ({ task, input }: { task: string; input: unknown }) => {
  try {
    port.postMessage({ kind: 'done', value: runTask(task, input) });
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ kind: 'threw', message, stack });
  }
});
port.postMessage({ kind: 'ready' });
