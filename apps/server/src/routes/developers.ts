import { DEV_PAYER } from '@storefront/facilitator/accounts';
import { Router } from 'express';
import { DEV_SUBSCRIPTION_ACTIONS, type DevSubscriptionAction } from '../billing/dev-events.js';
import { CREDITS_PER_CENT, TOPUP_MAX_USD, TOPUP_MIN_USD } from '../billing/plans.js';
import type { AppDeps } from '../deps.js';
import { MCP_PATH, MCP_SERVER, mcpClientConfig } from '../mcp-identity.js';
import { isPaidTier, type TierPlan } from '../metering/tiers.js';
import {
  allowance,
  CREDIT_PRICE,
  CREDITS_PER_USD,
  productTable,
  TOPUP_PACKS_USD,
} from '../pages/catalog.js';
import { grouped, type Html, html } from '../pages/html.js';
import { layout, PAGE_CSP } from '../pages/layout.js';
import type { AnyRoute } from '../registry/types.js';
import { x402Live } from './discovery.js';
import { MCP_WELL_KNOWN } from './mcp-discovery.js';

/** The development wallet: its address and its (public) key. */
export interface DevPayer {
  readonly address: string;
  readonly privateKey: string;
}

/** What the page is rendered from. */
export interface DevelopersInput {
  readonly base: string;
  readonly version: string;
  /** Whether the deployment takes x402 payments (a facilitator is configured). */
  readonly x402: boolean;
  /**
   * The development payer, funded with test USDC on the local chain, whose key the page
   * shows; null (production, real USDC) shows none.
   */
  readonly devPayer?: DevPayer | null;
  /** Free calls a sandbox key includes. */
  readonly sandboxCalls: number | null;
  readonly routes: readonly AnyRoute[];
  /** The plan of `?upgraded=<tier>` after a paid checkout; null otherwise. */
  readonly upgraded?: TierPlan | null;
  /** The credits of `?topup=<credits>` after a paid credit pack; null otherwise. */
  readonly toppedUp?: number | null;
  /** `?checkout=cancelled`: the buyer left the checkout without paying. */
  readonly cancelled?: boolean;
  /** `?subscription=<action>`: what the development subscription page just sent. */
  readonly subscriptionAction?: DevSubscriptionAction | null;
}

/** What each development subscription action did, as the page confirms it. */
const ACTION_DONE: Readonly<Record<DevSubscriptionAction, string>> = {
  renew: 'The renewal was paid: the allowance is refreshed for the next period.',
  fail: 'The renewal payment failed: the plan ends when the paid period does, unless a retry is paid.',
  cancel: 'The subscription is cancelled at the end of the paid period.',
  resume: 'The cancellation is undone: the subscription renews again.',
  end: 'The subscription has ended: the key stays live without a plan.',
};

/** The `?topup=<credits>` values a paid credit pack can come back with. */
export function topupCreditsOf(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const credits = Number(value);
  const min = TOPUP_MIN_USD * 100 * CREDITS_PER_CENT;
  const max = TOPUP_MAX_USD * 100 * CREDITS_PER_CENT;
  return credits >= min && credits <= max && credits % CREDITS_PER_CENT === 0 ? credits : null;
}

function link(url: string, label: string, what: string): Html {
  return html`<li><a href="${url}">${label}</a>: ${what}</li>\n`;
}

/** The official x402 client paying one call (the snippet on the page). */
function x402Snippet(sample: string): string {
  return `import { x402Client } from '@x402/core/client';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';

const client = new x402Client();
registerExactEvmScheme(client, {
  signer: toClientEvmSigner(privateKeyToAccount(process.env.PAYER_PRIVATE_KEY)),
});
const res = await wrapFetchWithPayment(fetch, client)('${sample}');
console.log(res.status, await res.json());`;
}

/**
 * Development only: the funded development wallet and its public key, to run the snippet
 * as is. The test USDC sits at USDC's address on the local chain, so the official client
 * pays it with its default settings; it is test money.
 */
function devPayerNote(payer: DevPayer | null): Html | null {
  if (payer == null) return null;
  return html`<div class="note" id="dev-payer"><p><strong>Development only: test money.</strong> This deployment settles on a local chain whose test USDC sits at USDC's address, worth nothing. The development wallet <code>${payer.address}</code> is funded with 1,000 test USDC at each start; its key is public:</p>
<pre><code id="dev-payer-key">PAYER_PRIVATE_KEY=${payer.privateKey} node pay.mjs</code></pre></div>`;
}

