import type { Rng } from '../prng.js';
import {
  adSlot,
  commentThread,
  cookieBanner,
  esc,
  jsonLd,
  megaMenu,
  type PageSpec,
  siteFooter,
  slug,
  standardHead,
  trackingScripts,
} from './kit.js';

const COURIER_SECTIONS = [
  {
    name: 'News',
    groups: [
      [
        'Local',
        [
          'Riverton',
          'East Bank',
          'Harbour',
          'Old Town',
          'Northfield',
          'Courts',
          'Transport',
          'Education',
        ],
      ],
      ['Region', ['County council', 'Elections', 'Health', 'Housing', 'Weather', 'Traffic']],
    ],
  },
  {
    name: 'Business',
    groups: [
      ['Markets', ['Local firms', 'Property', 'Jobs', 'Retail', 'Port and shipping']],
      ['Money', ['Personal finance', 'Energy bills', 'Pensions', 'Tax']],
    ],
  },
  {
    name: 'Sport',
    groups: [
      ['Football', ['Riverton Rovers', 'Fixtures', 'Results', 'Transfers']],
      ['More sport', ['Rugby', 'Cricket', 'Rowing', 'Athletics', 'Schools sport']],
    ],
  },
  {
    name: 'Opinion',
    groups: [['Columnists', ['Editorials', 'Letters', 'Guest columns', 'Cartoons']]],
  },
  {
    name: 'Culture',
    groups: [
      ['Arts', ['Theatre', 'Music', 'Books', 'Film', 'Galleries']],
      ['Going out', ['Food and drink', 'Events', 'Family days out', 'Festivals']],
    ],
  },
  {
    name: 'Lifestyle',
    groups: [
      ['Living', ['Homes', 'Gardening', 'Travel', 'Motoring', 'Pets']],
      ['Health', ['Fitness', 'Wellbeing', 'Parenting']],
    ],
  },
] as const satisfies readonly {
  name: string;
  groups: readonly (readonly [string, readonly string[]])[];
}[];

const COURIER_CSS = `
:root{--brand:#8b1e3f;--ink:#1d1d1f;--rule:#d9d9de}
body{margin:0;font-family:"Source Serif",Georgia,serif;color:var(--ink)}
.masthead{display:flex;align-items:center;justify-content:space-between;padding:.5rem 1rem;border-bottom:4px solid var(--brand)}
.mega__bar{display:flex;gap:1.25rem;list-style:none;margin:0;padding:0 1rem}
.mega__panel{position:absolute;left:0;right:0;background:#fff;box-shadow:0 12px 32px rgba(0,0,0,.15)}
.mega__columns{display:grid;grid-template-columns:repeat(4,1fr);gap:2rem;padding:2rem}
.ticker{background:#111;color:#fff;font:600 .875rem/2 system-ui,sans-serif;overflow:hidden;white-space:nowrap}
.article{max-width:42rem;margin:2rem auto;padding:0 1rem}.article h1{font-size:2.5rem;line-height:1.1}
.byline{font:.9rem system-ui,sans-serif;color:#555}.figure img{width:100%;height:auto}
.ad-slot{background:#f4f4f6;display:flex;align-items:center;justify-content:center;margin:1.5rem auto}
.consent{position:fixed;bottom:0;left:0;right:0;background:#fff;box-shadow:0 -4px 24px rgba(0,0,0,.2);z-index:1000}
.related{border-top:2px solid var(--brand);border-bottom:1px solid var(--rule);padding:.75rem 0}
.sidebar{position:sticky;top:1rem}.trending ol{counter-reset:t;list-style:none;padding:0}
@media (min-width:1024px){.layout{display:grid;grid-template-columns:minmax(0,1fr) 300px;gap:3rem}}
`;

