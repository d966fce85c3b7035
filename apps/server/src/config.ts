import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { StorefrontError } from '@storefront/core';
import { v1NetworkName } from './doors/x402/networks.js';
import { type LogWitness, parseWitnesses } from './log/witness-config.js';
import { PAID_TIERS, type PaidTier } from './metering/tiers.js';
import { parseResolver } from './probes/dns-client.js';

/** Validated service configuration (DESIGN §8). */
export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly port: number;
  readonly host: string;
  /** Absolute base for URLs in answers; null derives it from the bound host and port. */
  readonly publicBaseUrl: string | null;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly signerPrivateKey: string | null;
  readonly safeFetchAllow: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly trustProxy: boolean | number | string;
  /** Bearer token of the operator API; null turns `/admin/*` off (404). */
  readonly adminToken: string | null;
  /** Payment terms of the 402 challenge. */
  readonly payment: PaymentConfig;
  /** Calls per minute of an enterprise key. */
  readonly enterprisePerMinute: number;
  /** Reservations pending longer than this are released (a crash mid-call). */
  readonly reservationTtlSeconds: number;
  /** Where the products run: threads, each task's deadline and each thread's heap bound. */
  readonly products: ProductsConfig;
  /**
   * A paid call's budget from its arrival (ms): its fetches and its product share it,
   * and the work is given up when it runs out (docs/decisions.md, "One deadline per call").
   */
  readonly callDeadlineMs: number;
  /** Where the development payment stack listens when it runs (see {@link usesLocalPayments}). */
  readonly localPayments: LocalPaymentsConfig;
  /** Subscriptions and credit packs (docs/decisions.md, "Billing"). */
  readonly billing: BillingConfig;
  /**
   * `DNS_RESOLVER`: the resolver DNS audits ask and TLS audits resolve through, as
   * `host:port` (`127.0.0.1:5353`, `[::1]:53`); null for the system's first server.
   */
  readonly dnsResolver: string | null;
  /**
   * `TLS_AUDIT_PORT`: the port TLS audits connect to. 443; outside production a test
   * may name a loopback port that `SAFE_FETCH_ALLOW` also lists.
   */
  readonly tlsAuditPort: number;
  /** Crawl job workers (docs/decisions.md, "Crawl jobs"). */
  readonly jobs: JobsConfig;
  /**
   * `LOG_WITNESSES`: the witnesses the receipt log submits its checkpoints to
   * (docs/decisions.md, "A witness for the receipt log"); empty: none (`pnpm start` then
   * runs one in development).
   */
  readonly logWitnesses: readonly LogWitness[];
}

/** `JOB_*`: the workers of crawl jobs in this process. */
export interface JobsConfig {
  /** `JOB_WORKERS`: run job workers in this process (`pnpm start`: yes, unless `false`). */
  readonly workers: boolean;
  /** `JOB_CONCURRENCY`: tasks (pages) one process runs at once. */
  readonly concurrency: number;
  /** `JOB_HOST_CONCURRENCY`: fetches in flight to one origin from one process. */
  readonly perHost: number;
  /** `JOB_QUEUE_SCHEMA`: graphile-worker's schema in the database (default `graphile_worker`). */
  readonly queueSchema: string;
}

/**
 * The payment processor of subscriptions and credit packs: Stripe when `stripe` is set,
 * else the built-in development processor (refused in production).
 */
export interface BillingConfig {
  readonly stripe: StripeConfig | null;
}

/** Stripe Checkout and its webhook. */
export interface StripeConfig {
  /** `STRIPE_SECRET_KEY`: `sk_live_…`, `sk_test_…` or a restricted `rk_…` key. */
  readonly secretKey: string;
  /** `STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret, `whsec_…`. */
  readonly webhookSecret: string;
  /**
   * Price ids of the tiers (`STRIPE_PRICE_PRO`, `…_BUSINESS`, `…_ENTERPRISE`); a tier
   * without one is sold with an inline monthly price from the tier table.
   */
  readonly prices: Readonly<Partial<Record<PaidTier, string>>>;
}

