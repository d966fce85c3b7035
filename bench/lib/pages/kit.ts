import type { Rng } from '../prng.js';

/** One page of the `fixtures/pages/` corpus, as the generator builds it. */
export interface PageSpec {
  /** Folder name under `fixtures/pages/` (kebab-case). */
  readonly name: string;
  /** The made-up final URL, under .example or .test. */
  readonly url: string;
  /** The `Content-Type` header the page is served with. */
  readonly contentType: string;
  /** Upstream HTTP status; 200 unless the page is an error page. */
  readonly status?: number;
  /** How the HTML string is turned into bytes. */
  readonly encoding?: 'utf-8' | 'shift_jis' | 'windows-1252';
  /** One line: what kind of page this is. */
  readonly title: string;
  /** A short paragraph for SOURCE.md. */
  readonly description: string;
  /** The behaviours the page exercises, one per bullet in SOURCE.md. */
  readonly exercises: readonly string[];
  /** Build the HTML; `rng` is seeded from the page name. */
  build(rng: Rng): string;
}

/** Escape text for HTML content and attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A URL path segment from a title. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A JSON-LD script block, pretty-printed as many CMSs emit it. */
export function jsonLd(value: unknown, indent = 2): string {
  return `<script type="application/ld+json">\n${JSON.stringify(value, null, indent)}\n</script>`;
}

/** Options of {@link standardHead}. */
export interface HeadOptions {
  readonly title: string;
  readonly description: string;
  readonly canonical: string;
  readonly siteName: string;
  readonly image: string;
  readonly ogType?: string;
  readonly locale?: string;
  readonly twitterSite?: string;
  readonly twitterCard?: string;
  readonly charset?: string;
  readonly themeColor?: string;
  /** Extra tags placed after the OpenGraph block (article:*, product:*, JSON-LD, ...). */
  readonly extra?: string;
  /** Inline CSS placed in a `<style>` element. */
  readonly css?: string;
  /** Script and stylesheet tags placed at the end of the head. */
  readonly assets?: string;
  readonly keywords?: string;
  readonly robots?: string;
  readonly author?: string;
}

