import { ConfigError } from './config.js';
import { boundHeapGrowth } from './heap-growth.js';
import { startService, startupLines } from './service.js';
import { closeOnSignals } from './signals.js';

try {
  const service = await startService();
  process.stdout.write(`${(await startupLines(service)).join('\n')}\n`);
  // The first signal drains (docs/decisions.md, "Drain on SIGTERM"): calls in flight
  // finish, new ones are told to retry elsewhere, then the process exits 0. A second
  // signal stops at once.
  closeOnSignals(() => service.close(), 'draining, then shutting down');
  // After the signal handlers: a signal during the collection still drains.
  boundHeapGrowth();
} catch (error) {
  const message =
    error instanceof ConfigError ? error.message : `Could not start: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
