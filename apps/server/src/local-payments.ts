import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildMessage, PaymentStackInfo } from '@storefront/facilitator';
import { DEV_PAY_TO } from '@storefront/facilitator/accounts';
import {
  type Config,
  ConfigError,
  DEFAULT_LOCAL_CHAIN_PORT,
  DEFAULT_LOCAL_FACILITATOR_PORT,
  DEV_TOKEN_ADDRESS,
  LOCAL_PAYMENTS_NETWORK,
  type LocalPaymentsConfig,
} from './config.js';

/**
 * The development payment stack as a child process of the service (docs/decisions.md,
 * "`pnpm start` runs the payment stack in its own process"): a local chain with chain id
 * 8453, its test USDC at USDC's address, a facilitator on the official x402 code, and a
 * funded development payer. Only `startService` starts it, and only outside production,
 * so production never loads ganache; the chain's work and memory stay out of the
 * service's process. The child stops when the service does, and also when the service
 * dies without stopping it (its IPC channel closes).
 */

/** The terms the service takes from the stack before it runs: its facilitator, chain, token, payee. */
export interface LocalPaymentTerms {
  readonly facilitatorUrl: string;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  /** The chain's JSON-RPC, read when a settlement's answer is lost. */
  readonly rpcUrl: string;
}

/** The running stack, as the service sees it from outside its process. */
export interface LocalPaymentStack extends PaymentStackInfo {
  /** The child process's id. */
  readonly pid: number;
  /** The test USDC balance of `address`, in atomic units, read from the chain. */
  balanceOf(address: string): Promise<bigint>;
  /** Stop the stack and wait for its process to exit. Safe to call more than once. */
  close(): Promise<void>;
}

/** A running development payment stack, and what its start-up had to tell. */
export interface LocalPayments {
  readonly stack: LocalPaymentStack;
  /** One line per default port that was taken (the stack then took a free one). */
  readonly notes: readonly string[];
}

/** A stack whose process is starting: its terms are known at once, the stack once it runs. */
export interface LocalPaymentsLaunch {
  readonly terms: LocalPaymentTerms;
  /** Resolves once the stack runs; rejects with a one-line reason when it cannot start. */
  readonly ready: Promise<LocalPayments>;
  /** Stop the process, started or not. */
  stop(): Promise<void>;
}

/** The script the child process runs, and the Node options it runs with. */
export interface ChildEntry {
  readonly file: string;
  readonly execArgv: readonly string[];
}

/** Options of {@link launchLocalPayments}. */
export interface LocalPaymentsOptions {
  /** Where the chain and the facilitator listen. Default `127.0.0.1`. */
  readonly host?: string;
  /** The ports used when none is configured. Default 8545 and 4021. */
  readonly defaults?: { readonly chainPort: number; readonly facilitatorPort: number };
  /** The child's script. Default: the facilitator package's `child` (built, or its source). */
  readonly entry?: ChildEntry;
  /** How long the stack may take to start. Default 120 s (a busy machine is slow). */
  readonly startTimeoutMs?: number;
}

/** How much of the child's stderr a start-up failure quotes. */
const STDERR_KEPT = 4000;

/** How long a stop waits for the child before it kills it. */
const STOP_GRACE_MS = 10_000;

/**
 * Start the development payment stack in a child process on the configured ports. A
 * configured port that is taken is a start-up error; a default port that is taken gives
 * way to a free one, with a note, so that a second service or another local chain does
 * not stop a start. The facilitator's port is settled here, so its URL (the service's
 * terms) is known while the chain still starts.
 */
export async function launchLocalPayments(
  ports: LocalPaymentsConfig,
  options: LocalPaymentsOptions = {},
): Promise<LocalPaymentsLaunch> {
  const host = options.host ?? '127.0.0.1';
  const defaults = options.defaults ?? {
    chainPort: DEFAULT_LOCAL_CHAIN_PORT,
    facilitatorPort: DEFAULT_LOCAL_FACILITATOR_PORT,
  };
  const chain = await choosePort(host, ports.chainPort, defaults.chainPort, {
    variable: 'LOCAL_CHAIN_PORT',
    what: 'the local chain',
  });
  const facilitator = await choosePort(host, ports.facilitatorPort, defaults.facilitatorPort, {
    variable: 'LOCAL_FACILITATOR_PORT',
    what: 'the local facilitator',
  });
  const facilitatorPort = facilitator.port === 0 ? await freePort(host) : facilitator.port;
  const chainPort = chain.port === 0 ? await freePort(host) : chain.port;
  const terms: LocalPaymentTerms = {
    facilitatorUrl: `http://${host}:${facilitatorPort}`,
    rpcUrl: `http://${host}:${chainPort}`,
    network: LOCAL_PAYMENTS_NETWORK,
    asset: DEV_TOKEN_ADDRESS,
    payTo: DEV_PAY_TO,
  };
  const notes = [chain.note, facilitator.note].filter((note): note is string => note !== null);

  const entry = options.entry ?? childEntry();
  if (!existsSync(entry.file)) {
    throw new Error(
      `the development payment stack is not built (${entry.file} is missing): run \`npx -y pnpm@10.34.9 build\`, or start with \`npx -y pnpm@10.34.9 start\`, which builds it`,
    );
  }
  const child = fork(
    entry.file,
    ['--host', host, '--port', String(facilitatorPort), '--chain-port', String(chainPort)],
    { execArgv: [...entry.execArgv], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  let running = false;
  child.stderr?.on('data', (chunk: Buffer) => {
    // Before it runs, kept for the start-up error; after, passed on as it comes.
    if (running) process.stderr.write(chunk);
    else stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? null : -1)));
  });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stopChild(child, exited);
    return stopping;
  };

  const ready = new Promise<LocalPayments>((resolve, reject) => {
    const fail = (why: string) => {
      const said = stderr.trim();
      reject(
        new Error(
          `the development payment stack did not start: ${why}${said === '' ? '' : `\n${said}`}`,
        ),
      );
      void stop();
    };
    const timer = setTimeout(
      () => fail(`no answer within ${(options.startTimeoutMs ?? 120_000) / 1000} s`),
      options.startTimeoutMs ?? 120_000,
    );
    timer.unref();
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error.message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!running) fail(`its process exited (${signal ?? `code ${code}`}) before it was ready`);
      else if (stopping === undefined) {
        process.stderr.write(
          `the development payment stack exited (${signal ?? `code ${code}`}): x402 payments fail until the service restarts\n`,
        );
      }
    });
    child.once('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.kind === 'failed') return fail(message.message);
      const mismatch = differentTerms(message.stack, terms);
      if (mismatch !== null) return fail(mismatch);
      running = true;
      child.channel?.unref();
      const stack: LocalPaymentStack = {
        ...message.stack,
        pid: child.pid as number,
        balanceOf: (address) => tokenBalance(message.stack.rpcUrl, message.stack.asset, address),
        close: stop,
      };
      resolve({ stack, notes });
    });
  });
  // A launch nobody waits on (the server failed first) must not be an unhandled rejection.
  ready.catch(() => {});
  return { terms, ready, stop };
}

