import { type Config, loadConfig, usesLocalPayments } from './config.js';
import {
  type LocalPayments,
  type PaymentStackModule,
  startLocalPayments,
  withLocalPayments,
} from './local-payments.js';
import { type RunningServer, type StartOptions, startServer } from './server.js';

/** The service as `main` runs it: the server, and the local payment stack when it runs one. */
export interface Service {
  /** The configuration the server runs with (the local stack's terms when it runs one). */
  readonly config: Config;
  readonly server: RunningServer;
  /** The development payment stack, or null when a facilitator is configured. */
  readonly payments: LocalPayments | null;
  /** Stop the server, then the payment stack it settles on. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface ServiceOptions extends StartOptions {
  /** Where a relative `DATA_DIR` is resolved. Default: the current directory. */
  readonly cwd?: string;
  /** Loads the payment stack's module (tests watch it). Default: the real one. */
  readonly loadPaymentStack?: () => Promise<PaymentStackModule>;
}

/**
 * `main`'s start-up: read the configuration (refusing a bad one before anything runs),
 * start the development payment stack when the service uses it (outside production, no
 * `FACILITATOR_URL`) and take its terms, then start the server. A server that fails to
 * start takes the stack down with it.
 */
export async function startService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): Promise<Service> {
  const { cwd, loadPaymentStack, ...serverOptions } = options;
  const loaded = loadConfig(env, cwd);
  const payments = usesLocalPayments(loaded)
    ? await startLocalPayments(loaded.localPayments, {
        ...(loadPaymentStack === undefined ? {} : { load: loadPaymentStack }),
      })
    : null;
  const config = payments === null ? loaded : withLocalPayments(loaded, payments.stack);
  let server: RunningServer;
  try {
    server = await startServer(config, serverOptions);
  } catch (error) {
    await payments?.stack.close().catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    config,
    server,
    payments,
    close() {
      closing ??= server.close().finally(() => payments?.stack.close());
      return closing;
    },
  };
}

/** How `pnpm` is run in the printed commands, as in the README (no global pnpm needed). */
const PNPM = 'npx -y pnpm@10.34.9';

/** A paid route with a tiny, self-contained call: the one the start-up lines suggest. */
const EXAMPLE_CALL = '/buy/notarize?content=hello';

/**
 * What `main` prints once the service runs: its address and, with the local payment
 * stack, where the stack is, what the development payer holds, and the two commands
 * that show a 402 and then pay it.
 */
export async function startupLines(service: Service): Promise<string[]> {
  const { server, payments, config } = service;
  const lines = [
    `Storefront is running at ${server.url} (signer ${server.signer.address}, ${server.db.kind})`,
  ];
  if (payments === null) return lines;
  const { stack, notes } = payments;
  const held = await stack.balanceOf(stack.payer.address);
  const example = `${server.url}${EXAMPLE_CALL}`;
  lines.push(
    'x402 payments on a local chain (development only: test USDC, never real money)',
    `  facilitator  ${stack.facilitatorUrl}`,
    `  chain RPC    ${stack.rpcUrl}  (chain id ${stack.chainId})`,
    `  token        ${stack.asset}  (test USDC)`,
    `  payee        ${config.payment.payTo}`,
    `  payer        ${stack.payer.address}  holds ${usdc(held)} (development wallet)`,
    ...notes.map((note) => `  note: ${note}`),
    'Try it:',
    `  curl -i '${example}'   # 402: the payment terms`,
    `  ${PNPM} pay '${example}'   # pays from the development wallet`,
  );
  return lines;
}

/** Atomic units of a 6-decimal token as `1000.00 USDC` (cents shown, more when there are). */
export function usdc(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  const fraction = (atomic % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${whole}.${fraction} USDC`;
}
