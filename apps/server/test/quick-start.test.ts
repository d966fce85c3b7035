/**
 * The client code the README's quick start and the `/developers` page give, run unmodified
 * as their own Node processes with the official x402 clients as shipped (`@x402/fetch`
 * with its default spend controls, `x402-fetch` 1.2.0), against the service started as
 * `pnpm start` starts it: the development payment stack in its child process, the key the
 * page shows. The money is checked on the local chain.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_PAY_TO, DEV_PAYER } from '@storefront/facilitator/accounts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService } from '../src/service.js';
import { DATABASE_URL, decodeHtml, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const README = join(import.meta.dirname, '../../../README.md');
/** Where the snippets run: inside the server package, so its x402 clients resolve. */
const SNIPPETS = join(import.meta.dirname, '../node_modules/.cache/storefront-snippets');
/** The price of `/buy/notarize`, in test USDC atomic units ($0.008). */
const PRICE = 8000n;
const schema = uniqueSchema();

let service: Service;

beforeAll(async () => {
  service = await startService(
    {
      PORT: '0',
      LOCAL_CHAIN_PORT: '0',
      LOCAL_FACILITATOR_PORT: '0',
      DATA_DIR: tempDir('storefront-quick-start-'),
      LOG_LEVEL: 'silent',
      // The v1 client's switch; the v2 client reads the header, which stays CAIP-2.
      X402_LEGACY_NETWORK_NAMES: 'true',
      ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
    },
    { schema, logger: pino({ level: 'silent' }) },
  );
}, 120_000);

afterAll(async () => {
  await service?.close();
  await dropSchema(schema);
});

/** The code block after `<!-- quick start: <name> -->` in the README, as written. */
function readmeSnippet(name: string): string {
  const readme = readFileSync(README, 'utf8');
  const marker = `<!-- quick start: ${name} -->\n\`\`\`js\n`;
  const start = readme.indexOf(marker);
  if (start === -1) throw new Error(`no quick start "${name}" in the README`);
  const code = readme.slice(start + marker.length);
  return code.slice(0, code.indexOf('\n```'));
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Save `code` as an .mjs file and run it with `node`, the environment given and `args`. */
function runSnippet(code: string, env: Record<string, string>, args: string[] = []): Promise<Run> {
  mkdirSync(SNIPPETS, { recursive: true });
  const file = join(mkdtempSync(join(SNIPPETS, 'run-')), 'pay.mjs');
  writeFileSync(file, code);
  return new Promise<Run>((resolve, reject) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** The payer's and the payee's test USDC, read from the chain. */
async function balances(): Promise<{ payer: bigint; payee: bigint }> {
  const stack = service.payments!.stack;
  return {
    payer: await stack.balanceOf(DEV_PAYER.address),
    payee: await stack.balanceOf(DEV_PAY_TO),
  };
}

/** Run a snippet that pays once and check that it printed the result and moved the price. */
async function paysOnce(code: string, env: Record<string, string>, args: string[] = []) {
  const before = await balances();
  const run = await runSnippet(code, env, args);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^200 /);
  expect(run.stdout).toContain('contentHash');
  const after = await balances();
  expect(before.payer - after.payer).toBe(PRICE);
  expect(after.payee - before.payee).toBe(PRICE);
  return run;
}

describe('the quick-start clients, unmodified, against the development stack', () => {
  it('/developers shows the funded development payer and its key, and its snippet pays', async () => {
    const page = await (await fetch(`${service.server.url}/developers`)).text();
    const key =
      /<code id="dev-payer-key">PAYER_PRIVATE_KEY=(0x[0-9a-f]{64}) node pay\.mjs<\/code>/.exec(
        page,
      );
    expect(key?.[1]).toBe(DEV_PAYER.privateKey);
    const snippet = /<code id="x402-client">([^<]*)<\/code>/.exec(page);
    expect(snippet).not.toBeNull();
    await paysOnce(decodeHtml(snippet![1]!), { PAYER_PRIVATE_KEY: key![1]! });
  });

  it("the README's @x402/fetch quick start pays with the key from the start-up lines", async () => {
    const run = await paysOnce(
      readmeSnippet('@x402/fetch'),
      {
        PAYER_PRIVATE_KEY: DEV_PAYER.privateKey,
      },
      [`${service.server.url}/buy/notarize?content=hello`],
    );
    expect(run.stdout).toContain("algorithm: 'sha256'");
  });

  it("the README's batch-settlement client deposits once, then pays each call with a voucher", async () => {
    const before = await balances();
    const env = {
      PAYER_PRIVATE_KEY: DEV_PAYER.privateKey,
      RPC_URL: service.payments!.stack.rpcUrl,
    };
    const code = readmeSnippet('batch-settlement');
    const first = await runSnippet(code, env, [service.server.url]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            line.split(' ').slice(0, 2).join(' ') + line.slice(line.indexOf(' channel total')),
        ),
    ).toStrictEqual([
      `200 one channel total ${PRICE}`,
      `200 two channel total ${2n * PRICE}`,
      `200 three channel total ${3n * PRICE}`,
    ]);
    // One transfer: the deposit of 100 calls; the payee is paid when the vouchers are redeemed.
    expect(before.payer - (await balances()).payer).toBe(100n * PRICE);
    // A second run finds the channel on chain and goes on from the service's total.
    const second = await runSnippet(code, env, [service.server.url]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`200 three`);
    expect(second.stdout).toContain(`channel total ${6n * PRICE}`);
    expect(before.payer - (await balances()).payer).toBe(100n * PRICE);
  });

  it("the README's x402-fetch 1.2 quick start pays with the v1 network names on", async () => {
    await paysOnce(
      readmeSnippet('x402-fetch'),
      { PAYER_PRIVATE_KEY: DEV_PAYER.privateKey, RPC_URL: service.payments!.stack.rpcUrl },
      [`${service.server.url}/buy/notarize?content=hello`],
    );
  });
});
