/**
 * `pnpm pay <url>`: make one paid call with the official x402 client (`@x402/fetch`) and
 * the development wallet, show the settlement and the result, and verify the result's
 * receipt offline against the key the service pins. With `--tool`, the URL is the MCP
 * endpoint and the call a `tools/call` of the MCP SDK's client, paid inside MCP as the
 * x402 MCP transport specifies (the terms as an `isError` result, the payment in
 * `_meta["x402/payment"]`, the settlement in `_meta["x402/payment-response"]`). A development tool: it runs from
 * source (`node --conditions=@storefront/source --import tsx`), is not part of the
 * server's build, and pays as the official client does by default: only USDC, at most $1
 * a call (on the development chain, its test token at USDC's address).
 *
 * Usage: pnpm pay <url> [--out FILE]   (PAYER_PRIVATE_KEY: another payer than the development wallet)
 *        pnpm pay <origin>/mcp --tool NAME [--arg name=value]… [--out FILE]
 * Exit status: 0 paid (or free) and the receipt verified, 1 the call failed, 2 bad usage,
 * 3 the receipt did not verify.
 */

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { report, type ServiceAttestationDocument, verifyReceipt } from '@storefront/attest';
import { DEV_PAYER } from '@storefront/facilitator/accounts';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { BASE_USDC, LOCAL_PAYMENTS_NETWORK } from './config.js';

/** Exit status of `pnpm pay`. */
const PAY_EXIT = { ok: 0, failed: 1, usage: 2, receiptInvalid: 3 } as const;

const USAGE = `Usage: pnpm pay <url> [--out FILE]
       pnpm pay <origin>/mcp --tool NAME [--arg name=value]... [--out FILE]

Pay for one call with the x402 client and the development wallet, print the settlement and
the result, and verify the result's receipt against the key pinned at
<origin>/.well-known/service-attestation. With --tool, <url> is the MCP endpoint and the
call is a tools/call of tool NAME with the --arg arguments, paid inside MCP (x402 MCP
transport). --out writes the whole result (JSON) to FILE.
PAYER_PRIVATE_KEY (0x + 64 hex) pays from another wallet. Exit status: 0 paid and
verified, 1 the call failed, 2 bad usage, 3 the receipt did not verify.`;

/** How long one request may take: a paid call is answered within seconds, settlement included. */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Strings longer than {@link CUT_OVER} characters are shown cut to their first
 * {@link SHOWN_CHARS} in the printed result; the receipt is checked on the whole result.
 */
const SHOWN_CHARS = 200;
const CUT_OVER = 240;

/** Where `pay` writes. */
interface PayIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

/** A failure worth one line and an exit status, never a stack trace. */
class PayError extends Error {
  constructor(
    message: string,
    readonly exit: number = PAY_EXIT.failed,
  ) {
    super(message);
  }
}

/** Run `pnpm pay` with `argv` (without node and the script); resolves to the exit status. */
async function pay(argv: readonly string[], env: NodeJS.ProcessEnv, io: PayIo): Promise<number> {
  try {
    if (argv.includes('-h') || argv.includes('--help')) {
      io.stdout(USAGE);
      return PAY_EXIT.ok;
    }
    const { url, out, tool, args } = argsOf(argv);
    const key = payerKey(env);
    const client = payingClient(key);
    const said = (terms: PaymentRequirements) =>
      io.stdout(`paid      ${payment(terms, key === DEV_PAYER.privateKey)}`);
    const { body, settlement } =
      tool === null
        ? await payHttp(url, client, io, said)
        : await payMcp(url, tool, args, client, io, said);
    io.stdout(
      settlement === null
        ? 'settled   nothing (the call was free)'
        : `settled   tx ${settlement.transaction}  payer ${settlement.payer ?? '?'}  network ${settlement.network}`,
    );
    io.stdout(out === null ? 'result' : `result    (written whole to ${out})`);
    for (const line of JSON.stringify(shown(body), null, 2).split('\n')) io.stdout(line);
    if (out !== null) save(out, body);

    const pinUrl = `${url.origin}/.well-known/service-attestation`;
    const pinned = await pinnedKeys(url, pinUrl);
    const verification = verifyReceipt(body, pinned);
    io.stdout(`receipt   checked offline against the key pinned at ${pinUrl}`);
    for (const line of report(verification)) io.stdout(`  ${line}`);
    if (!verification.valid) {
      throw new PayError('the receipt does not verify', PAY_EXIT.receiptInvalid);
    }
    return PAY_EXIT.ok;
  } catch (error) {
    if (error instanceof PayError) {
      io.stderr(`pay: ${error.message}`);
      return error.exit;
    }
    io.stderr(`pay: unexpected failure: ${(error as Error).message ?? String(error)}`);
    return PAY_EXIT.failed;
  }
}

/** What one paid call gave: the result and its settlement (null: nothing was paid). */
interface Paid {
  readonly body: unknown;
  readonly settlement: SettleResponse | null;
}

