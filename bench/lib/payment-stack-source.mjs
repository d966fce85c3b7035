// The payment stack thread's entry: the bench runs from TypeScript sources under tsx, and
// Node 20 does not hand `--import tsx` on to worker threads, so register tsx here first.
// No top-level await: terminating a thread while V8 evaluates a module with one aborts
// the whole process on Node 20.
import { register } from 'tsx/esm/api';

register();
import('./payment-stack-worker.ts').catch((error) => {
  throw error;
});
