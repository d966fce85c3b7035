import type { Rng } from '../prng.js';
import { esc, jsonLd, type PageSpec, slug, standardHead } from './kit.js';

const DOCS_TREE: readonly (readonly [string, readonly string[]])[] = [
  [
    'Getting started',
    ['Introduction', 'Installation', 'Quick start', 'Configuration file', 'Upgrading from v2'],
  ],
  [
    'Guides',
    [
      'Caching strategies',
      'Retries and backoff',
      'Streaming responses',
      'Authentication',
      'Testing with mocks',
      'Running in the browser',
      'Edge runtimes',
    ],
  ],
  [
    'API reference',
    [
      'createClient()',
      'client.request()',
      'client.get()',
      'client.post()',
      'Interceptors',
      'Errors',
      'Types',
    ],
  ],
  ['Plugins', ['Official plugins', 'Writing a plugin', 'Plugin hooks']],
  ['Resources', ['FAQ', 'Changelog', 'Migration guide', 'Contributing', 'Code of conduct']],
];

function docsSidebar(current: string): string {
  return `<nav class="sidebar" aria-label="Documentation">${DOCS_TREE.map(
    ([group, pages]) =>
      `<div class="sidebar__group"><p class="sidebar__title">${esc(group)}</p><ul>${pages
        .map(
          (p) =>
            `<li><a href="/docs/${slug(group)}/${slug(p)}"${p === current ? ' aria-current="page" class="active"' : ''}>${esc(p)}</a></li>`,
        )
        .join('')}</ul></div>`,
  ).join('')}</nav>`;
}

const hl = (code: string) => esc(code);

