import { processIo, runCli } from './cli.js';

// A closed pipe (`storefront-verify … | head -1`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    process.exit(error.code === 'EPIPE' ? (process.exitCode ?? 0) : 2);
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo);
