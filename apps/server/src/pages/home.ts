import { MCP_PATH, MCP_SERVER } from '../mcp-identity.js';
import type { AnyRoute } from '../registry/types.js';
import { productTable } from './catalog.js';
import { html } from './html.js';
import { layout } from './layout.js';

export interface HomeInput {
  readonly base: string;
  readonly routes: readonly AnyRoute[];
  /** The lowest price of a paid call, as `$0.003`. */
  readonly from: string;
}

/** `/`: what the service sells, its prices, the three doors and a live try. */
export function homePage(input: HomeInput): string {
  const body = html`<h1>Signed web data, paid per call</h1>
<p class="lead">${MCP_SERVER.title} reads public web pages and sells what is in them as deterministic products: page text, markdown, metadata, links, tables, feeds, audits and proofs. No language model is involved: the same source bytes give the same output. Every result carries a signed receipt that anyone can check offline. ${input.routes.length} paid routes, from ${input.from} a call.</p>

<h2 id="try">Try it</h2>
<p><code>GET /buy/signal</code> is free: it answers fixed sample data (not a live read), signed like every paid result.</p>
<form id="try-form" method="get" action="/buy/signal">
<button type="submit">Call /buy/signal</button>
</form>
<div id="try-result" aria-live="polite"></div>

<h2 id="doors">Three ways in, one price</h2>
<div class="doors">
<section class="card" aria-labelledby="door-key"><h3 id="door-key">API key</h3><p>Mint a key, send it as <code>Authorization: Bearer</code>. A test key has free sandbox calls; a live key spends credits or a monthly plan.</p><p><a href="/developers#key">Mint a key</a> · <a href="/pricing">Plans</a></p></section>
<section class="card" aria-labelledby="door-x402"><h3 id="door-x402">x402 pay per call</h3><p>No account: a paid route answers <code>402</code> with its terms, an x402 client pays the exact price in USDC and calls again.</p><p><a href="/developers#x402">Pay with x402</a></p></section>
<section class="card" aria-labelledby="door-mcp"><h3 id="door-mcp">MCP</h3><p>Every paid route is a tool of the remote MCP server at <code>${input.base}${MCP_PATH}</code>, for Claude Code, Cursor and other clients.</p><p><a href="/developers#mcp">Client config</a></p></section>
</div>

<h2 id="products">Products and prices</h2>
${productTable(input.routes, false)}
<p>Receipts are EIP-191 signatures over the sha256 of each result's <code>text</code>: <a href="/verify">verify one in your browser</a>, or read <a href="/trust">how they work</a>.</p>`;
  return layout(
    {
      path: '/',
      title: 'Home',
      description:
        'Deterministic web-data products over HTTP with signed receipts: API key, x402 or MCP.',
    },
    body,
  );
}
