import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_TOKEN_ADDRESS,
  defaultBaseUrl,
  defaultProductThreads,
  isLoopbackUrl,
  loadConfig,
} from '../src/config.js';

describe('loadConfig', () => {
  it('starts with nothing set: port 3000 on 127.0.0.1, PGlite in .data, development signer', () => {
    expect(loadConfig({}, '/srv/app')).toStrictEqual({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: null,
      dataDir: '/srv/app/.data',
      databaseUrl: null,
      signerPrivateKey: null,
      safeFetchAllow: '',
      logLevel: 'info',
      trustProxy: false,
      adminToken: null,
      payment: {
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: null,
        facilitatorUrl: null,
        facilitatorTimeoutMs: 15_000,
        legacyNetworkNames: false,
        testnet: false,
        rpcUrl: null,
        batchRedeemSeconds: 60,
      },
      enterprisePerMinute: 3000,
      reservationTtlSeconds: 300,
      products: {
        threads: defaultProductThreads(availableParallelism()),
        deadlineMs: 10_000,
        heapMb: 96,
        idleMs: 60_000,
      },
      callDeadlineMs: 5500,
      localPayments: { chainPort: null, facilitatorPort: null },
      billing: { stripe: null },
      dnsResolver: null,
      tlsAuditPort: 443,
      jobs: { workers: true, concurrency: 16, perHost: 8, queueSchema: 'graphile_worker' },
      logWitnesses: [],
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '8080',
        HOST: '0.0.0.0',
        PUBLIC_BASE_URL: 'https://api.example.com/',
        DATA_DIR: '/var/lib/storefront',
        DATABASE_URL: 'postgres://u@db/storefront',
        SIGNER_PRIVATE_KEY: `0x${'1'.repeat(64)}`,
        SAFE_FETCH_ALLOW: '127.0.0.1:43123',
        LOG_LEVEL: 'debug',
        TRUST_PROXY: '1',
        PRODUCT_THREADS: '0',
        PRODUCT_DEADLINE_MS: '2500',
        PRODUCT_HEAP_MB: '256',
        PRODUCT_IDLE_MS: '60000',
        CALL_DEADLINE_MS: '2000',
        FACILITATOR_URL: 'https://facilitator.example/x402',
        FACILITATOR_TIMEOUT_MS: '4000',
        X402_RPC_URL: 'https://sepolia.base.org',
        X402_LEGACY_NETWORK_NAMES: '1',
        X402_NETWORK: 'eip155:84532',
        LOCAL_CHAIN_PORT: '9545',
        LOCAL_FACILITATOR_PORT: '0',
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
        STRIPE_PRICE_BUSINESS: 'price_1Abc',
        DNS_RESOLVER: '127.0.0.1:5353',
        TLS_AUDIT_PORT: '44300',
      },
      '/',
    );
    expect(config).toMatchObject({
      env: 'test',
      port: 8080,
      host: '0.0.0.0',
      publicBaseUrl: 'https://api.example.com',
      dataDir: '/var/lib/storefront',
      databaseUrl: 'postgres://u@db/storefront',
      safeFetchAllow: '127.0.0.1:43123',
      logLevel: 'debug',
      trustProxy: 1,
      products: { threads: 0, deadlineMs: 2500, heapMb: 256, idleMs: 60_000 },
      callDeadlineMs: 2000,
      localPayments: { chainPort: 9545, facilitatorPort: 0 },
      dnsResolver: '127.0.0.1:5353',
      tlsAuditPort: 44300,
      payment: {
        network: 'eip155:84532',
        facilitatorUrl: 'https://facilitator.example/x402',
        facilitatorTimeoutMs: 4000,
        legacyNetworkNames: true,
        testnet: false,
        rpcUrl: 'https://sepolia.base.org',
      },
      billing: {
        stripe: {
          secretKey: 'sk_test_abc123',
          webhookSecret: 'whsec_abc123',
          prices: { business: 'price_1Abc' },
        },
      },
    });
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_a' }, /go together/],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_a' }, /go together/],
    [
      { STRIPE_SECRET_KEY: 'pk_test_a', STRIPE_WEBHOOK_SECRET: 'whsec_a' },
      /must be a Stripe secret key/,
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_WEBHOOK_SECRET: 'secret' }, /webhook signing secret/],
    [{ STRIPE_PRICE_PRO: 'price_1' }, /STRIPE_PRICE_PRO is set, but STRIPE_SECRET_KEY is not/],
    [
      { STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_WEBHOOK_SECRET: 'whsec_a', STRIPE_PRICE_PRO: '29' },
      /STRIPE_PRICE_PRO must be a Stripe price id/,
    ],
  ])('refuses the billing variables %j', (env, message) => {
    expect(() => loadConfig(env, '/')).toThrow(message);
  });

  it('refuses an X402_RPC_URL that is not an http(s) URL', () => {
    expect(() => loadConfig({ X402_RPC_URL: 'ws://127.0.0.1:8545' }, '/')).toThrow(
      /X402_RPC_URL must be an absolute http\(s\) URL/,
    );
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['', false],
  ])('reads X402_LEGACY_NETWORK_NAMES=%j as %s', (raw, expected) => {
    const config = loadConfig({ X402_LEGACY_NETWORK_NAMES: raw }, '/');
    expect(config.payment.legacyNetworkNames).toBe(expected);
  });

  it('says testnet for a development token, in any case, or a facilitator on loopback outside production', () => {
    const other = `0x${'5'.repeat(40)}`;
    const facilitator = { FACILITATOR_URL: 'https://facilitator.example' };
    expect(loadConfig({ ...facilitator, X402_ASSET: other }, '/').payment.testnet).toBe(false);
    const dev = `0x${'ab'.repeat(20)}`;
    expect(
      loadConfig({ ...facilitator, X402_ASSET: dev }, '/', {
        developmentAssets: [`0x${'AB'.repeat(20)}`],
      }).payment.testnet,
    ).toBe(true);
    // The test token sits at USDC's address: the address alone is real USDC.
    expect(loadConfig({ ...facilitator, X402_ASSET: DEV_TOKEN_ADDRESS }, '/').payment.testnet).toBe(
      false,
    );
    const local = { FACILITATOR_URL: 'http://127.0.0.1:4021', X402_ASSET: DEV_TOKEN_ADDRESS };
    expect(loadConfig(local, '/').payment.testnet).toBe(true);
  });

  it('refuses terms the local payment stack cannot settle when it is the facilitator', () => {
    const other = `0x${'5'.repeat(40)}`;
    expect(() => loadConfig({ X402_ASSET: other }, '/')).toThrow(
      /X402_ASSET is `0x5{40}`, but without FACILITATOR_URL payments go to the local facilitator, which settles only its test token \(at USDC's address, `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`\)/,
    );
    expect(() => loadConfig({ X402_NETWORK: 'eip155:84532' }, '/')).toThrow(
      /X402_NETWORK is `eip155:84532`, but without FACILITATOR_URL payments go to the local chain, `eip155:8453`/,
    );
    expect(
      loadConfig({ X402_ASSET: DEV_TOKEN_ADDRESS, X402_NETWORK: 'eip155:8453' }, '/').payment,
    ).toMatchObject({ asset: DEV_TOKEN_ADDRESS, network: 'eip155:8453' });
  });

  it.each([
    [{ PORT: 'http' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV must be/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /PUBLIC_BASE_URL must be/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start/],
    [{ SIGNER_PRIVATE_KEY: '0x1234' }, /SIGNER_PRIVATE_KEY must be/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY=true/],
    [{ PRODUCT_THREADS: '-1' }, /PRODUCT_THREADS must be an integer from 0 to 64/],
    [{ PRODUCT_DEADLINE_MS: '50' }, /PRODUCT_DEADLINE_MS must be an integer from 100/],
    [{ PRODUCT_HEAP_MB: 'lots' }, /PRODUCT_HEAP_MB must be an integer from 64/],
    [{ CALL_DEADLINE_MS: '50' }, /CALL_DEADLINE_MS must be an integer from 100 to 120000/],
    [{ FACILITATOR_TIMEOUT_MS: '50' }, /FACILITATOR_TIMEOUT_MS must be an integer from 100/],
    [{ X402_LEGACY_NETWORK_NAMES: 'yes' }, /X402_LEGACY_NETWORK_NAMES must be true, false, 1 or 0/],
    [{ LOCAL_CHAIN_PORT: '70000' }, /LOCAL_CHAIN_PORT must be an integer from 0 to 65535/],
    [{ LOCAL_FACILITATOR_PORT: 'any' }, /LOCAL_FACILITATOR_PORT must be an integer from 0/],
    [{ DNS_RESOLVER: 'dns.example:53' }, /DNS_RESOLVER must be an IP address/],
    [{ DNS_RESOLVER: '127.0.0.1:99999' }, /DNS_RESOLVER must be an IP address/],
    [{ TLS_AUDIT_PORT: '0' }, /TLS_AUDIT_PORT must be an integer from 1 to 65535/],
    [
      { X402_LEGACY_NETWORK_NAMES: 'true', X402_NETWORK: 'eip155:1' },
      /X402_LEGACY_NETWORK_NAMES is on, but x402 v1 has no name for `eip155:1`/,
    ],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig(env, '/')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/')).toThrow(message);
  });

  it('refuses every development default in production, listing them all at once', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', SAFE_FETCH_ALLOW: '127.0.0.1:4000' }, '/');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/SIGNER_PRIVATE_KEY is required in production/);
    expect(message).toMatch(/SAFE_FETCH_ALLOW is for tests only/);
    expect(message).toMatch(/DATABASE_URL is required in production/);
    expect(message).toMatch(/FACILITATOR_URL is required in production/);
    expect(message).toMatch(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required in production/,
    );
  });

  /** A production environment complete but for what a test changes. */
  const production = {
    NODE_ENV: 'production',
    SIGNER_PRIVATE_KEY: `0x${'2'.repeat(64)}`,
    DATABASE_URL: 'postgresql://db/x',
    X402_PAY_TO: `0x${'3'.repeat(40)}`,
    FACILITATOR_URL: 'https://facilitator.example',
    STRIPE_SECRET_KEY: 'sk_live_storefront_test',
    STRIPE_WEBHOOK_SECRET: 'whsec_storefront_test',
  };

  it.each([
    'http://localhost:4020',
    'http://api.localhost/',
    'http://127.0.0.1:4020',
    'http://127.1:4020',
    'http://2130706433/',
    'http://[::1]:4020',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0:4020',
    'http://LOCALHOST./',
  ])('refuses the loopback facilitator %s in production', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
    expect(() => loadConfig({ ...production, FACILITATOR_URL: url }, '/')).toThrow(
      /FACILITATOR_URL must not be a loopback address in production/,
    );
    // Development and tests run the local facilitator there.
    expect(loadConfig({ FACILITATOR_URL: url }, '/').payment.facilitatorUrl).toBe(url);
  });

  it('refuses a TLS audit port other than 443 in production', () => {
    expect(() => loadConfig({ ...production, TLS_AUDIT_PORT: '44300' }, '/')).toThrow(
      /TLS_AUDIT_PORT is for tests only/,
    );
    expect(loadConfig({ ...production, TLS_AUDIT_PORT: '443' }, '/').tlsAuditPort).toBe(443);
  });

  it.each(['https://facilitator.example', 'http://10.0.0.5:4020', 'https://localhost.example'])(
    'takes %s as a facilitator that is not loopback',
    (url) => {
      expect(isLoopbackUrl(url)).toBe(false);
    },
  );

  it('refuses a development token as the asset in production, from the list it is given', () => {
    const local = `0x${'7'.repeat(40)}`;
    expect(() =>
      loadConfig({ ...production, X402_ASSET: local }, '/', { developmentAssets: [local] }),
    ).toThrow(/is the development chain's test token/);
    expect(loadConfig({ ...production, X402_ASSET: local }, '/').payment.asset).toBe(local);
    // USDC's address is real USDC in production, where the local stack never runs.
    expect(loadConfig({ ...production, X402_ASSET: DEV_TOKEN_ADDRESS }, '/').payment).toMatchObject(
      { asset: DEV_TOKEN_ADDRESS, testnet: false },
    );
  });

  it('accepts a complete production configuration', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        SIGNER_PRIVATE_KEY: `0x${'2'.repeat(64)}`,
        DATABASE_URL: 'postgresql://db/x',
        X402_PAY_TO: `0x${'3'.repeat(40)}`,
        FACILITATOR_URL: 'https://facilitator.example',
        STRIPE_SECRET_KEY: 'sk_live_storefront_test',
        STRIPE_WEBHOOK_SECRET: 'whsec_storefront_test',
      },
      '/',
    );
    expect(config.env).toBe('production');
    expect(config.payment.testnet).toBe(false);
  });
});

