import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDocument, scalingRatio } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import {
  loadHtml,
  PAGE_KINDS,
  PAGE_VERDICT_RUBRIC,
  type PageKind,
  type PageVerdict,
  pageVerdict,
  responseVerdict,
} from '../src/index.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/verdicts', import.meta.url));

interface Sidecar {
  status: number;
  headers: Record<string, string>;
  url: string;
  requestedUrl?: string;
}

function verdictOf(
  body: string | Uint8Array,
  init: Parameters<typeof makeDocument>[1] = {},
): PageVerdict {
  const doc = makeDocument(body, init);
  const loaded = loadHtml(doc);
  if (!loaded.ok) throw new Error(`the page does not load: ${loaded.message}`);
  return pageVerdict(loaded.page, doc);
}

/** Every hand-built page: `<verdict>/<slug>.html` with its response in `<slug>.json`. */
function fixtures(): { kind: PageKind; name: string; bytes: Uint8Array; response: Sidecar }[] {
  const found = [];
  for (const kind of PAGE_KINDS) {
    const dir = join(FIXTURES, kind);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.html')) continue;
      const slug = file.slice(0, -'.html'.length);
      const response = JSON.parse(readFileSync(join(dir, `${slug}.json`), 'utf8')) as Sidecar;
      found.push({ kind, name: `${kind}/${slug}`, bytes: readFileSync(join(dir, file)), response });
    }
  }
  return found;
}

const ARTICLE = Array.from(
  { length: 40 },
  (_, i) =>
    `<p>Paragraph ${i} of a long report on how the city council spent its budget this year, with figures and quotes from the people involved.</p>`,
).join('');

