import type { Rng } from '../prng.js';
import {
  adSlot,
  cookieBanner,
  esc,
  jsonLd,
  type PageSpec,
  siteFooter,
  slug,
  standardHead,
  trackingScripts,
} from './kit.js';

const FORUM_USERS = [
  ['dialed_in', 'Barista', 2211],
  ['Moka_Max', 'Member', 87],
  ['grindfinder', 'Senior member', 1460],
  ['ThePuckWhisperer', 'Moderator', 9034],
  ['lever_lover', 'Member', 312],
  ['espressoNewbie22', 'New member', 4],
  ['Ruth_B', 'Senior member', 1785],
  ['oldschoolgaggia', 'Member', 640],
  ['WDTdevotee', 'Member', 205],
  ['flowprofiler', 'Senior member', 2930],
] as const;

const POSTS: readonly string[] = [
  '<p>I have had my Brevello Duo Pro for three weeks and my shots are all over the place. Same beans (Hearth Roasting “Daybreak”, roasted 10 days ago), same dose, same grinder setting, and the shot time varies between 22 and 41 seconds. Things I have tried:</p><ul><li>Weighing in and out: 18.0 g in, aiming for 36 g out</li><li>WDT with a 0.3 mm needle tool</li><li>Levelling tool, then tamping with a calibrated tamper</li></ul><p>Grinder is a Lumo Solo, single dosing. Any idea what could cause this much variation? Photos of the puck below.</p><p><img src="https://forum.coffeegeekery.test/uploads/puck-1.jpg" alt="Wet puck with a hole near the edge" width="400" height="300"></p>',
  '<p>Channeling near the edge like that usually means uneven distribution or a basket that is too full. What basket are you using? The stock double on that machine is rated 18–20 g, but some of them are on the small side.</p><p>Also: is the grinder retaining a variable amount? Single-dose grinders can hold back 0.2–0.5 g on one shot and spit it out on the next.</p>',
  '<blockquote><p><strong>grindfinder said:</strong> Also: is the grinder retaining a variable amount?</p></blockquote><p>This. Weigh what comes out of the grinder, not what goes in. I bet your actual dose moves between 17.6 and 18.4 g.</p>',
  '<p>Good shout, I will weigh output tomorrow. Basket is the stock one. The puck is never soupy, so I do not think it is overdosed, but I will try 17.5 g.</p>',
  '<p>Before you change everything at once: temperature surfing is not a thing on a dual boiler, but <em>warm-up</em> is. The Duo Pro needs 25–30 minutes for the group to heat-soak even though the display says ready after 12. Are your slow shots the first of the day?</p>',
  '<p>Ha, now that you mention it… the 40 second shots are usually the first two in the morning. I assumed it was the grinder being cold.</p>',
  '<p>Cold grinder does matter a little (burrs expand as they warm), but a cold group is a much bigger effect. Try a blank shot or two through the portafilter first, or set the timer to switch on 30 minutes before you get up.</p><p>Here is what I log for every shot, might help:</p><pre><code>date,first_of_day,dose_in,dose_out,time_s,grind,notes\n2025-03-01,yes,18.1,36.2,38,12,slow & bitter\n2025-03-01,no,18.0,36.0,29,12,\n2025-03-02,yes,18.0,36.4,35,12,warm-up 15 min</code></pre>',
  '<p>Another vote for the warm-up theory. Also check the water: very soft water can make the pump’s over-pressure valve behave differently and your pressure gauge may read 9 bar while the puck sees less. What does the gauge say during the shot?</p>',
  '<p>Gauge sits at 9.5 bar during every shot, including the slow ones. Water is bottled, 80 ppm hardness.</p>',
  '<p>80 ppm is fine. OK, my money is on warm-up plus grinder retention. One more thing: are you purging the grinder after changing the grind setting? If you adjust and then immediately grind, the first dose is a mix of old and new settings.</p>',
  '<p>Update after a week of logging (thanks <a href="/members/flowprofiler.2930/">@flowprofiler</a> for the spreadsheet idea):</p><ol><li>Timer on 35 minutes before the first shot: first-shot time went from ~39 s to ~30 s.</li><li>Weighing grinder output: dose varied from 17.7 to 18.3 g. Now I top up or remove with a spoon.</li><li>Switched to a precision basket: less channeling, puck looks even.</li></ol><p>Shot times now 27–31 s across the day. Much happier. Marking this solved.</p>',
  '<p>Great result, and thanks for coming back with the update. That is rare! Adding this thread to the FAQ.</p>',
  '<p>Late to this, but for anyone finding it later: the Duo Pro firmware 1.4 added a “group ready” indicator that only lights up after the group is properly hot. Worth updating.</p>',
  '<p>Didn’t know about the firmware update, thanks. Is it done over USB?</p>',
  '<p>Yes, USB-C on the underside. Instructions in the <a href="https://brevello.example/support/firmware">support section</a>. Takes two minutes.</p>',
  '<p>Updated, and the indicator is nice. Confirms it takes ~28 minutes from cold in my kitchen.</p>',
  '<p>One thing nobody has mentioned: the dispersion screen. If it is partially blocked from backflushing with too much detergent, the flow can be uneven. Pull the screen once a month and soak it.</p>',
  '<p>Mine had a surprising amount of gunk after only a month. Good tip.</p>',
  '<p>For the record, I went through exactly this with a different dual boiler. 90% of the inconsistency was grinder retention. Single-dose grinders are great but you must weigh the output.</p>',
  '<p>Locking this soon as the original question is solved. Please open a new thread for other issues. Thanks all!</p>',
];