/** Told the terms a payment was made for, once it was made. */
type Said = (terms: PaymentRequirements) => void;

/** One paid GET with `@x402/fetch`. */
async function payHttp(url: URL, client: x402Client, io: PayIo, said: Said): Promise<Paid> {
  // What the client paid, told by its hook (the 402 itself stays inside the client).
  const paid: { terms: PaymentRequirements | null } = { terms: null };
  client.onAfterPaymentCreation(async (context) => {
    paid.terms = context.selectedRequirements;
  });
  io.stdout(`GET ${url.href}`);
  const response = await reach(url, () =>
    wrapFetchWithPayment(fetch, client)(url, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
  const body = await jsonOf(response);
  if (paid.terms !== null) said(paid.terms);
  io.stdout(`status    ${response.status} ${response.statusText}`.trimEnd());
  if (!response.ok) throw new PayError(failure(response, body, paid.terms !== null));
  return { body, settlement: settlementOf(response) };
}

/**
 * One paid `tools/call` inside MCP: called once without payment, it answers the terms
 * (an `isError` result whose `structuredContent` is the PaymentRequired); the client
 * signs a payment for them and calls again with it in `_meta["x402/payment"]`.
 */
async function payMcp(
  url: URL,
  tool: string,
  args: Readonly<Record<string, string>>,
  client: x402Client,
  io: PayIo,
  said: Said,
): Promise<Paid> {
  const mcp = new Client({ name: 'storefront-pay', version: '1.0.0' });
  const call = async (meta?: Record<string, unknown>) =>
    (await mcp.callTool(
      { name: tool, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
      undefined,
      { timeout: REQUEST_TIMEOUT_MS },
    )) as CallToolResult;
  io.stdout(`MCP ${url.href}  tools/call ${tool} ${JSON.stringify(args)}`);
  await reach(url, () => mcp.connect(new StreamableHTTPClientTransport(url)));
  try {
    const asked = await call();
    const required = termsIn(asked);
    if (required === null) {
      if (asked.isError === true) throw new PayError(toolText(asked));
      return { body: asked.structuredContent ?? null, settlement: null };
    }
    io.stdout(
      `terms     isError result: x402Version ${required.x402Version}, ${required.accepts.length} way(s) to pay`,
    );
    const payload = await client.createPaymentPayload(required).catch((error: Error) => {
      throw new PayError(`could not pay: ${error.message}`);
    });
    const answer = await call({ 'x402/payment': payload });
    said(payload.accepted as PaymentRequirements);
    if (answer.isError === true) {
      const text = termsIn(answer) === null ? toolText(answer) : toolText(answer, 1);
      throw new PayError(`the payment was refused: ${text}`);
    }
    const settlement = (answer._meta?.['x402/payment-response'] ?? null) as SettleResponse | null;
    return { body: answer.structuredContent ?? null, settlement };
  } finally {
    await mcp.close();
  }
}

/** The payment terms an `isError` tool result carries, or null. */
function termsIn(result: CallToolResult): PaymentRequired | null {
  const content = result.structuredContent as Partial<PaymentRequired> | undefined;
  if (result.isError !== true || content === undefined) return null;
  return typeof content.x402Version === 'number' && Array.isArray(content.accepts)
    ? (content as PaymentRequired)
    : null;
}

/** The text of a tool result's block `index`. */
function toolText(result: CallToolResult, index = 0): string {
  const block = result.content[index];
  return block?.type === 'text' ? block.text : 'the tool answered without text';
}

/** The arguments: one absolute http(s) URL, and where to write the result, if anywhere. */
function argsOf(argv: readonly string[]): {
  url: URL;
  out: string | null;
  tool: string | null;
  args: Record<string, string>;
} {
  let parsed: {
    values: { out?: string | undefined; tool?: string | undefined; arg?: string[] | undefined };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      options: {
        out: { type: 'string', short: 'o' },
        tool: { type: 'string' },
        arg: { type: 'string', multiple: true },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new PayError(`${(error as Error).message}\n\n${USAGE}`, PAY_EXIT.usage);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    throw new PayError(`expected one URL\n\n${USAGE}`, PAY_EXIT.usage);
  }
  const tool = values.tool ?? null;
  if (tool === null && values.arg !== undefined) {
    throw new PayError(`--arg is for a tool call (--tool)\n\n${USAGE}`, PAY_EXIT.usage);
  }
  const args: Record<string, string> = {};
  for (const pair of values.arg ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new PayError(`--arg \`${pair}\` is not name=value`, PAY_EXIT.usage);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const raw = positionals[0] as string;
  const out = values.out ?? null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { url, out, tool, args };
  } catch {}
  throw new PayError(`\`${raw}\` is not an absolute http(s) URL`, PAY_EXIT.usage);
}

/** Write the whole result, as the service sent it, for other verifiers. */
function save(file: string, body: unknown): void {
  try {
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    throw new PayError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** `PAYER_PRIVATE_KEY`, or the development payer's public key. */
function payerKey(env: NodeJS.ProcessEnv): `0x${string}` {
  const key = env.PAYER_PRIVATE_KEY?.trim();
  if (!key) return DEV_PAYER.privateKey;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new PayError('PAYER_PRIVATE_KEY must be 0x followed by 64 hex digits', PAY_EXIT.usage);
  }
  return key as `0x${string}`;
}

/**
 * The official x402 client paying with `key` on EVM chains, as shipped: it pays only the
 * assets it knows (USDC, at most $1 a payment). The development chain's test token sits
 * at USDC's address, so it needs no exception.
 */
function payingClient(key: `0x${string}`): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(key)) });
  return client;
}

/** Run a request, turning "could not connect" and the client's refusals into one line. */
async function reach<T>(url: URL, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const err = error as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') {
      throw new PayError(`${url.origin} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    }
    if (err.message === 'fetch failed') {
      const code = err.cause?.code ?? 'no connection';
      throw new PayError(
        `cannot reach ${url.origin} (${code}): is the service running? (npx -y pnpm@10.34.9 start)`,
      );
    }
    // The x402 client's own words: no terms it can pay, an asset or amount it refuses, …
    throw new PayError(`could not pay: ${err.message}`);
  }
}

/** The answer's JSON body, or a one-line failure when it is not JSON. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new PayError(
      `${response.status} answer is not JSON: ${text.slice(0, 120).replace(/\s+/g, ' ')}`,
    );
  }
}

/**
 * A failed answer in one line: status, the error code, the server's message and, for bad
 * parameters, what was wrong with each.
 */
function failure(response: Response, body: unknown, afterPayment: boolean): string {
  const { error, message, details } = (body ?? {}) as {
    error?: unknown;
    message?: unknown;
    details?: unknown;
  };
  const code = typeof error === 'string' ? error : 'no error code';
  const problems = Array.isArray(details)
    ? details
        .map((detail: { param?: unknown; message?: unknown }) =>
          typeof detail?.message === 'string' ? `${String(detail.param)}: ${detail.message}` : '',
        )
        .filter((line) => line !== '')
    : [];
  const said =
    (typeof message === 'string' ? `: ${message}` : '') +
    (problems.length > 0 ? ` (${problems.join('; ')})` : '');
  if (response.status === 402) {
    return afterPayment
      ? `the payment was refused: 402 ${code}${said}`
      : `402 ${code}${said} (no payment was made)`;
  }
  return `${response.status} ${code}${said}`;
}

/** The decoded settlement header (v2 `PAYMENT-RESPONSE`, v1 `X-PAYMENT-RESPONSE`), if any. */
function settlementOf(response: Response): SettleResponse | null {
  const header =
    response.headers.get('PAYMENT-RESPONSE') ?? response.headers.get('X-PAYMENT-RESPONSE');
  if (header === null) return null;
  try {
    return decodePaymentResponseHeader(header);
  } catch {
    throw new PayError('the settlement header (PAYMENT-RESPONSE) is not base64 JSON');
  }
}

/**
 * What was paid, as the terms said: amount, token, chain and payee. The development
 * wallet holds test USDC only (its key is public), so what it pays is named so.
 */
function payment(terms: PaymentRequirements, developmentWallet: boolean): string {
  const usdc =
    terms.network === LOCAL_PAYMENTS_NETWORK &&
    terms.asset.toLowerCase() === BASE_USDC.toLowerCase();
  const token = usdc ? (developmentWallet ? 'test USDC' : 'USDC') : null;
  const amount =
    token === null
      ? `${terms.amount} units of ${terms.asset}`
      : `${dollars(BigInt(terms.amount))} ${token}`;
  return `${amount} on ${terms.network} to ${terms.payTo}`;
}

/** Atomic units of a 6-decimal token without trailing zeros: `0.008`. */
function dollars(atomic: bigint): string {
  const fraction = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${atomic / 1_000_000n}${fraction === '' ? '' : `.${fraction}`}`;
}

/** The result for display: each long string cut, with how much was left out. */
function shown(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length <= CUT_OVER
      ? value
      : `${value.slice(0, SHOWN_CHARS)}… (${value.length - SHOWN_CHARS} more characters)`;
  }
  if (Array.isArray(value)) return value.map(shown);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shown(item)]));
  }
  return value;
}

/** The service-attestation document pinned at `pinUrl`. */
async function pinnedKeys(url: URL, pinUrl: string): Promise<ServiceAttestationDocument> {
  const response = await reach(url, () =>
    fetch(pinUrl, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
  const doc = await jsonOf(response);
  if (
    !response.ok ||
    typeof doc !== 'object' ||
    doc === null ||
    typeof (doc as { address?: unknown }).address !== 'string'
  ) {
    throw new PayError(`${pinUrl} answered ${response.status} without a signer key`);
  }
  return doc as ServiceAttestationDocument;
}

// A reader that stops early (`| head`) closes the pipe; that is not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
}

process.exitCode = await pay(process.argv.slice(2), process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