/**
 * The service's configuration with the payment terms of the local stack: its facilitator,
 * its chain and test token (`testnet`), and its payee unless `X402_PAY_TO` names another.
 */
export function withLocalPayments(config: Config, terms: LocalPaymentTerms): Config {
  return {
    ...config,
    payment: {
      ...config.payment,
      network: terms.network,
      asset: terms.asset,
      payTo: config.payment.payTo ?? terms.payTo,
      facilitatorUrl: terms.facilitatorUrl,
      testnet: true,
      rpcUrl: config.payment.rpcUrl ?? terms.rpcUrl,
    },
  };
}

/**
 * The child's script: the facilitator package's built `dist/child.js` for the built
 * server, its `src/child.ts` through tsx when the server itself runs from its sources
 * (tests, `pnpm dev`).
 */
export function childEntry(): ChildEntry {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@storefront/facilitator/package.json'));
  if (import.meta.url.endsWith('.ts')) {
    return {
      file: join(root, 'src', 'child.ts'),
      execArgv: [
        '--conditions=@storefront/source',
        '--import',
        pathToFileURL(require.resolve('tsx')).href,
      ],
    };
  }
  return { file: join(root, 'dist', 'child.js'), execArgv: [] };
}

/** What differs between the terms the service took and the stack that started, if anything. */
function differentTerms(stack: PaymentStackInfo, terms: LocalPaymentTerms): string | null {
  for (const key of ['facilitatorUrl', 'network', 'asset', 'payTo'] as const) {
    if (stack[key].toLowerCase() !== terms[key].toLowerCase()) {
      return `its ${key} is \`${stack[key]}\`, the service expected \`${terms[key]}\``;
    }
  }
  return null;
}

/** SIGTERM, then SIGKILL if it has not exited within {@link STOP_GRACE_MS}. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  timer.unref();
  await exited;
  clearTimeout(timer);
}

/**
 * An ERC-20 balance over JSON-RPC `eth_call`: the call data is `balanceOf(address)`'s
 * selector (0x70a08231) and the address padded to 32 bytes, the answer one uint256.
 */
export async function tokenBalance(
  rpcUrl: string,
  token: string,
  address: string,
): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`;
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: token, data }, 'latest'],
    }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== 'string' || !/^0x[0-9a-f]+$/i.test(body.result)) {
    throw new Error(`balanceOf(${address}) failed: ${body.error?.message ?? 'no result'}`);
  }
  return BigInt(body.result);
}

/** Where a listener of the stack goes: a port (0 for a free one) and why not the default. */
interface PortChoice {
  readonly port: number;
  readonly note: string | null;
}

/**
 * The port a listener of the stack takes: a configured one as is (0: a free one), else
 * the default when it is free, else a free one and a note saying so. Checked by binding
 * it for a moment, so a clear message comes before the stack starts.
 */
export async function choosePort(
  host: string,
  configured: number | null,
  fallback: number,
  label: { readonly variable: string; readonly what: string },
): Promise<PortChoice> {
  if (configured === 0) return { port: 0, note: null };
  const port = configured ?? fallback;
  if (await isFree(host, port)) return { port, note: null };
  if (configured !== null) {
    throw new ConfigError(
      `${label.variable} is ${port}, but ${host}:${port} is in use: stop what listens there, or set ${label.variable} to another port (0 for any free one)`,
    );
  }
  return {
    port: 0,
    note: `${host}:${port} is in use, so ${label.what} took a free port (${label.variable} sets one)`,
  };
}

/** Whether `host:port` can be bound now. */
function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port free on `host` now, found by binding port 0 for a moment. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