describe('defaultProductThreads', () => {
  it.each([
    [1, 1],
    [2, 1],
    [4, 3],
    [9, 8],
    [64, 8],
  ])('gives %i cores %i product threads', (cores, threads) => {
    expect(defaultProductThreads(cores)).toBe(threads);
  });
});

describe('defaultBaseUrl', () => {
  it.each([
    ['127.0.0.1', 3000, 'http://127.0.0.1:3000'],
    ['0.0.0.0', 8080, 'http://127.0.0.1:8080'],
    ['::', 8080, 'http://[::1]:8080'],
    ['::1', 3000, 'http://[::1]:3000'],
    ['api.internal', 80, 'http://api.internal:80'],
  ])('derives a reachable URL for host %s', (host, port, expected) => {
    expect(defaultBaseUrl(host, port)).toBe(expected);
  });
});

describe('loadConfig: job workers', () => {
  it('reads JOB_* and refuses bad values', () => {
    const jobs = loadConfig(
      {
        JOB_WORKERS: 'false',
        JOB_CONCURRENCY: '4',
        JOB_HOST_CONCURRENCY: '2',
        JOB_QUEUE_SCHEMA: 'q_one',
      },
      '/',
    ).jobs;
    expect(jobs).toEqual({ workers: false, concurrency: 4, perHost: 2, queueSchema: 'q_one' });
    expect(() => loadConfig({ JOB_CONCURRENCY: '0' }, '/')).toThrow(/JOB_CONCURRENCY/);
    expect(() => loadConfig({ JOB_QUEUE_SCHEMA: 'Bad-Name' }, '/')).toThrow(/JOB_QUEUE_SCHEMA/);
    expect(() => loadConfig({ JOB_WORKERS: 'maybe' }, '/')).toThrow(/JOB_WORKERS/);
  });
});
