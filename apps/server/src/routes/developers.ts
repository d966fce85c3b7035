import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { AppDeps } from '../app.js';
import { dollars } from '../doors/x402/terms.js';
import { MCP_PATH, MCP_SERVER, mcpClientConfig } from '../mcp-identity.js';
import { tierPlans } from '../metering/tiers.js';
import { REGISTRY } from '../registry/index.js';
import type { AnyRoute } from '../registry/types.js';
import { x402Live } from './discovery.js';
import { MCP_WELL_KNOWN } from './mcp-discovery.js';

/** HTML already escaped; anything else interpolated into {@link html} is escaped. */
class Html {
  constructor(readonly text: string) {}
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped, except fragments built by `html` itself. */
function html(strings: TemplateStringsArray, ...values: readonly unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

/** The page's only style sheet: inline, allowed by its hash in the CSP, no external asset. */
const CSS = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.8rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}
code,pre{font:14px/1.45 ui-monospace,Menlo,Consolas,monospace}
pre{background:#f4f4f4;padding:.8rem 1rem;overflow-x:auto;border-radius:4px}
p code,li code,td code{background:#f4f4f4;padding:0 .25rem;border-radius:3px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee;vertical-align:top}
nav a{margin-right:1rem}.note{border-left:4px solid #d80;padding:.2rem .8rem;background:#fff8ee}
.muted{color:#555}
`;

/**
 * The page's Content-Security-Policy: nothing loads or runs but the one style element,
 * named by its hash (no inline script exists to allow).
 */
export const DEVELOPERS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the page is rendered from. */
export interface DevelopersInput {
  readonly base: string;
  readonly version: string;
  /** Whether the deployment takes x402 payments (a facilitator is configured). */
  readonly x402: boolean;
  /** Free calls a sandbox key includes. */
  readonly sandboxCalls: number | null;
  readonly routes: readonly AnyRoute[];
}

/** A route's price points: `$0.003 (fetch) / $0.006 (plus) / …`, or the one price. */
function priceOf(route: AnyRoute): string {
  if (route.prices.length === 1) return dollars(route.prices[0]?.amount ?? 0);
  return route.prices.map((price) => `${dollars(price.amount)} (${price.tier})`).join(' / ');
}

/** Registry prose with its `code spans` set as code. */
function prose(text: string): Html[] {
  return text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

function productRow(route: AnyRoute): Html {
  return html`<tr><td><code>${route.name}</code></td><td><code>GET ${route.path}</code></td><td>${priceOf(route)}</td><td>${route.title}</td></tr>
<tr class="muted"><td></td><td colspan="3">${prose(route.description)}</td></tr>
`;
}

function link(url: string, label: string, what: string): Html {
  return html`<li><a href="${url}">${label}</a>: ${what}</li>\n`;
}

/** The whole `/developers` page. Every value is escaped; no script, no external asset. */
export function developersPage(input: DevelopersInput): string {
  const { base } = input;
  const sample = `${base}/buy/notarize?content=hello`;
  const config = JSON.stringify(mcpClientConfig(base), null, 2);
  const x402Note = input.x402
    ? null
    : html`<p class="note">This deployment takes no x402 payments yet (no facilitator is configured): its 402 answers show the terms, but a payment is refused. Use a key.</p>`;

  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${MCP_SERVER.title} for developers</title>
<style>${new Html(CSS)}</style>
</head>
<body>
<h1>${MCP_SERVER.title} for developers</h1>
<p>Deterministic web-data products over HTTP, each answer signed with a receipt anyone can verify offline. Base URL: <code>${base}</code> (version ${input.version}).</p>
<nav><a href="#key">API key</a><a href="#x402">x402</a><a href="#mcp">MCP</a><a href="#products">Products</a><a href="#links">Links</a></nav>

<h2 id="key">1. With an API key</h2>
<p>Mint a key. It is shown once; without <code>?live=true</code> it is a sandbox key (<code>mk_test_</code>, ${input.sandboxCalls ?? 'some'} free calls to try every route). A live key (<code>mk_live_</code>) spends prepaid credits: 1 credit = $0.001.</p>
<pre><code>curl -s -X POST '${base}/api/dev/keys'</code></pre>
<p>Send it as a bearer token to any route:</p>
<pre><code>curl -s -H 'Authorization: Bearer &lt;key&gt;' '${base}/buy/fetch?url=https%3A%2F%2Fexample.com%2F'
curl -s -H 'Authorization: Bearer &lt;key&gt;' '${base}/api/dev/balance'</code></pre>

<h2 id="x402">2. Pay per call with x402</h2>
<p>Without a key, a paid route answers <code>402 Payment Required</code> with its terms: x402 v1 in the JSON body, v2 in the <code>PAYMENT-REQUIRED</code> header. An x402 client pays in USDC and sends the call again with the payment.</p>
${x402Note}
<pre><code>curl -i '${sample}'</code></pre>
<p>From a checkout of the repository, <code>pay</code> makes one paid call with the official x402 client and checks the receipt:</p>
<pre><code>npx -y pnpm@10.34.9 pay '${sample}'</code></pre>

<h2 id="mcp">3. From an MCP client</h2>
<p>The MCP endpoint is <code>${base}${MCP_PATH}</code> (Streamable HTTP, JSON answers, no session). Every paid route is a tool of the same name; listing tools is free, a tool call needs a key in <code>Authorization</code> and costs the route's price.</p>
<p>Config for Claude Code, Cursor and other clients that read <code>mcpServers</code>:</p>
<pre><code id="mcp-config">${config}</code></pre>
<p>Or with the Claude Code CLI:</p>
<pre><code>claude mcp add --transport http ${MCP_SERVER.name} '${base}${MCP_PATH}' --header 'Authorization: Bearer &lt;key&gt;'</code></pre>
<p>A plain <code>GET ${MCP_PATH}</code> (this browser, curl) and <a href="${base}${MCP_WELL_KNOWN}">${MCP_WELL_KNOWN}</a> describe the endpoint as JSON.</p>

<h2 id="products">Products</h2>
<table>
<thead><tr><th>tool</th><th>route</th><th>price</th><th>what</th></tr></thead>
<tbody>
${input.routes.map(productRow)}</tbody>
</table>
<p class="muted">The catalog has every parameter, price tier and charge rule.</p>

<h2 id="links">Links</h2>
<ul>
${link(`${base}/catalog`, '/catalog', 'every route with its parameters, prices, charge rule and error codes')}${link(`${base}/openapi.json`, '/openapi.json', 'OpenAPI 3.1')}${link(`${base}/manifest`, '/manifest', 'the service, its doors and its signer')}${link(`${base}/.well-known/x402`, '/.well-known/x402', 'x402 discovery')}${link(`${base}${MCP_PATH}`, MCP_PATH, 'the MCP endpoint (POST), described as JSON (GET)')}${link(`${base}/.well-known/service-attestation`, '/.well-known/service-attestation', 'the signer key receipts are checked against')}</ul>
<p>Verify a receipt: post the whole result to <code>${base}/x402/verify</code>.</p>
<pre><code>curl -s -X POST -H 'Content-Type: application/json' --data @result.json '${base}/x402/verify'</code></pre>
</body>
</html>
`;
  return page.text;
}

/** `GET /developers`: how to call the service three ways, rendered once per app. */
export function developerRoutes(deps: AppDeps): Router {
  const router = Router();
  const page = developersPage({
    base: deps.config.publicBaseUrl,
    version: deps.version,
    x402: x402Live(deps),
    sandboxCalls: tierPlans(deps.config.enterprisePerMinute).sandbox.included,
    routes: REGISTRY,
  });
  router.get('/developers', (_req, res) => {
    res.setHeader('Content-Security-Policy', DEVELOPERS_CSP);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(page);
  });
  return router;
}