/**
 * The default call budget: the spec's 6 s for a whole call less half a second for the
 * admission, the signature, the ledger and writing the answer.
 */
export const DEFAULT_CALL_DEADLINE_MS = 5500;

/** The product threads (docs/decisions.md, "Products run on their own threads"). */
export interface ProductsConfig {
  /** Product threads; 0 runs products on the event loop. */
  readonly threads: number;
  readonly deadlineMs: number;
  readonly heapMb: number;
  /** A product thread idle this long stops; threads start on demand. */
  readonly idleMs: number;
}

/** The x402 payment terms every 402 answer carries (DESIGN §8). */
export interface PaymentConfig {
  /** CAIP-2 chain id. */
  readonly network: string;
  /** Token contract address. */
  readonly asset: string;
  /** Receiving address; null means the service's signer address (development only). */
  readonly payTo: string | null;
  /** The facilitator named in the terms; null until one is configured. */
  readonly facilitatorUrl: string | null;
  /** How long one facilitator request (verify or settle) may take (ms). */
  readonly facilitatorTimeoutMs: number;
  /** Name the chain by its x402 v1 name (`base`) in the 402 body (x402.md §1). */
  readonly legacyNetworkNames: boolean;
  /** Whether the asset is a development chain's test token (the terms' `testnet`). */
  readonly testnet: boolean;
  /**
   * JSON-RPC URL of the chain (`X402_RPC_URL`), read when a settlement's outcome is
   * unknown; the local stack's chain in development; null: such payments stay unknown.
   */
  readonly rpcUrl: string | null;
  /**
   * `X402_BATCH_REDEEM_SECONDS`: how long after a channel's first unredeemed voucher its
   * vouchers are redeemed (claimed on chain and moved to `payTo`), so that one redemption
   * covers many calls; 0 turns `batch-settlement` off (the terms offer only `exact`).
   */
  readonly batchRedeemSeconds: number;
}

/**
 * The ports of the development payment stack, which `pnpm start` runs beside it when no
 * facilitator is configured. Null is the default port ({@link DEFAULT_LOCAL_CHAIN_PORT},
 * {@link DEFAULT_LOCAL_FACILITATOR_PORT}), or a free one when that is taken; a number is
 * that port (0: a free one), and a taken one is a start-up error.
 */
export interface LocalPaymentsConfig {
  readonly chainPort: number | null;
  readonly facilitatorPort: number | null;
}

/**
 * The local chain's JSON-RPC port: the usual one of local Ethereum nodes, where wallets
 * and tools look first.
 */
export const DEFAULT_LOCAL_CHAIN_PORT = 8545;

/** The local facilitator's port: fixed, so that it is the same on every start. */
export const DEFAULT_LOCAL_FACILITATOR_PORT = 4021;

/** The chain of the development payment stack (its chain id is Base's). */
export const LOCAL_PAYMENTS_NETWORK = 'eip155:8453';

/**
 * The default facilitator timeout: a settlement on Base waits for its transaction's
 * receipt, normally 2-6 s with 2 s blocks; 15 s leaves room for a slow block or an RPC
 * retry and still answers well inside the 60 s a payment is valid.
 */
export const DEFAULT_FACILITATOR_TIMEOUT_MS = 15_000;

/** Seconds from a channel's first unredeemed voucher to its redemption (`X402_BATCH_REDEEM_SECONDS`). */
export const DEFAULT_BATCH_REDEEM_SECONDS = 60;

/**
 * Where the development chain's test token is: USDC's address on Base, so that the
 * official x402 clients pay it as shipped (it is one of their default assets). Only the
 * local chain of the development payment stack has the test token there; everywhere
 * else this address is real USDC, so the address alone does not make a payment test
 * money: the local stack does (see `testnet` in {@link loadConfig}).
 */
