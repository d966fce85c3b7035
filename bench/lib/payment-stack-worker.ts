/**
 * The worker side of `payment-stack.ts`: runs the development payment stack (chain,
 * test USDC, facilitator) on this thread and answers the parent's requests for balances,
 * mints and the shutdown. Started only by `startPaymentStackThread`.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MessagePort, parentPort } from 'node:worker_threads';
import {
  createFacilitatorApp,
  createX402Facilitator,
  DEV_FACILITATOR,
  type DevWalletClient,
  type PaymentStack,
  startPaymentStack,
} from '@storefront/facilitator';
import type { Address } from 'viem';
import type { StackReply, StackRequest, StackStarted } from './payment-stack.js';

const port = theParent();

// No top-level await: see payment-stack-source.mjs.
start().then(serve, (error: unknown) => {
  throw error;
});

/** The stack, and the facilitator the service is pointed at. */
interface Running {
  readonly stack: PaymentStack;
  readonly facilitator: Server;
  readonly facilitatorUrl: string;
}

/**
 * The development stack, and beside it the same facilitator (`createX402Facilitator`, the
 * official code, behind `createFacilitatorApp`) whose wallet sends one transaction at a
 * time. The stack's own facilitator sends concurrent settlements as they come, and
 * ganache 7.9.2 (instant mining) can then leave a transaction that arrives while the
 * account's previous one is being mined in its queue for good: that settlement, and every
 * later one from the account, waits until its confirmation timeout. Seen within ten
 * settlements at 4 in flight; with sends in turn, 400 of 400 settled.
 */
async function start(): Promise<Running> {
  const stack = await startPaymentStack();
  const wallet = oneSendAtATime(stack.chain.walletClient(DEV_FACILITATOR));
  const facilitator = createServer(createFacilitatorApp(createX402Facilitator(wallet)));
  facilitator.listen(0, '127.0.0.1');
  await once(facilitator, 'listening');
  const { port: listening } = facilitator.address() as AddressInfo;
  return { stack, facilitator, facilitatorUrl: `http://127.0.0.1:${listening}` };
}

/** `wallet` with its transactions sent one after the other, each once the previous one is mined. */
function oneSendAtATime(wallet: DevWalletClient): DevWalletClient {
  let last: Promise<unknown> = Promise.resolve();
  const inTurn =
    <A extends unknown[], R>(send: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const sent = last.then(() => send(...args));
      last = sent.catch(() => {});
      return sent;
    };
  return {
    ...wallet,
    writeContract: inTurn(wallet.writeContract),
    sendTransaction: inTurn(wallet.sendTransaction),
  } as DevWalletClient;
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
      await new Promise<void>((resolve) => {
        running.facilitator.close(() => resolve());
        running.facilitator.closeAllConnections();
      });
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
