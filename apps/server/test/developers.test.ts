import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dollars } from '../src/doors/x402/terms.js';
import { escapeHtml } from '../src/pages/html.js';
import { PAGE_CSP } from '../src/pages/layout.js';
import { REGISTRY } from '../src/registry/index.js';
import { developersPage, developmentPayer } from '../src/routes/developers.js';
import { decodeHtml as decode, testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
let base: string;
let page: string;

beforeAll(async () => {
  t = await testApp();
  base = t.deps.config.publicBaseUrl;
  page = (await request(t.app).get('/developers').expect(200)).text;
}, 60_000);
afterAll(() => t.dispose());

/** The text of the element with `id`, entities decoded. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<code id="${id}">([^<]*)</code>`).exec(html);
  if (match === null) throw new Error(`No <code id="${id}">`);
  return decode(match[1]!);
}

describe('GET /developers', () => {
  it('is an HTML page with a strict CSP: scripts and styles only from this origin', async () => {
    const res = await request(t.app).get('/developers').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'"]) {
      expect(PAGE_CSP).toContain(directive);
    }
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    // No inline script, handler or style: the CSP would refuse them.
    expect(page).not.toMatch(/<script>|<script(?![^>]* src="\/assets\/)|\son[a-z]+=|javascript:/i);
    expect(page).not.toMatch(/<style|\sstyle=|<img\b|@import|url\(/i);
  });

  it('has the MCP client config with the real base URL', () => {
    const config = JSON.parse(textOf(page, 'mcp-config'));
    expect(config).toStrictEqual({
      mcpServers: {
        storefront: {
          type: 'http',
          url: `${base}/mcp`,
          headers: { Authorization: 'Bearer <key>' },
        },
      },
    });
  });

  it('shows the three ways with this deployment’s URLs', () => {
    const text = decode(page);
    // A key: minted, then sent as a bearer token.
    expect(text).toContain(`curl -s -X POST '${base}/api/dev/keys'`);
    expect(text).toContain(`curl -s -H 'Authorization: Bearer <key>' '${base}/buy/fetch?url=`);
    expect(text).toContain('100 free calls');
    // x402: the 402, then a paid call from a checkout.
    expect(text).toContain(`curl -i '${base}/buy/notarize?content=hello'`);
    expect(text).toContain(`npx -y pnpm@10.34.9 pay '${base}/buy/notarize?content=hello'`);
    // MCP: the endpoint, the config block (above) and the Claude Code command.
    expect(text).toContain(`The MCP endpoint is <code>${base}/mcp</code>`);
    expect(text).toContain(
      `claude mcp add --transport http storefront '${base}/mcp' --header 'Authorization: Bearer <key>'`,
    );
  });

  it('lists every paid route with its tool name, path and every price', () => {
    const rows = [
      ...page.matchAll(
        /<tr><td><code>([^<]+)<\/code><\/td><td><code>GET ([^<]+)<\/code><\/td><td>([^<]+)<\/td>/g,
      ),
    ];
    expect(rows.map((row) => row[1])).toStrictEqual(REGISTRY.map((route) => route.name));
    for (const [index, route] of REGISTRY.entries()) {
      const row = rows[index]!;
      expect(row[2]).toBe(route.path);
      for (const price of route.prices) expect(row[3], route.name).toContain(dollars(price.amount));
    }
    expect(rows[0]![3]).toBe('$0.003 (fetch) / $0.006 (plus) / $0.012 (pro)');
  });

  it('links the discovery documents, each answered by this app', async () => {
    const hrefs = [...page.matchAll(/href="([^"]+)"/g)].map((match) => decode(match[1]!));
    const absolute = hrefs.filter((href) => !href.startsWith('#') && !href.startsWith('/'));
    for (const path of [
      '/catalog',
      '/openapi.json',
      '/manifest',
      '/.well-known/x402',
      '/mcp',
      '/.well-known/mcp.json',
      '/.well-known/service-attestation',
    ]) {
      expect(absolute).toContain(`${base}${path}`);
    }
    for (const href of absolute) {
      expect(href.startsWith(`${base}/`), href).toBe(true);
      const res = await request(t.app).get(href.slice(base.length));
      expect(res.status, href).toBe(200);
    }
    // The layout's own links (navigation, footer, assets) are relative to this service.
    for (const href of hrefs.filter((href) => href.startsWith('/'))) {
      const res = await request(t.app).get(href.split('#')[0]!);
      expect(res.status, href).toBe(200);
    }
  });

  it('says when the deployment takes no x402 payments', () => {
    expect(page).toContain('takes no x402 payments yet');
    const live = developersPage({
      base,
      version: '1',
      x402: true,
      sandboxCalls: 100,
      routes: REGISTRY,
    });
    expect(live).not.toContain('takes no x402 payments yet');
  });
});

describe('the development payer on /developers', () => {
  it('is shown with its key in development, when the payments are test money', () => {
    const payment = testMoney();
    const payer = developmentPayer({ config: { ...t.deps.config, env: 'development', payment } });
    expect(payer).not.toBeNull();
    const html = developersPage({ ...pageInput(), devPayer: payer });
    expect(textOf(html, 'dev-payer-key')).toBe(
      `PAYER_PRIVATE_KEY=${payer?.privateKey} node pay.mjs`,
    );
    expect(decode(html)).toContain('Development only: test money.');
  });

  it('is never shown in production, nor where the payments are real USDC', () => {
    const payment = testMoney();
    expect(
      developmentPayer({ config: { ...t.deps.config, env: 'production', payment } }),
    ).toBeNull();
    expect(
      developmentPayer({
        config: { ...t.deps.config, env: 'development', payment: { ...payment, testnet: false } },
      }),
    ).toBeNull();
    expect(page).not.toContain('dev-payer');
    expect(page).not.toContain('PAYER_PRIVATE_KEY=0x');
  });

  /** The test app's payment terms, as test money. */
  function testMoney() {
    return { ...t.deps.config.payment, testnet: true };
  }

  function pageInput() {
    return { base, version: '1', x402: true, sandboxCalls: 100, routes: REGISTRY };
  }
});

describe('developersPage', () => {
  it('escapes every value it is given', () => {
    const hostile = "https://x.test/\"><script>alert(1)</script>&a='b'";
    const html = developersPage({
      base: hostile,
      version: '<b>1</b>',
      x402: false,
      sandboxCalls: 100,
      routes: REGISTRY,
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>1</b>');
    expect(html).toContain(escapeHtml(hostile));
    // The config block still carries the exact URL once decoded.
    const config = JSON.parse(textOf(html, 'mcp-config'));
    expect(config.mcpServers.storefront.url).toBe(`${hostile}/mcp`);
  });

  it('escapeHtml covers the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