export const DEV_TOKEN_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * Token addresses of development chains: the terms say `testnet` for them, and
   * production refuses them. Default: none.
   */
  readonly developmentAssets?: readonly string[];
}

/** USDC on Base (chain 8453). */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Thrown by {@link loadConfig}; `main` prints the message and exits 1. */
export class ConfigError extends StorefrontError {
  constructor(message: string) {
    super('internal_error', message);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Read and validate the environment once, at start-up. Defaults make a bare
 * `pnpm start` work; `NODE_ENV=production` turns every development default
 * (generated signer key, test allowlist) into an error.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  options: LoadConfigOptions = {},
): Config {
  const problems: string[] = [];
  const nodeEnv = env.NODE_ENV ?? 'development';
  if (nodeEnv !== 'development' && nodeEnv !== 'test' && nodeEnv !== 'production') {
    problems.push(`NODE_ENV must be development, test or production, got \`${nodeEnv}\``);
  }

  const port = integer(env.PORT, 3000, 0, 65535, 'PORT', problems);
  const host = nonEmpty(env.HOST) ?? '127.0.0.1';
  const publicBaseUrl = baseUrl(env.PUBLIC_BASE_URL, problems);
  const dataDirRaw = nonEmpty(env.DATA_DIR) ?? '.data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const signerPrivateKey = nonEmpty(env.SIGNER_PRIVATE_KEY);
  if (signerPrivateKey !== null && !/^0x[0-9a-fA-F]{64}$/.test(signerPrivateKey)) {
    problems.push('SIGNER_PRIVATE_KEY must be 0x followed by 64 hex digits');
  }

  const safeFetchAllow = (env.SAFE_FETCH_ALLOW ?? '').trim();
  const logLevel = (nonEmpty(env.LOG_LEVEL) ??
    (nodeEnv === 'test' ? 'silent' : 'info')) as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got \`${logLevel}\``);
  }

  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);

  const adminToken = nonEmpty(env.ADMIN_TOKEN);
  if (adminToken !== null && adminToken.length < 16) {
    problems.push('ADMIN_TOKEN must be at least 16 characters');
  }
  const payTo = nonEmpty(env.X402_PAY_TO);
  if (payTo !== null && !ADDRESS.test(payTo)) {
    problems.push('X402_PAY_TO must be an address: 0x followed by 40 hex digits');
  }
  const asset = nonEmpty(env.X402_ASSET) ?? BASE_USDC;
  if (!ADDRESS.test(asset)) {
    problems.push('X402_ASSET must be a token contract address: 0x followed by 40 hex digits');
  }
  const network = nonEmpty(env.X402_NETWORK) ?? 'eip155:8453';
  if (!/^eip155:\d+$/.test(network)) {
    problems.push(
      `X402_NETWORK must be a CAIP-2 EVM chain id such as eip155:8453, got \`${network}\``,
    );
  }
  const facilitatorUrl = nonEmpty(env.FACILITATOR_URL);
  if (facilitatorUrl !== null && !/^https?:\/\/\S+$/.test(facilitatorUrl)) {
    problems.push('FACILITATOR_URL must be an absolute http(s) URL');
  }
  const rpcUrl = nonEmpty(env.X402_RPC_URL);
  if (rpcUrl !== null && !/^https?:\/\/\S+$/.test(rpcUrl)) {
    problems.push('X402_RPC_URL must be an absolute http(s) URL');
  }
  const facilitatorTimeoutMs = integer(
    env.FACILITATOR_TIMEOUT_MS,
    DEFAULT_FACILITATOR_TIMEOUT_MS,
    100,
    120_000,
    'FACILITATOR_TIMEOUT_MS',
    problems,
  );
  const batchRedeemSeconds = integer(
    env.X402_BATCH_REDEEM_SECONDS,
    DEFAULT_BATCH_REDEEM_SECONDS,
    0,
    86_400,
    'X402_BATCH_REDEEM_SECONDS',
    problems,
  );
  const legacyNetworkNames = flag(
    env.X402_LEGACY_NETWORK_NAMES,
    'X402_LEGACY_NETWORK_NAMES',
    problems,
  );
  if (legacyNetworkNames && /^eip155:\d+$/.test(network) && v1NetworkName(network) === null) {
    problems.push(
      `X402_LEGACY_NETWORK_NAMES is on, but x402 v1 has no name for \`${network}\` (only eip155:8453 \`base\` and eip155:84532 \`base-sepolia\`)`,
    );
  }
  const localPayments: LocalPaymentsConfig = {
    chainPort: optionalPort(env.LOCAL_CHAIN_PORT, 'LOCAL_CHAIN_PORT', problems),
    facilitatorPort: optionalPort(env.LOCAL_FACILITATOR_PORT, 'LOCAL_FACILITATOR_PORT', problems),
  };
  if (nodeEnv !== 'production' && facilitatorUrl === null) {
    problems.push(...localPaymentsConflicts(env));
  }
  const developmentAssets = (options.developmentAssets ?? []).map((a) => a.toLowerCase());
  // Test money: a development token, or a facilitator on this machine outside production
  // (a local payment stack; `withLocalPayments` says so for the one `start` runs).
  const testnet =
    developmentAssets.includes(asset.toLowerCase()) ||
    (nodeEnv !== 'production' && facilitatorUrl !== null && isLoopbackUrl(facilitatorUrl));
  const enterprisePerMinute = integer(
    env.ENTERPRISE_PER_MINUTE,
    3000,
    1,
    1_000_000,
    'ENTERPRISE_PER_MINUTE',
    problems,
  );
  const reservationTtlSeconds = integer(
    env.RESERVATION_TTL_SECONDS,
    300,
    30,
    86_400,
    'RESERVATION_TTL_SECONDS',
    problems,
  );
  const products: ProductsConfig = {
    threads: integer(
      env.PRODUCT_THREADS,
      defaultProductThreads(availableParallelism()),
      0,
      64,
      'PRODUCT_THREADS',
      problems,
    ),
    deadlineMs: integer(
      env.PRODUCT_DEADLINE_MS,
      10_000,
      100,
      120_000,
      'PRODUCT_DEADLINE_MS',
      problems,
    ),
    heapMb: integer(env.PRODUCT_HEAP_MB, 96, 64, 16_384, 'PRODUCT_HEAP_MB', problems),
    idleMs: integer(env.PRODUCT_IDLE_MS, 60_000, 100, 3_600_000, 'PRODUCT_IDLE_MS', problems),
  };
  const callDeadlineMs = integer(
    env.CALL_DEADLINE_MS,
    DEFAULT_CALL_DEADLINE_MS,
    100,
    120_000,
    'CALL_DEADLINE_MS',
    problems,
  );

  const billing = billingConfig(env, problems);
  const jobs: JobsConfig = {
    workers: nonEmpty(env.JOB_WORKERS) === null || flag(env.JOB_WORKERS, 'JOB_WORKERS', problems),
    concurrency: integer(env.JOB_CONCURRENCY, 16, 1, 256, 'JOB_CONCURRENCY', problems),
    perHost: integer(env.JOB_HOST_CONCURRENCY, 8, 1, 256, 'JOB_HOST_CONCURRENCY', problems),
    queueSchema: schemaName(env.JOB_QUEUE_SCHEMA, 'graphile_worker', 'JOB_QUEUE_SCHEMA', problems),
  };

  const dnsResolver = nonEmpty(env.DNS_RESOLVER);
  if (dnsResolver !== null) {
    try {
      parseResolver(dnsResolver);
    } catch {
      problems.push(
        `DNS_RESOLVER must be an IP address with an optional port, such as 127.0.0.1:5353 or [::1]:53, got \`${dnsResolver}\``,
      );
    }
  }
  const tlsAuditPort = integer(env.TLS_AUDIT_PORT, 443, 1, 65535, 'TLS_AUDIT_PORT', problems);
  const logWitnesses = parseWitnesses(env.LOG_WITNESSES, problems);

  if (nodeEnv === 'production') {
    if (billing.stripe === null) {
      problems.push(
        'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required in production (the development payment processor is refused)',
      );
    }
    if (tlsAuditPort !== 443) {
      problems.push('TLS_AUDIT_PORT is for tests only: production audits port 443');
    }
    if (signerPrivateKey === null) {
      problems.push(
        'SIGNER_PRIVATE_KEY is required in production (the development key is refused)',
      );
    }
    if (safeFetchAllow !== '') {
      problems.push('SAFE_FETCH_ALLOW is for tests only and is refused in production');
    }
    if (databaseUrl === null) {
      problems.push('DATABASE_URL is required in production (embedded PGlite is for development)');
    }
    if (payTo === null) {
      problems.push('X402_PAY_TO is required in production (the address payments go to)');
    }
    if (facilitatorUrl === null) {
      problems.push(
        'FACILITATOR_URL is required in production (the local facilitator is for development)',
      );
    } else if (isLoopbackUrl(facilitatorUrl)) {
      problems.push(
        `FACILITATOR_URL must not be a loopback address in production, got \`${facilitatorUrl}\``,
      );
    }
    if (testnet) {
      problems.push(
        `X402_ASSET \`${asset}\` is the development chain's test token; production takes real USDC`,
      );
    }
  }

  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }

  return {
    env: nodeEnv as Config['env'],
    port,
    host,
    publicBaseUrl,
    dataDir,
    databaseUrl,
    signerPrivateKey,
    safeFetchAllow,
    logLevel,
    trustProxy,
    adminToken,
    payment: {
      network,
      asset,
      payTo,
      facilitatorUrl,
      facilitatorTimeoutMs,
      legacyNetworkNames,
      testnet,
      rpcUrl,
      batchRedeemSeconds,
    },
    enterprisePerMinute,
    reservationTtlSeconds,
    products,
    callDeadlineMs,
    localPayments,
    billing,
    dnsResolver,
    tlsAuditPort,
    jobs,
    logWitnesses,
  };
}