const COMMENTS: readonly (readonly [string, string])[] = [
  [
    'MargaretH',
    'Forty years I have waited for something other than the 14 bus along Quay Road. I will believe it when I see rails in the ground, but this is the first time the money has actually been voted through.',
  ],
  [
    'eastbank_dad',
    'Nobody has explained what happens to the Saturday market while they dig up Ferry Street for two years. The traders were not consulted properly, whatever the report says.',
  ],
  [
    'Tom Ridley',
    'The cost per kilometre looks high next to the Lindholm line, but that one did not need a new bridge. Read page 41 of the business case before you shout.',
  ],
  [
    'Priya S.',
    'Good news for shift workers at the hospital. The night buses are unreliable and a taxi home costs more than an hour of pay.',
  ],
  [
    'R. Okonkwo',
    'Will the trams be step-free at every stop? The report mentions "level boarding where practicable", which is council language for not everywhere.',
  ],
  [
    'harbourlights',
    'My business rates went up 9% this year and now we get a construction site outside the door. Compensation scheme details, please.',
  ],
  [
    'Jen from Northfield',
    'Why does Northfield always get the "future phase"? We were promised the same thing in 2011.',
  ],
  [
    'cycle_riverton',
    'Hope the design keeps the protected cycle lane on the bridge. The drawings in appendix C are ambiguous about the width.',
  ],
  [
    'Alan P',
    'Compare this with the park-and-ride that sits half empty. Put the money into buses that turn up.',
  ],
  [
    'Dee',
    'Count me in favour. Cities that built trams twenty years ago are not asking for their money back.',
  ],
  [
    'K. Marsh',
    'The consultation closed in January and the final vote is in March? That is fast for this council. What changed?',
  ],
  [
    'old_town_resident',
    'Overhead wires along Cathedral Street will be an eyesore. The battery sections should be extended.',
  ],
];

