import { ConfigError, loadConfig } from './config.js';
import { startWorker } from './worker.js';

// `pnpm worker`: crawl job workers only, on DATABASE_URL (docs/decisions.md, "Crawl jobs").
try {
  const worker = await startWorker(loadConfig(process.env));
  process.stdout.write(`Storefront worker ${worker.instanceId} running\n`);
  let closing = false;
  // The first signal drains (running tasks finish; queued ones wait for other workers);
  // a second stops at once, and the lease's expiry hands this process's tasks on.
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    process.stdout.write(`${signal}: finishing running tasks, then stopping\n`);
    worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (error) {
  const message =
    error instanceof ConfigError ? error.message : `Could not start: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
