// The product thread when the server runs from its TypeScript sources (tests, `pnpm dev`):
// Node 20 does not hand `--import tsx` on to worker threads, so register tsx here first.
// No top-level await: terminating a thread while V8 evaluates a module with one aborts
// the whole process on Node 20 ("Check failed: (location_) != nullptr").
import { register } from 'tsx/esm/api';

register();
import('./worker.ts').catch((error) => {
  throw error;
});
