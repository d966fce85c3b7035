// The product thread when the server runs from its TypeScript sources (tests, `pnpm dev`):
// Node 20 does not hand `--import tsx` on to worker threads, so register tsx here first.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