/** The whole `/developers` page. Every value is escaped; scripts only enhance it. */
export function developersPage(input: DevelopersInput): string {
  const { base } = input;
  const sample = `${base}/buy/notarize?content=hello`;
  const config = JSON.stringify(mcpClientConfig(base), null, 2);
  const x402Note = input.x402
    ? null
    : html`<p class="note">This deployment takes no x402 payments yet (no facilitator is configured): its 402 answers show the terms, but a payment is refused. Use a key.</p>`;
  const upgraded = input.upgraded
    ? html`<div class="ok" role="status" id="upgraded"><p><strong>Subscribed to ${input.upgraded.tier}</strong>: ${allowance(input.upgraded)} at ${grouped(input.upgraded.perMinute)} calls per minute, on the key you paid for. Check its balance below to see the tier and the allowance.</p></div>`
    : null;
  const toppedUp =
    input.toppedUp != null
      ? html`<div class="ok" role="status" id="topped-up"><p><strong>Paid: ${grouped(input.toppedUp)} credits</strong> are added to the key you paid for as soon as the payment is confirmed (usually at once). Check its balance below to see them.</p></div>`
      : null;
  const cancelled = input.cancelled
    ? html`<div class="note" role="status" id="checkout-cancelled"><p>Checkout cancelled: nothing was charged.</p></div>`
    : null;
  const action = input.subscriptionAction
    ? html`<div class="note" role="status" id="subscription-action"><p>${ACTION_DONE[input.subscriptionAction]} Check the key's balance below to see its plan.</p></div>`
    : null;

  const body = html`<h1>${MCP_SERVER.title} for developers</h1>
${upgraded}${toppedUp}${cancelled}${action}
<p>Deterministic web-data products over HTTP, each answer signed with a receipt anyone can verify offline. Base URL: <code>${base}</code> (version ${input.version}).</p>
<nav aria-label="On this page"><ul><li><a href="#key">API key</a></li><li><a href="#balance">Balance</a></li><li><a href="#topup">Top up</a></li><li><a href="#x402">x402</a></li><li><a href="#mcp">MCP</a></li><li><a href="#verify">Verify</a></li><li><a href="#products">Products</a></li><li><a href="#links">Links</a></li></ul></nav>

<h2 id="key">1. With an API key</h2>
<p>Mint a key. It is shown once; a test key is a sandbox key (<code>mk_test_</code>, ${input.sandboxCalls ?? 'some'} free calls to try every route). A live key (<code>mk_live_</code>) spends prepaid credits or a plan's allowance: 1 credit = ${CREDIT_PRICE}.</p>
<form id="mint-form" method="post" action="/api/dev/keys?live=false">
<button type="submit" formaction="/api/dev/keys?live=false" data-env="test">Mint a test key</button>
<button type="submit" class="secondary" formaction="/api/dev/keys?live=true" data-env="live">Mint a live key</button>
</form>
<div id="mint-result" aria-live="polite"></div>
<p>Or from a terminal:</p>
<pre><code>curl -s -X POST '${base}/api/dev/keys'</code></pre>
<p>Send it as a bearer token to any route:</p>
<pre><code>curl -s -H 'Authorization: Bearer &lt;key&gt;' '${base}/buy/fetch?url=https%3A%2F%2Fexample.com%2F'
curl -s -H 'Authorization: Bearer &lt;key&gt;' '${base}/api/dev/balance'</code></pre>

<h2 id="balance">Balance and usage</h2>
<form id="balance-form" method="post">
<label for="balance-key">Key</label>
<input id="balance-key" name="key" type="password" autocomplete="off" spellcheck="false" required data-key>
<button type="submit">Check the balance</button>
</form>
<div id="balance-result" aria-live="polite"></div>
<div id="usage"></div>
<noscript><p class="muted">Checking a balance here needs JavaScript; <code>curl</code> above does the same.</p></noscript>

<h2 id="topup">Top up a live key</h2>
<p>Credits for a live key (<code>mk_live_</code>), paid once at checkout and added when the payment arrives: 1 credit = ${CREDIT_PRICE}, so $1 buys ${grouped(CREDITS_PER_USD)} credits. Payments are non-refundable (<a href="/terms">terms</a>).</p>
<form id="topup-form" method="post">
<label for="topup-key">Live key</label>
<input id="topup-key" name="key" type="password" autocomplete="off" spellcheck="false" required data-key>
<label for="topup-usd">Amount in dollars</label>
<select id="topup-usd" name="usd">${TOPUP_PACKS_USD.map((usd) => html`<option value="${usd}">$${usd}</option>`)}</select>
<button type="submit">Go to checkout</button>
</form>
<div id="topup-result" aria-live="polite"></div>

<h2 id="x402">2. Pay per call with x402</h2>
<p>Without a key, a paid route answers <code>402 Payment Required</code> with its terms: x402 v1 in the JSON body, v2 in the <code>PAYMENT-REQUIRED</code> header. An x402 client pays in USDC and sends the call again with the payment.</p>
${x402Note}
<pre><code>curl -i '${sample}'</code></pre>
<p>From a checkout of the repository, <code>pay</code> makes one paid call with the official x402 client and checks the receipt:</p>
<pre><code>npx -y pnpm@10.34.9 pay '${sample}'</code></pre>
<p>In your own code, with the official client (<code>@x402/fetch</code>, <code>@x402/evm</code>, <code>@x402/core</code> and <code>viem</code>), saved as <code>pay.mjs</code>:</p>
<pre><code id="x402-client">${x402Snippet(sample)}</code></pre>
<p>An agent that calls often can pay with <code>batch-settlement</code>, offered beside <code>exact</code> in the v2 terms when the facilitator settles it: it deposits once into a channel (100 calls' worth), then each call carries a signed voucher and moves no money on chain; the service redeems the vouchers in batches. Register the official client's <code>BatchSettlementEvmScheme</code> (<code>@x402/evm/batch-settlement/client</code>) instead of the exact scheme.</p>
${devPayerNote(input.devPayer ?? null)}
<h2 id="mcp">3. From an MCP client</h2>
<p>The MCP endpoint is <code>${base}${MCP_PATH}</code> (Streamable HTTP, JSON answers, no session), for clients of protocol 2026-07-28 (stateless, <code>server/discover</code>) and of the earlier revisions (<code>initialize</code> first). Every paid route is a tool of the same name; listing tools is free, and a tool call costs the route's price, paid with a key in <code>Authorization</code> or with x402 in <code>_meta["x402/payment"]</code> (a call with neither is answered with the terms). <code>crawl_job</code> runs a crawl job as a task.</p>
<p>Config for Claude Code, Cursor and other clients that read <code>mcpServers</code>:</p>
<pre><code id="mcp-config">${config}</code></pre>
<button type="button" class="secondary" data-copy="#mcp-config" hidden>Copy the config</button>
<p>Or with the Claude Code CLI:</p>
<pre><code>claude mcp add --transport http ${MCP_SERVER.name} '${base}${MCP_PATH}' --header 'Authorization: Bearer &lt;key&gt;'</code></pre>
<p>A plain <code>GET ${MCP_PATH}</code> (this browser, curl) and <a href="${base}${MCP_WELL_KNOWN}">${MCP_WELL_KNOWN}</a> describe the endpoint as JSON.</p>

<h2 id="verify">Verify a receipt</h2>
<p>Paste a result on <a href="/verify">/verify</a>: it is checked in your browser against the key pinned at <a href="${base}/.well-known/service-attestation">/.well-known/service-attestation</a>. Or post the whole result to <code>${base}/x402/verify</code>:</p>
<pre><code>curl -s -X POST -H 'Content-Type: application/json' --data @result.json '${base}/x402/verify'</code></pre>
<p>Or offline, with the verifier in a checkout of this repository:</p>
<pre><code>node packages/attest/bin/storefront-verify.js result.json --pin '${base}/.well-known/service-attestation'</code></pre>
<p>Besides its receipt, every paid answer carries:</p>
<ul>
<li>a <code>Response-Provenance</code> header (base64 JSON; MCP: <code>_meta["response-provenance"]</code>): the x402 <code>response-provenance</code> claim, <code>sha256:</code> of the RFC 8785 form of <code>{endpoint, inputs, result, method, dataVintage}</code>, where <code>endpoint</code> is the path you called, <code>inputs</code> your query (values as strings, a repeated name an array; MCP: the tool's arguments), <code>result</code> the whole body you received, and <code>method</code> and <code>dataVintage</code> are in the claim. Recompute it with any JCS library;</li>
<li>an RFC 9421 signature over the status, the body's <code>Content-Digest</code>, your request's method, path and query, and the payment and provenance headers, by a key published at <a href="${base}/.well-known/jwks.json">/.well-known/jwks.json</a>;</li>
<li>when paid with x402, signed offers beside the 402 terms and a signed receipt in the settlement response (<code>extensions["offer-receipt"]</code>, EIP-712 and JWS forms, checkable with <code>@x402/extensions/offer-receipt</code> against the keys under <code>offerReceipt</code> in /.well-known/service-attestation), beside the provenance claim.</li>
</ul>
<p>Every receipt also enters the service's transparency log (C2SP tlog-tiles, checkpoints signed with the key published as <code>log.vkey</code> in the attestation document). Fetch a receipt's inclusion proof by its hash (SHA-256 of its log entry, <code>receiptHash</code> in <code>@storefront/attest</code>) and check it with the receipt:</p>
<pre><code>curl -s '${base}/log/proof?receipt=&lt;hash&gt;' &gt; proof.json
node packages/attest/bin/storefront-verify.js result.json --pin '${base}/.well-known/service-attestation' --log-proof proof.json</code></pre>

<h2 id="products">Products</h2>
${productTable(input.routes)}
<p class="muted">The catalog has every parameter, price tier and charge rule.</p>

<h2 id="links">Links</h2>
<ul>
${link(`${base}/catalog`, '/catalog', 'every route with its parameters, prices, charge rule and error codes')}${link(`${base}/openapi.json`, '/openapi.json', 'OpenAPI 3.1')}${link(`${base}/manifest`, '/manifest', 'the service, its doors and its signer')}${link(`${base}/.well-known/x402`, '/.well-known/x402', 'x402 discovery')}${link(`${base}${MCP_PATH}`, MCP_PATH, 'the MCP endpoint (POST), described as JSON (GET)')}${link(`${base}/.well-known/service-attestation`, '/.well-known/service-attestation', 'the signer key receipts are checked against')}${link(`${base}/log/checkpoint`, '/log/checkpoint', 'the transparency log of every receipt: its signed checkpoint, with tiles under /log/tile/, proofs at /log/proof and /log/consistency')}</ul>`;

  return layout(
    {
      path: '/developers',
      title: 'Developers',
      description:
        'Mint an API key, check a balance, pay per call with x402 or use the MCP endpoint.',
    },
    body,
  );
}

