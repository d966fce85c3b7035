import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentSignatureHeader,
  type HTTPAdapter,
  HTTPFacilitatorClient,
  type HTTPProcessResult,
  type RoutesConfig,
  x402HTTPResourceServer,
} from '@x402/core/http';
import { type FacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { Network, PaymentPayload, PaymentRequired, SupportedResponse } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import {
  declarePaymentIdentifierExtension,
  paymentIdentifierResourceServerExtension,
} from '@x402/extensions/payment-identifier';
import { Bench } from 'tinybench';
import { privateKeyToAccount } from 'viem/accounts';
import type { Database, Queryable } from '../apps/server/src/db/database.js';
import { decodeBase64Json, encodeBase64Json } from '../apps/server/src/doors/x402/base64-json.js';
import { bazaarExtension } from '../apps/server/src/doors/x402/bazaar.js';
import { x402Door } from '../apps/server/src/doors/x402/door.js';
import { Facilitator } from '../apps/server/src/doors/x402/facilitator.js';
import {
  checkPayment,
  MIN_VALIDITY_SECONDS,
  readPayment,
} from '../apps/server/src/doors/x402/payment.js';
import {
  challenge,
  challengeHeader,
  paymentRequiredV2,
  type Requirements,
  requirementsFor,
} from '../apps/server/src/doors/x402/requirements.js';
import { MAX_TIMEOUT_SECONDS, type Terms } from '../apps/server/src/doors/x402/terms.js';
import { migrate, openDatabase } from '../apps/server/src/index.js';
import type { CallResult, PaidCall } from '../apps/server/src/pipeline/door.js';
import { REGISTRY } from '../apps/server/src/registry/index.js';
import type { AnyRoute, PriceTier } from '../apps/server/src/registry/types.js';
import { machine, measured, printColumns, printTable } from './lib/report.js';

/**
 * The x402 door's protocol core (`apps/server/src/doors/x402/`) next to the official
 * resource server of `@x402/core` 2.27 (`x402ResourceServer` with
 * `x402HTTPResourceServer`, the exact EVM scheme of `@x402/evm`, the Bazaar and
 * payment-identifier server extensions of `@x402/extensions`) doing the same job for one
 * route, in one process, with no facilitator round trip:
 *
 * 1. per call: building the 402 answer, and reading and checking a payment header;
 * 2. behaviours: the door's key cases (binding to route and tier, replay, refusals that
 *    do not burn a payment, typed failures, facilitator faults and timeouts) run through
 *    our door and through the official server, against one loopback stub facilitator;
 * 3. what the official Bazaar module, now imported by `bazaar.ts`, adds to a start bundle.
 *
 * The official server needs a facilitator's `/supported` answer to initialise. In the
 * timing that answer comes from an in-process stub client whose `verify` and `settle`
 * throw, and the official `onBeforeVerify` hook's `skip` stops each paid call where the
 * facilitator would be asked. In the behaviours both servers talk HTTP to a loopback
 * stub facilitator that vouches for every well-formed request and settles it with a
 * made-up transaction: it checks no signature and no chain, so what each row shows is
 * what the server itself decided. See README.md, "x402 protocol core next to @x402/core".
 */
export async function x402CoreBenchmark(options: { time: number }): Promise<void> {
  const fetchRoute = routeNamed('fetch');
  const fetchTier = tierOf(fetchRoute, 'fetch');
  const requirements = requirementsFor(fetchRoute, fetchTier, BASE_URL, TERMS);

  // The official server, initialised from an in-process stub that answers /supported only.
  const supportedOnly: FacilitatorClient = {
    getSupported: async () => SUPPORTED,
    verify: async () => {
      throw new Error('stub: the timing never asks the facilitator to verify');
    },
    settle: async () => {
      throw new Error('stub: the timing never asks the facilitator to settle');
    },
  };
  const official = await officialServer(supportedOnly, { skipFacilitator: true });

  // The same 402, both ways: the official header must describe the payment ours does.
  const theirs = await official.process(fetchRoute, fetchTier, {});
  if (theirs.type !== 'payment-error') throw new Error(`official 402: ${theirs.type}`);
  const theirsRequired = decodePaymentRequiredHeader(
    String(theirs.response.headers['PAYMENT-REQUIRED']),
  );
  const oursRequired = v2Terms(requirements);
  const sameTerms = JSON.stringify(theirsRequired) === JSON.stringify(oursRequired);
  if (!sameTerms) {
    throw new Error(
      `the two 402s differ:\n${JSON.stringify(theirsRequired)}\n${JSON.stringify(oursRequired)}`,
    );
  }

  // One payment signed by the official v2 client from that 402, its v1 form, and the
  // headers each server reads. Checked below at the time it was signed.
  const signed = await signPayment(oursRequired);
  const signedAt = nowSeconds();
  const v2Header = encodePaymentSignatureHeader(signed);
  const v1Header = encodeV1(signed);
  const minValiditySeconds = MIN_VALIDITY_SECONDS + Math.ceil(CALL_DEADLINE_MS / 1000);
  const oursCheck = (headers: Readonly<Record<string, string>>) => {
    const r = requirementsFor(fetchRoute, fetchTier, BASE_URL, TERMS);
    const read = readPayment(headers);
    if (read === null || !read.ok) throw new Error('not read');
    return checkPayment(read.payment, r, signedAt, { minValiditySeconds });
  };
  for (const headers of [{ 'payment-signature': v2Header }, { 'x-payment': v1Header }]) {
    const problem = oursCheck(headers);
    if (problem !== null) throw new Error(`ours refused its own payment: ${problem.message}`);
  }
  const paid = await official.process(fetchRoute, fetchTier, { 'payment-signature': v2Header });
  if (paid.type !== 'payment-verified') {
    throw new Error(`official refused: ${officialOutcome(paid).summary}`);
  }
  const accepts = theirsRequired.accepts;

  const loadAt = loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
  const bench = new Bench({ time: options.time, warmupTime: 300 });
  bench
    .add('ours: 402, both faces (v1 JSON body + v2 PAYMENT-REQUIRED)', () => {
      const faces = challenge(
        requirementsFor(fetchRoute, fetchTier, BASE_URL, TERMS),
        'payment_required',
        'Payment required',
      );
      sink = [faces.header, JSON.stringify(faces.body)];
    })
    .add('ours: 402, v2 PAYMENT-REQUIRED only', () => {
      sink = challengeHeader(fetchRoute, fetchTier, BASE_URL, TERMS, 'Payment required');
    })
    .add('official: 402, v2 PAYMENT-REQUIRED (processHTTPRequest)', async () => {
      const result = await official.process(fetchRoute, fetchTier, {});
      if (result.type === 'payment-error') {
        sink = [result.response.headers['PAYMENT-REQUIRED'], JSON.stringify(result.response.body)];
      }
    })
    .add('ours: bazaarExtension(route), as every 402 reads it (made once a route)', () => {
      sink = bazaarExtension(fetchRoute);
    })
    .add('ours: bazaarExtension of a route not seen before (official declare + enrich)', () => {
      sink = bazaarExtension({ ...fetchRoute });
    })
    .add('ours: encodeBase64Json(PaymentRequired)', () => {
      sink = encodeBase64Json(oursRequired);
    })
    .add('official: encodePaymentRequiredHeader(PaymentRequired)', () => {
      sink = encodePaymentRequiredHeader(oursRequired);
    })
    .add('ours: decodeBase64Json(PAYMENT-SIGNATURE)', () => {
      sink = decodeBase64Json(v2Header);
    })
    .add('official: decodePaymentSignatureHeader(PAYMENT-SIGNATURE)', () => {
      sink = decodePaymentSignatureHeader(v2Header);
    })
    .add('ours: read + check PAYMENT-SIGNATURE (v2)', () => {
      sink = oursCheck({ 'payment-signature': v2Header });
    })
    .add('ours: read + check X-PAYMENT (v1)', () => {
      sink = oursCheck({ 'x-payment': v1Header });
    })
    .add('official: processHTTPRequest with PAYMENT-SIGNATURE, to verify (skipped)', async () => {
      sink = await official.process(fetchRoute, fetchTier, { 'payment-signature': v2Header });
    })
    .add('official: decode + findMatchingRequirements + validateExtensions', () => {
      const payload = decodePaymentSignatureHeader(v2Header);
      sink = [
        official.resource.findMatchingRequirements(accepts, payload),
        official.resource.validateExtensions(theirsRequired, payload),
      ];
    });
  await bench.run();
  if (sink === null) throw new Error('nothing was built');
  printTable(
    `x402: one route's 402 and one payment header, ours next to @x402/core 2.27 (${machine()}, ${cpus().length} cores, load ${loadAt}; /buy/fetch tier fetch; official X-PAYMENT and v1 402: none)`,
    measured(bench),
  );
  console.log(
    `the official 402 header decodes to the same PaymentRequired as ours: ${sameTerms ? 'yes' : 'no'} (${String(theirs.response.headers['PAYMENT-REQUIRED']).length} base64 characters); the PAYMENT-SIGNATURE the official client signs from it: ${v2Header.length} characters`,
  );

  await behaviours();
  await bazaarModuleCost(options.time >= 3000 ? 30 : 10);
}

/**
 * What importing the official Bazaar module adds to the start bundle: two bundles made
 * the way the start script's is (esbuild, ESM, node20, the server's own dependencies),
 * one with the x402 module the server loaded before (`payment-identifier`) and one with
 * `bazaar` too (which loads `@x402/core/server` and its zod 3 schemas), each run `runs`
 * times in a fresh Node, alternating; the CPU time of each process at its end.
 */
async function bazaarModuleCost(runs: number): Promise<void> {
  const fromServer = createRequire(new URL('../apps/server/package.json', import.meta.url));
  const esbuild = fromServer('esbuild') as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'storefront-bench-x402core-'));
  const cpuAtEnd = 'const used = process.cpuUsage(); console.log(String(used.user + used.system));';
  const bundles = {
    'payment-identifier only (before)': `import { declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier'; globalThis.kept = [declarePaymentIdentifierExtension]; ${cpuAtEnd}`,
    'payment-identifier + bazaar (now)': `import { declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier'; import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar'; globalThis.kept = [declarePaymentIdentifierExtension, bazaarResourceServerExtension, declareDiscoveryExtension]; ${cpuAtEnd}`,
  };
  try {
    const files: { name: string; file: string; bytes: number; cpuMs: number[] }[] = [];
    for (const [name, contents] of Object.entries(bundles)) {
      const file = join(dir, `${files.length}.mjs`);
      await esbuild.build({
        stdin: { contents, resolveDir: serverDir, loader: 'js' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: file,
        banner: {
          js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);",
        },
        logLevel: 'silent',
      });
      files.push({ name, file, bytes: statSync(file).size, cpuMs: [] });
    }
    for (let run = 0; run < runs; run++) {
      for (const entry of files) {
        const child = spawnSync(process.execPath, [entry.file], { encoding: 'utf8' });
        const micros = Number(child.stdout.trim());
        if (child.status !== 0 || !Number.isFinite(micros)) {
          throw new Error(`${entry.name}: ${child.stderr}`);
        }
        entry.cpuMs.push(micros / 1000);
      }
    }
    printColumns(
      `x402: the official Bazaar module in a start bundle (esbuild, node20; CPU of a fresh Node that loads it, median of ${runs} alternating runs; ${machine()})`,
      ['bundle', 'bytes', 'CPU ms'],
      files.map((entry) => [entry.name, String(entry.bytes), median(entry.cpuMs).toFixed(1)]),
    );
    const [before, after] = files;
    if (before !== undefined && after !== undefined) {
      const paired = after.cpuMs.map((ms, i) => ms - (before.cpuMs[i] ?? ms));
      console.log(
        `the bazaar module adds ${after.bytes - before.bytes} bytes and ${median(paired).toFixed(1)} ms of CPU (median of paired runs) to a process start`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The door's key cases through our door and through the official server. */
async function behaviours(): Promise<void> {
  const stub = await startStubFacilitator();
  const databaseUrl = process.env.DATABASE_URL ?? null;
  const schema = `bench_x402core_${process.pid}`;
  const db = await openDatabase({ url: databaseUrl, dataDir: null, schema, maxConnections: 4 });
  const rows: Row[] = [];
  // The official server reports some refusals and skipped hooks only as console warnings.
  const warn = console.warn;
  let warnings = 0;
  console.warn = () => {
    warnings += 1;
  };
  try {
    await migrate(db);
    const ours = ourDoor(db, stub.url);
    const official = await officialServer(
      new HTTPFacilitatorClient({ url: stub.url, timeoutMs: FACILITATOR_TIMEOUT_MS }),
      { skipFacilitator: false },
    );
    const fetchRoute = routeNamed('fetch');
    const fetchTier = tierOf(fetchRoute, 'fetch');
    const terms = (route: AnyRoute, tier: PriceTier) =>
      v2Terms(requirementsFor(route, tier, BASE_URL, TERMS));
    const fetchTerms = terms(fetchRoute, fetchTier);
    const fresh = async (change?: (accept: Record<string, unknown>) => void, clockOffset = 0) =>
      encodePaymentSignatureHeader(await signPayment(fetchTerms, change, clockOffset));
    const tampered = async (tamper: (payload: Record<string, unknown>) => void) => {
      const payload = (await signPayment(fetchTerms)) as unknown as Record<string, unknown>;
      tamper(payload);
      return encodePaymentSignatureHeader(payload as unknown as PaymentPayload);
    };
    /** One case: the same headers to both servers, at `route` and `tier`. */
    const both = async (
      name: string,
      headers: Readonly<Record<string, string>>,
      route: AnyRoute = fetchRoute,
      tier: PriceTier = fetchTier,
    ) => {
      const mine = await ours.admitOnly(route, tier, headers);
      const theirs = await official.outcome(route, tier, headers);
      rows.push({ name, ours: mine, official: theirs });
    };

    await both('a payment that fits (control)', { 'payment-signature': await fresh() });

    // Replay: our claim is in the database; the official server keeps no record.
    {
      const header = { 'payment-signature': await fresh() };
      const first = await ours.paidCall(fetchRoute, fetchTier, header);
      const again = await ours.admitOnly(fetchRoute, fetchTier, header);
      const officialFirst = await official.paidCall(fetchRoute, fetchTier, header);
      const officialAgain = await official.outcome(fetchRoute, fetchTier, header);
      rows.push({
        name: 'the same header again after a paid call',
        ours: { kind: again.kind, summary: `${first.summary}; then ${again.summary}` },
        official: {
          kind: officialAgain.kind,
          summary: `${officialFirst.summary}; then ${officialAgain.summary}`,
        },
      });
    }
    {
      const header = { 'payment-signature': await fresh() };
      const mine = await Promise.all([
        ours.admitOnly(fetchRoute, fetchTier, header),
        ours.admitOnly(fetchRoute, fetchTier, header),
      ]);
      const theirs = await Promise.all([
        official.outcome(fetchRoute, fetchTier, header),
        official.outcome(fetchRoute, fetchTier, header),
      ]);
      rows.push({
        name: 'the same header twice at once',
        ours: joined(mine),
        official: { kind: theirs[1]?.kind ?? 'admitted', summary: joined(theirs).summary },
      });
    }

    // Binding to the call's tier and route.
    const plusTier = tierOf(fetchRoute, 'plus');
    await both("another tier's price (plus paid at the fetch tier)", {
      'payment-signature': encodePaymentSignatureHeader(
        await signPayment(terms(fetchRoute, plusTier)),
      ),
    });
    await both('the tier relabelled, same amount (extra.tier = pro)', {
      'payment-signature': await fresh((accept) => {
        accept.extra = { ...(accept.extra as object), tier: 'pro' };
      }),
    });
    const markdown = routeNamed('markdown');
    const links = routeNamed('links');
    await both(
      'another route of the same price (markdown paid at links)',
      {
        'payment-signature': encodePaymentSignatureHeader(
          await signPayment(terms(markdown, tierOf(markdown, 'markdown'))),
        ),
      },
      links,
      tierOf(links, 'links'),
    );
    await both('resource.url of another route, accepted unchanged', {
      'payment-signature': await tampered((payload) => {
        payload.resource = { url: `${BASE_URL}/buy/links` };
      }),
    });
    await both('no resource', {
      'payment-signature': await tampered((payload) => {
        delete payload.resource;
      }),
    });

    // What a payment itself says, checked by the server before anyone is asked.
    await both('authorization.value below accepted.amount', {
      'payment-signature': await tampered((payload) => {
        authorizationOf(payload).value = '1';
      }),
    });
    await both('authorization.to another address', {
      'payment-signature': await tampered((payload) => {
        authorizationOf(payload).to = PAYER.address;
      }),
    });
    await both("expired (the payer's clock 2 min slow)", {
      'payment-signature': await fresh(undefined, -120),
    });
    await both("valid 10 s, less than the call's budget (clock 50 s slow)", {
      'payment-signature': await fresh(undefined, -50),
    });
    await both("valid 11 min (the payer's clock 10 min fast)", {
      'payment-signature': await fresh(undefined, 600),
    });
    await both('PAYMENT-SIGNATURE not base64', { 'payment-signature': '%%% not base64 %%%' });
    await both('a 100 KB PAYMENT-SIGNATURE', {
      'payment-signature': await tampered((payload) => {
        payload.extensions = { ...(payload.extensions as object), pad: 'x'.repeat(100_000) };
      }),
    });
    await both('X-PAYMENT (x402 v1)', {
      'x-payment': encodeV1(await signPayment(fetchTerms)),
    });

    // A refusal at verify does not use the payment up.
    {
      const header = { 'payment-signature': await fresh() };
      stub.mode = 'reject';
      const mine = await ours.admitOnly(fetchRoute, fetchTier, header);
      const theirs = await official.outcome(fetchRoute, fetchTier, header);
      stub.mode = 'ok';
      const mineAgain = await ours.admitOnly(fetchRoute, fetchTier, header);
      const theirsAgain = await official.outcome(fetchRoute, fetchTier, header);
      rows.push({
        name: 'refused at verify, then sent again',
        ours: joined([mine, mineAgain]),
        official: { kind: theirsAgain.kind, summary: joined([theirs, theirsAgain]).summary },
      });
    }

    // The claim's database fails: ours stops; a claim written as an official hook is skipped.
    {
      const header = { 'payment-signature': await fresh() };
      const broken = ourDoor(failingDatabase(), stub.url);
      const withClaimHook = await officialServer(
        new HTTPFacilitatorClient({ url: stub.url, timeoutMs: FACILITATOR_TIMEOUT_MS }),
        {
          skipFacilitator: false,
          beforeVerify: async () => {
            throw new Error('the claim could not be written: connection refused');
          },
        },
      );
      rows.push({
        name: 'the claim cannot be written (database down)',
        ours: await broken.admitOnly(fetchRoute, fetchTier, header),
        official: await withClaimHook.outcome(fetchRoute, fetchTier, header),
      });
    }

    // The facilitator at verify.
    for (const [mode, name] of [
      ['drop', 'facilitator /verify: connection dropped'],
      ['hang', `facilitator /verify: no answer (timeout ${FACILITATOR_TIMEOUT_MS} ms)`],
      ['garbage', 'facilitator /verify: HTTP 200, not JSON'],
      ['huge', 'facilitator /verify: 1 MB answer, isValid true'],
      ['other-payer', "facilitator /verify: isValid true for another payer's address"],
      ['error-500', 'facilitator /verify: HTTP 500, isValid false'],
    ] as const) {
      const header = { 'payment-signature': await fresh() };
      stub.mode = mode;
      await both(name, header);
      stub.mode = 'ok';
    }

    // The settlement answer is lost.
    {
      const header = { 'payment-signature': await fresh() };
      stub.settleMode = 'hang';
      const mine = await ours.paidCall(fetchRoute, fetchTier, header);
      const theirs = await official.paidCall(fetchRoute, fetchTier, header);
      stub.settleMode = 'ok';
      rows.push({ name: 'facilitator /settle: no answer', ours: mine, official: theirs });
    }
  } finally {
    console.warn = warn;
    if (db.kind === 'postgres') await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
    await stub.close();
  }

  printColumns(
    `x402 behaviours: our door next to the official server (loopback stub facilitator that vouches for every well-formed request; ${machine()})`,
    ['case', 'ours', 'official', 'same decision'],
    rows.map((row) => [
      row.name,
      row.ours.summary,
      row.official.summary,
      row.ours.kind === row.official.kind ? 'yes' : 'no',
    ]),
    3,
  );
  const same = rows.filter((row) => row.ours.kind === row.official.kind).length;
  const passedOn = rows.filter(
    (row) => row.ours.kind !== 'admitted' && row.official.kind === 'admitted',
  ).length;
  console.log(
    `${rows.length} cases: the official server decides as ours in ${same}; it lets through ${passedOn} that ours refuses before the work; it wrote ${warnings} console warnings`,
  );
}

/** What a server made of a request: its class, and a short account. */
interface Outcome {
  /** `admitted`: verified (passed on); `payer`: a 402; `service`: 5xx or thrown; `unpaid`: answered as if no payment was sent. */
  readonly kind: 'admitted' | 'payer' | 'service' | 'unpaid';
  readonly summary: string;
}

interface Row {
  readonly name: string;
  readonly ours: Outcome;
  readonly official: Outcome;
}

/** Where a timed task leaves what it built, so that the work cannot be optimised away. */
let sink: unknown = null;

const BASE_URL = 'https://storefront.example';
const TERMS: Terms = Object.freeze({
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  facilitatorUrl: null,
  legacyNetworkNames: false,
  testnet: false,
});
/** The server's default call budget (`CALL_DEADLINE_MS`). */
const CALL_DEADLINE_MS = 5500;
/** Both facilitator clients' timeout in the behaviours (the official default is 90 s). */
const FACILITATOR_TIMEOUT_MS = 1000;
const PAYER = privateKeyToAccount(`0x${'4c'.repeat(32)}`);
const OTHER_PAYER = '0x1563915e194D8CfBA1943570603F7606A3115508';
const SUPPORTED: SupportedResponse = {
  kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
  extensions: [],
  signers: {},
};

function routeNamed(name: string): AnyRoute {
  const found = REGISTRY.find((route) => route.name === name);
  if (found === undefined) throw new Error(`no route ${name}`);
  return found;
}

function tierOf(route: AnyRoute, tier: string): PriceTier {
  const found = route.prices.find((price: PriceTier) => price.tier === tier);
  if (found === undefined) throw new Error(`no tier ${tier} on ${route.name}`);
  return found;
}

/** Our `PAYMENT-REQUIRED` object of `requirements`, as the official client reads it. */
function v2Terms(requirements: Requirements): PaymentRequired {
  return paymentRequiredV2(requirements, 'Payment required');
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * A payment signed by the official v2 client (`@x402/core` + `@x402/evm`) for the first
 * accept of `required`, changed by `change` before signing, with the client's clock
 * `clockOffset` seconds off ours.
 */
async function signPayment(
  required: PaymentRequired,
  change?: (accept: Record<string, unknown>) => void,
  clockOffset = 0,
): Promise<PaymentPayload> {
  const terms = structuredClone(required);
  const accept = terms.accepts[0];
  if (accept === undefined) throw new Error('no accept');
  change?.(accept as unknown as Record<string, unknown>);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: PAYER });
  const http = new x402HTTPClient(client);
  const realNow = Date.now;
  Date.now = () => realNow() + clockOffset * 1000;
  try {
    return await http.createPaymentPayload(terms);
  } finally {
    Date.now = realNow;
  }
}

/** The v1 `X-PAYMENT` of a signed v2 payment: the same authorization, v1's envelope. */
function encodeV1(payment: PaymentPayload): string {
  const v1 = { x402Version: 1, scheme: 'exact', network: 'base', payload: payment.payload };
  return Buffer.from(JSON.stringify(v1)).toString('base64');
}

function authorizationOf(payload: Record<string, unknown>): Record<string, unknown> {
  return (payload.payload as { authorization: Record<string, unknown> }).authorization;
}

function joined(outcomes: readonly Outcome[]): Outcome {
  const last = outcomes.at(-1);
  return {
    kind: last?.kind ?? 'admitted',
    summary: outcomes.map((outcome) => outcome.summary).join('; '),
  };
}

/** The official server for `routes`, set up as its documentation shows. */
async function officialServer(
  facilitator: FacilitatorClient,
  options: {
    /** Stop each paid call where the facilitator would verify it (the timing). */
    readonly skipFacilitator: boolean;
    /** A hook of our own before verification (a claim in a database). */
    readonly beforeVerify?: () => Promise<void>;
  },
) {
  const resource = new x402ResourceServer(facilitator);
  resource.register(TERMS.network as Network, new ExactEvmScheme());
  resource.registerExtension(bazaarResourceServerExtension);
  resource.registerExtension(paymentIdentifierResourceServerExtension);
  if (options.beforeVerify !== undefined) {
    const hook = options.beforeVerify;
    resource.onBeforeVerify(async () => {
      await hook();
    });
  }
  if (options.skipFacilitator) {
    resource.onBeforeVerify(async () => ({ skip: true, result: { isValid: true } }));
  }
  // The tier a call's params select is ours to compute (the pipeline's `priceFor`); the
  // official price can be a function of the request, so it reads the tier picked for it.
  let tierNow: PriceTier | null = null;
  const routes: RoutesConfig = {};
  for (const route of REGISTRY) {
    routes[`GET ${route.path}`] = {
      accepts: {
        scheme: 'exact',
        network: TERMS.network as Network,
        payTo: TERMS.payTo,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        price: () => {
          const tier: PriceTier | undefined = tierNow ?? route.prices[0];
          if (tier === undefined) throw new Error(`${route.name} has no price`);
          return {
            amount: String(tier.amount),
            asset: TERMS.asset,
            extra: { name: 'USD Coin', version: '2', tier: tier.tier, includes: tier.includes },
          };
        },
      },
      resource: `${BASE_URL}${route.path}`,
      description: route.description,
      mimeType: 'application/json',
      extensions: {
        ...bazaarDeclaration(route),
        'payment-identifier': declarePaymentIdentifierExtension(false),
      },
    };
  }
  const http = new x402HTTPResourceServer(resource, routes);
  await http.initialize();
  const contextOf = (route: AnyRoute, headers: Readonly<Record<string, string>>) => {
    const adapter: HTTPAdapter = {
      getHeader: (name) => headers[name.toLowerCase()],
      getMethod: () => 'GET',
      getPath: () => route.path,
      getUrl: () => `${BASE_URL}${route.path}`,
      getAcceptHeader: () => 'application/json',
      getUserAgent: () => 'bench',
    };
    return { adapter, path: route.path, method: 'GET' };
  };
  const process = (
    route: AnyRoute,
    tier: PriceTier,
    headers: Readonly<Record<string, string>>,
  ): Promise<HTTPProcessResult> => {
    tierNow = tier;
    return http.processHTTPRequest(contextOf(route, headers));
  };
  const outcome = async (
    route: AnyRoute,
    tier: PriceTier,
    headers: Readonly<Record<string, string>>,
  ): Promise<Outcome> => {
    try {
      return officialOutcome(await process(route, tier, headers));
    } catch (error) {
      return thrown(error);
    }
  };
  return {
    resource,
    process,
    outcome,
    /** A paid call: processHTTPRequest, then processSettlement of a verified payment. */
    async paidCall(
      route: AnyRoute,
      tier: PriceTier,
      headers: Readonly<Record<string, string>>,
    ): Promise<Outcome> {
      let result: HTTPProcessResult;
      try {
        result = await process(route, tier, headers);
      } catch (error) {
        return thrown(error);
      }
      if (result.type !== 'payment-verified') return officialOutcome(result);
      try {
        const settled = await http.processSettlement(
          result.paymentPayload,
          result.paymentRequirements,
          result.declaredExtensions,
          { request: contextOf(route, headers) },
        );
        return settled.success
          ? { kind: 'admitted', summary: 'settled, 200' }
          : { kind: 'payer', summary: `settle: 402 ${settled.errorReason}` };
      } catch (error) {
        const failed = thrown(error);
        return { kind: failed.kind, summary: `settle: ${failed.summary}` };
      }
    },
  };
}

/** The Bazaar declaration the official server is given: the one every 402 of ours carries. */
function bazaarDeclaration(route: AnyRoute): Record<string, unknown> {
  return { bazaar: bazaarExtension(route) };
}

function officialOutcome(result: HTTPProcessResult): Outcome {
  if (result.type === 'payment-verified') {
    return { kind: 'admitted', summary: 'verified (passed on)' };
  }
  if (result.type === 'no-payment-required') return { kind: 'admitted', summary: 'no payment' };
  const { status, headers } = result.response;
  const header = headers['PAYMENT-REQUIRED'];
  const error =
    header === undefined ? '' : (decodePaymentRequiredHeader(String(header)).error ?? '');
  const kind = error === 'Payment required' ? 'unpaid' : status >= 500 ? 'service' : 'payer';
  return { kind, summary: `${status} "${shorten(error)}"` };
}

function thrown(error: unknown): Outcome {
  const name = error instanceof Error ? error.name : 'Error';
  return { kind: 'service', summary: `throws ${name}` };
}

/** Ours throwing: the app's error handler answers 500 `internal_error`. */
function oursThrown(): Outcome {
  return { kind: 'service', summary: 'throws (500 internal_error)' };
}

function shorten(text: string): string {
  return text.length > 48 ? `${text.slice(0, 45)}...` : text;
}

/** Our door on `db`, with our facilitator client for the stub at `url`. */
function ourDoor(db: Queryable, url: string) {
  const door = x402Door({
    db,
    facilitator: new Facilitator({ url, timeoutMs: FACILITATOR_TIMEOUT_MS }),
    ledger: null,
    terms: TERMS,
    publicBaseUrl: BASE_URL,
    clock: () => new Date(),
    callDeadlineMs: CALL_DEADLINE_MS,
  });
  const callOf = (
    route: AnyRoute,
    tier: PriceTier,
    headers: Readonly<Record<string, string>>,
  ): PaidCall => ({
    route,
    params: { url: 'https://example.com/' },
    price: tier,
    requestId: 'bench',
    header: (name) => headers[name],
  });
  const admit = async (
    route: AnyRoute,
    tier: PriceTier,
    headers: Readonly<Record<string, string>>,
  ) => {
    try {
      return await door.admit(callOf(route, tier, headers));
    } catch {
      return { kind: 'thrown' as const };
    }
  };
  return {
    /** Admit a call and release its payment unused (a route that does not charge). */
    async admitOnly(
      route: AnyRoute,
      tier: PriceTier,
      headers: Readonly<Record<string, string>>,
    ): Promise<Outcome> {
      const admission = await admit(route, tier, headers);
      if (admission.kind === 'thrown') return oursThrown();
      if (admission.kind !== 'admitted') return ourAnswer(admission);
      await door.settle(admission.ticket, {
        kind: 'failed',
        error: 'client_closed',
        upstreamStatus: null,
      });
      return { kind: 'admitted', summary: 'verified (claimed)' };
    },
    /** Admit a call and settle it as charged. */
    async paidCall(
      route: AnyRoute,
      tier: PriceTier,
      headers: Readonly<Record<string, string>>,
    ): Promise<Outcome> {
      const admission = await admit(route, tier, headers);
      if (admission.kind === 'thrown') return oursThrown();
      if (admission.kind !== 'admitted') return ourAnswer(admission);
      const settled = await door.settle(admission.ticket, {
        kind: 'charge',
        outcome: {} as never,
        receiptNonce: null,
        body: { ok: true },
      });
      return settled.ok
        ? { kind: 'admitted', summary: 'settled, 200' }
        : {
            ...ourAnswer(settled.refusal),
            summary: `settle: ${ourAnswer(settled.refusal).summary}`,
          };
    },
  };
}

function ourAnswer(answer: CallResult): Outcome {
  const status = answer.kind === 'delivered' ? 200 : answer.status;
  const error = answer.kind === 'delivered' ? '' : answer.code;
  return {
    kind: status >= 500 ? 'service' : 'payer',
    summary: `${status} ${error}`,
  };
}

/** A database whose every statement fails, as one that is down. */
function failingDatabase(): Queryable {
  return {
    query: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
    exec: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
  } as unknown as Database;
}

/** How the stub facilitator answers `/verify` (and `/settle`). */
type VerifyMode =
  | 'ok'
  | 'reject'
  | 'drop'
  | 'hang'
  | 'garbage'
  | 'huge'
  | 'other-payer'
  | 'error-500';

/**
 * A loopback facilitator stub: `/supported` names exact on `eip155:8453`; `/verify`
 * vouches for every well-formed request (the payer is the authorization's `from`) unless
 * a fault mode is set; `/settle` answers a made-up transaction, or never.
 */
async function startStubFacilitator(): Promise<{
  url: string;
  mode: VerifyMode;
  settleMode: 'ok' | 'hang';
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const state = {
    url: '',
    mode: 'ok' as VerifyMode,
    settleMode: 'ok' as 'ok' | 'hang',
    close: async () => {},
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/supported') return json(200, SUPPORTED);
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        paymentPayload?: { payload?: { authorization?: { from?: string } } };
      };
      const payer = body.paymentPayload?.payload?.authorization?.from ?? OTHER_PAYER;
      if (req.url === '/settle') {
        if (state.settleMode === 'hang') return;
        return json(200, {
          success: true,
          transaction: `0x${'ab'.repeat(32)}`,
          network: 'eip155:8453',
          payer,
        });
      }
      switch (state.mode) {
        case 'ok':
          return json(200, { isValid: true, payer });
        case 'reject':
          return json(200, { isValid: false, invalidReason: 'insufficient_funds', payer });
        case 'drop':
          return req.socket.destroy();
        case 'hang':
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>Bad gateway</html>');
        case 'huge':
          return json(200, { isValid: true, payer, padding: 'x'.repeat(1024 * 1024) });
        case 'other-payer':
          return json(200, { isValid: true, payer: OTHER_PAYER });
        case 'error-500':
          return json(500, { isValid: false, invalidReason: 'unexpected_verify_error' });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
