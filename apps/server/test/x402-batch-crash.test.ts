/**
 * x402 `batch-settlement` through `kill -9`: an instance (its own process, on PostgreSQL)
 * is killed while vouchers are in flight and before any redemption; the next instance
 * redeems what was charged. Every call is charged exactly when its result exists (a call
 * whose answer was lost gets it for the same voucher), and `payTo` receives exactly what
 * the books hold: no money lost or taken on either side.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { createPublicClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { queueSchemaOf } from '../src/jobs/queue.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const ROOT = join(import.meta.dirname, '../src');
const SIGNER = `0x${'6'.repeat(64)}`;
const PRICE = 8000n; // /buy/notarize
const LANES = 4;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-batch-crash-');
const children = new Set<ChildProcess>();
let stack: PaymentStack;
let db: Database;
let port = 0;

/**
 * Start `main.ts` on the shared database, redeeming `redeemSeconds` after a channel's first
 * unredeemed voucher; resolves with its URL once it listens.
 */
async function instance(redeemSeconds: number): Promise<{ child: ChildProcess; url: string }> {
  const url = new URL(DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', join(ROOT, 'main.ts')],
    {
      env: {
        PATH: process.env.PATH,
        // One address for both instances (the second starts after the first died), as
        // behind a load balancer: a voucher names the resource it pays for.
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.href,
        JOB_QUEUE_SCHEMA: queueSchemaOf(schema),
        SIGNER_PRIVATE_KEY: SIGNER,
        FACILITATOR_URL: stack.facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        X402_RPC_URL: stack.rpcUrl,
        X402_BATCH_REDEEM_SECONDS: String(redeemSeconds),
        PRODUCT_THREADS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const listening = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`main.ts exited with ${code}:\n${output}`)));
  });
  return { child, url: listening };
}

/** The official client paying with `batch-settlement` on the payer's channel `lane`. */
function lane(index: number): x402HTTPClient {
  const chain = createPublicClient({ transport: viemHttp(stack.rpcUrl) });
  const signer = toClientEvmSigner(
    privateKeyToAccount(DEV_PAYER.privateKey as Hex),
    chain as never,
  );
  const scheme = new BatchSettlementEvmScheme(signer, {
    salt: `0x${(index + 1).toString(16).padStart(64, '0')}`,
  });
  return new x402HTTPClient(
    new x402Client().setSpendControls(false).register(stack.network, scheme),
  );
}

/** The route's terms once they offer `batch-settlement` (read from the facilitator at start). */
async function terms(http: x402HTTPClient, url: string): Promise<PaymentRequired> {
  for (;;) {
    const answer = await fetch(url);
    expect(answer.status).toBe(402);
    const required = http.getPaymentRequiredResponse(
      (name) => answer.headers.get(name),
      await answer.json(),
    );
    if (required.accepts.some((a) => a.scheme === 'batch-settlement')) return required;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function receiverClaimedAndPaid(): Promise<bigint> {
  return stack.balanceOf(stack.payTo);
}

async function booked(): Promise<{ calls: number; total: bigint }> {
  const { rows } = await db.query<{ n: string; total: string }>(
    'SELECT count(*)::text AS n, COALESCE(sum(amount), 0)::text AS total FROM x402_vouchers',
  );
  return { calls: Number(rows[0]?.n), total: BigInt(rows[0]?.total ?? '0') };
}

describe.runIf(DATABASE_URL !== null)('x402 batch-settlement through kill -9', () => {
  beforeAll(async () => {
    stack = await startPaymentStack();
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    port = (probe.address() as AddressInfo).port;
    probe.close();
    await createSchema(schema);
    db = await openDatabase({
      url: DATABASE_URL as string,
      dataDir: null,
      schema,
      maxConnections: 2,
    });
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await db?.close();
    await stack?.close();
    await dropSchema(schema);
  });

  it('loses no money on either side: every charge has its result, and exactly the books are redeemed', async () => {
    const payeeBefore = await receiverClaimedAndPaid();
    // An hour: no redemption runs before the kill.
    const first = await instance(3600);
    const path = (i: number) => `/buy/notarize?content=crash-${i}`;
    const lanes = Array.from({ length: LANES }, (_, i) => lane(i));
    const required = await terms(lanes[0] as x402HTTPClient, `${first.url}${path(0)}`);
    /** The voucher of each call, and whether its answer came back. */
    const sent: { header: Record<string, string>; i: number; answered: boolean }[] = [];
    let next = 0;
    let killed = false;
    await Promise.all(
      lanes.map(async (http) => {
        while (!killed) {
          const i = next++;
          const payload = await http.createPaymentPayload(required);
          const header = http.encodePaymentSignatureHeader(payload);
          const call = { header, i, answered: false };
          sent.push(call);
          try {
            const answer = await fetch(`${first.url}${path(i)}`, { headers: header });
            const body = await answer.text();
            if (answer.status !== 200) throw new Error(`${answer.status} ${body}`);
            call.answered = true;
            await http.processPaymentResult(payload, (name) => answer.headers.get(name), 200);
          } catch (error) {
            if (!killed) throw error;
          }
          // Kill the instance mid-flight once enough calls went through.
          if (!killed && sent.filter((c) => c.answered).length >= 40) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      }),
    );
    // Nothing was redeemed before the kill.
    expect(await receiverClaimedAndPaid()).toBe(payeeBefore);

    // What the first left is redeemed at the start; a call charged later, a second after.
    const second = await instance(1);
    // A call whose answer was lost: the same voucher gets its result if it was charged.
    let delivered = sent.filter((c) => c.answered).length;
    for (const call of sent.filter((c) => !c.answered)) {
      const again = await fetch(`${second.url}${path(call.i)}`, { headers: call.header });
      if (again.status === 200) delivered += 1;
      else expect(again.status).toBe(402);
    }
    const books = await booked();
    // Charged exactly when a result exists for the payer.
    expect(books.calls).toBe(delivered);
    expect(books.total).toBe(BigInt(delivered) * PRICE);
    // The new instance's worker redeems the leftovers at its start: exactly the books.
    for (;;) {
      if ((await receiverClaimedAndPaid()) - payeeBefore >= books.total) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await receiverClaimedAndPaid()) - payeeBefore).toBe(books.total);
    second.child.kill('SIGKILL');
  }, 180_000);
});
