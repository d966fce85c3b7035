/**
 * The official MCP Inspector's command line (`@modelcontextprotocol/inspector` 2.12.0,
 * pinned: it runs on Node 20, though it declares Node 22) against a listening server,
 * as the README shows it: the tool list without a key, a paid call with a key (the
 * receipt verifies, the credits are charged), a call without a key answered with the
 * x402 terms (exit 5, an `isError` result), and a bad key refused (exit 3, HTTP 401).
 * The Inspector is installed once, with npm, into the package's cache.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyReceipt } from '@storefront/attest';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { REGISTRY } from '../src/registry/index.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { ADMIN_TOKEN } from './keys.js';
import { creditsAt, liveKeyAt, pinnedAddressAt } from './listening.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const CACHE = join(import.meta.dirname, '../node_modules/.cache/mcp-inspector-2.12.0');
const BIN = join(
  CACHE,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

let server: RunningServer;
const schema = uniqueSchema();

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(file: string, args: readonly string[], timeout = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** The Inspector's CLI against `/mcp`, with `args` after the transport. */
function inspector(args: readonly string[]): Promise<Run> {
  return run(process.execPath, [BIN, '--cli', `${server.url}/mcp`, '--transport', 'http', ...args]);
}

beforeAll(async () => {
  if (!existsSync(BIN)) {
    mkdirSync(CACHE, { recursive: true });
    const npm = await run(
      'npm',
      ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--loglevel=error', INSPECTOR],
      240_000,
    );
    if (npm.code !== 0) throw new Error(`npm could not install ${INSPECTOR}: ${npm.stderr}`);
  }
  if (DATABASE_URL !== null) await createSchema(schema);
  const dataDir = tempDir('storefront-mcp-inspector-');
  server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN,
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
  );
  await server.ready();
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (DATABASE_URL !== null) await dropSchema(schema);
});

const liveKey = (credits: number) => liveKeyAt(server.url, credits);

const creditsOf = (key: string) => creditsAt(server.url, key);

const notarizeCall = [
  '--method',
  'tools/call',
  '--tool-name',
  'notarize',
  '--tool-arg',
  'content=hello',
];

describe(`the MCP Inspector CLI (${INSPECTOR})`, () => {
  it('lists one tool per paid route without a key', async () => {
    const listed = await inspector(['--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map(
      (t) => t.name,
    );
    for (const route of REGISTRY) expect(names).toContain(route.name);
  });

  it('calls a tool with a key: the receipt verifies and the key pays the route price', async () => {
    const key = await liveKey(100);
    const called = await inspector([...notarizeCall, '--header', `Authorization: Bearer ${key}`]);
    expect(called.code, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { structuredContent: Record<string, unknown> };
    const pinned = await pinnedAddressAt(server.url);
    expect(verifyReceipt(result.structuredContent as never, pinned).valid).toBe(true);
    expect(await creditsOf(key)).toBe(100 - 8);
  });

  it('gets the x402 terms as an isError result without a key (exit 5)', async () => {
    const called = await inspector(notarizeCall);
    expect(called.code).toBe(5);
    const result = JSON.parse(called.stdout) as {
      isError: boolean;
      structuredContent: { x402Version: number; accepts: { scheme: string }[] };
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.x402Version).toBe(2);
    expect(result.structuredContent.accepts[0]?.scheme).toBe('exact');
  });

  it('is refused with a key that is not valid (exit 3: HTTP 401)', async () => {
    const called = await inspector([
      ...notarizeCall,
      '--header',
      'Authorization: Bearer mk_live_not_a_key',
    ]);
    expect(called.code).toBe(3);
  });
});