export const docsPage: PageSpec = {
  name: 'docs-page',
  url: 'https://docs.fetchkit.example/docs/guides/retries-and-backoff',
  contentType: 'text/html; charset=utf-8',
  title: 'Developer documentation page with code blocks in several languages and option tables',
  description:
    'A guide page from the documentation site of an HTTP client library: a top bar with version switcher and search, a sidebar tree of about 30 links, an “On this page” table of contents, headings with anchor links, admonitions, code blocks with `language-*` classes (TypeScript, JavaScript, bash, JSON, diff) some of them with syntax-highlighting spans and line numbers, tabbed package-manager snippets, two option tables with inline code, prev/next links and an “Edit this page” link.',
  exercises: [
    '`<pre><code class="language-ts">` blocks, one with highlighting `<span class="token ...">` elements inside and one with line-number gutters that must not leak into the code',
    'tables whose cells hold inline `<code>`, links and line breaks',
    'tabbed code blocks (npm / pnpm / yarn) where only one panel is visible',
    'headings with permalink anchors (`<a class="anchor" href="#...">#</a>`)',
    'admonitions (`<div class="admonition warning">`) and keyboard keys (`<kbd>`)',
  ],
  build(rng: Rng) {
    const url = this.url;
    const head = standardHead({
      title: 'Retries and backoff | FetchKit',
      description:
        'Configure automatic retries with exponential backoff and jitter, decide which requests are safe to retry, and respect Retry-After headers.',
      canonical: url,
      siteName: 'FetchKit',
      image: 'https://docs.fetchkit.example/img/og/retries-and-backoff.png',
      twitterCard: 'summary',
      themeColor: '#25c2a0',
      extra: [
        '<meta name="docsearch:language" content="en">',
        '<meta name="docsearch:version" content="3.x">',
        '<meta name="docsearch:docusaurus_tag" content="docs-default-3.x">',
        '<link rel="search" type="application/opensearchdescription+xml" title="FetchKit" href="/opensearch.xml">',
        '<link rel="alternate" type="application/rss+xml" href="/blog/rss.xml" title="FetchKit blog">',
        jsonLd({
          '@context': 'https://schema.org',
          '@type': 'TechArticle',
          headline: 'Retries and backoff',
          dateModified: '2025-02-27',
          proficiencyLevel: 'Intermediate',
          author: { '@type': 'Organization', name: 'FetchKit contributors' },
        }),
      ].join('\n'),
      css: `.navbar{display:flex;align-items:center;gap:1rem;height:60px;padding:0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.1)}
.main-wrapper{display:grid;grid-template-columns:18rem minmax(0,1fr) 14rem}.sidebar__title{font-weight:700;text-transform:uppercase;font-size:.75rem}
pre{background:#1e1e2e;color:#cdd6f4;padding:1rem;border-radius:8px;overflow:auto}code{font-family:ui-monospace,monospace}
.token.keyword{color:#cba6f7}.token.string{color:#a6e3a1}.token.number{color:#fab387}.token.comment{color:#6c7086;font-style:italic}
.admonition{border-left:4px solid;padding:.75rem 1rem;border-radius:4px}.admonition.warning{border-color:#f59e0b;background:#fffbeb}.admonition.tip{border-color:#10b981;background:#ecfdf5}
.tabs__panel[hidden]{display:none}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.4rem .6rem}.gutter{user-select:none;color:#6c7086}`,
      assets:
        '<link rel="stylesheet" href="/assets/css/styles.5c3d1e2f.css">\n<script src="/assets/js/runtime~main.81a0c9.js" defer></script>\n<script src="/assets/js/main.4d2b77.js" defer></script>',
    });
    const anchorH = (level: number, text: string) =>
      `<h${level} class="anchor" id="${slug(text)}">${esc(text)}<a href="#${slug(text)}" class="hash-link" aria-label="Direct link to ${esc(text)}" title="Direct link to ${esc(text)}">#</a></h${level}>`;
    const code = (lang: string, src: string, title?: string) =>
      `<div class="code-block language-${lang}">${title ? `<div class="code-block__title">${esc(title)}</div>` : ''}<pre tabindex="0" class="prism-code language-${lang}"><code class="language-${lang}">${hl(src)}</code></pre><button type="button" aria-label="Copy code to clipboard" class="copy-button">Copy</button></div>`;
    const highlighted = `<div class="code-block language-ts"><div class="code-block__title">client.ts</div><pre class="prism-code language-ts"><code class="language-ts"><span class="token keyword">import</span> <span class="token punctuation">{</span> createClient <span class="token punctuation">}</span> <span class="token keyword">from</span> <span class="token string">'fetchkit'</span><span class="token punctuation">;</span>
<span class="token keyword">export</span> <span class="token keyword">const</span> api <span class="token operator">=</span> <span class="token function">createClient</span><span class="token punctuation">(</span><span class="token punctuation">{</span>
  baseUrl<span class="token operator">:</span> <span class="token string">'https://api.example.com/v2'</span><span class="token punctuation">,</span>
  retry<span class="token operator">:</span> <span class="token punctuation">{</span>
    attempts<span class="token operator">:</span> <span class="token number">4</span><span class="token punctuation">,</span>            <span class="token comment">// 1 try + 3 retries</span>
    backoff<span class="token operator">:</span> <span class="token string">'exponential'</span><span class="token punctuation">,</span>
    baseDelayMs<span class="token operator">:</span> <span class="token number">200</span><span class="token punctuation">,</span>
    maxDelayMs<span class="token operator">:</span> <span class="token number">5_000</span><span class="token punctuation">,</span>
    jitter<span class="token operator">:</span> <span class="token string">'full'</span><span class="token punctuation">,</span>
  <span class="token punctuation">}</span><span class="token punctuation">,</span>
<span class="token punctuation">}</span><span class="token punctuation">)</span><span class="token punctuation">;</span></code></pre></div>`;
    const gutterLines = [
      'api.interceptors.retry.use((ctx) => {',
      '  if (ctx.response?.status === 409) {',
      '    // A conflict will not go away by itself.',
      '    return { retry: false };',
      '  }',
      "  if (ctx.error?.code === 'ECONNRESET') {",
      '    return { retry: true, delayMs: 50 };',
      '  }',
      '  return undefined; // fall back to the policy',
      '});',
    ];
    const gutter = `<div class="code-block language-js"><pre class="prism-code language-js with-line-numbers"><code class="language-js">${gutterLines.map((l, i) => `<span class="token-line"><span class="gutter" aria-hidden="true">${i + 1}</span>${esc(l)}\n</span>`).join('')}</code></pre></div>`;
    const tabs = `<div class="tabs-container"><ul role="tablist" class="tabs"><li role="tab" aria-selected="true" tabindex="0">npm</li><li role="tab" aria-selected="false" tabindex="-1">pnpm</li><li role="tab" aria-selected="false" tabindex="-1">yarn</li></ul>
<div role="tabpanel" class="tabs__panel">${code('bash', 'npm install fetchkit @fetchkit/retry')}</div>
<div role="tabpanel" class="tabs__panel" hidden>${code('bash', 'pnpm add fetchkit @fetchkit/retry')}</div>
<div role="tabpanel" class="tabs__panel" hidden>${code('bash', 'yarn add fetchkit @fetchkit/retry')}</div></div>`;
    const options: readonly (readonly [string, string, string, string])[] = [
      [
        'attempts',
        'number',
        '<code>1</code>',
        'Total attempts including the first. <code>1</code> disables retries.',
      ],
      [
        'backoff',
        "<code>'exponential'</code> | <code>'linear'</code> | <code>'constant'</code>",
        "<code>'exponential'</code>",
        'How the delay grows between attempts.',
      ],
      ['baseDelayMs', 'number', '<code>100</code>', 'Delay before the first retry.'],
      [
        'maxDelayMs',
        'number',
        '<code>10000</code>',
        'Upper bound for any single delay, before jitter.',
      ],
      [
        'jitter',
        "<code>'none'</code> | <code>'full'</code> | <code>'equal'</code>",
        "<code>'full'</code>",
        'Randomisation applied to each delay. See <a href="#jitter">Jitter</a>.',
      ],
      [
        'retryOn',
        'number[] | (ctx) =&gt; boolean',
        '<code>[408, 425, 429, 500, 502, 503, 504]</code>',
        'Status codes, or a predicate, that trigger a retry.',
      ],
      [
        'methods',
        'string[]',
        "<code>['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']</code>",
        'Only idempotent methods are retried unless you add others.<br>POST needs an idempotency key.',
      ],
      [
        'respectRetryAfter',
        'boolean',
        '<code>true</code>',
        'Use the <code>Retry-After</code> header when present, capped by <code>maxDelayMs</code>.',
      ],
      ['onRetry', '(ctx) =&gt; void', '—', 'Called before each retry, for logging and metrics.'],
    ];
    const optionTable = `<table><thead><tr><th>Option</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${options.map(([o, t, d, desc]) => `<tr><td><code>${o}</code></td><td>${t}</td><td>${d}</td><td>${desc}</td></tr>`).join('')}</tbody></table>`;
    const delays = [0, 1, 2, 3, 4].map((n) => {
      const exp = Math.min(200 * 2 ** n, 5000);
      return `<tr><td>${n + 1}</td><td>${exp} ms</td><td>0–${exp} ms</td><td>${exp / 2}–${exp} ms</td></tr>`;
    });
    const toc = [
      'Installation',
      'Basic usage',
      'Options',
      'Which requests are retried',
      'Jitter',
      'Retry-After',
      'Custom rules',
      'Testing retries',
      'See also',
    ];
    const article = `<article class="markdown">
<nav class="breadcrumbs" aria-label="Breadcrumbs"><ul><li><a href="/">🏠</a></li><li><a href="/docs/guides">Guides</a></li><li aria-current="page">Retries and backoff</li></ul></nav>
<span class="badge badge--version">Version: 3.x</span>
<header><h1>Retries and backoff</h1></header>
<p>Networks fail. FetchKit can retry failed requests for you, waiting a little longer after each failure so that a struggling server gets room to recover. This page explains the retry policy, which requests are safe to retry, and how to test it.</p>
<div class="admonition tip"><p class="admonition__title">Tip</p><p>Retries are <strong>off by default</strong>. Turn them on per client, or per request with <code>{ retry: { attempts: 3 } }</code>.</p></div>
${anchorH(2, 'Installation')}
<p>The retry policy lives in a separate package so that clients that never retry do not pay for it:</p>
${tabs}
${anchorH(2, 'Basic usage')}
<p>Pass a <code>retry</code> object when you create the client:</p>
${highlighted}
<p>With these settings a request is tried up to four times. The waits before retries grow as 200 ms, 400 ms, 800 ms, each randomised by the jitter.</p>
${anchorH(2, 'Options')}
${optionTable}
${anchorH(2, 'Which requests are retried')}
<p>By default FetchKit only retries requests that are <a href="https://www.rfc-editor.example/rfc/rfc9110#name-idempotent-methods">idempotent</a>: sending them twice has the same effect as sending them once. A <code>POST</code> that creates an order is not idempotent, so retrying it after a timeout could create two orders.</p>
<div class="admonition warning"><p class="admonition__title">Warning</p><p>If you add <code>POST</code> to <code>methods</code>, also send an <code>Idempotency-Key</code> header and make sure your server honours it.</p></div>
${code('ts', "await api.post('/orders', {\n  body: order,\n  headers: { 'Idempotency-Key': crypto.randomUUID() },\n  retry: { attempts: 3, methods: ['POST'] },\n});", 'orders.ts')}
<p>Network errors such as <code>ECONNRESET</code> and <code>ETIMEDOUT</code> are retried for every allowed method. A response is retried when its status is in <code>retryOn</code>.</p>
${anchorH(2, 'Jitter')}
<p>If a thousand clients fail at the same moment and all retry after exactly 200 ms, they hit the server together again. Jitter spreads them out. The table shows the delay before each retry with <code>baseDelayMs: 200</code> and <code>maxDelayMs: 5000</code>:</p>
<table><thead><tr><th>Retry</th><th>No jitter</th><th><code>'full'</code></th><th><code>'equal'</code></th></tr></thead><tbody>${delays.join('')}</tbody></table>
${anchorH(2, 'Retry-After')}
<p>When a server answers <code>429 Too Many Requests</code> or <code>503</code> with a <code>Retry-After</code> header, FetchKit waits that long instead of its own delay. Both forms of the header are supported:</p>
${code('http', 'HTTP/1.1 429 Too Many Requests\nRetry-After: 120\n\nHTTP/1.1 503 Service Unavailable\nRetry-After: Wed, 21 Oct 2026 07:28:00 GMT')}
${anchorH(2, 'Custom rules')}
<p>For anything the options cannot express, add a retry interceptor. Return <code>{ retry: false }</code> to stop, <code>{ retry: true, delayMs }</code> to force a retry, or <code>undefined</code> to let the policy decide:</p>
${gutter}
${anchorH(2, 'Testing retries')}
<p>The mock adapter can fail a number of times before succeeding. Use fake timers so your tests do not wait for real delays:</p>
${code('ts', "import { mockAdapter } from '@fetchkit/mock';\n\nconst adapter = mockAdapter()\n  .onGet('/users/1')\n  .replyTimes(2, 503)\n  .reply(200, { id: 1, name: 'Ada' });\n\nconst client = createClient({ adapter, retry: { attempts: 3 } });\nconst user = await client.get('/users/1');\nexpect(adapter.history.get).toHaveLength(3);", 'retry.test.ts')}
<p>Migrating from v2? The option <code>retries</code> was renamed:</p>
${code('diff', '-  createClient({ retries: 3, retryDelay: 200 })\n+  createClient({ retry: { attempts: 4, baseDelayMs: 200 } })')}
<p>The full policy is also exported as JSON Schema for configuration files:</p>
${code('json', JSON.stringify({ $schema: 'https://json-schema.example/draft/2020-12/schema', type: 'object', properties: { attempts: { type: 'integer', minimum: 1 }, backoff: { enum: ['exponential', 'linear', 'constant'] }, baseDelayMs: { type: 'integer', minimum: 0 } } }, null, 2), 'fetchkit.schema.json')}
<p>Press <kbd>Ctrl</kbd> + <kbd>K</kbd> to search the docs.</p>
${anchorH(2, 'See also')}
<ul><li><a href="/docs/guides/caching-strategies">Caching strategies</a></li><li><a href="/docs/api-reference/interceptors">Interceptors</a></li><li><a href="/docs/api-reference/errors">Errors</a>, including <code>RetryExhaustedError</code></li></ul>
<footer class="doc-footer"><a href="https://codehub.example/fetchkit/fetchkit/edit/main/docs/guides/retries.md" class="edit">✎ Edit this page</a><span class="last-updated">Last updated on <time datetime="2025-02-27T10:12:00.000Z">Feb 27, 2025</time> by <b>lin-kestrel</b></span></footer>
<nav class="pagination-nav" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/docs/guides/caching-strategies"><div class="pagination-nav__sublabel">Previous</div><div class="pagination-nav__label">Caching strategies</div></a><a class="pagination-nav__link pagination-nav__link--next" href="/docs/guides/streaming-responses"><div class="pagination-nav__sublabel">Next</div><div class="pagination-nav__label">Streaming responses</div></a></nav>
</article>`;
    const versions = ['3.x', '2.x', '1.x', 'Next (unreleased)'];
    const body = `<body class="docs-doc-page plugin-docs">
<div role="region" aria-label="Skip to main content"><a class="skip" href="#__docusaurus_skipToContent_fallback">Skip to main content</a></div>
<div class="announcement" role="banner">⭐ FetchKit 3.4 is out, with HTTP/3 support. <a href="/blog/fetchkit-3-4">Read the release post</a></div>
<nav class="navbar" aria-label="Main"><a class="navbar__brand" href="/"><img src="/img/logo.svg" alt="" width="32" height="32"><b>FetchKit</b></a><a href="/docs/getting-started/introduction" class="navbar__link active">Docs</a><a href="/docs/api-reference/createclient" class="navbar__link">API</a><a href="/blog" class="navbar__link">Blog</a><a href="/showcase" class="navbar__link">Showcase</a>
<div class="dropdown"><button class="navbar__link">3.x</button><ul class="dropdown__menu">${versions.map((v) => `<li><a href="/docs/${v === '3.x' ? '' : `${slug(v)}/`}guides/retries-and-backoff">${v}</a></li>`).join('')}</ul></div>
<a href="https://codehub.example/fetchkit/fetchkit" class="navbar__link" aria-label="Source repository">Source</a><button class="search-button" aria-label="Search (Ctrl+K)">Search <kbd>Ctrl</kbd> <kbd>K</kbd></button><button class="theme-toggle" title="Switch between dark and light mode">◐</button></nav>
<div class="main-wrapper">
<aside class="theme-doc-sidebar-container">${docsSidebar('Retries and backoff')}</aside>
<main id="__docusaurus_skipToContent_fallback" class="docMainContainer">
${article}
</main>
<div class="toc-wrapper"><p class="toc__title">On this page</p><ul class="table-of-contents">${toc.map((t) => `<li><a href="#${slug(t)}" class="table-of-contents__link">${t}</a></li>`).join('')}</ul></div>
</div>
<footer class="footer"><div class="footer__links"><div><p class="footer__title">Docs</p><ul><li><a href="/docs/getting-started/introduction">Introduction</a></li><li><a href="/docs/api-reference/createclient">API reference</a></li></ul></div><div><p class="footer__title">Community</p><ul><li><a href="https://chat.fetchkit.example/">Chat</a></li><li><a href="https://codehub.example/fetchkit/fetchkit/discussions">Discussions</a></li><li><a href="https://chirp.example/fetchkitjs">Chirp</a></li></ul></div><div><p class="footer__title">More</p><ul><li><a href="/blog">Blog</a></li><li><a href="https://codehub.example/fetchkit/fetchkit">Source</a></li></ul></div></div><p class="footer__copyright">Copyright © 2025 FetchKit contributors. Docs licensed under CC BY 4.0; code under MIT.</p></footer>
<script>window.__docsearch={appId:"FK${rng.int(1000, 9999)}",indexName:"fetchkit",apiKey:"public-search-only"};</script>
</body>`;
    return `<!doctype html>\n<html lang="en" dir="ltr" class="docs-wrapper docs-version-3.x" data-theme="light">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const changelogPage: PageSpec = {
  name: 'changelog',
  url: 'https://docs.fetchkit.example/changelog',
  contentType: 'text/html; charset=utf-8',
  title: 'Release notes page listing many versions with dated sections',
  description:
    'The changelog of the same library, rendered from Keep-a-Changelog markdown: one `<section>` per release with an `<h2>` holding the version and a date, “Added / Changed / Fixed / Deprecated / Security” sub-headings, bullet lists with inline code, issue and pull-request links (#1234), commit hashes, contributor mentions and “compare” links; an “Unreleased” section at the top and a yanked release.',
  exercises: [
    'many repeated small sections (about 40 releases) under a single h1',
    'links that are numbers (#1234) and @mentions; commit hashes in `<code>`',
    'dates as `<time>` elements next to version numbers in headings',
    'a `<del>` (yanked) release heading',
  ],
  build(rng: Rng) {
    const areas = [
      'retry',
      'cache',
      'streaming',
      'interceptors',
      'types',
      'mock adapter',
      'timeouts',
      'cookies',
      'HTTP/2',
      'HTTP/3',
      'proxy',
      'form data',
      'URL building',
      'errors',
      'abort signals',
    ];
    const verbs = {
      Added: [
        'Support for',
        'New option for',
        'Hook to customise',
        'Typed helpers for',
        'Experimental support for',
      ],
      Changed: [
        'Improved performance of',
        'Simplified',
        'Reworked defaults of',
        'Smaller bundle for',
        'Clearer error messages in',
      ],
      Fixed: [
        'Memory leak in',
        'Race condition in',
        'Incorrect types for',
        'Crash when using',
        'Wrong header casing in',
      ],
      Deprecated: ['Legacy options of', 'The v2 shim for'],
      Security: ['Header injection through', 'Credential leak on redirect in'],
    } as const;
    const people = [
      'lin-kestrel',
      'okafor-dev',
      'mvega',
      'hiro-t',
      'priya-r',
      'tferreira',
      'isolberg',
      'dcho',
    ];
    const sections: string[] = [];
    sections.push(
      `<section id="unreleased"><h2>Unreleased</h2><h3>Added</h3><ul><li>HTTP/3 connection coalescing behind <code>experimental.h3Coalesce</code> (<a href="https://codehub.example/fetchkit/fetchkit/pull/2291">#2291</a>)</li></ul><p><a href="https://codehub.example/fetchkit/fetchkit/compare/v3.4.2...HEAD">Compare v3.4.2…HEAD</a></p></section>`,
    );
    let major = 3;
    let minor = 4;
    let patch = 2;
    let month = 2;
    let year = 2025;
    let day = 26;
    for (let r = 0; r < 40; r++) {
      const version = `${major}.${minor}.${patch}`;
      const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      const yanked = r === 7;
      const kinds = (Object.keys(verbs) as (keyof typeof verbs)[]).filter(
        (k, i) => i < 3 || rng.chance(0.15) || (patch === 0 && k === 'Deprecated'),
      );
      let html = `<section id="v${version.replace(/\./g, '-')}"><h2>${yanked ? `<del>${version}</del> (yanked)` : `<a href="https://codehub.example/fetchkit/fetchkit/releases/tag/v${version}">${version}</a>`} – <time datetime="${date}">${date}</time></h2>`;
      if (yanked)
        html +=
          '<p><strong>This release was yanked</strong> because it broke type inference for <code>client.post()</code>. Use the next version.</p>';
      for (const kind of kinds) {
        const n = kind === 'Fixed' ? rng.int(2, 7) : rng.int(1, 4);
        html += `<h3>${kind}</h3><ul>`;
        for (let i = 0; i < n; i++) {
          const pr = rng.int(900, 2290);
          const who = rng.pick(people);
          const commit = (rng.int(0x1000000, 0xfffffff) >>> 0).toString(16);
          html += `<li>${rng.pick(verbs[kind])} ${rng.pick(areas)}${rng.chance(0.4) ? ` with <code>${rng.pick(['keepalive: false', 'signal', 'retry.methods', 'Content-Length: 0', 'redirect: "manual"', 'cache.ttlMs'])}</code>` : ''} (<a href="https://codehub.example/fetchkit/fetchkit/pull/${pr}">#${pr}</a>, <code>${commit}</code>) — thanks <a href="https://codehub.example/${who}">@${who}</a></li>`;
        }
        html += '</ul>';
      }
      html += `<p><a href="https://codehub.example/fetchkit/fetchkit/compare/v${major}.${minor}.${patch === 0 ? 0 : patch - 1}...v${version}">Full diff</a></p></section>`;
      sections.push(html);
      if (patch > 0) patch--;
      else if (minor > 0) {
        minor--;
        patch = rng.int(1, 4);
      } else {
        major--;
        minor = 6;
        patch = 2;
      }
      day -= rng.int(6, 20);
      while (day < 1) {
        day += 28;
        month--;
        if (month < 1) {
          month = 12;
          year--;
        }
      }
    }
    const head = standardHead({
      title: 'Changelog | FetchKit',
      description: 'All notable changes to FetchKit, by release.',
      canonical: this.url,
      siteName: 'FetchKit',
      image: 'https://docs.fetchkit.example/img/og/changelog.png',
      twitterCard: 'summary',
      extra:
        '<link rel="alternate" type="application/atom+xml" title="FetchKit releases" href="https://codehub.example/fetchkit/fetchkit/releases.atom">',
      css: 'section{border-bottom:1px solid #eee;padding-bottom:1rem}h2 time{font-weight:400;color:#666}del{color:#999}',
      assets:
        '<link rel="stylesheet" href="/assets/css/styles.5c3d1e2f.css">\n<script src="/assets/js/main.4d2b77.js" defer></script>',
    });
    const body = `<body class="docs-doc-page">
<nav class="navbar" aria-label="Main"><a class="navbar__brand" href="/"><b>FetchKit</b></a><a href="/docs/getting-started/introduction" class="navbar__link">Docs</a><a href="/docs/api-reference/createclient" class="navbar__link">API</a><a href="/blog" class="navbar__link">Blog</a><a href="/changelog" class="navbar__link active">Changelog</a></nav>
<div class="main-wrapper"><aside>${docsSidebar('Changelog')}</aside>
<main class="docMainContainer"><article class="markdown">
<h1>Changelog</h1>
<p>All notable changes to this project are documented in this file. The format is based on <a href="https://keepachangelog.example/en/1.1.0/">Keep a Changelog</a>, and this project adheres to <a href="https://semver.example/spec/v2.0.0.html">Semantic Versioning</a>.</p>
${sections.join('\n')}
<p>Older releases: see <a href="/changelog/v1">the 1.x changelog</a>.</p>
</article></main></div>
<footer class="footer"><p class="footer__copyright">Copyright © 2025 FetchKit contributors.</p></footer>
</body>`;
    return `<!doctype html>\n<html lang="en" dir="ltr">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const baseHrefPage: PageSpec = {
  name: 'base-href',
  url: 'https://mirror.archivehall.test/snapshots/2024/fieldguide/index.html',
  contentType: 'text/html; charset=utf-8',
  title: 'Archived documentation page whose relative URLs resolve against a `<base href>`',
  description:
    'A mirrored copy of a small field-guide site, as web archives and offline mirrors serve it: the page lives under a snapshot path but declares `<base href="https://fieldguide.archivehall.test/v2/guide/">`, so every relative link, image and stylesheet resolves against that base, not against the page URL. The links cover the cases that differ: `../`, `./`, bare names, query-only, fragment-only, root-relative, scheme-relative, absolute, `mailto:` and `javascript:` links. A second `<base>` later in the head must be ignored.',
  exercises: [
    'resolving relative URLs against the first `<base href>` (not the document URL); a second `<base>` ignored',
    'fragment-only (`#birds`) and query-only (`?page=2`) links, which resolve against the base too',
    'scheme-relative (`//cdn...`) and root-relative (`/about`) links; `mailto:`, `tel:` and `javascript:` links',
    'relative `<img src>` and `srcset`, relative canonical and og:image URLs',
  ],
  build(rng: Rng) {
    const species = [
      'Barn owl',
      'Grey heron',
      'Common kingfisher',
      'Eurasian curlew',
      'Northern lapwing',
      'Little egret',
      'Red kite',
      'Skylark',
      'Dipper',
      'Goldcrest',
      'Stonechat',
      'Oystercatcher',
    ];
    const rows = species.map(
      (s, i) =>
        `<tr><td><a href="species/${slug(s)}.html">${s}</a></td><td>${rng.pick(['Wetland', 'Farmland', 'Woodland', 'Coast', 'Upland', 'River'])}</td><td>${rng.pick(['All year', 'Summer', 'Winter', 'Passage'])}</td><td><img src="img/thumbs/${slug(s)}.jpg" srcset="img/thumbs/${slug(s)}.jpg 1x, img/thumbs/${slug(s)}@2x.jpg 2x" alt="" width="64" height="48"></td><td>${i % 4 === 0 ? '<a href="?status=amber">Amber</a>' : '<a href="?status=green">Green</a>'}</td></tr>`,
    );
    const head = `<meta charset="utf-8">
<base href="https://fieldguide.archivehall.test/v2/guide/">
<base href="https://wrong.archivehall.test/ignored/">
<title>Field Guide to Estuary Birds – Archived copy</title>
<meta name="viewport" content="width=device-width">
<meta name="description" content="An illustrated field guide to the birds of the Wend estuary: identification, habitat and when to see them.">
<link rel="canonical" href="index.html">
<link rel="stylesheet" href="../css/guide.css">
<link rel="stylesheet" href="//cdn.archivehall.test/fonts/serif.css">
<link rel="icon" href="/favicon.ico">
<meta property="og:title" content="Field Guide to Estuary Birds">
<meta property="og:image" content="img/cover.jpg">
<meta property="og:url" content="index.html">
<meta name="twitter:card" content="summary">
<script src="js/glossary.js"></script>
<style>.archive-banner{background:#fffbcc;border-bottom:1px solid #e6d97a;padding:.5rem 1rem;font:14px sans-serif}table{border-collapse:collapse}td,th{padding:4px 8px;border-bottom:1px solid #ccc}</style>`;
    const body = `<body>
<div class="archive-banner" id="archive-banner"><strong>Archived page.</strong> This is a copy of <a href="https://fieldguide.archivehall.test/v2/guide/index.html">fieldguide.archivehall.test/v2/guide/</a> captured on 14 June 2024. Links go to the archived copies where we have them. <a href="/snapshots/2024/">All snapshots</a> · <a href="javascript:document.getElementById('archive-banner').remove()">Hide</a></div>
<header><a href="./"><img src="img/logo.png" alt="Estuary Field Guide" width="200" height="50"></a>
<nav><ul><li><a href="./">Guide home</a></li><li><a href="species/">All species</a></li><li><a href="../maps/">Maps</a></li><li><a href="../../about.html">About the project</a></li><li><a href="/contact">Contact</a></li><li><a href="?lang=cy">Cymraeg</a></li></ul></nav></header>
<main>
<h1>Field Guide to Estuary Birds</h1>
<p>This guide covers the 120 species most often recorded on the Wend estuary. Each entry has identification notes, a map of where to look and the months when you are most likely to see the bird. Start with the <a href="#quick-id">quick identification chart</a>, or browse by <a href="habitats/wetland.html">habitat</a>.</p>
<figure><img src="img/estuary-panorama.jpg" srcset="img/estuary-panorama-800.jpg 800w, img/estuary-panorama-1600.jpg 1600w" sizes="100vw" alt="The estuary at low tide with mudflats and reed beds" width="800" height="300"><figcaption>The estuary at low tide. Photo: <a href="../credits.html#panorama">project volunteers</a>.</figcaption></figure>
<h2 id="quick-id">Quick identification chart</h2>
<table><thead><tr><th>Species</th><th>Habitat</th><th>Season</th><th>Photo</th><th>Status</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p><a href="?page=2">Next page of species</a> · <a href="species/index.html?sort=name">Sort by name</a> · <a href="#top">Back to top</a></p>
<h2 id="birds">Where to watch</h2>
<p>The best hides are at <a href="../sites/marsh-lane.html">Marsh Lane</a> and <a href="../sites/old-quay.html">Old Quay</a>. High tide pushes waders close to the hides; check the <a href="https://tides.archivehall.test/wend?days=7">tide table</a> before you go.</p>
<ul><li><a href="downloads/checklist.pdf">Printable checklist (PDF, 220 KB)</a></li><li><a href="downloads/sounds.zip" download>Bird calls (ZIP, 18 MB)</a></li><li><a href="//media.archivehall.test/video/curlew-display.mp4">Video: curlew display flight</a></li></ul>
<h2>Contributing</h2>
<p>Records are welcome. Email <a href="mailto:records@fieldguide.archivehall.test?subject=Sighting">records@fieldguide.archivehall.test</a> or call <a href="tel:+441632960811">01632 960811</a>. The guide’s source is on <a href="https://codehub.example/archivehall/fieldguide">CodeHub</a>.</p>
</main>
<footer><p>Text © the Estuary Field Guide volunteers, CC BY-SA. <a href="../licence.html">Licence</a> · <a href="../../">Project home</a> · <a href="/snapshots/">Archive index</a></p></footer>
</body>`;
    return `<!DOCTYPE html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const spaShell: PageSpec = {
  name: 'spa-shell',
  url: 'https://app.trailmate.example/routes/coastal-path-section-4',
  contentType: 'text/html; charset=utf-8',
  title: 'Single-page-app shell: an empty root element, a large state blob and many scripts',
  description:
    'What a client-rendered app returns before JavaScript runs: a head with OpenGraph tags filled in by the server, module preloads, an empty `<div id="root">`, a `<noscript>` message, a large `window.__INITIAL_STATE__` JSON assignment holding the real route data, and a dozen script tags. Almost no human-readable content is in the HTML.',
  exercises: [
    'text/markdown extraction on a page whose only visible text is the `<noscript>` message and the title',
    'large inline `<script>` content (state JSON) that must never appear in text output',
    'metadata still available from the head (OpenGraph, Twitter, canonical) even though the body is empty',
    '`<link rel="modulepreload">`, `<script type="module">`, import maps',
  ],
  build(rng: Rng) {
    const points = Array.from({ length: 260 }, (_, i) => [
      Number((50.2 + i * 0.0011 + rng.next() * 0.0004).toFixed(5)),
      Number((-5.05 + i * 0.0017 + rng.next() * 0.0004).toFixed(5)),
      rng.int(2, 118),
    ]);
    const reviews = Array.from({ length: 30 }, (_, i) => ({
      id: `rv_${(rng.int(100000, 999999) + i).toString(36)}`,
      user: {
        id: rng.int(1000, 99999),
        name: rng.pick(['Kate W.', 'Pete', 'hikerjo', 'M. Evans', 'Sam and Alex', 'trailrunner77']),
        avatar: `https://cdn.trailmate.example/u/${rng.int(1, 9999)}.jpg`,
      },
      rating: rng.int(3, 5),
      text: rng.pick([
        'Stunning views all the way, muddy after the stream crossing.',
        'Steep climb out of the cove but worth it.',
        'Well signed. Took us 4 hours with a lunch stop.',
        'Cafe at the halfway point was closed in March.',
        'Windy on the headland, bring layers.',
      ]),
      createdAt: `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}T10:00:00Z`,
    }));
    const state = {
      route: {
        id: 'coastal-path-section-4',
        title: 'Coastal Path Section 4: Penwyn Cove to Gull Point',
        distanceKm: 14.2,
        ascentM: 612,
        durationMin: 270,
        difficulty: 'moderate',
        summary:
          'A rollercoaster of a walk over three headlands with two sandy coves and a seal colony at Gull Point.',
        track: points,
        waypoints: [
          { name: 'Penwyn Cove car park', km: 0 },
          { name: 'Old lifeboat station', km: 3.1 },
          { name: 'Trewin stream crossing', km: 6.8 },
          { name: 'Cliff Cafe', km: 9.4 },
          { name: 'Gull Point seal viewpoint', km: 14.2 },
        ],
        reviews,
      },
      user: null,
      flags: { newMap: true, offlineDownloads: 'variant-b', paywallV3: false },
      i18n: { locale: 'en-GB', currency: 'GBP' },
    };
    const chunks = [
      'vendor-react',
      'vendor-maplibre',
      'app',
      'route-detail',
      'elevation-chart',
      'reviews',
      'i18n-en-GB',
      'analytics',
    ];
    const hashes = chunks.map(() => rng.int(0x10000000, 0x7fffffff).toString(16));
    const head = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
