/**
 * The development payment stack as a child process of the service, which forks it with an
 * IPC channel: it starts the stack, tells the parent where it is (`ChildMessage`), and
 * stops when the parent goes (the channel closes, also when the parent crashes or is
 * killed), on SIGTERM or SIGINT. Development only.
 * Usage (by `fork`): child.js [--host ADDRESS] [--port N] [--chain-port N]
 */
import { parseArgs } from 'node:util';
import type { ChildMessage } from './child-protocol.js';
import { type PaymentStack, startPaymentStack } from './stack.js';

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

function port(value: string | undefined): number {
  const number = Number(value ?? 0);
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    throw new Error(`a port is 0 to 65535, got \`${value}\``);
  }
  return number;
}

let stack: PaymentStack | null = null;
let stopping = false;

/** Stop the stack (once) and exit: 0 when it closed cleanly. */
function stop(): void {
  if (stopping) return;
  stopping = true;
  const closed = stack === null ? Promise.resolve() : stack.close();
  closed.then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

// The parent's end of the channel closes when it exits, however it exits.
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

async function main(): Promise<void> {
  if (!process.send) throw new Error('this is started by the service (fork), with an IPC channel');
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'chain-port': { type: 'string' },
    },
  });
  const started = await startPaymentStack({
    port: port(values.port),
    chainPort: port(values['chain-port']),
    ...(values.host ? { host: values.host } : {}),
  });
  stack = started;
  if (stopping) {
    // Told to stop while starting: close what started.
    await started.close();
    return;
  }
  const { rpcUrl, facilitatorUrl, network, networkV1, chainId, asset, extra, payTo, payer } =
    started;
  await send({
    kind: 'ready',
    stack: {
      rpcUrl,
      facilitatorUrl,
      network,
      networkV1,
      chainId,
      asset,
      extra,
      payTo,
      payer,
      permit2: started.permit2,
      uptoProxy: started.uptoProxy,
      facilitatorAddress: started.facilitatorAddress,
    },
  });
}

main().catch(async (error: unknown) => {
  await send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
