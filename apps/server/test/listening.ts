import type { PaymentStack } from '@storefront/facilitator';
import { pino } from 'pino';
import { expect } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { ADMIN_TOKEN } from './keys.js';

/**
 * A listening server of its own for a test file: on its own schema of DATABASE_URL (or
 * PGlite in a fresh data directory), with the test settings (port 0, silent, `ADMIN_TOKEN`)
 * and `env` over them. `stop` closes it and drops its schema.
 */
export async function listeningServer(
  env: Readonly<Record<string, string>> = {},
): Promise<{ readonly server: RunningServer; stop(): Promise<void> }> {
  const schema = uniqueSchema();
  if (DATABASE_URL !== null) await createSchema(schema);
  const dataDir = tempDir('storefront-listening-');
  const server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN,
        ...env,
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
  );
  return {
    server,
    async stop() {
      await server.close();
      await dropSchema(schema);
    },
  };
}

/** The x402 settings of a server that settles on the local payment stack `stack`. */
export function paymentEnv(stack: PaymentStack): Record<string, string> {
  return {
    FACILITATOR_URL: stack.facilitatorUrl,
    X402_ASSET: stack.asset,
    X402_PAY_TO: stack.payTo,
    X402_RPC_URL: stack.rpcUrl,
  };
}

/**
 * Keys, credits and the pinned signer of a listening server at `origin` (started with
 * `ADMIN_TOKEN`), through its development and operator APIs, as a client sees them.
 */

/** A live key with `credits` credits (prepaid plan). */
export async function liveKeyAt(origin: string, credits: number): Promise<string> {
  const minted = (await (
    await fetch(`${origin}/api/dev/keys?live=true`, { method: 'POST' })
  ).json()) as { key: string; keyId: string };
  if (credits > 0) {
    const granted = await fetch(`${origin}/admin/keys/${minted.keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits }),
    });
    expect(granted.status).toBe(200);
  }
  return minted.key;
}

/** The credits `key` holds. */
export async function creditsAt(origin: string, key: string): Promise<number> {
  const res = await fetch(`${origin}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await res.json()) as { credits: number }).credits;
}

/** The signer address pinned at `/.well-known/service-attestation`. */
export async function pinnedAddressAt(origin: string): Promise<string> {
  const res = await fetch(`${origin}/.well-known/service-attestation`);
  return ((await res.json()) as { address: string }).address;
}