<title>Coastal Path Section 4: Penwyn Cove to Gull Point · Trailmate</title>
<meta name="description" content="14.2 km moderate coastal walk over three headlands with two coves and a seal colony. Map, elevation profile and 30 reviews.">
<link rel="canonical" href="https://app.trailmate.example/routes/coastal-path-section-4">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Trailmate">
<meta property="og:title" content="Coastal Path Section 4: Penwyn Cove to Gull Point">
<meta property="og:description" content="14.2 km · 612 m ascent · about 4h 30m · moderate">
<meta property="og:image" content="https://cdn.trailmate.example/og/routes/coastal-path-section-4.png">
<meta property="og:url" content="https://app.trailmate.example/routes/coastal-path-section-4">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="@trailmateapp">
<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=trailmate://routes/coastal-path-section-4">
<link rel="icon" href="/favicon.ico">
<link rel="manifest" href="/manifest.json">
<link rel="preconnect" href="https://tiles.trailmate.example">
<link rel="preconnect" href="https://api.trailmate.example" crossorigin>
<script type="importmap">{"imports":{"react":"/assets/vendor-react.${hashes[0]}.js","maplibre":"/assets/vendor-maplibre.${hashes[1]}.js"}}</script>
${chunks.map((c, i) => `<link rel="modulepreload" href="/assets/${c}.${hashes[i]}.js">`).join('\n')}
<link rel="stylesheet" href="/assets/app.${hashes[2]}.css">
<style>#root:empty{min-height:100vh;background:#f6f7f4 url(/assets/spinner.svg) center/48px no-repeat}</style>`;
    const body = `<body>
<noscript><div class="noscript">You need to enable JavaScript to run Trailmate. <a href="https://www.trailmate.example/help/javascript">Why?</a></div></noscript>
<div id="root"></div>
<div id="modal-root"></div>
<script>window.__INITIAL_STATE__ = ${JSON.stringify(state)};</script>
<script>window.__ENV__ = {"API_URL":"https://api.trailmate.example/v4","TILES_URL":"https://tiles.trailmate.example/{z}/{x}/{y}.pbf","SENTRY_DSN":"https://public@errors.trailmate.example/12","RELEASE":"web@2025.03.12-1"};</script>
${chunks.map((c, i) => `<script type="module" crossorigin src="/assets/${c}.${hashes[i]}.js"></script>`).join('\n')}
<script nomodule src="/assets/legacy-polyfills.${hashes[3]}.js"></script>
<script async src="https://tags.analytics.example/tm.js?id=TM-${rng.int(10000, 99999)}"></script>
</body>`;
    return `<!doctype html>\n<html lang="en-GB">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};