/** `STRIPE_*`: both secrets or neither; price ids when given look like price ids. */
function billingConfig(env: NodeJS.ProcessEnv, problems: string[]): BillingConfig {
  const secretKey = nonEmpty(env.STRIPE_SECRET_KEY);
  const webhookSecret = nonEmpty(env.STRIPE_WEBHOOK_SECRET);
  if (secretKey !== null && !/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) {
    problems.push('STRIPE_SECRET_KEY must be a Stripe secret key: sk_live_…, sk_test_… or rk_…');
  }
  if (webhookSecret !== null && !/^whsec_\S+$/.test(webhookSecret)) {
    problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret: whsec_…');
  }
  if ((secretKey === null) !== (webhookSecret === null)) {
    problems.push(
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both to take payments through Stripe, or neither for the development processor',
    );
  }
  const prices: Partial<Record<PaidTier, string>> = {};
  for (const tier of PAID_TIERS) {
    const name = `STRIPE_PRICE_${tier.toUpperCase()}`;
    const price = nonEmpty(env[name]);
    if (price === null) continue;
    if (!/^price_[0-9A-Za-z]+$/.test(price)) {
      problems.push(`${name} must be a Stripe price id (price_…), got \`${price}\``);
    } else {
      prices[tier] = price;
    }
    if (secretKey === null) problems.push(`${name} is set, but STRIPE_SECRET_KEY is not`);
  }
  return {
    stripe:
      secretKey !== null && webhookSecret !== null ? { secretKey, webhookSecret, prices } : null,
  };
}