/** The `<head>` most CMS-built pages carry: meta, favicons, OpenGraph, Twitter, assets. */
export function standardHead(o: HeadOptions): string {
  const origin = new URL(o.canonical).origin;
  const lines = [
    `<meta charset="${o.charset ?? 'utf-8'}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    `<title>${esc(o.title)}</title>`,
    `<meta name="description" content="${esc(o.description)}">`,
  ];
  if (o.keywords) lines.push(`<meta name="keywords" content="${esc(o.keywords)}">`);
  if (o.author) lines.push(`<meta name="author" content="${esc(o.author)}">`);
  lines.push(
    `<meta name="robots" content="${o.robots ?? 'index, follow, max-snippet:-1, max-image-preview:large'}">`,
    `<meta name="theme-color" content="${o.themeColor ?? '#ffffff'}">`,
    `<link rel="canonical" href="${o.canonical}">`,
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon-180x180.png">',
    '<link rel="manifest" href="/manifest.webmanifest">',
    `<link rel="preconnect" href="https://cdn.${new URL(origin).hostname.replace(/^www\./, '')}" crossorigin>`,
    `<meta property="og:site_name" content="${esc(o.siteName)}">`,
    `<meta property="og:type" content="${o.ogType ?? 'website'}">`,
    `<meta property="og:title" content="${esc(o.title.split(' | ')[0] as string)}">`,
    `<meta property="og:description" content="${esc(o.description)}">`,
    `<meta property="og:url" content="${o.canonical}">`,
    `<meta property="og:image" content="${o.image}">`,
    '<meta property="og:image:width" content="1200">',
    '<meta property="og:image:height" content="630">',
    `<meta property="og:locale" content="${o.locale ?? 'en_US'}">`,
    `<meta name="twitter:card" content="${o.twitterCard ?? 'summary_large_image'}">`,
  );
  if (o.twitterSite) lines.push(`<meta name="twitter:site" content="${o.twitterSite}">`);
  lines.push(
    `<meta name="twitter:title" content="${esc(o.title.split(' | ')[0] as string)}">`,
    `<meta name="twitter:description" content="${esc(o.description)}">`,
    `<meta name="twitter:image" content="${o.image}">`,
  );
  if (o.extra) lines.push(o.extra);
  if (o.css) lines.push(`<style>\n${o.css.trim()}\n</style>`);
  if (o.assets) lines.push(o.assets);
  return lines.join('\n');
}

/** A consent-manager banner of the kind most European sites show. */
export function cookieBanner(site: string, style: 'bar' | 'modal' = 'bar'): string {
  const purposes = [
    [
      'Strictly necessary',
      'Required for the site to work, for example to keep you signed in and remember your basket. These cannot be switched off.',
      true,
    ],
    [
      'Performance and analytics',
      'Help us count visits and traffic sources so we can measure and improve the performance of our site.',
      false,
    ],
    [
      'Functional',
      'Remember choices you make, such as your region or language, to provide enhanced features.',
      false,
    ],
    [
      'Targeting and advertising',
      'Set by our advertising partners to build a profile of your interests and show you relevant adverts on other sites.',
      false,
    ],
  ] as const;
  const items = purposes
    .map(
      ([name, text, locked], i) =>
        `<li class="consent-purpose"><label><input type="checkbox" name="purpose-${i}"${locked ? ' checked disabled' : ''}> <strong>${name}</strong></label><p>${text}</p></li>`,
    )
    .join('\n');
  return `<div id="consent-root" class="consent consent--${style}" role="dialog" aria-modal="${style === 'modal'}" aria-labelledby="consent-title">
<div class="consent__inner">
<h2 id="consent-title">We value your privacy</h2>
<p>${esc(site)} and our 143 partners use cookies and similar technologies to store and access information on your device, for example to measure audiences, personalise content and show adverts. You can accept, reject or customise your choices at any time via “Privacy settings” at the bottom of every page.</p>
<details class="consent__details"><summary>Customise choices</summary>
<ul class="consent__purposes">
${items}
</ul>
</details>
<div class="consent__actions"><button type="button" class="btn btn--primary" data-consent="accept">Accept all</button><button type="button" class="btn" data-consent="reject">Reject all</button><button type="button" class="btn btn--link" data-consent="save">Save choices</button></div>
<p class="consent__links"><a href="/privacy">Privacy policy</a> · <a href="/cookies">Cookie policy</a> · <a href="/partners">Our partners</a></p>
</div>
</div>`;
}

/** A display-ad slot as ad servers leave it before the creative loads. */
export function adSlot(id: string, size: string, label = 'Advertisement'): string {
  const [w, h] = size.split('x');
  return `<div class="ad-slot ad-slot--${size}" id="${id}" data-ad-unit="/21804/site/${id}" data-sizes="${size}" style="min-width:${w}px;min-height:${h}px" aria-hidden="true"><span class="ad-slot__label">${label}</span><script>window.adQueue=window.adQueue||[];adQueue.push({slot:'${id}',sizes:[[${w},${h}]]});</script></div>`;
}

/** A navigation menu of sections, each with a panel of grouped links (a mega-menu). */
export function megaMenu(
  rng: Rng,
  sections: readonly {
    readonly name: string;
    readonly groups: readonly (readonly [string, readonly string[]])[];
  }[],
  base = '',
): string {
  const parts: string[] = ['<nav class="mega" aria-label="Primary"><ul class="mega__bar">'];
  for (const section of sections) {
    const id = `menu-${slug(section.name)}`;
    parts.push(
      `<li class="mega__item"><button class="mega__trigger" aria-expanded="false" aria-controls="${id}">${esc(section.name)}</button><div class="mega__panel" id="${id}" hidden><div class="mega__columns">`,
    );
    for (const [group, links] of section.groups) {
      parts.push(`<div class="mega__column"><h3 class="mega__heading">${esc(group)}</h3><ul>`);
      for (const link of links) {
        const badge = rng.chance(0.06) ? ' <span class="badge">New</span>' : '';
        parts.push(
          `<li><a href="${base}/${slug(section.name)}/${slug(group)}/${slug(link)}">${esc(link)}</a>${badge}</li>`,
        );
      }
      parts.push('</ul></div>');
    }
    parts.push(
      `</div><a class="mega__all" href="${base}/${slug(section.name)}/">All ${esc(section.name.toLowerCase())} →</a></div></li>`,
    );
  }
  parts.push('</ul></nav>');
  return parts.join('\n');
}

/** A footer of link columns, legal links and social links. */
export function siteFooter(
  site: string,
  columns: readonly (readonly [string, readonly string[]])[],
  options: { year?: number; social?: readonly string[]; address?: string } = {},
): string {
  const parts = [
    '<footer class="site-footer" role="contentinfo"><div class="site-footer__columns">',
  ];
  for (const [heading, links] of columns) {
    parts.push(`<section class="site-footer__column"><h2>${esc(heading)}</h2><ul>`);
    for (const link of links)
      parts.push(`<li><a href="/${slug(heading)}/${slug(link)}">${esc(link)}</a></li>`);
    parts.push('</ul></section>');
  }
  parts.push('</div>');
  const social = options.social ?? ['Chirp', 'Facegram', 'Linkpost', 'VidTube'];
  parts.push(
    `<ul class="site-footer__social">${social
      .map(
        (s) =>
          `<li><a href="https://${slug(s)}.example/${slug(site)}" rel="me noopener" aria-label="${esc(site)} on ${s}">${s}</a></li>`,
      )
      .join('')}</ul>`,
  );
  if (options.address) parts.push(`<address>${options.address}</address>`);
  parts.push(
    `<p class="site-footer__legal">© ${options.year ?? 2025} ${esc(site)}. All rights reserved. <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a> · <a href="/cookies">Cookie settings</a> · <a href="/accessibility">Accessibility</a> · <a href="/sitemap">Sitemap</a></p></footer>`,
  );
  return parts.join('\n');
}

/** The analytics and tag-manager snippets most sites end their body with. */
export function trackingScripts(id: string): string {
  return `<script>
(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'start':Date.now(),event:'tm.js'});
var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;
j.src='https://tags.analytics.example/tm.js?id='+i;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','${id}');
</script>
<noscript><img src="https://px.analytics.example/collect?id=${id}&amp;noscript=1" width="1" height="1" alt="" style="display:none"></noscript>`;
}

/** Comments under an article: a heading, a sign-in prompt and threaded comments. */
export function commentThread(
  rng: Rng,
  comments: readonly (readonly [string, string])[],
  options: { count?: number; date?: string } = {},
): string {
  const parts = [
    `<section class="comments" id="comments" aria-labelledby="comments-title"><h2 id="comments-title">${options.count ?? comments.length} comments</h2>`,
    '<p class="comments__signin"><a href="/login?next=%23comments">Sign in</a> or <a href="/register">create an account</a> to join the conversation.</p>',
    '<ol class="comments__list">',
  ];
  for (const [i, [author, text]] of comments.entries()) {
    const nested = i > 0 && rng.chance(0.3);
    parts.push(
      `<li class="comment${nested ? ' comment--reply' : ''}" id="comment-${1000 + i * 17}"><article><header><img class="avatar" src="/avatars/${slug(author)}.png" alt="" width="32" height="32"> <span class="comment__author">${esc(author)}</span> <a class="comment__time" href="#comment-${1000 + i * 17}"><time datetime="${options.date ?? '2025-03-14'}T${String(8 + i).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00Z">${i + 1}h ago</time></a></header><p>${text}</p><footer><button type="button" class="comment__like">♥ ${rng.int(0, 140)}</button> <button type="button" class="comment__reply">Reply</button> <button type="button" class="comment__report">Report</button></footer></article></li>`,
    );
  }
  parts.push(
    '</ol><button type="button" class="comments__more">Load more comments</button></section>',
  );
  return parts.join('\n');
}

/** A sentence-like string of `n` words picked from a pool (for filler that must look textual). */
export function words(rng: Rng, pool: readonly string[], n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(pool));
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
