import { createServer } from 'node:net';
import type { PaymentStack } from '@storefront/facilitator';
import {
  type Config,
  ConfigError,
  DEFAULT_LOCAL_CHAIN_PORT,
  DEFAULT_LOCAL_FACILITATOR_PORT,
  type LocalPaymentsConfig,
} from './config.js';

/**
 * The development payment stack inside the service's process (docs/decisions.md, "`pnpm
 * start` runs the payment stack"): a local chain with chain id 8453, its test USDC, a
 * facilitator on the official x402 code, and a funded development payer. Only `main`'s
 * start-up path loads it, and only outside production, so production never loads
 * ganache.
 */

/** The module that starts the stack; tests may pass their own. */
export type PaymentStackModule = Pick<
  typeof import('@storefront/facilitator'),
  'startPaymentStack'
>;

/** A running development payment stack, and what its start-up had to tell. */
export interface LocalPayments {
  readonly stack: PaymentStack;
  /** One line per default port that was taken (the stack then took a free one). */
  readonly notes: readonly string[];
}

/** Options of {@link startLocalPayments}. */
export interface LocalPaymentsOptions {
  /** Where the chain and the facilitator listen. Default `127.0.0.1`. */
  readonly host?: string;
  /** Loads the stack's module. Default: `import('@storefront/facilitator')`. */
  readonly load?: () => Promise<PaymentStackModule>;
  /** The ports used when none is configured. Default 8545 and 4021. */
  readonly defaults?: { readonly chainPort: number; readonly facilitatorPort: number };
}

/** Where the stack's listeners go: a port (0 for a free one) and why not the default. */
interface PortChoice {
  readonly port: number;
  readonly note: string | null;
}

/**
 * Start the development payment stack on the configured ports. A configured port that
 * is taken is a start-up error; a default port that is taken gives way to a free one,
 * with a note, so that a second service or another local chain does not stop a start.
 */
export async function startLocalPayments(
  ports: LocalPaymentsConfig,
  options: LocalPaymentsOptions = {},
): Promise<LocalPayments> {
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
  const load = options.load ?? (() => import('@storefront/facilitator'));
  const { startPaymentStack } = await load();
  const stack = await startPaymentStack({
    host,
    chainPort: chain.port,
    port: facilitator.port,
  });
  const notes = [chain.note, facilitator.note].filter((note): note is string => note !== null);
  return { stack, notes };
}

/**
 * The service's configuration with the payment terms of the local stack: its facilitator,
 * its chain and test token (`testnet`), and its payee unless `X402_PAY_TO` names another.
 */
export function withLocalPayments(
  config: Config,
  stack: Pick<PaymentStack, 'facilitatorUrl' | 'network' | 'asset' | 'payTo' | 'rpcUrl'>,
): Config {
  return {
    ...config,
    payment: {
      ...config.payment,
      network: stack.network,
      asset: stack.asset,
      payTo: config.payment.payTo ?? stack.payTo,
      facilitatorUrl: stack.facilitatorUrl,
      testnet: true,
      rpcUrl: config.payment.rpcUrl ?? stack.rpcUrl,
    },
  };
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