/**
 * The development payer the page shows: outside production, when the payments are test
 * money (the local payment stack); never in production.
 */
export function developmentPayer(deps: Pick<AppDeps, 'config'>): DevPayer | null {
  const { env, payment } = deps.config;
  return env !== 'production' && payment.testnet ? DEV_PAYER : null;
}

/** `GET /developers`: how to call the service three ways; `?upgraded=<tier>` after checkout. */
export function developerRoutes(deps: AppDeps): Router {
  const router = Router();
  const { plans } = deps;
  const input: DevelopersInput = {
    base: deps.config.publicBaseUrl,
    version: deps.version,
    x402: x402Live(deps),
    devPayer: developmentPayer(deps),
    sandboxCalls: plans.sandbox.included,
    routes: deps.registry,
  };
  const page = developersPage(input);
  const upgradedPages = new Map<string, string>();
  router.get('/developers', (req, res) => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    const tier = req.query.upgraded;
    const credits = topupCreditsOf(req.query.topup);
    const cancelled = req.query.checkout === 'cancelled';
    const action = DEV_SUBSCRIPTION_ACTIONS.find((name) => name === req.query.subscription);
    if (credits !== null || cancelled || action !== undefined) {
      // Back from a checkout or a development subscription action: rendered per request.
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(
        developersPage({
          ...input,
          toppedUp: credits,
          cancelled,
          subscriptionAction: action ?? null,
        }),
      );
      return;
    }
    if (isPaidTier(tier)) {
      let upgraded = upgradedPages.get(tier);
      if (upgraded === undefined) {
        upgraded = developersPage({ ...input, upgraded: plans[tier] });
        upgradedPages.set(tier, upgraded);
      }
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(upgraded);
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(page);
  });
  return router;
}
