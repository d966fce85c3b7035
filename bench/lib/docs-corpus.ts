import { type CorpusOptions, type CorpusPage, pageSizes } from './article-corpus.js';
import { createRng, type Rng } from './prng.js';

/**
 * The documentation corpus: reference pages shaped like those of documentation-site
 * generators. Each page has a full head, a header with a search form and a version
 * picker, a sidebar holding the site's whole navigation tree (nested lists of links,
 * hundreds of them), and an "on this page" table of contents. The main column holds a
 * breadcrumb and a long reference article: headings with anchor links, prose with
 * inline code, many code blocks (most with syntax-highlighting `<span>`s), option
 * tables, admonitions (note, tip, warning) and lists of API signatures (`<dl>` with
 * a `<code>` signature, a description and a parameter list). Below it come previous/
 * next links, a feedback widget and a footer. Every name is made up. The same options
 * give the same bytes on every run.
 */
export function generateDocsCorpus(options: CorpusOptions = {}): CorpusPage[] {
  const count = options.pages ?? 30;
  const total = options.totalBytes ?? 4_000_000;
  const min = options.minPageBytes ?? 40_000;
  const max = options.maxPageBytes ?? 248_000;
  const seed = options.seed ?? 20261129;
  const sizes = pageSizes(createRng(seed), count, total, min, max);
  const encoder = new TextEncoder();
  return sizes.map((size, index) => {
    const project = PROJECTS[index % PROJECTS.length] as Project;
    const rng = createRng(seed + index * 7919);
    const { html, url } = buildDocsPage(rng, project, index, size);
    return {
      name: `docs-${String(index + 1).padStart(2, '0')}`,
      url,
      contentType: 'text/html; charset=utf-8',
      html,
      bytes: encoder.encode(html),
    };
  });
}

interface Project {
  readonly name: string;
  readonly host: string;
  /** The package's import name, used in code samples. */
  readonly module: string;
  readonly nouns: readonly string[];
  readonly verbs: readonly string[];
}

const PROJECTS: readonly Project[] = [
  {
    name: 'Lanternfish',
    host: 'docs.lanternfish.example',
    module: 'lanternfish',
    nouns: ['router', 'handler', 'middleware', 'request', 'response', 'route', 'context', 'plugin'],
    verbs: ['register', 'match', 'resolve', 'dispatch', 'mount', 'compose', 'reject', 'forward'],
  },
  {
    name: 'Oakvale Store',
    host: 'oakvale-store.test',
    module: '@oakvale/store',
    nouns: ['store', 'selector', 'action', 'snapshot', 'subscriber', 'slice', 'reducer', 'effect'],
    verbs: ['create', 'select', 'dispatch', 'subscribe', 'hydrate', 'persist', 'reset', 'derive'],
  },
  {
    name: 'Brightwater CLI',
    host: 'brightwater.example',
    module: 'brightwater',
    nouns: ['command', 'flag', 'config file', 'workspace', 'profile', 'task', 'cache', 'target'],
    verbs: ['run', 'build', 'publish', 'watch', 'lint', 'clean', 'deploy', 'inspect'],
  },
  {
    name: 'Tidepool DB',
    host: 'tidepool-db.test',
    module: 'tidepool',
    nouns: ['table', 'index', 'query', 'cursor', 'transaction', 'migration', 'column', 'pool'],
    verbs: ['open', 'insert', 'query', 'commit', 'rollback', 'migrate', 'vacuum', 'close'],
  },
];

