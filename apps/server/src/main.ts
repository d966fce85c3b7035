import { ConfigError } from './config.js';
import { startService, startupLines } from './service.js';

try {
  const service = await startService();
  process.stdout.write(`${(await startupLines(service)).join('\n')}\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: shutting down\n`);
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
