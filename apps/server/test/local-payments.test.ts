import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { type CliIo, EXIT, runCli } from '@storefront/attest';
import { DEV_PAY_TO, DEV_PAYER } from '@storefront/facilitator/accounts';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, DEV_TOKEN_ADDRESS, loadConfig, usesLocalPayments } from '../src/config.js';
import { choosePort, launchLocalPayments, withLocalPayments } from '../src/local-payments.js';
import { type Service, startService, startupLines, usdc } from '../src/service.js';
import { DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const PAY_CLI = join(import.meta.dirname, '../src/pay-cli.ts');
const EXAMPLE = '/buy/notarize?content=hello';
/** The price of the example call, in test USDC atomic units ($0.008). */
const EXAMPLE_PRICE = 8000n;
const schema = uniqueSchema();

/** `main`'s environment with nothing configured but where things go: free ports, a temp dir. */
function bareEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    LOCAL_CHAIN_PORT: '0',
    LOCAL_FACILITATOR_PORT: '0',
    DATA_DIR: tempDir('storefront-start-'),
    LOG_LEVEL: 'silent',
    ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
    ...extra,
  };
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `pnpm pay` from source as a child process, with only the environment given. */
function pay(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise<Run>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=@storefront/source', '--import', 'tsx', PAY_CLI, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** In-process IO for the shipped verifier. */
function io(): CliIo {
  return {
    stdin: async () => '',
    stdout: () => {},
    stderr: () => {},
    fetchText: async (url) => (await fetch(url)).text(),
  };
}

/** A port nothing listens on: bound for a moment, then released. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the start-up with no configuration', () => {
  let service: Service;
  /** The whole result of the paid call, as `pnpm pay --out` saved it. */
  let paidResult: unknown = null;

  beforeAll(async () => {
    service = await startService(bareEnv(), { schema, logger: pino({ level: 'silent' }) });
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await dropSchema(schema);
  });

  it('runs the local payment stack in its own process and takes its terms: test token, its payee, its facilitator', () => {
    const stack = service.payments?.stack;
    expect(stack).toBeDefined();
    expect(stack?.pid).toBeGreaterThan(0);
    expect(stack?.pid).not.toBe(process.pid);
    expect(() => process.kill(stack?.pid as number, 0)).not.toThrow();
    expect(service.config.payment).toMatchObject({
      network: 'eip155:8453',
      asset: DEV_TOKEN_ADDRESS,
      payTo: DEV_PAY_TO,
      facilitatorUrl: stack?.facilitatorUrl,
      testnet: true,
    });
  });

  it('answers a paid route without payment with 402 terms in the development token, both faces', async () => {
    const response = await fetch(`${service.server.url}${EXAMPLE}`);
    expect(response.status).toBe(402);
    const body = (await response.json()) as {
      error: string;
      accepts: { asset: string; payTo: string; network: string; maxAmountRequired: string }[];
    };
    expect(body.error).toBe('payment_required');
    expect(body.accepts[0]).toMatchObject({
      asset: DEV_TOKEN_ADDRESS,
      payTo: DEV_PAY_TO,
      network: 'eip155:8453',
      maxAmountRequired: String(EXAMPLE_PRICE),
    });
    // The face the official v2 client reads first.
    const v2 = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '');
    expect(v2.accepts[0]).toMatchObject({ asset: DEV_TOKEN_ADDRESS, payTo: DEV_PAY_TO });
  });

  it('has a facilitator that answers /supported for the chain of the terms', async () => {
    const response = await fetch(`${service.config.payment.facilitatorUrl}/supported`);
    expect(response.status).toBe(200);
    const { kinds } = (await response.json()) as { kinds: unknown[] };
    expect(kinds).toContainEqual({ x402Version: 2, scheme: 'exact', network: 'eip155:8453' });
  });

  it('prints where everything is, what the payer holds, and the two commands to try', async () => {
    const stack = service.payments?.stack;
    const text = (await startupLines(service)).join('\n');
    const example = `${service.server.url}${EXAMPLE}`;
    for (const shown of [
      `running at ${service.server.url}`,
      `facilitator  ${stack?.facilitatorUrl}`,
      `chain RPC    ${stack?.rpcUrl}`,
      `token        ${DEV_TOKEN_ADDRESS}`,
      `payee        ${DEV_PAY_TO}`,
      `payer        ${DEV_PAYER.address}  holds 1000.00 USDC (test money, development wallet)`,
      `payer key    ${DEV_PAYER.privateKey}  (public development key`,
      `curl -i '${example}'`,
      `npx -y pnpm@10.34.9 pay '${example}'`,
    ]) {
      expect(text).toContain(shown);
    }
  });

  it('`pnpm pay` pays from the development wallet, shows the settlement, and verifies the receipt', async () => {
    const stack = service.payments!.stack;
    const payeeBefore = await stack.balanceOf(DEV_PAY_TO);
    const out = join(tempDir('storefront-pay-'), 'result.json');
    const run = await pay([`${service.server.url}${EXAMPLE}`, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`paid      0.008 test USDC on eip155:8453 to ${DEV_PAY_TO}`);
    expect(run.stdout).toContain('status    200 OK');
    expect(run.stdout).toMatch(
      new RegExp(
        `settled {3}tx 0x[0-9a-f]{64} {2}payer ${DEV_PAYER.address} {2}network eip155:8453`,
      ),
    );
    expect(run.stdout).toContain(`result    (written whole to ${out})`);
    expect(run.stdout).toContain('"contentHash": "0x2cf24dba5fb0a30e');
    expect(run.stdout).toContain(
      `checked offline against the key pinned at ${service.server.url}/.well-known/service-attestation`,
    );
    expect(run.stdout).toContain(`valid (storefront-attest/3:${service.server.signer.address})`);
    // Real test tokens moved to the payee.
    expect(await stack.balanceOf(DEV_PAY_TO)).toBe(payeeBefore + EXAMPLE_PRICE);
    // The saved result is the whole one: the shipped verifier accepts it too.
    paidResult = JSON.parse(readFileSync(out, 'utf8'));
    const verifier = io();
    expect(
      await runCli(
        [out, '--pin', `${service.server.url}/.well-known/service-attestation`],
        verifier,
      ),
    ).toBe(EXIT.valid);
  });

  it('`pnpm pay --tool` pays a tools/call inside MCP: the terms, the payment in _meta, the settlement, the receipt', async () => {
    const stack = service.payments!.stack;
    const payeeBefore = await stack.balanceOf(DEV_PAY_TO);
    const run = await pay([
      `${service.server.url}/mcp`,
      '--tool',
      'notarize',
      '--arg',
      'content=hello',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `MCP ${service.server.url}/mcp  tools/call notarize {"content":"hello"}`,
    );
    expect(run.stdout).toContain('terms     isError result: x402Version 2, 2 way(s) to pay');
    expect(run.stdout).toContain(`paid      0.008 test USDC on eip155:8453 to ${DEV_PAY_TO}`);
    expect(run.stdout).toMatch(
      new RegExp(
        `settled {3}tx 0x[0-9a-f]{64} {2}payer ${DEV_PAYER.address} {2}network eip155:8453`,
      ),
    );
    expect(run.stdout).toContain('"contentHash": "0x2cf24dba5fb0a30e');
    expect(run.stdout).toContain(`valid (storefront-attest/3:${service.server.signer.address})`);
    expect(await stack.balanceOf(DEV_PAY_TO)).toBe(payeeBefore + EXAMPLE_PRICE);
    // Bad usage: an argument without a tool.
    const usage = await pay([`${service.server.url}/mcp`, '--arg', 'content=x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--arg is for a tool call (--tool)');
  });

  it('`pnpm pay` says so when a receipt does not verify, exit 3', async () => {
    // A service that answers with the paid result, its text edited, and the real pinned key.
    const edited = { ...(paidResult as object), text: 'edited' };
    const wellKnown = await (
      await fetch(`${service.server.url}/.well-known/service-attestation`)
    ).text();
    const forger = createHttpServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/.well-known/service-attestation' ? wellKnown : JSON.stringify(edited));
    }).listen(0, '127.0.0.1');
    await once(forger, 'listening');
    try {
      const { port } = forger.address() as AddressInfo;
      const run = await pay([`http://127.0.0.1:${port}/buy/notarize?content=hello`]);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain('settled   nothing (the call was free)');
      expect(run.stdout).toContain('contentHash  FAIL');
      expect(run.stderr).toBe('pay: the receipt does not verify\n');
    } finally {
      forger.close();
      forger.closeAllConnections();
    }
  });

  it('`pnpm pay` from a wallet without funds: the refusal and its code in one line, exit 1', async () => {
    const run = await pay([`${service.server.url}${EXAMPLE}`], {
      PAYER_PRIVATE_KEY: `0x${'42'.repeat(32)}`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^pay: the payment was refused: 402 payment_rejected: .*insufficient_balance.*\n$/,
    );
    expect(run.stdout).toContain('status    402');
  });

  it('`pnpm pay` with bad parameters: the 400 and what was wrong, nothing paid', async () => {
    const run = await pay([`${service.server.url}/buy/notarize`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^pay: 400 invalid_params: .*url: Expected exactly one of/);
    expect(run.stdout).not.toContain('paid ');
  });

  it('stops the server, then the stack and its process', async () => {
    const facilitator = service.config.payment.facilitatorUrl as string;
    const pid = service.payments?.stack.pid as number;
    await service.close();
    await expect(fetch(`${service.server.url}/healthz`)).rejects.toThrow();
    await expect(fetch(`${facilitator}/supported`)).rejects.toThrow();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('a payment stack that cannot start', () => {
  /** A child script that says why on stderr and exits 3, as a failing chain would. */
  function failingEntry(): { file: string; execArgv: string[] } {
    const file = join(tempDir('storefront-broken-stack-'), 'child.mjs');
    writeFileSync(
      file,
      "process.stderr.write('chain: cannot allocate the state\\n');\nprocess.exit(3);\n",
    );
    return { file, execArgv: [] };
  }

  it('is a clear start-up error with what the stack said, and the server started meanwhile is stopped', async () => {
    const port = await closedPort();
    const own = uniqueSchema();
    try {
      await expect(
        startService(bareEnv({ PORT: String(port) }), {
          schema: own,
          logger: pino({ level: 'silent' }),
          payments: { entry: failingEntry() },
        }),
      ).rejects.toThrow(
        /^the development payment stack did not start: its process exited \(code 3\) before it was ready\nchain: cannot allocate the state$/,
      );
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      await dropSchema(own);
    }
  });

  it('says how to build it when its script is missing', async () => {
    const missing = join(tempDir('storefront-unbuilt-'), 'dist', 'child.js');
    await expect(
      launchLocalPayments(
        { chainPort: 0, facilitatorPort: 0 },
        { entry: { file: missing, execArgv: [] } },
      ),
    ).rejects.toThrow(
      /is not built \(.*dist\/child\.js is missing\): run `npx -y pnpm@10\.34\.9 build`/,
    );
  });
});

describe('`pnpm pay` failures', () => {
  it('says the service cannot be reached, in one line, exit 1', async () => {
    const port = await closedPort();
    const run = await pay([`http://127.0.0.1:${port}${EXAMPLE}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `pay: cannot reach http://127.0.0.1:${port} (ECONNREFUSED): is the service running? (npx -y pnpm@10.34.9 start)\n`,
    );
  });

  it('refuses a missing or relative URL with usage, exit 2', async () => {
    const none = await pay([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^pay: expected one URL\n\nUsage: pnpm pay <url>/);
    const relative = await pay(['/buy/signal']);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toBe('pay: `/buy/signal` is not an absolute http(s) URL\n');
  });
});

describe('production', () => {
  it('never starts the payment stack: the configuration is refused first', async () => {
    const launch = vi.fn(launchLocalPayments);
    const env = bareEnv({ NODE_ENV: 'production' });
    await expect(startService(env, { launchPayments: launch })).rejects.toThrow(ConfigError);
    await expect(startService(env, { launchPayments: launch })).rejects.toThrow(
      /FACILITATOR_URL is required in production/,
    );
    expect(launch).not.toHaveBeenCalled();
  });

  it('does not use the local stack even with a facilitator set', () => {
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
    expect(usesLocalPayments(config)).toBe(false);
    expect(usesLocalPayments(loadConfig({}, '/'))).toBe(true);
    expect(usesLocalPayments(loadConfig({ FACILITATOR_URL: 'http://127.0.0.1:4021' }, '/'))).toBe(
      false,
    );
  });
});

describe('withLocalPayments', () => {
  const stack = {
    facilitatorUrl: 'http://127.0.0.1:4021',
    network: 'eip155:8453',
    asset: DEV_TOKEN_ADDRESS,
    payTo: DEV_PAY_TO,
    rpcUrl: 'http://127.0.0.1:8545',
  } as const;

  it('reads the stack chain unless X402_RPC_URL names another', () => {
    expect(withLocalPayments(loadConfig({}, '/'), stack).payment.rpcUrl).toBe(stack.rpcUrl);
    const own = 'http://127.0.0.1:9545';
    expect(withLocalPayments(loadConfig({ X402_RPC_URL: own }, '/'), stack).payment.rpcUrl).toBe(
      own,
    );
  });

  it('takes the stack payee unless X402_PAY_TO names another', () => {
    expect(withLocalPayments(loadConfig({}, '/'), stack).payment.payTo).toBe(DEV_PAY_TO);
    const own = `0x${'9'.repeat(40)}`;
    expect(withLocalPayments(loadConfig({ X402_PAY_TO: own }, '/'), stack).payment).toMatchObject({
      payTo: own,
      asset: DEV_TOKEN_ADDRESS,
      facilitatorUrl: stack.facilitatorUrl,
      testnet: true,
    });
  });
});

describe('choosePort', () => {
  const label = { variable: 'LOCAL_CHAIN_PORT', what: 'the local chain' };
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    busyPort = (busy.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('takes a free default port', async () => {
    const free = await closedPort();
    expect(await choosePort('127.0.0.1', null, free, label)).toStrictEqual({
      port: free,
      note: null,
    });
  });

  it('gives way to a free port, with a note, when the default one is taken', async () => {
    expect(await choosePort('127.0.0.1', null, busyPort, label)).toStrictEqual({
      port: 0,
      note: `127.0.0.1:${busyPort} is in use, so the local chain took a free port (LOCAL_CHAIN_PORT sets one)`,
    });
  });

  it('refuses a configured port that is taken, saying which variable', async () => {
    await expect(choosePort('127.0.0.1', busyPort, 8545, label)).rejects.toThrow(
      new RegExp(`^LOCAL_CHAIN_PORT is ${busyPort}, but 127\\.0\\.0\\.1:${busyPort} is in use`),
    );
  });

  it('takes 0 as any free port', async () => {
    expect(await choosePort('127.0.0.1', 0, busyPort, label)).toStrictEqual({
      port: 0,
      note: null,
    });
  });
});

describe('usdc', () => {
  it.each([
    [1_000_000_000n, '1000.00 USDC'],
    [999_992_000n, '999.992 USDC'],
    [8000n, '0.008 USDC'],
    [1n, '0.000001 USDC'],
  ])('shows %s atomic units as %s', (atomic, shown) => {
    expect(usdc(atomic)).toBe(shown);
  });
});
