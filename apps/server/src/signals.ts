/**
 * What a process does on SIGINT and SIGTERM: the first signal says `draining` and calls
 * `close`, then exits 0 (1 if closing failed); a second signal exits 1 at once.
 */
export function closeOnSignals(close: () => Promise<void>, draining: string): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      process.stdout.write(`${signal} again: stopping without draining\n`);
      process.exit(1);
    }
    closing = true;
    process.stdout.write(`${signal}: ${draining}\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