export const forumThread: PageSpec = {
  name: 'forum-thread',
  url: 'https://forum.coffeegeekery.test/threads/duo-pro-inconsistent-shot-times.41877/',
  contentType: 'text/html; charset=utf-8',
  title: 'Discussion-forum thread with twenty posts, each in its own `<article>`',
  description:
    'A thread on a coffee enthusiasts’ forum running classic forum software: breadcrumbs, thread title and tags, pagination, then twenty posts, each an `<article>` with a user card (avatar, name, title, post count), a permalink with a post number and `<time>`, the message body (paragraphs, lists, quotes of earlier posts, a code block, images, links) and like/reply buttons; signatures under some posts; a quick-reply editor; a sidebar of similar threads; and a DiscussionForumPosting JSON-LD.',
  exercises: [
    'many sibling `<article>` elements: main-content detection must keep all posts, not pick one',
    'quoted earlier posts (`<blockquote>` with “X said:”) inside replies',
    'user cards, signatures, reaction bars and post numbers repeated per post (boilerplate inside the content area)',
    'JSON-LD DiscussionForumPosting with `comment` entries and interactionStatistic',
  ],
  build(rng: Rng) {
    const url = this.url;
    const title = 'Duo Pro: inconsistent shot times (22–41 s) with the same recipe [SOLVED]';
    const posts = POSTS.map((html, i) => {
      const user =
        i === 0
          ? FORUM_USERS[5]
          : i === 3 || i === 5 || i === 8 || i === 10 || i === 13 || i === 15
            ? FORUM_USERS[5]
            : FORUM_USERS[(i * 3 + 1) % FORUM_USERS.length];
      const [name, role, count] = user as (typeof FORUM_USERS)[number];
      const day = 1 + Math.floor(i / 3);
      const time = `2025-03-${String(day).padStart(2, '0')}T${String(7 + ((i * 5) % 14)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00+0000`;
      const id = 1_204_000 + i * 37;
      const signature = rng.chance(0.35)
        ? `<aside class="message-signature"><div class="bbWrapper">${esc(rng.pick(['Brevello Duo Pro | Lumo Solo | too many tampers', 'Lever machines forever. Gaggia Classic (1998) in the cupboard.', 'Home roasting since 2016 – ask me about drum roasters', 'Currently dialling in: anything from Little Owl']))}</div></aside>`
        : '';
      return `<article class="message message--post" data-author="${name}" data-content="post-${id}" id="js-post-${id}" itemscope itemtype="https://schema.org/Comment">
<div class="message-inner"><div class="message-cell message-cell--user"><section class="message-user" aria-label="${name}"><div class="message-avatar"><a href="/members/${slug(name)}.${count}/" class="avatar"><img src="https://forum.coffeegeekery.test/data/avatars/m/${count % 97}/${count}.jpg" alt="${name}" width="96" height="96" loading="lazy"></a></div>
<div class="message-userDetails"><h4 class="message-name"><a href="/members/${slug(name)}.${count}/" class="username" itemprop="author">${name}</a></h4><h5 class="userTitle">${role}</h5></div>
<div class="message-userExtras"><dl class="pairs"><dt>Joined</dt><dd>${rng.pick(['Jan 2016', 'Jun 2019', 'Nov 2021', 'Feb 2025', 'Aug 2018'])}</dd></dl><dl class="pairs"><dt>Messages</dt><dd>${count.toString().replace(/\B(?=(\d{3})+$)/g, ',')}</dd></dl><dl class="pairs"><dt>Location</dt><dd>${rng.pick(['Leeds, UK', 'Portland, OR', 'Melbourne', 'Utrecht', 'Toronto'])}</dd></dl></div></section></div>
<div class="message-cell message-cell--main"><header class="message-attribution"><ul class="message-attribution-main"><li><a href="/threads/duo-pro-inconsistent-shot-times.41877/post-${id}" class="u-concealed" rel="nofollow"><time class="u-dt" datetime="${time}" itemprop="datePublished">${time.slice(0, 10)}</time></a></li></ul><ul class="message-attribution-opposite"><li><a href="/threads/duo-pro-inconsistent-shot-times.41877/post-${id}" rel="nofollow">#${i + 1}</a></li><li><a href="/posts/${id}/share" class="share">Share</a></li></ul></header>
<div class="message-content"><div class="message-userContent"><div class="bbWrapper" itemprop="text">${html}</div></div>${signature}</div>
<footer class="message-footer"><div class="message-actionBar"><a href="/posts/${id}/react?reaction_id=1" class="reaction">Like</a> <a href="/threads/duo-pro-inconsistent-shot-times.41877/reply?quote=${id}" class="reply">Reply</a> <a href="/posts/${id}/report" class="report">Report</a></div>${i % 4 === 1 ? `<div class="reactionsBar"><a href="/posts/${id}/reactions">${rng.pick(FORUM_USERS)[0]}, ${rng.pick(FORUM_USERS)[0]} and ${rng.int(2, 19)} others</a></div>` : ''}</footer></div></div>
</article>${i === 4 ? adSlot('ad-thread-1', '728x90', 'Sponsored') : ''}`;
    });
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'DiscussionForumPosting',
      '@id': url,
      headline: title,
      url,
      datePublished: '2025-03-01T07:00:00+00:00',
      dateModified: '2025-03-07T19:13:00+00:00',
      author: {
        '@type': 'Person',
        name: 'espressoNewbie22',
        url: 'https://forum.coffeegeekery.test/members/espressonewbie22.4/',
      },
      articleSection: 'Espresso machines',
      text: 'I have had my Brevello Duo Pro for three weeks and my shots are all over the place…',
      interactionStatistic: [
        {
          '@type': 'InteractionCounter',
          interactionType: 'https://schema.org/CommentAction',
          userInteractionCount: 19,
        },
        {
          '@type': 'InteractionCounter',
          interactionType: 'https://schema.org/ViewAction',
          userInteractionCount: 4122,
        },
      ],
      comment: [1, 2, 4].map((i) => ({
        '@type': 'Comment',
        author: { '@type': 'Person', name: FORUM_USERS[(i * 3 + 1) % FORUM_USERS.length]?.[0] },
        datePublished: '2025-03-01T09:00:00+00:00',
        text: (POSTS[i] as string)
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 200),
      })),
    };
    const head = standardHead({
      title: `${title} | Coffee Geekery Forum`,
      description:
        'I have had my Brevello Duo Pro for three weeks and my shots are all over the place. Same beans, same dose, same grinder setting, and the shot time varies between 22 and 41 seconds.',
      canonical: url,
      siteName: 'Coffee Geekery Forum',
      image: 'https://forum.coffeegeekery.test/uploads/puck-1.jpg',
      twitterCard: 'summary',
      ogType: 'website',
      extra: jsonLd(ld),
      css: '.message{display:block;border:1px solid #dfe3e8;margin-bottom:1rem;background:#fff}.message-inner{display:flex}.message-cell--user{width:140px;background:#f5f7fa;text-align:center}.message-cell--main{flex:1;padding:1rem}.bbWrapper blockquote{border-left:3px solid #47a7eb;background:#f5f9fc;padding:.5rem}',
      assets:
        '<link rel="stylesheet" href="/css.php?css=public%3Anormalize.css%2Cpublic%3Acore.less%2Cpublic%3Aapp.less&amp;s=3&amp;l=1&amp;d=1741622400">\n<script src="/js/xf/preamble.min.js?_v=a1b2c3d4"></script>',
    });
    const similar = [
      'Lumo Solo retention – how much is normal?',
      'Duo Pro warm-up time from cold',
      'Precision baskets: worth it?',
      'First shot of the day always slow',
      'Firmware 1.4 for the Duo Pro',
      'Dialling in light roasts on a dual boiler',
    ];
    const pages = `<nav class="pageNav" aria-label="Pages"><ul><li class="pageNav-page pageNav-page--current"><a href="${url}">1</a></li><li class="pageNav-page"><a href="${url}page-2">2</a></li></ul><a href="${url}page-2" class="pageNav-jump pageNav-jump--next">Next</a></nav>`;
    const nodes = [
      'Espresso machines',
      'Grinders',
      'Brewing methods',
      'Home roasting',
      'Buy & sell',
      'Off topic',
    ];
    const body = `<body data-template="thread_view">
<div class="p-pageWrapper">
<header class="p-header"><a href="/" class="p-header-logo"><img src="/styles/logo.png" alt="Coffee Geekery" width="220" height="36"></a>
<nav class="p-nav"><ul class="p-nav-list"><li><a href="/" class="p-navEl-link">Home</a></li><li><a href="/forums/" class="p-navEl-link is-selected">Forums</a><ul class="menu">${nodes.map((n) => `<li><a href="/forums/${slug(n)}/">${n}</a></li>`).join('')}</ul></li><li><a href="/whats-new/">What’s new</a></li><li><a href="/reviews/">Reviews</a></li><li><a href="/members/">Members</a></li></ul>
<div class="p-navgroup"><a href="/login/" class="p-navgroup-link">Log in</a><a href="/register/" class="p-navgroup-link">Register</a><form action="/search/search" method="post" class="p-search"><input type="search" name="keywords" placeholder="Search…"></form></div></nav></header>
<div class="p-body"><div class="p-body-inner">
<ul class="p-breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/" itemprop="item"><span itemprop="name">Forums</span></a><meta itemprop="position" content="1"></li><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/equipment.3/" itemprop="item"><span itemprop="name">Equipment</span></a><meta itemprop="position" content="2"></li><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/espresso-machines.7/" itemprop="item"><span itemprop="name">Espresso machines</span></a><meta itemprop="position" content="3"></li></ul>
<div class="p-body-header"><h1 class="p-title-value"><span class="label label--green">Solved</span> ${esc(title)}</h1><div class="p-description"><ul class="listInline"><li>Thread starter <a href="/members/espressonewbie22.4/" class="username">espressoNewbie22</a></li><li>Start date <time datetime="2025-03-01T07:00:00+0000">Mar 1, 2025</time></li><li>Tags: <a href="/tags/brevello/" class="tagItem">brevello</a> <a href="/tags/channeling/" class="tagItem">channeling</a> <a href="/tags/dual-boiler/" class="tagItem">dual boiler</a></li></ul></div></div>
<div class="p-body-main p-body-main--withSidebar"><div class="p-body-content">
${pages}
<div class="block block--messages"><div class="block-container">
${posts.join('\n')}
</div></div>
${pages}
<form action="/threads/duo-pro-inconsistent-shot-times.41877/add-reply" method="post" class="block js-quickReply"><div class="block-container"><div class="message message--quickReply"><div class="message-cell--main"><div class="bbCodeEditor"><textarea name="message" placeholder="Write your reply…" aria-label="Rich text box"></textarea></div><button type="submit" class="button--primary button">Post reply</button><button type="button" class="button">Attach files</button></div></div></div></form>
<p class="blockMessage">You must <a href="/login/">log in or register</a> to reply here.</p>
</div>
<div class="p-body-sidebar"><div class="block"><h3 class="block-minorHeader">Similar threads</h3><ul>${similar.map((s) => `<li><a href="/threads/${slug(s)}.${rng.int(30000, 41000)}/">${esc(s)}</a><div class="contentRow-minor">Replies: ${rng.int(2, 80)} · ${rng.pick(['Grinders', 'Espresso machines'])}</div></li>`).join('')}</ul></div>${adSlot('ad-side', '300x250', 'Sponsored')}<div class="block"><h3 class="block-minorHeader">Share this page</h3><a href="https://chirp.example/intent/post?url=${encodeURIComponent(url)}">Chirp</a> <a href="https://facegram.example/share?u=${encodeURIComponent(url)}">Facegram</a></div></div>
</div></div></div>
<footer class="p-footer"><div class="p-footer-inner"><ul class="p-footer-linkList"><li><a href="/misc/contact">Contact us</a></li><li><a href="/help/terms/">Terms and rules</a></li><li><a href="/help/privacy-policy/">Privacy policy</a></li><li><a href="/help/">Help</a></li><li><a href="/forums/-/index.rss" target="_blank">RSS</a></li></ul><div class="p-footer-copyright">Community platform by a forum software vendor. Content © its authors.</div></div></footer>
</div>
${cookieBanner('Coffee Geekery')}
${trackingScripts('CG-61003')}
</body>`;
    return `<!DOCTYPE html>\n<html id="XF" lang="en-US" dir="LTR" data-app="public" data-template="thread_view">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const blogPostImages: PageSpec = {
  name: 'blog-post-images',
  url: 'https://notes.mirandaholt.example/2025/01/a-winter-week-on-the-isle-of-skarra/',
  contentType: 'text/html; charset=utf-8',
  title: 'Personal travel blog post built around photographs in `<figure>`/`<figcaption>`',
  description:
    'A long-form travel post on a personal blog generated by a static site generator: a cover image, then prose alternating with fourteen photographs, each in a `<figure>` with a `<figcaption>`: plain `<img>` with `srcset`, `<picture>` with AVIF/WebP sources, a two-image gallery figure, an image inside a link, lazy-loading placeholders with `data-src`, and one decorative image with empty alt. Ends with an author box, tags, previous/next links and webmentions.',
  exercises: [
    'images with alt text and captions (markdown should keep both), `<picture>` sources, `data-src` lazy images with a tiny placeholder `src`',
    'a `<figure>` holding two images and one caption',
    'BlogPosting JSON-LD with an ImageObject array; og:image with width/height/alt',
    'footnotes (`<sup><a href="#fn1">`) and a footnotes list at the end',
  ],
  build(rng: Rng) {
    const url = this.url;
    const cdn = 'https://notes.mirandaholt.example/img/skarra';
    const photos = [
      [
        'ferry',
        'The ferry leaving Portmhor in the blue hour, with snow on the hills behind the harbour',
      ],
      ['croft', 'A whitewashed croft house with a red tin roof beside a frozen loch'],
      ['otter', 'An otter on seaweed-covered rocks, looking towards the camera'],
      ['beach', 'A long white-sand beach under low winter sun, completely empty'],
      ['storm', 'Waves breaking over the harbour wall during the Tuesday storm'],
      ['bothy', 'Inside a stone bothy: a fireplace, two bunks and a candle in a jar'],
      ['aurora', 'Faint green aurora above the lighthouse at Rubha Fada'],
      ['shop', 'The island shop’s noticeboard, covered in handwritten notes'],
      ['deer', 'Red deer hinds grazing on the moor below a snowy ridge'],
      ['harbour', 'Fishing boats tied up three deep in Portmhor harbour'],
      ['cliffs', 'Sea cliffs with fulmars gliding along the edge'],
      ['road', 'The single-track road with passing-place signs stretching into the distance'],
    ];
    const figure = (key: string, alt: string, variant: number) => {
      const caption = `<figcaption>${esc(alt.split(',')[0] as string)}. <span class="exif">${rng.pick(['35mm', '50mm', '85mm', '24mm'])} · f/${rng.pick(['2.8', '4', '5.6', '8'])} · 1/${rng.pick([60, 125, 250, 500, 1000])}s</span></figcaption>`;
      if (variant === 0)
        return `<figure class="photo"><img src="${cdn}/${key}-1200.jpg" srcset="${cdn}/${key}-600.jpg 600w, ${cdn}/${key}-1200.jpg 1200w, ${cdn}/${key}-2400.jpg 2400w" sizes="(min-width: 48rem) 48rem, 100vw" width="1200" height="800" alt="${esc(alt)}" loading="lazy" decoding="async">${caption}</figure>`;
      if (variant === 1)
        return `<figure class="photo photo--wide"><picture><source type="image/avif" srcset="${cdn}/${key}-1600.avif 1600w, ${cdn}/${key}-800.avif 800w"><source type="image/webp" srcset="${cdn}/${key}-1600.webp 1600w, ${cdn}/${key}-800.webp 800w"><img src="${cdn}/${key}-1600.jpg" width="1600" height="900" alt="${esc(alt)}" loading="lazy"></picture>${caption}</figure>`;
      if (variant === 2)
        return `<figure class="photo"><a href="${cdn}/${key}-full.jpg" class="lightbox"><img src="${cdn}/${key}-1200.jpg" width="1200" height="1500" alt="${esc(alt)}" loading="lazy"></a>${caption}</figure>`;
      return `<figure class="photo"><img class="lazyload" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="${cdn}/${key}-1200.jpg" data-srcset="${cdn}/${key}-600.jpg 600w, ${cdn}/${key}-1200.jpg 1200w" width="1200" height="800" alt="${esc(alt)}"><noscript><img src="${cdn}/${key}-1200.jpg" width="1200" height="800" alt="${esc(alt)}"></noscript>${caption}</figure>`;
    };
    const P = (t: string) => `<p>${t}</p>`;
    const parts: string[] = [
      P(
        'I went to Skarra in the first week of January because everyone told me not to. The ferry runs twice a week in winter, the one café closes until Easter, and the daylight lasts about seven hours. I wanted to see what the island is like when nobody is performing it for visitors.',
      ),
      figure('ferry', photos[0]?.[1] as string, 1),
      P(
        'The crossing took three hours instead of two because of the swell. Most of the other passengers were islanders coming home after Hogmanay with boxes of shopping, and one man with a new washing machine strapped to a trolley.',
      ),
      '<h2 id="where-i-stayed">Where I stayed</h2>',
      P(
        'I rented a croft house at the north end of the island, three miles from the harbour along a single-track road. The owner, Morag, left a note on the table with instructions for the stove, the water pump and “what to do if the power goes (it will)”.<sup id="fnref1"><a href="#fn1">1</a></sup>',
      ),
      figure('croft', photos[1]?.[1] as string, 0),
      P(
        'It did go, on the second night, for eleven hours. I read by candlelight and discovered that the stove heats the kettle in twenty minutes if you are patient.',
      ),
      '<h2 id="wildlife">Wildlife</h2>',
      P(
        'Winter is quiet for birds but good for otters, which hunt along the shore at low tide. I found one on my first morning by following tracks in the frost on the slipway.',
      ),
      figure('otter', photos[2]?.[1] as string, 2),
      P(
        'Over the week I saw otters on five days, red deer every day, a white-tailed eagle once, and a great northern diver off the harbour wall that stayed for three days.',
      ),
      `<figure class="photo-pair"><img src="${cdn}/deer-800.jpg" width="800" height="1000" alt="${esc(photos[8]?.[1] as string)}" loading="lazy"><img src="${cdn}/cliffs-800.jpg" width="800" height="1000" alt="${esc(photos[10]?.[1] as string)}" loading="lazy"><figcaption>Left: hinds on the moor below Beinn Mhor. Right: fulmars already back on the cliffs in January.</figcaption></figure>`,
      '<h2 id="weather">Weather</h2>',
      P(
        'Three days of storm, two of rain, and two perfect, still, cold days with low sun that made everything look gilded. On the first of those I walked the whole west coast, 19 km, and did not meet a single person.',
      ),
      figure('beach', photos[3]?.[1] as string, 1),
      figure('storm', photos[4]?.[1] as string, 3),
      P(
        'The Tuesday storm closed the ferry and the school. Waves came over the harbour wall every few seconds and the fishing boats were moved three deep into the inner basin.',
      ),
      figure('harbour', photos[9]?.[1] as string, 0),
      '<h2 id="the-bothy">A night in the bothy</h2>',
      P(
        'On Thursday I walked out to the bothy at Glac Mhor, four hours over rough ground. Bothies are unlocked shelters; you carry in fuel and carry out rubbish. Someone had left a bag of coal and a note: “For whoever needs it.”<sup id="fnref2"><a href="#fn2">2</a></sup>',
      ),
      figure('bothy', photos[5]?.[1] as string, 2),
      P(
        'The sky cleared after midnight and a faint aurora appeared over the lighthouse. My photographs do not do it justice; it was mostly grey to the eye, with green showing only on the camera.',
      ),
      figure('aurora', photos[6]?.[1] as string, 1),
      '<h2 id="practical-notes">Practical notes</h2>',
      '<ul><li>Book the ferry early; in winter the car deck fills up with freight.</li><li>The shop opens 10–1, Monday to Saturday. Bring what you need for Sunday.</li><li>There is no mobile signal north of the harbour. The croft had Wi-Fi, when it had power.</li><li>Bothy etiquette: leave it better than you found it.</li></ul>',
      figure('shop', photos[7]?.[1] as string, 0),
      figure('road', photos[11]?.[1] as string, 3),
      P(
        'I would go back in a heartbeat, but probably in March, when the days are longer and the café reopens.',
      ),
      `<p><img src="${cdn}/divider.svg" alt="" width="120" height="12" class="divider"></p>`,
      '<section class="footnotes" role="doc-endnotes"><h2 class="visually-hidden">Footnotes</h2><ol><li id="fn1"><p>It involved a torch, a fuse box in the byre and a phone number I could not call because there is no signal. <a href="#fnref1" role="doc-backlink">↩︎</a></p></li><li id="fn2"><p>The Mountain Bothies charity maintains most of these shelters with volunteers. <a href="#fnref2" role="doc-backlink">↩︎</a></p></li></ol></section>',
    ];
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'A winter week on the Isle of Skarra',
      datePublished: '2025-01-19T18:40:00+00:00',
      dateModified: '2025-01-21T09:02:00+00:00',
      author: {
        '@type': 'Person',
        name: 'Miranda Holt',
        url: 'https://notes.mirandaholt.example/about/',
      },
      image: photos.slice(0, 4).map(([key, alt]) => ({
        '@type': 'ImageObject',
        url: `${cdn}/${key}-1200.jpg`,
        caption: alt,
        width: 1200,
        height: 800,
      })),
      keywords: ['travel', 'Scotland', 'islands', 'winter', 'photography'],
      mainEntityOfPage: url,
    };
    const head = standardHead({
      title: 'A winter week on the Isle of Skarra · Miranda Holt',
      description:
        'Seven days on a small Hebridean island in January: storms, otters, a power cut, a night in a bothy and a faint aurora.',
      canonical: url,
      siteName: 'Miranda Holt — Notes',
      image: `${cdn}/beach-1600.jpg`,
      ogType: 'article',
      locale: 'en_GB',
      author: 'Miranda Holt',
      extra: `<meta property="og:image:alt" content="${esc(photos[3]?.[1] as string)}">\n<meta property="article:published_time" content="2025-01-19T18:40:00+00:00">\n<meta property="article:tag" content="travel">\n<meta property="article:tag" content="photography">\n<link rel="alternate" type="application/atom+xml" href="/feed.xml" title="Miranda Holt — Notes">\n<link rel="webmention" href="https://webmention.example/notes.mirandaholt.example/webmention">\n<meta name="generator" content="Eleventy v3.0.0">\n${jsonLd(ld)}`,
      css: 'body{max-width:48rem;margin:auto;padding:1rem;font:18px/1.65 Charter,Georgia,serif}figure{margin:2rem 0}figure img{width:100%;height:auto}figcaption{font-size:.85rem;color:#555}.photo-pair{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.exif{color:#999}',
      assets: '<script src="/js/lazysizes.min.js" async></script>',
    });
    const body = `<body>
