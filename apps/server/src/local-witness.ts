import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildEntry } from './local-payments.js';
import { stopChild } from './local-payments.js';

/** The witness `pnpm start` runs beside the service, in its own process. */
export interface LocalWitness {
  /** Its submission prefix. */
  readonly url: string;
  /** Its verifier key (type 0x04). */
  readonly vkey: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** The key name of the development witness. */
export const LOCAL_WITNESS_NAME = 'witness.localhost/storefront-dev';

/** How long the witness may take to print its address and key. */
const START_TIMEOUT_MS = 60_000;

/**
 * The witness's script: `@storefront/witness`'s built `dist/main.js` for the built server,
 * its `src/main.ts` through tsx when the server itself runs from its sources.
 */
export function witnessEntry(): ChildEntry {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@storefront/witness/package.json'));
  if (import.meta.url.endsWith('.ts')) {
    return {
      file: join(root, 'src', 'main.ts'),
      execArgv: [
        '--conditions=@storefront/source',
        '--import',
        pathToFileURL(require.resolve('tsx')).href,
      ],
    };
  }
  return { file: join(root, 'dist', 'main.js'), execArgv: [] };
}

/**
 * Start the development witness (docs/decisions.md, "A witness for the receipt log") in a
 * child process that follows the log of `logVkey`, keeps its key and state in `dataDir`,
 * and listens on a free loopback port. Resolves once it printed its URL and key; the
 * child stops when the service does (its IPC channel closes).
 */
export async function launchLocalWitness(options: {
  readonly logVkey: string;
  readonly dataDir: string;
  readonly entry?: ChildEntry;
}): Promise<LocalWitness> {
  const entry = options.entry ?? witnessEntry();
  if (!existsSync(entry.file)) {
    throw new Error(
      `the development witness is not built (${entry.file} is missing): run \`npx -y pnpm@10.34.9 build\``,
    );
  }
  const child = fork(entry.file, [], {
    execArgv: [...entry.execArgv],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      WITNESS_LOGS: options.logVkey,
      WITNESS_NAME: LOCAL_WITNESS_NAME,
      WITNESS_DATA_DIR: options.dataDir,
      WITNESS_KEY: '',
      HOST: '127.0.0.1',
      PORT: '0',
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const stop = () => stopChild(child, exited);
  try {
    const { url, vkey } = await new Promise<{ url: string; vkey: string }>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () =>
          reject(new Error(`the development witness did not start within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const url = /listening on (\S+)\n/.exec(out)?.[1];
        const vkey = /^vkey (\S+)\n/m.exec(out)?.[1];
        if (url !== undefined && vkey !== undefined) {
          clearTimeout(timer);
          resolve({ url, vkey });
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the development witness exited (${code}): ${stderr.trim()}`));
      });
    });
    child.stdout?.resume();
    child.channel?.unref();
    return { url, vkey, pid: child.pid as number, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
