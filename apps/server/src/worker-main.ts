import { ConfigError, loadConfig } from './config.js';
import { boundHeapGrowth } from './heap-growth.js';
import { closeOnSignals } from './signals.js';
import { startWorker } from './worker.js';

// `pnpm worker`: crawl job workers only, on DATABASE_URL (docs/decisions.md, "Crawl jobs").
try {
  const worker = await startWorker(loadConfig(process.env));
  process.stdout.write(`Storefront worker ${worker.instanceId} running\n`);
  // The first signal drains (running tasks finish; queued ones wait for other workers);
  // a second stops at once, and the lease's expiry hands this process's tasks on.
  closeOnSignals(() => worker.close(), 'finishing running tasks, then stopping');
  // After the signal handlers: a signal during the collection still drains.
  boundHeapGrowth();
} catch (error) {
  const message =
    error instanceof ConfigError ? error.message : `Could not start: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
