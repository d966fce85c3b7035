/**
 * The worker side of `payment-stack.ts`: runs the development payment stack (chain,
 * test USDC, facilitator) on this thread and answers the parent's requests for balances,
 * mints and the shutdown. Started only by `startPaymentStackThread`.
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import { type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import type { Address } from 'viem';
import type { StackReply, StackRequest, StackStarted } from './payment-stack.js';

const port = theParent();

// No top-level await: see payment-stack-source.mjs.
start().then(serve, (error: unknown) => {
  throw error;
});

/** The stack the service is pointed at. */
interface Running {
  readonly stack: PaymentStack;
  readonly facilitatorUrl: string;
}

async function start(): Promise<Running> {
  const stack = await startPaymentStack();
  return { stack, facilitatorUrl: stack.facilitatorUrl };
}

/** Tell the parent where the stack listens, then answer its requests. */
function serve(running: Running): void {
  const { stack } = running;
  const started: StackStarted = {
    kind: 'started',
    facilitatorUrl: running.facilitatorUrl,
    network: stack.network,
    asset: stack.asset,
    payTo: stack.payTo,
    payer: { address: stack.payer.address, privateKey: stack.payer.privateKey },
  };
  port.postMessage(started);
  port.on('message', (request: StackRequest) => {
    void answer(running, request).then(
      (reply) => port.postMessage(reply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        } satisfies StackReply),
    );
  });
}

async function answer(running: Running, request: StackRequest): Promise<StackReply> {
  const { stack } = running;
  switch (request.op) {
    case 'balanceOf':
      return {
        id: request.id,
        ok: true,
        value: String(await stack.balanceOf(request.address as Address)),
      };
    case 'mint':
      await stack.mint(request.address as Address, BigInt(request.amount));
      return { id: request.id, ok: true, value: '' };
    case 'close':
      await stack.close();
      // In a worker, `process.exit` ends this thread only; the reply is posted first.
      setImmediate(() => process.exit(0));
      return { id: request.id, ok: true, value: '' };
  }
}

function theParent(): MessagePort {
  if (parentPort === null) throw new Error('payment-stack-worker.ts runs as a worker thread only');
  return parentPort;
}
