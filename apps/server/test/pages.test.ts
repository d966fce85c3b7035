import { createHash } from 'node:crypto';
import { fc, test as prop } from '@fast-check/vitest';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dollars } from '../src/doors/x402/terms.js';
import { tierPlans } from '../src/metering/tiers.js';
import { SITE_CSS, SITE_JS, verifierAsset } from '../src/pages/assets.js';
import { escapeHtml, html } from '../src/pages/html.js';
import { PAGE_BUDGET_BYTES, PAGE_CSP, PAGES } from '../src/pages/layout.js';
import { CHARGE_RULES } from '../src/pipeline/charge.js';
import { REGISTRY } from '../src/registry/index.js';
import { DEV_CHECKOUT_CSP } from '../src/routes/dev-checkout.js';
import { decodeHtml as decode, testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  t = await testApp();
  for (const { path } of PAGES) pages.set(path, (await request(t.app).get(path).expect(200)).text);
}, 60_000);
afterAll(() => t.dispose());

function page(path: string): string {
  const html = pages.get(path);
  if (html === undefined) throw new Error(`No page ${path}`);
  return html;
}

describe('the pages', () => {
  it.each(PAGES.map((p) => p.path))(
    '%s is HTML under the size budget, with the strict CSP',
    async (path) => {
      const res = await request(t.app).get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(Buffer.byteLength(res.text)).toBeLessThan(PAGE_BUDGET_BYTES);
    },
  );

  it.each(PAGES.map((p) => p.path))('%s has the common layout and landmarks', (path) => {
    const html = page(path);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<a class="skip" href="#main">Skip to content</a>');
    expect(html).toMatch(/<header>[\s\S]*<nav aria-label="Main">[\s\S]*<\/header>/);
    expect(html).toContain('<main id="main" tabindex="-1">');
    expect(html).toContain('<footer>');
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain(`<a href="${path}" aria-current="page">`);
    expect(html).toContain(`<link rel="stylesheet" href="/assets/site.css?v=${SITE_CSS.version}">`);
  });

  it.each(PAGES.map((p) => p.path))('%s has no inline script, style or handler', (path) => {
    const html = page(path);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/ src="\/assets\/[a-z]+\.js(\?v=[0-9a-f]{12})?" defer/);
      expect(body).toBe('');
    }
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|="javascript:/i);
  });

  it('every link on every page that stays on this service answers', async () => {
    const hrefs = new Set<string>();
    for (const html of pages.values()) {
      for (const match of html.matchAll(/(?:href|src)="([^"#]+)(?:#[^"]*)?"/g)) {
        const href = decode(match[1]!);
        const base = t.deps.config.publicBaseUrl;
        if (href.startsWith('/')) hrefs.add(href);
        else if (href.startsWith(`${base}/`)) hrefs.add(href.slice(base.length));
        else throw new Error(`A link off the service: ${href}`);
      }
    }
    expect(hrefs.size).toBeGreaterThan(10);
    for (const href of hrefs) {
      const res = await request(t.app).get(href);
      expect(res.status, href).toBe(200);
    }
  }, 60_000);
});