describe('the hand-built pages', () => {
  const all = fixtures();

  test('cover every verdict', () => {
    expect(new Set(all.map((f) => f.kind))).toEqual(new Set(PAGE_KINDS));
  });

  test.each(all.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    const headers = Object.fromEntries(
      Object.entries(fixture.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const verdict = verdictOf(fixture.bytes, {
      url: fixture.response.url,
      requestedUrl: fixture.response.requestedUrl ?? fixture.response.url,
      status: fixture.response.status,
      headers,
      contentType: headers['content-type'] ?? 'text/html; charset=utf-8',
    });
    expect({
      page: fixture.name,
      verdict: verdict.verdict,
      signals: verdict.signals,
    }).toMatchObject({
      verdict: fixture.kind,
    });
  });
});

describe('pageVerdict', () => {
  test('names its rules, sorts its signals, and gives the same answer for the same bytes', () => {
    const page = `<title>Just a moment...</title><div id="challenge-form"></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>`;
    const first = verdictOf(page, { status: 403, headers: { 'cf-mitigated': 'challenge' } });
    const second = verdictOf(page, { status: 403, headers: { 'cf-mitigated': 'challenge' } });
    expect(first).toEqual(second);
    expect(first.verdict).toBe('challenge');
    expect(first.rubric).toBe(PAGE_VERDICT_RUBRIC);
    expect(first.signals).toEqual([...first.signals].sort());
    expect(first.signals).toContain('challenge:header-cf-mitigated');
  });

  test("a vendor's challenge header decides whatever the page says", () => {
    const verdict = verdictOf(`<title>Shop</title><main>${ARTICLE}</main>`, {
      headers: { 'cf-mitigated': 'challenge' },
    });
    expect(verdict.verdict).toBe('challenge');
  });

  test('an article that talks about CAPTCHAs and carries a comment CAPTCHA is content', () => {
    const verdict = verdictOf(
      `<title>Why sites ask you to verify you are human</title><article><h1>Are you a robot?</h1>${ARTICLE}
       <p>Sites show "Just a moment..." pages and ask visitors to verify you are human.</p></article>
       <form><div class="g-recaptcha" data-sitekey="x"></div><textarea></textarea></form>`,
    );
    expect(verdict.verdict).toBe('content');
    // Counted up to 600: no rule needs more.
    expect(verdict.words).toBe(600);
  });

  test('a short CAPTCHA wall is a challenge; the same widget on a long page is not', () => {
    const wall = `<title>Security check</title><h1>Please verify you are a human</h1><form><div class="h-captcha"></div></form>`;
    expect(verdictOf(wall).verdict).toBe('challenge');
    expect(verdictOf(wall.replace('</form>', `</form><article>${ARTICLE}</article>`)).verdict).toBe(
      'content',
    );
  });

  test('a sign-in link and a hidden login modal on an article are content', () => {
    const verdict = verdictOf(
      `<title>Budget report</title><header><a href="/login">Sign in</a></header>
       <div class="modal" hidden><h2>Sign in</h2><form action="/login"><input type="password"></form></div>
       <article>${ARTICLE}</article>`,
    );
    expect(verdict.verdict).toBe('content');
  });

  test('a sign-in page reached by redirect from an article is a login wall', () => {
    const verdict = verdictOf(
      `<title>Sign in</title><h1>Sign in to continue</h1><form action="/session"><input name="email"><input type="password" name="password"><button>Sign in</button></form>`,
      {
        url: 'https://news.example/login?next=%2Fstory%2F1',
        requestedUrl: 'https://news.example/story/1',
      },
    );
    expect(verdict.verdict).toBe('login');
    expect(verdict.signals).toEqual(['login:heading', 'login:path', 'login:redirected']);
  });

  test('a stub that withholds the rest is a paywall; the full text with the same markers is content', () => {
    const jsonLd = `<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":false}</script>`;
    const stub = `<title>Council budget</title>${jsonLd}<article><h1>Council budget</h1><p>The council met on Tuesday.</p><div class="paywall-prompt"><p>Subscribe to continue reading.</p></div></article>`;
    expect(verdictOf(stub).verdict).toBe('paywall');
    const full = `<title>Council budget</title>${jsonLd}<article><h1>Council budget</h1><div class="paywall">${ARTICLE}</div></article>`;
    expect(verdictOf(full).verdict).toBe('content');
  });

  test('a stub whose JSON-LD carries the whole article withholds nothing', () => {
    const body = ARTICLE.replace(/<\/?p>/g, ' ');
    const page = `<title>Council budget</title><script type="application/ld+json">{"isAccessibleForFree":"False","articleBody":"${body}"}</script><article><h1>Council budget</h1><p>The council met.</p><div class="paywall"></div></article>`;
    expect(verdictOf(page).verdict).toBe('content');
  });

  test('an empty mount point with scripts is a shell; a server-rendered one is content', () => {
    const shell = `<title>App</title><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script>`;
    expect(verdictOf(shell).verdict).toBe('shell');
    const rendered = `<title>App</title><div id="__next"><main>${ARTICLE}</main></div><script src="/_next/static/main.js"></script>`;
    expect(verdictOf(rendered).verdict).toBe('content');
  });

  test('a soft 404 served with 200 is an error; an article about 404 errors is content', () => {
    expect(
      verdictOf(
        `<title>Page not found</title><nav>${'<a href="/">Home</a>'.repeat(30)}</nav><h1>Oops! That page can’t be found.</h1><p>Try a search.</p>`,
      ).verdict,
    ).toBe('error');
    expect(
      verdictOf(`<title>What a 404 page not found error means</title><article>${ARTICLE}</article>`)
        .verdict,
    ).toBe('content');
  });

  test('a parked domain is parked; a registrar article about parking is content', () => {
    const parked = `<title>example.test</title><h1>example.test is for sale</h1><p>Buy this domain.</p><script src="https://img1.wsimg.com/parking-lander/static/js/main.js"></script>`;
    expect(verdictOf(parked).verdict).toBe('parked');
    const article = `<title>What domain parking is</title><article><p>Buy this domain, they said.</p>${ARTICLE}</article>`;
    expect(verdictOf(article).verdict).toBe('content');
  });

  test('access-denied pages are blocked, by heading or by a 403', () => {
    expect(
      verdictOf(
        '<title>Access Denied</title><h1>Access Denied</h1><p>Reference #18.2f3e4d5.1700000000.abc123</p>',
      ).verdict,
    ).toBe('blocked');
    expect(verdictOf(`<title>Shop</title><main>${ARTICLE}</main>`, { status: 403 }).verdict).toBe(
      'blocked',
    );
  });

  test('judges a response without its body only where the response decides', () => {
    expect(
      responseVerdict({ status: 200, headers: { 'cf-mitigated': 'challenge' } }),
    ).toStrictEqual({
      verdict: 'challenge',
      signals: ['challenge:header-cf-mitigated'],
      words: 0,
      rubric: PAGE_VERDICT_RUBRIC,
    });
    expect(responseVerdict({ status: 401, headers: {} })?.verdict).toBe('login');
    expect(responseVerdict({ status: 503, headers: {} })?.verdict).toBe('error');
    // A 200 with no vendor header could be anything: only the body would tell.
    expect(responseVerdict({ status: 200, headers: { server: 'cloudflare' } })).toBeNull();
  });

  test('walks in time linear in the page', () => {
    const page = (scale: 1 | 2) =>
      makeDocument(`<title>Long</title><main>${ARTICLE.repeat(40 * scale)}</main>`);
    const loaded = [page(1), page(2)].map((doc) => {
      const result = loadHtml(doc);
      if (!result.ok) throw new Error('does not load');
      return { page: result.page, doc };
    });
    const ratio = scalingRatio((scale) => {
      const { page: p, doc } = loaded[scale - 1]!;
      for (let i = 0; i < 5; i++) pageVerdict(p, doc);
    });
    expect(ratio).toBeLessThan(3);
  });
});
