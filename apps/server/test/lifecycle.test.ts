import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliIo, createSigner, EXIT, runCli } from '@storefront/attest';
import { verifyMessage as ethersVerify } from 'ethers';
import { verifyMessage as viemVerify } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const main = join(import.meta.dirname, '../src/main.ts');
const children = new Set<ChildProcess>();
const schema = uniqueSchema();
const dataDir = tempDir('storefront-data-');

beforeAll(() => createSchema(schema));
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await dropSchema(schema);
});

/** Environment for a real `main` process: its own data dir, and its own schema on PostgreSQL. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: '0',
    // The development payment stack runs too; free ports leave its defaults to `pnpm start`.
    LOCAL_CHAIN_PORT: '0',
    LOCAL_FACILITATOR_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  };
  if (DATABASE_URL !== null) {
    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    base.DATABASE_URL = url.href;
  }
  return { ...base, ...extra };
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  stop(): Promise<number | null>;
}

/** Run `src/main.ts` as a real process and wait for its "running at" line. */
async function start(extra: Record<string, string> = {}): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', main],
    {
      env: env(extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`main exited with ${code} before listening:\n${output}`)),
    );
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    url,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      children.delete(child);
      return code;
    },
  };
}

interface Receipt {
  readonly [field: string]: unknown;
  readonly attestation: {
    readonly signature: string;
    readonly verify: { readonly message: string };
  };
}
interface WellKnown {
  readonly address: string;
  readonly retired: readonly { readonly address: string }[];
}

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T };
}

const io = (): CliIo & { out: string[] } => {
  const out: string[] = [];
  return {
    out,
    stdin: async () => '',
    stdout: (line) => out.push(line),
    stderr: (line) => out.push(line),
    fetchText: async (url) => (await fetch(url)).text(),
  };
};

describe('the service as a process', () => {
  let firstAddress = '';
  let firstReceipt: Receipt | null = null;

  it('starts with no configuration, publishes its key, and signs receipts that verify three ways', async () => {
    const server = await start();
    const wellKnown = await getJson<WellKnown>(`${server.url}/.well-known/service-attestation`);
    expect(wellKnown.status).toBe(200);
    firstAddress = wellKnown.body.address;
    expect(firstAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const { body: receipt } = await getJson<Receipt>(`${server.url}/buy/signal`);
    firstReceipt = receipt;
    const { message } = receipt.attestation.verify;
    const signature = receipt.attestation.signature as `0x${string}`;

    const file = join(dataDir, 'receipt.json');
    writeFileSync(file, JSON.stringify(receipt));
    const cli = io();
    expect(
      await runCli([file, '--pin', `${server.url}/.well-known/service-attestation`], cli),
    ).toBe(EXIT.valid);
    expect(ethersVerify(message, signature)).toBe(firstAddress);
    expect(await viemVerify({ address: firstAddress as `0x${string}`, message, signature })).toBe(
      true,
    );

    // A tampered receipt fails all three.
    const tamperedMessage = message.replace('status:200', 'status:201');
    const tamperedFile = join(dataDir, 'tampered.json');
    writeFileSync(
      tamperedFile,
      JSON.stringify({
        ...receipt,
        attestation: {
          ...receipt.attestation,
          verify: { ...receipt.attestation.verify, message: tamperedMessage },
        },
      }),
    );
    expect(await runCli([tamperedFile, '--pin', firstAddress], io())).toBe(EXIT.invalid);
    expect(ethersVerify(tamperedMessage, signature)).not.toBe(firstAddress);
    expect(
      await viemVerify({
        address: firstAddress as `0x${string}`,
        message: tamperedMessage,
        signature,
      }),
    ).toBe(false);

    expect(await server.stop()).toBe(0);
  });

  it('keeps the same pinned address across a restart', async () => {
    const server = await start();
    const { body } = await getJson<WellKnown>(`${server.url}/.well-known/service-attestation`);
    expect(body.address).toBe(firstAddress);
    expect(body.retired).toStrictEqual([]);
    expect(await server.stop()).toBe(0);
  });

  it('publishes the old key as retired after SIGNER_PRIVATE_KEY changes, and still verifies its receipts', async () => {
    const newKey = `0x${'5'.repeat(64)}`;
    const server = await start({ SIGNER_PRIVATE_KEY: newKey });
    const { body } = await getJson<WellKnown>(`${server.url}/.well-known/service-attestation`);
    expect(body.address).toBe(createSigner(newKey).address);
    expect(body.retired.map((k) => k.address)).toStrictEqual([firstAddress]);

    const response = await fetch(`${server.url}/x402/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(firstReceipt),
    });
    expect(((await response.json()) as { valid: boolean }).valid).toBe(true);
    expect(await server.stop()).toBe(0);
  });

  it.runIf(DATABASE_URL !== null)(
    'starts in production with a key and PostgreSQL, after its SSRF self-check passes',
    async () => {
      const server = await start({
        NODE_ENV: 'production',
        SIGNER_PRIVATE_KEY: `0x${'6'.repeat(64)}`,
        X402_PAY_TO: `0x${'7'.repeat(40)}`,
        FACILITATOR_URL: 'https://facilitator.example',
        STRIPE_SECRET_KEY: 'sk_live_storefront_test',
        STRIPE_WEBHOOK_SECRET: 'whsec_storefront_test',
      });
      const { status, body } = await getJson<{ ok: boolean; database: string }>(
        `${server.url}/healthz`,
      );
      expect(status).toBe(200);
      expect(body.database).toBe('postgres');
      expect(await server.stop()).toBe(0);
    },
  );

  it('refuses to start in production without a signer key and a database, with no stack trace', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@storefront/source', '--import', 'tsx', main],
      {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/SIGNER_PRIVATE_KEY is required in production/);
    expect(stderr).not.toMatch(/\s+at /);
  });
});