describe('assets', () => {
  it('serves the style sheet and the page script with a cache header', async () => {
    for (const [path, file, type] of [
      ['/assets/site.css', SITE_CSS, 'text/css; charset=utf-8'],
      ['/assets/site.js', SITE_JS, 'text/javascript; charset=utf-8'],
    ] as const) {
      const res = await request(t.app).get(path).expect(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(Buffer.from(res.text)).toStrictEqual(file.body);
      expect(file.version).toBe(createHash('sha256').update(file.body).digest('hex').slice(0, 12));
    }
    expect(SITE_CSS.body.length).toBeLessThan(8 * 1024);
    expect(SITE_JS.body.length).toBeLessThan(20 * 1024);
  });

  it('serves the verifier bundle, built from @storefront/attest, under 100 KB', async () => {
    const res = await request(t.app).get('/assets/verifier.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const bundle = (await verifierAsset()).body;
    expect(res.text).toBe(bundle.toString());
    expect(bundle.length).toBeLessThan(100 * 1024);
    expect(res.text).toMatch(/^"use strict";var StorefrontVerify=/);
    // The browser build has no Node built-in left in it.
    expect(res.text).not.toMatch(/node:crypto|require\(/);
  }, 60_000);
});

describe('what the pages say', () => {
  it('/ lists every paid route with its price from the registry and the free try', () => {
    const html = page('/');
    for (const route of REGISTRY) {
      expect(html).toContain(`<code>GET ${route.path}</code>`);
      for (const price of route.prices) expect(html, route.name).toContain(dollars(price.amount));
    }
    expect(html).toContain('<form id="try-form" method="get" action="/buy/signal">');
    for (const door of ['door-key', 'door-x402', 'door-mcp'])
      expect(html).toContain(`id="${door}"`);
  });

  it('/pricing shows the tiers from the tier table with subscribe buttons', () => {
    const html = page('/pricing');
    const plans = tierPlans(t.deps.config.enterprisePerMinute);
    expect(html).toContain(
      '<tr><th scope="row">pro</th><td>$29 a month</td><td>50,000 calls a month</td><td>120 per minute</td>',
    );
    expect(html).toContain(
      '<tr><th scope="row">business</th><td>$199 a month</td><td>1,000,000 calls a month</td><td>600 per minute</td>',
    );
    expect(html).toContain(
      '<tr><th scope="row">enterprise</th><td>$1,500 a month</td><td>unmetered</td>',
    );
    expect(html).toContain(
      '<tr><th scope="row">sandbox</th><td>$0</td><td>100 calls in all</td><td>5 per minute</td>',
    );
    for (const tier of ['pro', 'business', 'enterprise'] as const) {
      expect(html).toContain(
        `<button type="submit" name="tier" value="${tier}">Subscribe to ${tier} ($${plans[tier].monthlyUsd.toLocaleString('en-US')} a month)</button>`,
      );
    }
    for (const route of REGISTRY) {
      expect(html).toMatch(
        new RegExp(
          `<tr><td><code>GET ${route.path}</code></td><td>[^<]*${dollars(route.prices[0]!.amount).replace('$', '\\$')}`,
        ),
      );
    }
    expect(html).toContain('<tr><td>$10</td><td>10,000</td>');
  });

  it('/terms states the charge rule of every route, generated from the registry', () => {
    const html = page('/terms');
    for (const rule of Object.keys(CHARGE_RULES) as (keyof typeof CHARGE_RULES)[]) {
      const routes = REGISTRY.filter((route) => route.chargeRule === rule);
      if (routes.length === 0) continue;
      const cell = routes.map((route) => `<code>${route.path}</code>`).join(', ');
      expect(html).toContain(
        `<tr><td>${cell}</td><td>${escapeHtml(CHARGE_RULES[rule].failure)}</td></tr>`,
      );
    }
    for (const words of [
      'non-refundable',
      'best effort',
      'liability is capped at the amount you paid',
    ]) {
      expect(html).toContain(words);
    }
  });

  it('/trust shows the pinned signer and the retired keys from the attestation source', async () => {
    const html = page('/trust');
    expect(html).toContain(`<code id="signer-address">${t.deps.signer.address}</code>`);
    expect(html).toContain('No key has been retired.');
    await t.deps.db.query(
      "INSERT INTO signer_keys (address, key_id, retired_at) VALUES ($1, $2, '2026-01-02T03:04:05Z')",
      [
        '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        'storefront-attest/1:0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      ],
    );
    const again = (await request(t.app).get('/trust').expect(200)).text;
    expect(again).toContain(
      '<tr><td><code>0x8ba1f109551bD432803012645Ac136ddd64DBA72</code></td><td>2026-01-02T03:04:05.000Z</td></tr>',
    );
    for (const words of [
      'sha256 and its last 4 characters',
      'ports 80, 443, 8080 and 8443',
      'DNS rebinding',
    ]) {
      expect(again).toContain(words);
    }
  });

  it('/verify loads the verifier and says it sends nothing but the key request', () => {
    const html = page('/verify');
    expect(html).toContain('<script src="/assets/verifier.js" defer></script>');
    expect(html).toContain('the only request this page makes to the service is for the pinned key');
  });

  it('/developers?upgraded=<tier> confirms a known paid tier only', async () => {
    const pro = (await request(t.app).get('/developers?upgraded=pro').expect(200)).text;
    expect(pro).toContain(
      '<strong>Subscribed to pro</strong>: 50,000 calls a month at 120 calls per minute',
    );
    for (const other of ['sandbox', 'prepaid', '<script>', 'x']) {
      const res = await request(t.app)
        .get(`/developers?upgraded=${encodeURIComponent(other)}`)
        .expect(200);
      expect(res.text).not.toContain('Subscribed to');
      expect(res.text).toBe(page('/developers'));
    }
  });
});

describe('/developers back from a checkout', () => {
  it('?topup=<credits> confirms the credits of a pack billing can sell, nothing else', async () => {
    const res = await request(t.app).get('/developers?topup=10000').expect(200);
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<strong>Paid: 10,000 credits</strong>');
    expect(res.text).toContain('id="topped-up"');
    // $5 and $1000 are the smallest and largest packs (10 credits a cent).
    for (const credits of ['5000', '1000000', '12340']) {
      const ok = await request(t.app).get(`/developers?topup=${credits}`).expect(200);
      expect(ok.text).toContain(`Paid: ${Number(credits).toLocaleString('en-US')} credits`);
    }
    for (const other of ['4990', '1000010', '12345', '0', '010000', '1e4', '<script>', '']) {
      const plain = await request(t.app)
        .get(`/developers?topup=${encodeURIComponent(other)}`)
        .expect(200);
      expect(plain.text).toBe(page('/developers'));
    }
  });

  it('?checkout=cancelled and ?subscription=<action> say what happened', async () => {
    const cancelled = (await request(t.app).get('/developers?checkout=cancelled').expect(200)).text;
    expect(cancelled).toContain('Checkout cancelled: nothing was charged.');
    const renewed = (await request(t.app).get('/developers?subscription=renew').expect(200)).text;
    expect(renewed).toContain('The renewal was paid: the allowance is refreshed');
    const ended = (await request(t.app).get('/developers?subscription=end').expect(200)).text;
    expect(ended).toContain('The subscription has ended');
    for (const other of ['checkout=done', 'subscription=refund', 'subscription=%3Cb%3E']) {
      expect((await request(t.app).get(`/developers?${other}`).expect(200)).text).toBe(
        page('/developers'),
      );
    }
  });
});

describe('forms and their Content-Security-Policy', () => {
  it('every form of every page posts to this origin, which form-action allows', () => {
    expect(PAGE_CSP).toContain("form-action 'self'");
    const seen: string[] = [];
    for (const { path } of PAGES) {
      for (const [, attrs] of page(path).matchAll(/<(?:form|button)\b([^>]*)>/g)) {
        for (const [, url] of (attrs ?? '').matchAll(/\b(?:action|formaction)="([^"]*)"/g)) {
          expect(url, `${path}: ${url}`).toMatch(/^\/[^/]/);
          seen.push(url ?? '');
        }
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['/buy/signal', '/api/dev/keys?live=true']));
  });

  it('a form that holds a key never submits it in an address (no GET forms with a key field)', () => {
    let keyForms = 0;
    for (const { path } of PAGES) {
      for (const [form, attrs] of page(path).matchAll(/<form\b([^>]*)>[\s\S]*?<\/form>/g)) {
        if (!/name="key"/.test(form)) continue;
        keyForms++;
        expect(attrs, `${path}: ${attrs}`).toMatch(/\bmethod="post"/);
      }
    }
    expect(keyForms).toBeGreaterThanOrEqual(3);
  });

  it('the development checkout page posts its Pay form to itself, which its CSP allows', async () => {
    const minted = await request(t.app).post('/api/dev/keys?live=true').expect(201);
    const opened = await request(t.app)
      .post(`/api/dev/topup?key=${minted.body.key}&usd=10`)
      .expect(200);
    expect(opened.body).toMatchObject({ ok: true, usd: 10, credits: 10_000 });
    const url = new URL(opened.body.url);
    expect(url.pathname).toBe(`/dev-checkout/${opened.body.checkoutId}`);
    const res = await request(t.app).get(url.pathname).expect(200);
    expect(res.headers['content-security-policy']).toBe(DEV_CHECKOUT_CSP);
    expect(DEV_CHECKOUT_CSP).toContain("form-action 'self'");
    expect(DEV_CHECKOUT_CSP).not.toContain('unsafe-inline');
    const actions = [...res.text.matchAll(/<form method="post" action="([^"]*)">/g)].map(
      (m) => m[1],
    );
    expect(actions).toStrictEqual([`/dev-checkout/${opened.body.checkoutId}/pay`]);
  });
});

describe('the html template', () => {
  prop.prop([fc.string({ unit: 'binary' }), fc.string()])(
    'escapes any interpolated value, which decodes back to itself',
    (text, attribute) => {
      const out = html`<p title="${attribute}">${text}</p>`.text;
      const match = /^<p title="([^"]*)">([^<>]*)<\/p>$/.exec(out);
      expect(match).not.toBeNull();
      expect(decode(match![1]!)).toBe(attribute);
      expect(decode(match![2]!)).toBe(text);
    },
  );

  prop.prop([fc.array(fc.string(), { maxLength: 5 })])(
    'joins arrays, nests fragments unescaped and renders the same bytes twice',
    (items) => {
      const render = () => html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`.text;
      expect(render()).toBe(
        `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
      );
      expect(render()).toBe(render());
    },
  );
});
