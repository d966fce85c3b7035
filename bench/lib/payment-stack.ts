import { Worker } from 'node:worker_threads';

/**
 * The development payment stack (`@storefront/facilitator`: a ganache chain with id 8453,
 * the EIP-3009 test USDC, a facilitator on the official x402 code) on a worker thread,
 * with its facilitator sending one settlement transaction at a time (see
 * `payment-stack-worker.ts` for why).
 * In production the facilitator and the chain are other machines; here the chain's EVM
 * work would otherwise run on the service's event loop and delay its answers. On the
 * 2-core machine it still takes CPU time, as a facilitator on the same host would.
 */
export interface PaymentStackThread {
  readonly facilitatorUrl: string;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  readonly payer: { readonly address: string; readonly privateKey: `0x${string}` };
  /** Test USDC held by `address`, in atomic units. */
  balanceOf(address: string): Promise<bigint>;
  /** Mint `amount` atomic units to `address`; resolves once mined. */
  mint(address: string, amount: bigint): Promise<void>;
  /** Stop the facilitator and the chain, and end the thread. */
  close(): Promise<void>;
}

/** The worker's first message: where the stack listens. */
export interface StackStarted {
  readonly kind: 'started';
  readonly facilitatorUrl: string;
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
  readonly payer: { readonly address: string; readonly privateKey: `0x${string}` };
}

/** A request to the worker. */
export type StackRequest =
  | { readonly id: number; readonly op: 'balanceOf'; readonly address: string }
  | { readonly id: number; readonly op: 'mint'; readonly address: string; readonly amount: string }
  | { readonly id: number; readonly op: 'close' };

/** The worker's answer to the request with the same id. */
export type StackReply =
  | { readonly id: number; readonly ok: true; readonly value: string }
  | { readonly id: number; readonly ok: false; readonly error: string };

type Op<R> = R extends { readonly id: number } ? Omit<R, 'id'> : never;

/** Start the payment stack on its own thread; resolves once it is funded and listening. */
export async function startPaymentStackThread(): Promise<PaymentStackThread> {
  // The entry registers tsx in the thread; the condition resolves the workspace packages
  // to their sources, as in this thread.
  const worker = new Worker(new URL('./payment-stack-source.mjs', import.meta.url), {
    execArgv: ['--conditions=@storefront/source'],
  });
  const started = await new Promise<StackStarted>((resolve, reject) => {
    const onExit = (code: number) =>
      reject(new Error(`the payment stack thread exited (${code}) before it started`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (message: StackStarted) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      resolve(message);
    });
  });

  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  worker.on('message', (reply: StackReply) => {
    const entry = waiting.get(reply.id);
    if (entry === undefined) return;
    waiting.delete(reply.id);
    if (reply.ok) entry.resolve(reply.value);
    else entry.reject(new Error(`payment stack: ${reply.error}`));
  });
  worker.on('error', (error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  });
  const ask = (request: Op<StackRequest>) =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });

  let closing: Promise<void> | null = null;
  return {
    facilitatorUrl: started.facilitatorUrl,
    network: started.network,
    asset: started.asset,
    payTo: started.payTo,
    payer: started.payer,
    balanceOf: async (address) => BigInt(await ask({ op: 'balanceOf', address })),
    mint: async (address, amount) => {
      await ask({ op: 'mint', address, amount: String(amount) });
    },
    close() {
      closing ??= (async () => {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        await ask({ op: 'close' });
        await exited;
      })();
      return closing;
    },
  };
}
