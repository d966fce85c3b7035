import { join } from 'node:path';
import { cosignatureVerifier } from '@storefront/tlog';
import { type Config, loadConfig, usesLocalPayments } from './config.js';
import {
  type LocalPayments,
  type LocalPaymentsLaunch,
  type LocalPaymentsOptions,
  launchLocalPayments,
  withLocalPayments,
} from './local-payments.js';
import { type LocalWitness, launchLocalWitness } from './local-witness.js';
import { type RunningServer, type StartOptions, startServer } from './server.js';

/** The service as `main` runs it: the server, and the local payment stack when it runs one. */
export interface Service {
  /** The configuration the server runs with (the local stack's terms when it runs one). */
  readonly config: Config;
  readonly server: RunningServer;
  /** The development payment stack (a child process), or null when a facilitator is configured. */
  readonly payments: LocalPayments | null;
  /** The development witness of the receipt log (a child process), or null. */
  readonly witness: LocalWitness | null;
  /** Stop the server, then the payment stack it settles on and the witness. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface ServiceOptions extends StartOptions {
  /** Where a relative `DATA_DIR` is resolved. Default: the current directory. */
  readonly cwd?: string;
  /** Starts the payment stack's process (tests watch it). Default: {@link launchLocalPayments}. */
  readonly launchPayments?: typeof launchLocalPayments;
  /** Options of the payment stack's process (tests point it at another script). */
  readonly payments?: LocalPaymentsOptions;
  /**
   * Starts the development witness (with the local payment stack, when `LOG_WITNESSES` is
   * empty); null: none. Default: {@link launchLocalWitness}.
   */
  readonly launchWitness?: typeof launchLocalWitness | null;
}

/**
 * `main`'s start-up: read the configuration (refusing a bad one before anything runs),
 * start the development payment stack's process when the service uses it (outside
 * production, no `FACILITATOR_URL`) and take its terms, and start the server meanwhile:
 * the server answers (`/healthz`) while the chain still starts. Resolves once both run;
 * when either fails to start, the other is stopped and the failure is thrown.
 */
export async function startService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): Promise<Service> {
  const {
    cwd,
    launchPayments = launchLocalPayments,
    payments: stackOptions,
    launchWitness = launchLocalWitness,
    ...rest
  } = options;
  const loaded = loadConfig(env, cwd);
  const launch: LocalPaymentsLaunch | null = usesLocalPayments(loaded)
    ? await launchPayments(loaded.localPayments, stackOptions)
    : null;
  const config = launch === null ? loaded : withLocalPayments(loaded, launch.terms);
  const [started, stack] = await Promise.allSettled([
    startServer(config, { ...rest, facilitatorLater: launch !== null }),
    launch === null ? null : launch.ready,
  ]);
  if (started.status === 'rejected' || stack.status === 'rejected') {
    await launch?.stop().catch(() => {});
    if (started.status === 'fulfilled') await started.value.close().catch(() => {});
    throw started.status === 'rejected' ? started.reason : (stack as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const payments = stack.value;
  // The server read the facilitator's kinds while the local stack was still starting.
  if (payments !== null) await server.paymentsStarted();
  // In development, a witness of the receipt log in its own process, with its own key
  // (docs/decisions.md, "A witness for the receipt log").
  let witness: LocalWitness | null = null;
  if (launch !== null && launchWitness !== null && config.logWitnesses.length === 0) {
    try {
      witness = await launchWitness({
        logVkey: server.logVkey,
        dataDir: join(config.dataDir, 'witness'),
      });
    } catch (error) {
      await server.close().catch(() => {});
      await payments?.stack.close().catch(() => {});
      throw error;
    }
    server.witnessWith({
      url: witness.url,
      vkey: witness.vkey,
      verifier: cosignatureVerifier(witness.vkey),
    });
  }
  let closing: Promise<void> | undefined;
  return {
    config,
    server,
    payments,
    witness,
    close() {
      closing ??= server
        .close()
        .finally(() => payments?.stack.close())
        .finally(() => witness?.stop());
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
 * stack, where the stack is, the development payer (address, holding and its public
 * private key, for any x402 client), and the two commands that show a 402 and then pay it.
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
    `  token        ${stack.asset}  (test USDC at USDC's address, on the local chain only)`,
    `  payee        ${config.payment.payTo}`,
    `  payer        ${stack.payer.address}  holds ${usdc(held)} (test money, development wallet)`,
    `  payer key    ${stack.payer.privateKey}  (public development key: PAYER_PRIVATE_KEY for any x402 client)`,
    ...notes.map((note) => `  note: ${note}`),
    ...(service.witness === null
      ? []
      : [
          'Receipt log witness (development: its own process and key)',
          `  witness      ${service.witness.url}  (${service.witness.vkey})`,
        ]),
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