/**
 * Whether the service runs the development payment stack (a local chain, its test token
 * and a facilitator) as its child process: outside production, when no facilitator is
 * configured. Production requires `FACILITATOR_URL`, so it never does.
 */
export function usesLocalPayments(config: Config): boolean {
  return config.env !== 'production' && config.payment.facilitatorUrl === null;
}

/**
 * Terms the local stack cannot settle: without `FACILITATOR_URL` the payments go to the
 * local facilitator, which knows one chain and one token, so another one set in
 * `X402_ASSET` or `X402_NETWORK` would ask for payments nobody can take.
 */
function localPaymentsConflicts(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const asset = nonEmpty(env.X402_ASSET);
  if (asset !== null && asset.toLowerCase() !== DEV_TOKEN_ADDRESS.toLowerCase()) {
    problems.push(
      `X402_ASSET is \`${asset}\`, but without FACILITATOR_URL payments go to the local facilitator, which settles only its test token (at USDC's address, \`${DEV_TOKEN_ADDRESS}\`): set FACILITATOR_URL too, or unset X402_ASSET`,
    );
  }
  const network = nonEmpty(env.X402_NETWORK);
  if (network !== null && network !== LOCAL_PAYMENTS_NETWORK) {
    problems.push(
      `X402_NETWORK is \`${network}\`, but without FACILITATOR_URL payments go to the local chain, \`${LOCAL_PAYMENTS_NETWORK}\`: set FACILITATOR_URL too, or unset X402_NETWORK`,
    );
  }
  return problems;
}