const ADJECTIVES = [
  'optional',
  'default',
  'asynchronous',
  'nested',
  'typed',
  'cached',
  'lazy',
  'global',
  'scoped',
  'custom',
  'deprecated',
  'experimental',
];
const CONNECTORS = [
  'When',
  'If',
  'By default,',
  'In most cases',
  'Unlike the previous version,',
  'Note that',
  'For example,',
  'Internally,',
];
const TYPES = [
  'string',
  'number',
  'boolean',
  'Options',
  'Promise<void>',
  'Record<string, unknown>',
];
const ADMONITIONS = [
  ['note', 'Note'],
  ['tip', 'Tip'],
  ['warning', 'Warning'],
  ['info', 'Info'],
] as const;
const KEYWORDS = ['const', 'let', 'await', 'return', 'import', 'export', 'function', 'async'];

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function camel(words: string): string {
  return words
    .split(/\s+/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

function sentence(rng: Rng, p: Project): string {
  const noun = rng.pick(p.nouns);
  const other = rng.pick(p.nouns);
  const verb = rng.pick(p.verbs);
  const adjective = rng.pick(ADJECTIVES);
  const forms = [
    `${rng.pick(CONNECTORS)} the ${adjective} ${noun} can ${verb} the ${other} before it runs`,
    `Call <code>${camel(`${verb} ${other}`)}()</code> to ${verb} a ${noun} with the ${adjective} ${other}`,
    `The ${noun} keeps a reference to its ${other}, so a second ${verb} call returns the same value`,
    `Pass <code>{ ${camel(adjective)}: true }</code> when the ${noun} should ${verb} every ${other}`,
    `See <a href="/reference/${slugify(other)}/">the ${other} reference</a> for the ${adjective} forms, which ${verb} the ${noun} in place`,
    `Each ${noun} may ${verb} at most one ${other} at a time, and an error is thrown otherwise`,
  ];
  return `${rng.pick(forms)}.`;
}

function paragraph(rng: Rng, p: Project): string {
  const parts: string[] = [];
  for (let i = rng.int(2, 5); i > 0; i--) parts.push(sentence(rng, p));
  return `<p>${parts.join(' ')}</p>`;
}

function codeLine(rng: Rng, p: Project, highlight: boolean): string {
  const name = camel(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`);
  const arg = camel(rng.pick(p.nouns));
  const literal = `'${rng.pick(ADJECTIVES)}'`;
  if (!highlight) {
    return rng.pick([
      `const ${arg} = await ${name}(${literal});`,
      `${arg}.${rng.pick(p.verbs)}({ retries: ${rng.int(1, 9)}, mode: ${literal} });`,
      `if (!${arg}) throw new Error(${literal});`,
      `export function ${name}(${arg}: ${rng.pick(TYPES)}) {`,
      `  return ${arg} ?? null;`,
      '}',
    ]);
  }
  const k = (word: string) => `<span class="token keyword">${word}</span>`;
  const f = (word: string) => `<span class="token function">${word}</span>`;
  const s = (word: string) => `<span class="token string">${esc(word)}</span>`;
  const n = (value: number) => `<span class="token number">${value}</span>`;
  const pn = (c: string) => `<span class="token punctuation">${esc(c)}</span>`;
  return rng.pick([
    `${k('const')} ${arg} ${pn('=')} ${k('await')} ${f(name)}${pn('(')}${s(literal)}${pn(')')}${pn(';')}`,
    `${arg}${pn('.')}${f(rng.pick(p.verbs))}${pn('(')}${pn('{')} retries${pn(':')} ${n(rng.int(1, 9))}${pn(',')} mode${pn(':')} ${s(literal)} ${pn('}')}${pn(')')}${pn(';')}`,
    `${k('if')} ${pn('(')}${pn('!')}${arg}${pn(')')} ${k('throw')} ${k('new')} ${f('Error')}${pn('(')}${s(literal)}${pn(')')}${pn(';')}`,
    `${k('export')} ${k(rng.pick(KEYWORDS) === 'async' ? 'async function' : 'function')} ${f(name)}${pn('(')}${arg}${pn(':')} ${esc(rng.pick(TYPES))}${pn(')')} ${pn('{')}`,
    `  ${k('return')} ${arg} ${pn('??')} ${k('null')}${pn(';')}`,
    `<span class="token comment">// ${esc(sentence(rng, p).replace(/<[^>]+>/g, ''))}</span>`,
  ]);
}

function codeBlock(rng: Rng, p: Project): string {
  const highlight = rng.chance(0.75);
  const lines: string[] = [
    `<span class="token keyword">import</span> { ${camel(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`)} } <span class="token keyword">from</span> <span class="token string">'${p.module}'</span>;`,
  ];
  if (!highlight)
    lines[0] = `import { ${camel(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`)} } from '${p.module}';`;
  for (let i = rng.int(4, 18); i > 0; i--) lines.push(codeLine(rng, p, highlight));
  const language = rng.pick(['ts', 'js', 'tsx']);
  const title = rng.chance(0.4)
    ? `<div class="code-block-title">${rng.pick(['example.ts', 'config.ts', 'server.js', 'app.tsx'])}</div>`
    : '';
  const copy = '<button class="copy-button" type="button" aria-label="Copy code">Copy</button>';
  return `<div class="code-block language-${language}">${title}<pre class="prism-code language-${language}"><code class="language-${language}">${lines.join('\n')}</code></pre>${copy}</div>`;
}

function shellBlock(rng: Rng, p: Project): string {
  const commands = [
    `npm install ${p.module}`,
    `pnpm add ${p.module}`,
    `npx ${p.module.replace(/^@[^/]+\//, '')} ${rng.pick(p.verbs)} --${rng.pick(ADJECTIVES)}`,
  ];
  return `<pre><code class="language-bash">${esc(rng.pick(commands))}</code></pre>`;
}

function optionsTable(rng: Rng, p: Project): string {
  const rows: string[] = [];
  for (let i = rng.int(4, 14); i > 0; i--) {
    const name = camel(`${rng.pick(ADJECTIVES)} ${rng.pick(p.nouns)}`);
    rows.push(
      `<tr><td><code>${name}</code></td><td><code>${esc(rng.pick(TYPES))}</code></td><td><code>${rng.pick(['undefined', 'true', 'false', '0', "'auto'"])}</code></td><td>${sentence(rng, p)}</td></tr>`,
    );
  }
  return `<div class="table-wrapper"><table><thead><tr><th>Option</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function admonition(rng: Rng, p: Project): string {
  const [kind, label] = rng.pick(ADMONITIONS);
  return `<div class="admonition admonition-${kind} alert alert--${kind}"><div class="admonition-heading"><h5><span class="admonition-icon"><svg viewBox="0 0 14 16" width="14" height="16"><path d="M7 2.3c3.14 0 5.7 2.56 5.7 5.7s-2.56 5.7-5.7 5.7A5.71 5.71 0 0 1 1.3 8c0-3.14 2.56-5.7 5.7-5.7z"></path></svg></span>${label}</h5></div><div class="admonition-content"><p>${sentence(rng, p)} ${sentence(rng, p)}</p></div></div>`;
}

function signatures(rng: Rng, p: Project): string {
  const entries: string[] = [];
  for (let i = rng.int(2, 6); i > 0; i--) {
    const name = camel(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`);
    const params: string[] = [];
    const items: string[] = [];
    for (let j = rng.int(1, 4); j > 0; j--) {
      const param = camel(rng.pick(p.nouns));
      const type = rng.pick(TYPES);
      params.push(`${param}: ${type}`);
      items.push(`<li><code>${param}</code> (<code>${esc(type)}</code>): ${sentence(rng, p)}</li>`);
    }
    const returns = rng.pick(TYPES);
    entries.push(
      `<dt class="sig sig-object" id="${p.module.replace(/\W/g, '')}.${name}"><code class="sig-name">${name}</code><span class="sig-paren">(</span>${esc(params.join(', '))}<span class="sig-paren">)</span>: <code>${esc(returns)}</code><a class="headerlink" href="#${name}" title="Link to this definition">¶</a></dt><dd><p>${sentence(rng, p)} ${sentence(rng, p)}</p><p><strong>Parameters</strong></p><ul class="simple">${items.join('')}</ul><p><strong>Returns</strong> <code>${esc(returns)}</code>: ${sentence(rng, p)}</p></dd>`,
    );
  }
  return `<dl class="api-signatures">${entries.join('')}</dl>`;
}

function sidebar(rng: Rng, p: Project, current: string): string {
  const sections = [
    'Getting started',
    'Guides',
    'Concepts',
    'API reference',
    'Recipes',
    'Integrations',
    'Migration',
    'FAQ',
  ];
  const out: string[] = ['<ul class="menu__list">'];
  for (const section of sections) {
    out.push(
      `<li class="menu__list-item"><a class="menu__link menu__link--sublist" href="/${slugify(section)}/">${section}</a><ul class="menu__list">`,
    );
    for (let i = rng.int(6, 16); i > 0; i--) {
      const title = `${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`;
      const active = title === current ? ' menu__link--active' : '';
      out.push(
        `<li class="menu__list-item"><a class="menu__link${active}" href="/${slugify(section)}/${slugify(title)}/">${title.charAt(0).toUpperCase()}${title.slice(1)}</a>`,
      );
      if (rng.chance(0.25)) {
        out.push('<ul class="menu__list">');
        for (let j = rng.int(2, 6); j > 0; j--) {
          const sub = camel(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`);
          out.push(
            `<li class="menu__list-item"><a class="menu__link" href="/${slugify(section)}/${slugify(title)}/#${sub}"><code>${sub}()</code></a></li>`,
          );
        }
        out.push('</ul>');
      }
      out.push('</li>');
    }
    out.push('</ul></li>');
  }
  out.push('</ul>');
  return `<aside class="theme-doc-sidebar-container"><div class="sidebar"><nav class="menu thin-scrollbar" aria-label="Docs sidebar">${out.join('')}</nav></div></aside>`;
}

function buildDocsPage(
  rng: Rng,
  p: Project,
  index: number,
  size: number,
): { html: string; url: string } {
  const topic = `${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`;
  const title = `${topic.charAt(0).toUpperCase()}${topic.slice(1)}`;
  const path = `/reference/${slugify(topic)}-${index + 1}/`;
  const url = `https://${p.host}${path}`;
  const description = sentence(rng, p).replace(/<[^>]+>/g, '');

  const head = `<!DOCTYPE html>
<html lang="en" dir="ltr" class="docs-wrapper docs-doc-page">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | ${esc(p.name)}</title>
<meta name="description" content="${esc(description)}">
<meta property="og:title" content="${esc(title)} | ${esc(p.name)}">
<meta property="og:description" content="${esc(description)}">
<meta property="og:url" content="${url}">
<meta property="og:type" content="website">
<meta name="twitter:card" content="summary_large_image">
<link rel="canonical" href="${url}">
<link rel="icon" href="/img/favicon.ico">
<link rel="stylesheet" href="/assets/css/styles.${(index * 2654435761) >>> 0}.css">
<script src="/assets/js/runtime~main.${index}.js" defer></script>
<script>(function(){var t=localStorage.getItem("theme");document.documentElement.setAttribute("data-theme",t||"light")})()</script>
</head>
<body class="navigation-with-keyboard">
<div id="__docusaurus">
<div role="region" aria-label="Skip to main content"><a class="skipToContent" href="#__docusaurus_skipToContent_fallback">Skip to main content</a></div>
<nav aria-label="Main" class="navbar navbar--fixed-top"><div class="navbar__inner"><div class="navbar__items"><a class="navbar__brand" href="/"><b class="navbar__title">${esc(p.name)}</b></a><a class="navbar__item navbar__link" href="/docs/">Docs</a><a class="navbar__item navbar__link" href="/reference/">API</a><a class="navbar__item navbar__link" href="/blog/">Blog</a><div class="navbar__item dropdown"><a class="navbar__link" href="#">v${rng.int(2, 9)}.${rng.int(0, 20)}</a><ul class="dropdown__menu"><li><a class="dropdown__link" href="/next/">Next</a></li><li><a class="dropdown__link" href="/v1/">v1</a></li></ul></div></div><div class="navbar__items navbar__items--right"><a href="https://github.example/${p.module}" class="navbar__item">GitHub</a><div class="searchBox"><form role="search"><input type="search" placeholder="Search" aria-label="Search"></form></div></div></div></nav>
<div class="main-wrapper docs-wrapper"><div class="docPage">
${sidebar(rng, p, topic)}
<main class="docMainContainer" id="__docusaurus_skipToContent_fallback"><div class="container padding-top--md"><div class="row"><div class="col docItemCol">
<nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a class="breadcrumbs__link" href="/">Home</a></li><li class="breadcrumbs__item"><a class="breadcrumbs__link" href="/reference/">API reference</a></li><li class="breadcrumbs__item breadcrumbs__item--active"><span class="breadcrumbs__link">${esc(title)}</span></li></ul></nav>
<div class="theme-doc-markdown markdown"><header><h1>${esc(title)}</h1></header>
<p>${sentence(rng, p)} ${sentence(rng, p)}</p>
`;
  const tocItems: string[] = [];
  const tail = (toc: string) => `</div>
<footer class="theme-doc-footer docusaurus-mt-lg"><div class="row"><div class="col"><a href="https://github.example/${p.module}/edit/main/docs${path}" class="theme-edit-this-page">Edit this page</a></div><div class="col lastUpdated">Last updated on <time datetime="2026-0${(index % 9) + 1}-1${index % 10}">${(index % 9) + 1}/1${index % 10}/2026</time></div></div></footer>
<nav class="pagination-nav docusaurus-mt-lg" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/reference/prev-${index}/"><div class="pagination-nav__sublabel">Previous</div><div class="pagination-nav__label">${esc(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`)}</div></a><a class="pagination-nav__link pagination-nav__link--next" href="/reference/next-${index}/"><div class="pagination-nav__sublabel">Next</div><div class="pagination-nav__label">${esc(`${rng.pick(p.verbs)} ${rng.pick(p.nouns)}`)}</div></a></nav>
<div class="feedback-widget">Was this page helpful? <button type="button">Yes</button> <button type="button">No</button></div>
</div><div class="col col--3"><div class="tableOfContents thin-scrollbar theme-doc-toc-desktop"><p class="toc-title">On this page</p><ul class="table-of-contents">${toc}</ul></div></div></div></div></main>
</div></div>
<footer class="footer footer--dark"><div class="container"><div class="row footer__links">${[
    'Docs',
    'Community',
    'More',
  ]
    .map(
      (col) =>
        `<div class="col footer__col"><div class="footer__title">${col}</div><ul class="footer__items">${[1, 2, 3, 4].map((i) => `<li class="footer__item"><a class="footer__link-item" href="/${slugify(col)}/${i}/">${col} link ${i}</a></li>`).join('')}</ul></div>`,
    )
    .join(
      '',
    )}</div><div class="footer__copyright">Copyright © 2026 ${esc(p.name)} contributors. Built with a static site generator.</div></div></footer>
</div>
<script>window.__DOCS_STATE__=${JSON.stringify({ path, version: 'current', sidebar: 'docs', index })};</script>
</body>
</html>
`;

  const body: string[] = [];
  let length = head.length + tail('').length + 2000;
  let sections = 0;
  while (length < size) {
    const heading = `${rng.pick(['Using', 'Configuring', 'Testing', 'Extending', 'Debugging'])} the ${rng.pick(p.nouns)}`;
    const id = `${slugify(heading)}-${++sections}`;
    tocItems.push(`<li><a href="#${id}" class="table-of-contents__link">${esc(heading)}</a></li>`);
    const parts: string[] = [
      `<h2 class="anchor" id="${id}">${esc(heading)}<a href="#${id}" class="hash-link" aria-label="Direct link to ${esc(heading)}" title="Direct link">\u200b</a></h2>`,
      paragraph(rng, p),
    ];
    for (let k = rng.int(3, 7); k > 0; k--) {
      const roll = rng.next();
      if (roll < 0.3) parts.push(codeBlock(rng, p));
      else if (roll < 0.42) parts.push(paragraph(rng, p), shellBlock(rng, p));
      else if (roll < 0.55) parts.push(optionsTable(rng, p));
      else if (roll < 0.68) parts.push(admonition(rng, p));
      else if (roll < 0.8) parts.push(signatures(rng, p));
      else if (roll < 0.9) {
        const sub = `${rng.pick(p.verbs)} ${rng.pick(ADJECTIVES)} ${rng.pick(p.nouns)}s`;
        const subId = `${slugify(sub)}-${sections}-${k}`;
        parts.push(
          `<h3 class="anchor" id="${subId}">${esc(sub.charAt(0).toUpperCase() + sub.slice(1))}<a href="#${subId}" class="hash-link" title="Direct link">\u200b</a></h3>`,
          paragraph(rng, p),
        );
      } else {
        const items: string[] = [];
        for (let j = rng.int(3, 7); j > 0; j--) items.push(`<li>${sentence(rng, p)}</li>`);
        const list = rng.chance(0.5) ? 'ul' : 'ol';
        parts.push(`<${list}>${items.join('')}</${list}>`);
      }
      parts.push(paragraph(rng, p));
    }
    const section = parts.join('\n');
    // Stop short of the target rather than past it, so pages stay within the size bounds.
    if (body.length > 0 && length + section.length > size) break;
    body.push(section);
    length += section.length;
  }
  return { html: head + body.join('\n') + tail(tocItems.join('')), url };
}
