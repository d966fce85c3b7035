import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import ganache from 'ganache';
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type EIP1193Provider,
  type PublicActions,
  type PublicClient,
  publicActions,
  type Transport,
  toHex,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createNonceManager, jsonRpc } from 'viem/nonce';
import { DEV_DEPLOYER, DEV_FACILITATOR, DEV_PAYER, type DevAccount } from './accounts.js';
import { DEV_CHAIN_ID, MULTICALL3_ADDRESS } from './contracts.js';

/** Every development account starts with this much ether, for gas. */
const START_ETHER = 1000n * 10n ** 18n;

/** A JSON-RPC request body larger than this is refused: no development call comes near it. */
const MAX_RPC_BODY_BYTES = 1024 * 1024;

/**
 * viem polls this often while it waits for a receipt. The chain mines each transaction as it
 * arrives, so the first look usually finds it; the interval only matters when it does not.
 */
const POLLING_INTERVAL_MS = 25;

/** A wallet client that can also read: what a facilitator or a test needs from one account. */
export type DevWalletClient = WalletClient<Transport, Chain, Account> &
  PublicActions<Transport, Chain>;

/** A local EVM chain with chain id 8453, served in this process and over HTTP JSON-RPC. */
export interface LocalChain {
  /** The chain as viem describes it, with this chain's RPC URL and Multicall3. */
  readonly chain: Chain;
  /** `http://127.0.0.1:<port>`: JSON-RPC for other processes (single and batch requests). */
  readonly rpcUrl: string;
  /** The in-process EIP-1193 provider, for clients in this process (no HTTP hop). */
  readonly provider: EIP1193Provider;
  /** A public client on the in-process provider. */
  readonly publicClient: PublicClient<Transport, Chain>;
  /** A wallet client for `account` on the in-process provider. */
  walletClient(account: DevAccount): DevWalletClient;
  /** Stop serving HTTP and drop the chain. */
  close(): Promise<void>;
}

/** Where the chain's HTTP JSON-RPC listens. */
export interface ChainOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
}

/**
 * Start a fresh in-memory chain (ganache) with chain id 8453, the development accounts
 * funded with ether, instant mining, and an HTTP JSON-RPC server in front of it.
 */
export async function startChain(options: ChainOptions = {}): Promise<LocalChain> {
  const ganacheProvider = ganache.provider({
    chain: { chainId: DEV_CHAIN_ID, networkId: DEV_CHAIN_ID, hardfork: 'shanghai' },
    wallet: {
      accounts: [DEV_DEPLOYER, DEV_FACILITATOR, DEV_PAYER].map((account) => ({
        secretKey: account.privateKey,
        balance: toHex(START_ETHER),
      })),
    },
    logging: { quiet: true },
  });
  const provider = withRpcErrorCodes(ganacheProvider as unknown as EIP1193Provider);
  // A first request waits for the chain to be ready: disconnecting one that is still
  // starting throws where nothing can catch it.
  await provider.request({ method: 'eth_chainId' });
  const server = createServer((req, res) => {
    void serveJsonRpc(provider, req, res);
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  try {
    await once(server, 'listening');
  } catch (error) {
    await ganacheProvider.disconnect();
    throw error;
  }
  const { address, port } = server.address() as AddressInfo;
  const rpcUrl = `http://${address}:${port}`;
  const chain = devChain(rpcUrl);
  const transport = custom(provider);
  const publicClient = createPublicClient({
    chain,
    transport,
    pollingInterval: POLLING_INTERVAL_MS,
  });
  // One nonce manager per chain: it hands out each account's nonces in this process, so
  // concurrent settlements from one account never race for the same nonce. (viem's shared
  // `nonceManager` would carry an earlier chain's nonces into a fresh one.)
  const nonceManager = createNonceManager({ source: jsonRpc() });
  return {
    chain,
    rpcUrl,
    provider,
    publicClient,
    walletClient(account) {
      return createWalletClient({
        account: privateKeyToAccount(account.privateKey, { nonceManager }),
        chain,
        transport,
        pollingInterval: POLLING_INTERVAL_MS,
      }).extend(publicActions);
    },
    async close() {
      await closeServer(server);
      await ganacheProvider.disconnect();
    },
  };
}

/**
 * Ganache answers a method it lacks with a plain error, no JSON-RPC code. viem retries such
 * errors with back-off, and newer viem tries `eth_fillTransaction` before every transaction,
 * so each one waited about a second. With the standard "method not found" code (-32601)
 * viem gives up at once and remembers that the method is missing.
 */
function withRpcErrorCodes(provider: EIP1193Provider): EIP1193Provider {
  const request = (async (args: Parameters<EIP1193Provider['request']>[0]) => {
    try {
      return await provider.request(args);
    } catch (error) {
      if (
        error instanceof Error &&
        (error as { code?: unknown }).code === undefined &&
        / does not exist\/is not available$/.test(error.message)
      ) {
        throw Object.assign(error, { code: -32601 });
      }
      throw error;
    }
  }) as EIP1193Provider['request'];
  return {
    request,
    on: provider.on.bind(provider),
    removeListener: provider.removeListener.bind(provider),
  };
}

/** viem's description of the local chain. */
export function devChain(rpcUrl: string): Chain {
  return defineChain({
    id: DEV_CHAIN_ID,
    name: 'Storefront local chain (development only)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** One POST body: a JSON-RPC request or a batch of them, answered in kind. */
async function serveJsonRpc(provider: EIP1193Provider, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') {
    return sendJson(res, 405, rpcError(null, -32600, 'JSON-RPC requests are POSTed'));
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return sendJson(res, 400, rpcError(null, -32700, `Parse error: ${message}`));
  }
  if (Array.isArray(body)) {
    const answers = await Promise.all(body.map((one) => answerRequest(provider, one)));
    return sendJson(res, 200, answers);
  }
  return sendJson(res, 200, await answerRequest(provider, body));
}

/** Run one JSON-RPC request against the provider; every failure becomes a JSON-RPC error. */
async function answerRequest(provider: EIP1193Provider, request: unknown): Promise<unknown> {
  const { id = null, method, params = [] } = (request ?? {}) as JsonRpcRequest;
  if (typeof method !== 'string') return rpcError(id, -32600, 'Invalid request: no method');
  try {
    const result = await provider.request({ method, params } as never);
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    // Ganache puts the revert data in `data`; viem's HTTP transport decodes revert reasons
    // from it, so it is passed on as is.
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    return rpcError(
      id,
      typeof code === 'number' ? code : -32603,
      typeof message === 'string' ? message : String(error),
      data,
    );
  }
}

function rpcError(id: unknown, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_RPC_BODY_BYTES) throw new Error(`body over ${MAX_RPC_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Close the server, ending idle keep-alive connections so the close does not wait on them. */
export async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
  server.closeIdleConnections();
  await closed;
}
