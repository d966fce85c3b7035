import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { StorefrontError } from '@storefront/core';

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
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
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
    heapMb: integer(env.PRODUCT_HEAP_MB, 1024, 64, 16_384, 'PRODUCT_HEAP_MB', problems),
  };
  const callDeadlineMs = integer(
    env.CALL_DEADLINE_MS,
    DEFAULT_CALL_DEADLINE_MS,
    100,
    120_000,
    'CALL_DEADLINE_MS',
    problems,
  );

  if (nodeEnv === 'production') {
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
    payment: { network, asset, payTo, facilitatorUrl },
    enterprisePerMinute,
    reservationTtlSeconds,
    products,
    callDeadlineMs,
  };
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
