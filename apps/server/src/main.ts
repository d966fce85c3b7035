import { ConfigError } from './config.js';
import { startService, startupLines } from './service.js';

try {
  const service = await startService();
  process.stdout.write(`${(await startupLines(service)).join('\n')}\n`);
  let closing = false;
  // The first signal drains (docs/decisions.md, "Drain on SIGTERM"): calls in flight
  // finish, new ones are told to retry elsewhere, then the process exits 0. A second
  // signal stops at once.
  const shutdown = (signal: string) => {
    if (closing) {
      process.stdout.write(`${signal} again: stopping without draining\n`);
      process.exit(1);
    }
    closing = true;
    process.stdout.write(`${signal}: draining, then shutting down\n`);
    service.close().then(
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
