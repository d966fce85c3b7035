#!/usr/bin/env node
import { startWitness } from './index.js';

/**
 * A witness on its own. Configuration by environment:
 * - `WITNESS_LOGS`: the verifier keys of the logs to follow, separated by spaces, commas
 *   or newlines (a log publishes its key, e.g. in its `/.well-known/service-attestation`);
 * - `WITNESS_NAME`: its key name (default `witness.localhost/storefront`);
 * - `WITNESS_DATA_DIR`: where it keeps its state (default `.data/witness`);
 * - `WITNESS_KEY`: its Ed25519 seed, 64 hex digits (default: made once, kept in the data
 *   directory);
 * - `HOST`, `PORT`: where it listens (default 127.0.0.1:4130).
 */
async function main(): Promise<void> {
  const logs = (process.env.WITNESS_LOGS ?? '').split(/[\s,]+/).filter((vkey) => vkey !== '');
  if (logs.length === 0) {
    process.stderr.write('WITNESS_LOGS is empty: give the verifier key of at least one log\n');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 4130);
  const witness = await startWitness({
    name: process.env.WITNESS_NAME ?? 'witness.localhost/storefront',
    logs,
    dataDir: process.env.WITNESS_DATA_DIR ?? '.data/witness',
    key: process.env.WITNESS_KEY,
    host: process.env.HOST ?? '127.0.0.1',
    port,
  });
  process.stdout.write(
    `witness ${witness.name} listening on ${witness.url}\nvkey ${witness.vkey}\n`,
  );
  const stop = () => {
    void witness.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Forked by a service in development: stop with it, even when it was killed.
  process.once('disconnect', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
