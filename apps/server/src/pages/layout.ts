import { MCP_SERVER } from '../mcp-identity.js';
import { assetUrl } from './assets.js';
import { Html, html } from './html.js';

/**
 * The Content-Security-Policy of every page: styles, scripts and requests from this
 * origin only, no inline script or style, forms posting here only.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The pages, in the order of the navigation. */
export const PAGES = [
  { path: '/', label: 'Home' },
  { path: '/developers', label: 'Developers' },
  { path: '/pricing', label: 'Pricing' },
  { path: '/verify', label: 'Verify' },
  { path: '/trust', label: 'Trust' },
  { path: '/terms', label: 'Terms' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];

/** Each page's HTML stays under this many bytes (docs/decisions.md, "Pages (issue 18)": what size budgets the pages keep). */
export const PAGE_BUDGET_BYTES = 30 * 1024;

export interface PageMeta {
  readonly path: PagePath;
  /** The page's own title; the service's name is added. */
  readonly title: string;
  readonly description: string;
  /** Scripts to load after the page script, such as `/assets/verifier.js`. */
  readonly scripts?: readonly string[];
}

/** A whole page in the common layout: skip link, header navigation, main, footer. */
export function layout(meta: PageMeta, body: Html): string {
  const nav = PAGES.map(
    (page) =>
      html`<li><a href="${page.path}"${page.path === meta.path ? new Html(' aria-current="page"') : ''}>${page.label}</a></li>`,
  );
  const scripts = [...(meta.scripts ?? []), assetUrl('site.js')].map(
    (src) => html`<script src="${src}" defer></script>`,
  );
  const title =
    meta.path === '/'
      ? `${MCP_SERVER.title}: signed web data`
      : `${meta.title} · ${MCP_SERVER.title}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${meta.description}">
<link rel="stylesheet" href="${assetUrl('site.css')}">
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<a class="brand" href="/">${MCP_SERVER.title}</a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
</header>
<main id="main" tabindex="-1">
${body}
</main>
<footer>
<p>${MCP_SERVER.title}: deterministic web data with signed receipts. Payments are non-refundable; see the <a href="/terms">terms</a>.</p>
<ul><li><a href="/catalog">Catalog</a></li><li><a href="/openapi.json">OpenAPI</a></li><li><a href="/.well-known/service-attestation">Signer key</a></li><li><a href="/trust">Trust</a></li><li><a href="/terms">Terms</a></li></ul>
</footer>
</body>
</html>
`.text;
}