export const newsArticle: PageSpec = {
  name: 'news-article',
  url: 'https://www.rivertoncourier.example/news/local/2025/03/14/council-approves-river-district-tram-line',
  contentType: 'text/html; charset=utf-8',
  title: 'Local news article with a paywall-free story, comments and heavy site chrome',
  description:
    'A regional newspaper article: the council approves a tram line. The head carries meta, OpenGraph (article:*), Twitter cards and a NewsArticle + BreadcrumbList JSON-LD graph; the body has a mega-menu, breaking-news ticker, consent banner, ad slots between paragraphs, a byline with `<time>`, a lead figure, pull quote, fact box, related links, a trending sidebar, a newsletter form, twelve comments and a large footer.',
  exercises: [
    'JSON-LD NewsArticle (author, publisher logo, datePublished/dateModified, image list) inside an @graph with a BreadcrumbList',
    'byline and publish date in visible markup (`<time datetime>`) and in `article:published_time`',
    'boilerplate around the story: mega-menu, ticker, cookie banner, ads inside the article body, related links, comments, footer',
    'main-content detection when the sidebar and comments together are longer than some article paragraphs',
  ],
  build(rng: Rng) {
    const url = this.url;
    const published = '2025-03-14T06:30:00+00:00';
    const modified = '2025-03-14T11:05:00+00:00';
    const headline = 'Council approves £412m tram line for the river district after marathon vote';
    const description =
      'Riverton councillors voted 38 to 21 to build a 9.4 km tram line linking the station, the hospital and the East Bank, with construction due to start in 2027.';
    const image = 'https://cdn.rivertoncourier.example/images/2025/03/tram-render-1200x630.jpg';
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'NewsArticle',
          '@id': `${url}#article`,
          headline,
          description,
          datePublished: published,
          dateModified: modified,
          isAccessibleForFree: true,
          articleSection: 'Transport',
          keywords: ['tram', 'Riverton council', 'transport', 'East Bank', 'infrastructure'],
          wordCount: 1018,
          image: [image, 'https://cdn.rivertoncourier.example/images/2025/03/tram-render-1x1.jpg'],
          author: [
            {
              '@type': 'Person',
              name: 'Hannah Okafor',
              jobTitle: 'Transport correspondent',
              url: 'https://www.rivertoncourier.example/profile/hannah-okafor',
            },
          ],
          publisher: {
            '@type': 'NewsMediaOrganization',
            '@id': 'https://www.rivertoncourier.example/#org',
            name: 'The Riverton Courier',
            logo: {
              '@type': 'ImageObject',
              url: 'https://www.rivertoncourier.example/static/logo-600x60.png',
              width: 600,
              height: 60,
            },
          },
          mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        },
        {
          '@type': 'BreadcrumbList',
          itemListElement: [
            {
              '@type': 'ListItem',
              position: 1,
              name: 'News',
              item: 'https://www.rivertoncourier.example/news/',
            },
            {
              '@type': 'ListItem',
              position: 2,
              name: 'Local',
              item: 'https://www.rivertoncourier.example/news/local/',
            },
            {
              '@type': 'ListItem',
              position: 3,
              name: 'Transport',
              item: 'https://www.rivertoncourier.example/news/local/transport/',
            },
          ],
        },
      ],
    };
    const head = standardHead({
      title: `${headline} | The Riverton Courier`,
      description,
      canonical: url,
      siteName: 'The Riverton Courier',
      image,
      ogType: 'article',
      locale: 'en_GB',
      twitterSite: '@rivertoncourier',
      author: 'Hannah Okafor',
      keywords: 'tram, Riverton, council, transport, East Bank',
      themeColor: '#8b1e3f',
      extra: [
        `<meta property="article:published_time" content="${published}">`,
        `<meta property="article:modified_time" content="${modified}">`,
        '<meta property="article:section" content="Transport">',
        '<meta property="article:tag" content="Tram">',
        '<meta property="article:tag" content="Riverton City Council">',
        '<meta property="article:author" content="https://www.rivertoncourier.example/profile/hannah-okafor">',
        '<meta name="twitter:creator" content="@hokafor_transport">',
        '<link rel="alternate" type="application/rss+xml" title="Riverton Courier - Local news" href="https://www.rivertoncourier.example/news/local/rss">',
        '<link rel="amphtml" href="https://www.rivertoncourier.example/news/local/2025/03/14/council-approves-river-district-tram-line/amp">',
        jsonLd(graph),
      ].join('\n'),
      css: COURIER_CSS,
      assets: [
        '<link rel="preload" as="font" type="font/woff2" href="/static/fonts/source-serif-4.woff2" crossorigin>',
        '<link rel="stylesheet" href="/static/css/article.7f3a9c.css">',
        '<script src="/static/js/vendor.2b81d0.js" defer></script>',
        '<script src="/static/js/article.91cc4e.js" defer></script>',
        '<script async src="https://ads.adnetwork.example/tag/js/gpt.js"></script>',
      ].join('\n'),
    });

    const ticker = [
      'Live: Rovers 2-1 Lindholm Town (78 min)',
      'Ferry Street closed northbound until 6pm after water main burst',
      'Weather warning: gales expected on the coast overnight',
      'Schools: admissions appeals deadline extended to 4 April',
    ];

    const p = (text: string) => `<p>${text}</p>`;
    const body = [
      p(
        'Riverton will build a tram line for the first time in more than sixty years after councillors approved the £412 million plan in a vote that ran past midnight on Thursday.',
      ),
      p(
        'The 9.4 km line will run from the central station across a new bridge over the Wend to the East Bank, then north to St Aldhelm’s Hospital and the Northfield park-and-ride. The council expects construction to start in spring 2027 and the first passengers to travel in late 2030.',
      ),
      p(
        'Members voted 38 to 21 for the scheme, with two abstentions, after more than five hours of debate in which opponents argued that the cost had risen by a third since the outline plan was published in 2022.',
      ),
      adSlot('ad-inarticle-1', '300x250'),
      '<h2>What was approved</h2>',
      p(
        'The decision commits the council to the full business case, to a compulsory purchase order for 31 properties along Ferry Street and Quay Road, and to borrowing of up to £96 million, to be repaid from a workplace parking levy that begins in 2026.',
      ),
      p(
        'The rest of the money comes from a £270 million grant from the regional transport fund, which was confirmed in January, and from contributions by the hospital trust and the developers of the East Bank housing sites.',
      ),
      '<aside class="factbox"><h3>The line in numbers</h3><ul><li><strong>9.4 km</strong> of track, 2.1 km of it without overhead wires</li><li><strong>14</strong> stops, all with level boarding</li><li><strong>Every 6 minutes</strong> at peak, every 10 minutes off-peak</li><li><strong>£412m</strong> total cost, including £58m for the Wend bridge</li><li><strong>21,000</strong> passengers a day expected in the first full year</li></ul></aside>',
      p(
        'Council leader Sandra Whitlock told the chamber the line was “the most important decision this council will take in a generation”. She said: “For thirty years we have talked about fixing the river crossing and connecting the East Bank to the rest of the city. Tonight we stop talking.”',
      ),
      '<blockquote class="pullquote"><p>“For thirty years we have talked about fixing the river crossing. Tonight we stop talking.”</p><footer>— Sandra Whitlock, council leader</footer></blockquote>',
      '<h2>Objections over cost and disruption</h2>',
      p(
        'The opposition group leader, Martin Hale, said the council had “fallen in love with a picture” and that a network of bus lanes could have delivered most of the benefits for a fraction of the cost. His amendment to pause the scheme for a year and commission an independent review was defeated.',
      ),
      p(
        'Traders on Ferry Street, where the line will run down the middle of the road, have asked for a compensation scheme covering the two years of works. The council said a hardship fund of £4 million would open next year, with details to be published in the summer.',
      ),
      adSlot('ad-inarticle-2', '728x90'),
      p(
        'Residents of Northfield, which will be served only by the park-and-ride stop at the end of the line, said the area had again been left for “a future phase”. A second branch to Northfield village appears in the plan but has no funding or date.',
      ),
      '<figure class="figure"><img src="https://cdn.rivertoncourier.example/images/2025/03/ferry-street-works-960.jpg" srcset="https://cdn.rivertoncourier.example/images/2025/03/ferry-street-works-480.jpg 480w, https://cdn.rivertoncourier.example/images/2025/03/ferry-street-works-960.jpg 960w" sizes="(min-width: 42rem) 42rem, 100vw" width="960" height="540" alt="Ferry Street shops with a diversion sign in front of them" loading="lazy"><figcaption>Ferry Street, where the tracks will run down the centre of the road. <span class="credit">Photograph: Leo Brandt / Riverton Courier</span></figcaption></figure>',
      '<h2>What happens next</h2>',
      p(
        'The full business case goes to the regional transport board in June. If it is accepted, the council will appoint a contractor by the end of the year. Utility diversions along the route, which the council says cause most of the disruption on tram projects, would begin in autumn 2026.',
      ),
      p(
        'A public inquiry into the compulsory purchase order is likely. The council’s transport director, Dev Raman, said the timetable allowed for one: “We have built a year of slack into the programme because every scheme like this ends up in front of an inspector.”',
      ),
      p(
        'The council will hold drop-in sessions at the East Bank library on 2 and 9 April, and the full report is available on its website.',
      ),
      '<p class="article__correction"><em>This article was updated at 11.05am to correct the number of councillors who abstained.</em></p>',
    ].join('\n');

    const related = [
      'How the Lindholm tram changed a city centre in five years',
      'Ferry Street traders: “We were told about the tram on Facebook”',
      'Explained: what a workplace parking levy is and who pays it',
      'The Wend bridge: a crossing promised in four manifestos',
      'Letters: the tram debate divides our readers',
    ];
    const trending = [
      'Rovers sign striker on loan until the end of the season',
      'Hospital car park charges to rise by 40p from April',
      'Gales to hit the coast tonight: what you need to know',
      'New bakery chain to open three shops in Old Town',
      'Council tax bills: how much yours will rise',
      'Lost dog reunited with owner after 300-mile journey',
      'Review: a bold Macbeth at the Riverside Theatre',
      'Planning row over 12-storey flats on the harbour',
      'School places: record number of appeals expected',
      'Ferry Street closed after water main burst',
    ];

    const bodyHtml = `<body class="article-page section-news">
<a class="skip-link" href="#main">Skip to main content</a>
<div class="ticker" role="marquee" aria-label="Breaking news"><span class="ticker__label">Breaking</span><ul>${ticker.map((t) => `<li><a href="/news/live/${slug(t)}">${esc(t)}</a></li>`).join('')}</ul></div>
<header class="site-header" role="banner">
<div class="masthead"><button class="menu-toggle" aria-controls="primary-nav" aria-expanded="false">Menu</button><a href="/" class="logo"><img src="/static/logo.svg" alt="The Riverton Courier" width="240" height="32"></a><div class="masthead__tools"><a href="/subscribe" class="btn btn--subscribe">Subscribe from £1</a><a href="/login" class="btn btn--ghost">Log in</a><form action="/search" class="search" role="search"><input type="search" name="q" aria-label="Search the Courier" placeholder="Search"><button>Go</button></form></div></div>
${megaMenu(rng, COURIER_SECTIONS)}
<div class="weather-strip"><a href="/weather">Riverton 9°C, showers</a> · <a href="/traffic">Traffic and travel</a> · <a href="/epaper">Today’s paper</a></div>
</header>
${adSlot('ad-leaderboard', '970x250')}
<div class="layout">
<main id="main">
<article class="article" id="article-8812734">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/news/">News</a></li><li><a href="/news/local/">Local</a></li><li><a href="/news/local/transport/">Transport</a></li></ol></nav>
<header class="article__header">
<h1 class="article__headline">${esc(headline)}</h1>
<p class="article__standfirst">${esc(description)}</p>
<div class="byline"><img src="https://cdn.rivertoncourier.example/profiles/hannah-okafor-64.jpg" alt="" width="40" height="40" class="byline__avatar"><div>By <a rel="author" href="/profile/hannah-okafor">Hannah Okafor</a>, Transport correspondent<br><time datetime="${published}" class="published">Friday 14 March 2025, 6.30am</time> · <span class="updated">Updated <time datetime="${modified}">11.05am</time></span></div></div>
<ul class="share"><li><a href="https://chirp.example/intent/post?url=${encodeURIComponent(url)}">Share on Chirp</a></li><li><a href="https://facegram.example/share?u=${encodeURIComponent(url)}">Share on Facegram</a></li><li><a href="whatsapp://send?text=${encodeURIComponent(url)}">WhatsApp</a></li><li><button type="button" class="share__copy">Copy link</button></li></ul>
</header>
<figure class="figure figure--lead"><img src="${image}" width="1200" height="630" alt="An artist’s impression of a tram crossing a new bridge over the river Wend" fetchpriority="high"><figcaption>How the tram could look crossing the Wend. <span class="credit">Image: Riverton City Council</span></figcaption></figure>
<div class="article__body">
${body}
</div>
<footer class="article__footer"><ul class="tags"><li><a href="/topic/tram" rel="tag">Tram</a></li><li><a href="/topic/riverton-city-council" rel="tag">Riverton City Council</a></li><li><a href="/topic/east-bank" rel="tag">East Bank</a></li></ul>
<p>Have a story? Email <a href="mailto:newsdesk@rivertoncourier.example">newsdesk@rivertoncourier.example</a> or call 01632 960 412.</p></footer>
</article>
<section class="related" aria-labelledby="related-title"><h2 id="related-title">Related stories</h2><ul>${related.map((r) => `<li><a href="/news/local/${slug(r)}">${esc(r)}</a></li>`).join('')}</ul></section>
<section class="newsletter"><h2>Courier Daily</h2><p>Get the day’s top stories from Riverton in your inbox every morning.</p><form action="https://lists.rivertoncourier.example/subscribe" method="post"><label for="nl-email">Email address</label><input id="nl-email" type="email" name="email" required><input type="hidden" name="list" value="daily"><button>Sign up</button></form><p class="small">By signing up you agree to our <a href="/privacy">privacy policy</a>.</p></section>
${commentThread(rng, COMMENTS, { count: 214, date: '2025-03-14' })}
</main>
<aside class="sidebar" aria-label="Trending">
${adSlot('ad-mpu-1', '300x250')}
<section class="trending"><h2>Most read</h2><ol>${trending.map((t, i) => `<li><a href="/news/${slug(t)}"><span class="trending__n">${i + 1}</span> ${esc(t)}</a></li>`).join('')}</ol></section>
${adSlot('ad-mpu-2', '300x600')}
<section class="promo"><h2>Courier Jobs</h2><ul><li><a href="https://jobs.rivertoncourier.example/1">Staff nurse, St Aldhelm’s</a></li><li><a href="https://jobs.rivertoncourier.example/2">Site engineer, East Bank</a></li><li><a href="https://jobs.rivertoncourier.example/3">Teaching assistant, Northfield</a></li></ul></section>
</aside>
</div>
${siteFooter(
  'The Riverton Courier',
  [
    ['News', ['Local', 'Region', 'Courts', 'Transport', 'Education', 'Health', 'Weather']],
    ['Sport', ['Football', 'Rugby', 'Cricket', 'Rowing', 'Results']],
    ['Services', ['Subscribe', 'Today’s paper', 'Puzzles', 'Announcements', 'Jobs', 'Advertise']],
    ['About', ['Contact us', 'Complaints', 'Editorial standards', 'Careers', 'Terms']],
  ],
  { address: 'The Riverton Courier, 4 Quay Road, Riverton RV1 2QQ' },
)}
${cookieBanner('The Riverton Courier')}
${trackingScripts('RC-88231')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en-GB" prefix="og: https://ogp.me/ns# article: https://ogp.me/ns/article#">\n<head>\n${head}\n</head>\n${bodyHtml}\n</html>\n`;
  },
};