/**
 * One product thread per core, less the one the event loop, PostgreSQL and the fetches
 * use, and at most 8: in a container `availableParallelism()` can report the host's
 * cores rather than the CPU quota, and each idle thread holds about 15-50 MB.
 */
export function defaultProductThreads(cores: number): number {
  return Math.min(8, Math.max(1, cores - 1));
}

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** A boolean variable: `true`/`1` or `false`/`0` (any case); unset is false. */
function flag(raw: string | undefined, name: string, problems: string[]): boolean {
  const value = nonEmpty(raw)?.toLowerCase() ?? null;
  if (value === null || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  problems.push(`${name} must be true, false, 1 or 0, got \`${raw?.trim()}\``);
  return false;
}

/**
 * Whether `url` names this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1`,
 * or the unspecified addresses, which connect to this machine too.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '[::]' || host === '0.0.0.0') return true;
  if (/^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.[0-9.]+)\]$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A schema name: lower-case letters, digits and `_`, starting with a letter or `_`. */
function schemaName(
  raw: string | undefined,
  fallback: string,
  name: string,
  problems: string[],
): string {
  const value = nonEmpty(raw);
  if (value === null) return fallback;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
    problems.push(`${name} must be a schema name (a-z, 0-9, _), got \`${value}\``);
    return fallback;
  }
  return value;
}

function integer(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  name: string,
  problems: string[],
): number {
  const value = nonEmpty(raw);
  if (value === null) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}, got \`${value}\``);
    return fallback;
  }
  return Number(value);
}

/** A port variable: unset is null (the default), else an integer from 0 to 65535. */
function optionalPort(raw: string | undefined, name: string, problems: string[]): number | null {
  return nonEmpty(raw) === null ? null : integer(raw, 0, 0, 65535, name, problems);
}

/** The default public base URL for a bound address: `http://HOST:PORT`. */
export function defaultBaseUrl(host: string, port: number): string {
  // A wildcard bind is reached through loopback.
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

function baseUrl(raw: string | undefined, problems: string[]): string | null {
  const value = nonEmpty(raw);
  if (value === null) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.href.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_BASE_URL must be an absolute http(s) URL, got \`${value}\``);
    return '';
  }
}

function parseTrustProxy(raw: string | undefined, problems: string[]): boolean | number | string {
  const value = nonEmpty(raw);
  if (value === null || value === 'false') return false;
  if (value === 'true') {
    problems.push(
      'TRUST_PROXY=true lets any client choose its IP; give a hop count or the proxy addresses',
    );
    return false;
  }
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