<header class="site"><a href="/" class="site__name">Miranda Holt</a><nav><a href="/">Notes</a> <a href="/photos/">Photos</a> <a href="/about/">About</a> <a href="/feed.xml">Feed</a></nav></header>
<main><article class="h-entry">
<header><h1 class="p-name">A winter week on the Isle of Skarra</h1><p class="meta"><time class="dt-published" datetime="2025-01-19T18:40:00+00:00">19 January 2025</time> · <a class="p-author h-card" href="/about/">Miranda Holt</a> · ${rng.int(9, 14)} min read</p></header>
<figure class="cover"><img src="${cdn}/beach-1600.jpg" width="1600" height="900" alt="${esc(photos[3]?.[1] as string)}" fetchpriority="high"><figcaption>Tràigh Bhàn on the one calm morning.</figcaption></figure>
<div class="e-content">
${parts.join('\n')}
</div>
<footer><p class="tags">Tagged: <a href="/tags/travel/" rel="tag">travel</a>, <a href="/tags/scotland/" rel="tag">Scotland</a>, <a href="/tags/photography/" rel="tag">photography</a></p>
<div class="author-box"><img src="/img/miranda-96.jpg" alt="" width="64" height="64"><p><strong>Miranda Holt</strong> writes about walking, islands and the weather. Prints of some of these photographs are <a href="/prints/">available here</a>.</p></div>
<nav class="prev-next"><a rel="prev" href="/2024/12/the-shortest-day-on-the-ridge/">← The shortest day on the ridge</a> <a rel="next" href="/2025/02/repairing-a-thirty-year-old-tent/">Repairing a thirty-year-old tent →</a></nav></footer>
</article>
<section class="webmentions"><h2>Webmentions</h2><p>${rng.int(10, 40)} likes · ${rng.int(2, 9)} reposts</p><ul><li><a href="https://social.example/@kestrel/1138">@kestrel</a>: Those otter photos!</li><li><a href="https://blog.example.net/2025/01/island-winter">Island winters (a reply)</a></li></ul></section>
</main>
<footer class="site-footer"><p>© 2025 Miranda Holt. Words CC BY-NC 4.0; photographs all rights reserved.</p></footer>
</body>`;
    return `<!DOCTYPE html>\n<html lang="en-GB">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const blogIndex: PageSpec = {
  name: 'blog-index-rss',
  url: 'https://blog.quarrylane.example/',
  contentType: 'text/html; charset=utf-8',
  title: 'Engineering blog index with RSS/Atom/JSON feed links and twenty post cards',
  description:
    'The first page of a company engineering blog: the head advertises RSS, Atom and JSON Feed alternates; the body lists twenty post cards (each an `<article>` with title link, date, author, reading time, excerpt, tags and a thumbnail), a featured post, a tag cloud, an archive by month, a newsletter box and pagination. A Blog JSON-LD lists the posts.',
  exercises: [
    '`<link rel="alternate" type="application/rss+xml">`, Atom and JSON Feed alternates (feed discovery)',
    'a list page: many short `<article>` cards, none of them the main content on its own',
    'Blog JSON-LD with a blogPost array; rel="next" pagination',
  ],
  build(rng: Rng) {
    const titles = [
      'How we cut replication lag from minutes to seconds',
      'Moving a billion rows without downtime',
      'Why our query planner ignored the index',
      'Shipping a design system to forty teams',
      'How we halved our JavaScript bundle',
      'Server rendering, streaming and hydration costs',
      'Tracing every request without drowning in spans',
      'Alert fatigue: from 400 pages a week to 12',
      'Structured logs, sampling and the bill',
      'Our on-call handbook, annotated',
      'Postmortem: the 14 March checkout outage',
      'Kafka consumer lag and the case of the slow partition',
      'Feature flags at scale: lessons from 3,000 flags',
      'What we learned interviewing 200 engineers',
      'Building an internal developer portal',
      'Zero-downtime PostgreSQL major upgrades',
      'A year of running Rust in production',
      'Cost allocation for Kubernetes, honestly',
      'Testing payments without touching real money',
      'Accessibility audits as part of code review',
    ];
    const authors = [
      'Amara Okafor',
      'Lukas Brenner',
      'Sofia Marquez',
      'Hiroshi Tanaka',
      'Priya Raman',
      'Daniel Cho',
    ];
    const tagsPool = [
      'databases',
      'postgres',
      'frontend',
      'performance',
      'observability',
      'on-call',
      'culture',
      'hiring',
      'kafka',
      'rust',
      'kubernetes',
      'payments',
      'accessibility',
      'postmortem',
    ];
    const excerpts = [
      'A replica that is five minutes behind is a replica you cannot read from. Here is how we found the three causes and fixed each one.',
      'Our largest table had grown to 1.2 billion rows and its primary key was about to overflow. We had one weekend and no maintenance window.',
      'The index was there, the statistics were fresh, and the planner still chose a sequential scan. The answer was in a cost setting nobody had touched since 2017.',
      'Forty teams, five frameworks and one set of design tokens. What worked, what did not and what we would do again.',
    ];
    let day = 28;
    let month = 2;
    const posts = titles.map((t, i) => {
      const date = `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      day -= rng.int(3, 12);
      if (day < 1) {
        day += 28;
        month = month === 1 ? 12 : month - 1;
      }
      return {
        title: t,
        date: month > 2 && i > 3 ? date.replace('2025', '2024') : date,
        author: rng.pick(authors),
        tags: rng.sample(tagsPool, rng.int(1, 3)),
        excerpt: excerpts[i % excerpts.length] as string,
        minutes: rng.int(5, 22),
      };
    });
    const card = (p: (typeof posts)[number], featured = false) =>
      `<article class="post-card${featured ? ' post-card--featured' : ''}"><a href="/posts/${slug(p.title)}/" class="post-card__image"><img src="https://blog.quarrylane.example/images/${slug(p.title)}-640.png" alt="" width="640" height="336" loading="lazy"></a><div class="post-card__body"><ul class="post-card__tags">${p.tags.map((t) => `<li><a href="/tags/${t}/">#${t}</a></li>`).join('')}</ul><h2 class="post-card__title"><a href="/posts/${slug(p.title)}/">${esc(p.title)}</a></h2><p class="post-card__excerpt">${esc(p.excerpt)}</p><p class="post-card__meta"><img src="/authors/${slug(p.author)}.jpg" alt="" width="24" height="24"> <a href="/authors/${slug(p.author)}/">${esc(p.author)}</a> · <time datetime="${p.date}">${p.date}</time> · ${p.minutes} min read</p></div></article>`;
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'Blog',
      name: 'Quarry Lane Engineering',
      url: this.url,
      publisher: { '@type': 'Organization', name: 'Quarry Lane' },
      blogPost: posts.slice(0, 10).map((p) => ({
        '@type': 'BlogPosting',
        headline: p.title,
        datePublished: p.date,
        url: `${this.url}posts/${slug(p.title)}/`,
        author: { '@type': 'Person', name: p.author },
      })),
    };
    const head = standardHead({
      title: 'Quarry Lane Engineering Blog',
      description:
        'Stories from the engineers who build Quarry Lane: databases, infrastructure, frontend, on-call and culture.',
      canonical: this.url,
      siteName: 'Quarry Lane Engineering',
      image: 'https://blog.quarrylane.example/images/og-default.png',
      twitterSite: '@quarrylane_eng',
      extra: `<link rel="alternate" type="application/rss+xml" title="Quarry Lane Engineering (RSS)" href="https://blog.quarrylane.example/rss.xml">\n<link rel="alternate" type="application/atom+xml" title="Quarry Lane Engineering (Atom)" href="/atom.xml">\n<link rel="alternate" type="application/feed+json" title="Quarry Lane Engineering (JSON Feed)" href="/feed.json">\n<link rel="next" href="https://blog.quarrylane.example/page/2/">\n${jsonLd(ld)}`,
      css: '.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(18rem,1fr));gap:2rem}.post-card--featured{grid-column:1/-1;display:grid;grid-template-columns:1fr 1fr}.tag-cloud a{margin:.25rem;display:inline-block}',
      assets: '<link rel="stylesheet" href="/assets/blog.8c1e0f.css">',
    });
    const months = [
      'March 2025',
      'February 2025',
      'January 2025',
      'December 2024',
      'November 2024',
      'October 2024',
      'September 2024',
      'August 2024',
      'July 2024',
      'June 2024',
      'May 2024',
      'April 2024',
    ];
    const body = `<body>
<header class="blog-header"><a href="https://www.quarrylane.example/" class="brand">Quarry Lane</a> <a href="/" class="blog-name">Engineering</a><nav aria-label="Blog"><a href="/tags/databases/">Databases</a> <a href="/tags/frontend/">Frontend</a> <a href="/tags/observability/">Observability</a> <a href="/tags/culture/">Culture</a> <a href="https://www.quarrylane.example/careers">We’re hiring</a> <a href="/rss.xml" class="rss">RSS</a></nav></header>
<main>
<h1 class="visually-hidden">Latest posts</h1>
<section class="featured">${card(posts[0] as (typeof posts)[number], true)}</section>
<section class="grid" aria-label="More posts">
${posts
  .slice(1)
  .map((p) => card(p))
  .join('\n')}
</section>
<nav class="pagination" aria-label="Pagination"><span aria-current="page">1</span> <a href="/page/2/">2</a> <a href="/page/3/">3</a> … <a href="/page/14/">14</a> <a href="/page/2/" rel="next">Older posts →</a></nav>
</main>
<aside class="blog-sidebar"><section><h2>Tags</h2><p class="tag-cloud">${tagsPool.map((t) => `<a href="/tags/${t}/" style="font-size:${(0.8 + rng.next() * 0.8).toFixed(2)}rem">${t}</a>`).join(' ')}</p></section>
<section><h2>Archive</h2><ul>${months.map((m) => `<li><a href="/archive/${slug(m)}/">${m}</a> (${rng.int(1, 6)})</li>`).join('')}</ul></section>
<section class="newsletter"><h2>Get new posts by email</h2><form action="https://lists.quarrylane.example/subscribe" method="post"><input type="email" name="email" placeholder="you@example.com" aria-label="Email"><button>Subscribe</button></form><p>Or follow the <a href="/rss.xml">RSS feed</a>.</p></section></aside>
${siteFooter('Quarry Lane', [
  ['Company', ['About', 'Careers', 'Press', 'Contact']],
  ['Engineering', ['Blog', 'Open source', 'Talks', 'Tech radar']],
])}
${trackingScripts('QL-33010')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const emailNewsletter: PageSpec = {
  name: 'email-newsletter',
  url: 'https://view.mailer.brewhausdirect.example/v/2025-03-spring-sale?uid=a81f9c',
  contentType: 'text/html; charset=utf-8',
  title: 'Marketing e-mail viewed in a browser: nested layout tables and inline styles',
  description:
    'The “view in browser” copy of a retailer’s newsletter, built the way e-mail HTML is: XHTML 1.0 Transitional doctype, nested presentational tables with `width`, `bgcolor`, `align` and `cellpadding`, every style inline, Outlook conditional comments (`<!--[if mso]>`), a hidden preheader, buttons built from tables, product grids, tracked links that redirect through a click-tracking host, a 1×1 tracking pixel and an unsubscribe footer.',
  exercises: [
    'layout tables that are not data tables (the table product should not report them as data; markdown should not turn them into pipe tables)',
    'hidden preheader text (`display:none; max-height:0`), conditional comments, `<center>`',
    'click-tracking redirect URLs carrying the real target in a query parameter',
    'prices and product names in a two-column grid of nested tables',
  ],
  build(rng: Rng) {
    const track = (target: string, tag: string) =>
      `https://click.mailer.brewhausdirect.example/ls/click?upn=${rng.int(100000, 999999)}-${tag}&amp;u=${encodeURIComponent(target)}`;
    const button = (label: string, href: string) =>
      `<table role="presentation" border="0" cellpadding="0" cellspacing="0" align="center"><tr><td align="center" bgcolor="#c0563b" style="border-radius:4px;"><!--[if mso]><i style="letter-spacing:24px;mso-font-width:-100%;mso-text-raise:18pt">&nbsp;</i><![endif]--><a href="${href}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:Arial,sans-serif;font-size:16px;color:#ffffff;text-decoration:none;font-weight:bold;">${label}</a><!--[if mso]><i style="letter-spacing:24px;mso-font-width:-100%">&nbsp;</i><![endif]--></td></tr></table>`;
    const products = [
      ['Castor & Finch C64 Flat Burr Grinder', '$549.00', '$469.00'],
      ['Lumo Solo Single Dose Grinder', '$329.00', '$279.00'],
      ['Brevello 58 mm Precision Tamper', '$39.95', '$29.95'],
      ['Hearth Roasting “Daybreak” 1 kg', '$42.00', '$35.70'],
      ['Milk jug set (350 / 600 ml)', '$34.00', '$27.20'],
      ['Descaler, lactic acid, 2 × 500 ml', '$24.00', '$19.20'],
    ];
    const cell = ([name, was, now]: string[]) =>
      `<td class="col" width="50%" valign="top" style="padding:10px;"><table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0"><tr><td><a href="${track(`https://www.brewhausdirect.example/products/${slug(name as string)}`, 'p')}"><img src="https://cdn.brewhausdirect.example/email/2025-03/${slug(name as string)}-280.jpg" width="260" height="260" alt="${esc(name as string)}" style="display:block;width:100%;max-width:260px;height:auto;border:0;"></a></td></tr><tr><td style="font-family:Arial,sans-serif;font-size:15px;line-height:20px;color:#3b2a20;padding-top:8px;"><strong>${esc(name as string)}</strong></td></tr><tr><td style="font-family:Arial,sans-serif;font-size:15px;color:#3b2a20;"><s style="color:#999999;">${was}</s>&nbsp;<strong style="color:#c0563b;">${now}</strong></td></tr></table></td>`;
    const rows: string[] = [];
    for (let i = 0; i < products.length; i += 2)
      rows.push(`<tr>${cell(products[i] as string[])}${cell(products[i + 1] as string[])}</tr>`);
    const html = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" />
<meta name="x-apple-disable-message-reformatting" />
<meta name="format-detection" content="telephone=no, date=no, address=no, email=no" />
<title>Spring sale: up to 25% off grinders ☕</title>
<!--[if mso]><noscript><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><![endif]-->
<style type="text/css">
body,table,td,a{-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%}table,td{mso-table-lspace:0pt;mso-table-rspace:0pt}img{-ms-interpolation-mode:bicubic}
@media screen and (max-width:600px){.col{display:block!important;width:100%!important}.hide-mobile{display:none!important}}
</style>
</head>
<body style="margin:0;padding:0;background-color:#f4efe9;">
<div style="display:none;font-size:1px;color:#f4efe9;line-height:1px;max-height:0px;max-width:0px;opacity:0;overflow:hidden;">Grinders, tampers and beans up to 25% off until Sunday. Plus: our new guide to dialling in light roasts.&#847;&zwnj;&nbsp;&#847;&zwnj;&nbsp;&#847;&zwnj;&nbsp;&#847;&zwnj;&nbsp;&#847;&zwnj;&nbsp;</div>
<center style="width:100%;background-color:#f4efe9;">
<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" bgcolor="#f4efe9"><tr><td align="center" style="padding:10px;">
<table role="presentation" width="600" border="0" cellpadding="0" cellspacing="0" style="max-width:600px;"><tr><td align="right" style="font-family:Arial,sans-serif;font-size:12px;color:#7a6a5e;padding:8px 0;">Trouble viewing this email? <a href="${track('https://view.mailer.brewhausdirect.example/v/2025-03-spring-sale', 'vib')}" style="color:#7a6a5e;">View it in your browser</a></td></tr></table>
<table role="presentation" width="600" border="0" cellpadding="0" cellspacing="0" bgcolor="#ffffff" style="max-width:600px;background:#ffffff;">
<tr><td align="center" style="padding:24px 0;" bgcolor="#3b2a20"><a href="${track('https://www.brewhausdirect.example/', 'logo')}"><img src="https://cdn.brewhausdirect.example/email/logo-white-360.png" width="180" height="40" alt="Brewhaus Direct" style="display:block;border:0;" /></a></td></tr>
<tr><td><a href="${track('https://www.brewhausdirect.example/deals/spring-sale', 'hero')}"><img src="https://cdn.brewhausdirect.example/email/2025-03/hero-1200.jpg" width="600" height="320" alt="Spring sale: up to 25% off grinders, tampers and beans" style="display:block;width:100%;height:auto;border:0;" /></a></td></tr>
<tr><td style="padding:32px 40px 8px;font-family:Georgia,serif;font-size:28px;line-height:34px;color:#3b2a20;" align="center">Spring clean your coffee setup</td></tr>
<tr><td style="padding:0 40px 24px;font-family:Arial,sans-serif;font-size:16px;line-height:24px;color:#3b2a20;" align="center">Hi Sam, our spring sale is on until <strong>Sunday 23 March</strong>. Grinders are up to 25% off, and every order over $49 ships free. If you have been waiting to upgrade from a blade grinder, this is the week.</td></tr>
<tr><td style="padding:0 0 32px;">${button('Shop the sale', track('https://www.brewhausdirect.example/deals/spring-sale', 'cta1'))}</td></tr>
<tr><td style="padding:0 30px;"><table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0">${rows.join('')}</table></td></tr>
<tr><td style="padding:32px 40px 0;"><table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" bgcolor="#f8f3ee"><tr><td class="hide-mobile" width="160" valign="top" style="padding:20px;"><img src="https://cdn.brewhausdirect.example/email/2025-03/guide-160.jpg" width="120" height="120" alt="" style="display:block;border:0;" /></td><td valign="top" style="padding:20px;font-family:Arial,sans-serif;font-size:15px;line-height:22px;color:#3b2a20;"><strong style="font-size:18px;">New guide: dialling in light roasts</strong><br />Light roasts need a finer grind, a hotter brew and more patience. Our barista Jo walks through her method step by step.<br /><a href="${track('https://www.brewhausdirect.example/guides/dialling-in-light-roasts', 'guide')}" style="color:#c0563b;font-weight:bold;">Read the guide →</a></td></tr></table></td></tr>
<tr><td style="padding:32px 0;">${button('See all deals', track('https://www.brewhausdirect.example/deals', 'cta2'))}</td></tr>
<tr><td bgcolor="#3b2a20" style="padding:24px 40px;font-family:Arial,sans-serif;font-size:12px;line-height:18px;color:#e8ddd3;" align="center">
<a href="${track('https://chirp.example/brewhausdirect', 's1')}" style="color:#e8ddd3;">Chirp</a> &nbsp;|&nbsp; <a href="${track('https://facegram.example/brewhausdirect', 's2')}" style="color:#e8ddd3;">Facegram</a> &nbsp;|&nbsp; <a href="${track('https://vidtube.example/@brewhausdirect', 's3')}" style="color:#e8ddd3;">VidTube</a><br /><br />
Sale ends 11:59 pm PT on 23 March 2025. Discounts shown on the site at checkout. Free shipping to the contiguous US on orders over $49.<br /><br />
You are receiving this because you signed up at brewhausdirect.example. <a href="https://mailer.brewhausdirect.example/unsubscribe?u=a81f9c&amp;l=news" style="color:#e8ddd3;">Unsubscribe</a> · <a href="https://mailer.brewhausdirect.example/preferences?u=a81f9c" style="color:#e8ddd3;">Email preferences</a><br />
Brewhaus Direct, 1200 Roaster Way, Unit 4, Portland, OR 97200</td></tr>
</table>
</td></tr></table>
</center>
<img src="https://open.mailer.brewhausdirect.example/o/a81f9c/2025-03-spring-sale.gif" width="1" height="1" alt="" style="display:block;height:1px;width:1px;border:0;" />
</body>
</html>
`;
    return html;
  },
};
