import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

try {
  const config = loadConfig();
  const running = await startServer(config);
  process.stdout.write(
    `Storefront is running at ${running.url} (signer ${running.signer.address}, ${running.db.kind})\n`,
  );
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: shutting down\n`);
    running.close().then(
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
