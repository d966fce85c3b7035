/**
 * Run `cleanup` (stop servers and child processes, drop schemas) before the process
 * exits on Ctrl-C or SIGTERM, until the returned function is called at the run's end.
 */
export function cleanupOnSignal(cleanup: () => Promise<unknown>): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
