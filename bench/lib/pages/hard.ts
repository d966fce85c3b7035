import type { PageSpec } from './kit.js';

// Hard cases of main-content selection, reduced from the failures found on public
// evaluation sets and rewritten by hand with invented text: the shapes are real, the
// words are ours.

const HARBOUR = [
  'The harbour board voted on Tuesday to rebuild the north breakwater, ending a dispute that has run since the winter storms of last year, when waves topped the wall on four separate nights.',
  'Engineers had offered three designs. The board chose the cheapest of them, a rubble mound faced with concrete blocks, after the port’s insurers said they would not cover the fishing fleet through another season without it.',
  'Work starts in March and should take two summers, the board said, with the old wall left standing until the new one is finished so that the inner basin is never open to the sea.',
  '“We have argued about this for long enough,” said the board’s chair, Imogen Tarrant. “Every month we waited, the repair bill went up and the boats stayed in the river.”',
  'The fishing association welcomed the decision but asked for a berth to be kept free for small boats during the works, a request the board agreed to consider at its next meeting.',
];

/** A story whose every ancestor carries a layout class that a token filter would remove. */
export const hardLayoutClasses: PageSpec = {
  name: 'hard-layout-classes',
  url: 'https://www.coastpost.example/news/harbour-board-breakwater',
  contentType: 'text/html; charset=utf-8',
  title: 'News story nested in wrappers whose class names look like chrome',
  description:
    'A regional news story whose wrappers carry layout class names (`l-sidebar-fixed`, `and-w-sidebar`, `modal-enabled`, `article-overlay-handle`, `field-label-hidden`, a `native-advertising-wrapper` around the whole page), next to a real sidebar, a share bar and a related-stories list.',
  exercises: [
    'class and id tokens on ancestors are weak evidence: the story stays whole because its text scores',
    'the real sidebar, share bar and related-stories list stay out',
  ],
  build() {
    const paragraphs = HARBOUR.map((p) => `<p>${p}</p>`).join('\n');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour board backs new breakwater | Coast Post</title></head>
<body class="modal-enabled">
<div class="native-advertising-wrapper">
<header class="site-header"><a href="/">Coast Post</a><nav><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav></header>
<div class="l-sidebar-fixed and-w-sidebar">
  <div class="article-overlay-handle">
    <div class="field field-label-hidden field-name-body">
      <h1>Harbour board backs new breakwater after year of storms</h1>
      <div class="share-bar"><a href="https://social.example/share">Share</a> <a href="mailto:?subject=Harbour">Email</a></div>
${paragraphs}
    </div>
  </div>
  <div class="sidebar">
    <h2>Most read</h2>
    <ul><li><a href="/news/ferry-timetable">Ferry timetable changes for winter</a></li><li><a href="/news/school-roof">School roof repaired before term</a></li><li><a href="/news/market">Saturday market moves to the quay</a></li></ul>
  </div>
</div>
<section class="related"><h2>Related stories</h2><ul><li><a href="/news/storm-night">The night the sea came over the wall</a></li><li><a href="/news/insurers">Insurers warn the fishing fleet</a></li></ul></section>
<footer>© Coast Post</footer>
</div>
</body></html>
`;
  },
};

/** Two `<main>` elements, the first a stub; an empty `<article>` beside the story. */
export const hardStubLandmarks: PageSpec = {
  name: 'hard-stub-landmarks',
  url: 'https://journal.fieldnotes.example/2026/04/seed-library',
  contentType: 'text/html; charset=utf-8',
  title: 'Blog post whose first main and only article are empty shells',
  description:
    'A blog post where a skeleton `<main>` for a loading state comes before the real one, and the template’s only `<article>` is an empty placeholder for a newsletter widget; the post itself is in plain `<div>`s inside the second main.',
  exercises: [
    'the first `<main>` and the only `<article>` are not taken on trust: the scored block wins',
    'never an empty text when the page has text',
  ],
  build() {
    const post = [
      'Our seed library opened in the village hall two years ago with a single shoebox of bean seeds. This spring it lent out more than four hundred packets, and for the first time more seed came back in the autumn than went out.',
      'The rules are simple: take what you will grow, and bring back some seed from the best plants. We ask growers to write the variety, the year and the street on each packet, so that we know which beans have done well on the clay at the bottom of the hill.',
      'Tomatoes were the surprise of the year. A grower on Mill Lane saved seed from a yellow cherry tomato that nobody could name, and it has now been grown in eleven gardens. We have called it Mill Lane Gold until someone tells us otherwise.',
      'If you want to help, the library needs envelopes, a second filing box and volunteers for the Saturday morning sessions.',
    ];
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>What the seed library taught us | Field Notes</title></head>
<body>
<main class="skeleton" aria-busy="true"><div class="placeholder-line"></div><div class="placeholder-line"></div></main>
<article class="newsletter-slot"></article>
<main id="content">
  <div class="post">
    <div class="post-header"><h1>What the seed library taught us</h1><span class="date">12 April 2026</span></div>
    <div class="post-body">
${post.map((p) => `      <div class="para">${p}</div>`).join('\n')}
    </div>
  </div>
  <div class="tags">Tags: <a href="/tag/seeds">seeds</a>, <a href="/tag/village">village</a>, <a href="/tag/gardening">gardening</a></div>
</main>
</body></html>
`;
  },
};

/** No landmarks at all: the story, its comments, teasers and a link list in bare divs. */
export const hardNoLandmarks: PageSpec = {
  name: 'hard-no-landmarks',
  url: 'http://www.valleyweekly.test/stories/2026/bridge-reopens.html',
  contentType: 'text/html; charset=utf-8',
  title: 'Old-style news page with no main or article and paragraphs split by <br><br>',
  description:
    'A small newspaper site built without landmarks: the story is text separated by double `<br>` inside a `div#story`, followed by reader comments, a row of teasers and a long list of archive links, all in plain `<div>`s.',
  exercises: [
    'paragraphs made of `<br><br>` runs score like `<p>`s',
    'reader comments, teasers and link lists stay out of the text',
  ],
  build() {
    const story = [
      'The Weir Street bridge reopened to traffic on Friday morning, eleven weeks after a lorry struck one of its iron railings and cracked the deck beneath it.',
      'The county council said the repair cost less than feared, because the cast-iron beams underneath were sound. Only the deck and the railing had to be replaced, and the new railing was cast from a pattern taken from the old one.',
      'Shopkeepers on both banks said the closure had cost them trade, since the diversion added three miles to every journey. The council has promised to look at whether business rates can be reduced for the weeks the bridge was shut.',
      'A weight limit of seven and a half tonnes now applies, with cameras at both ends.',
    ];
    return `<!doctype html>
<html><head><meta charset="utf-8"><title>Weir Street bridge reopens - Valley Weekly</title></head>
<body>
<div id="top"><a href="/">Valley Weekly</a> | <a href="/stories/">Stories</a> | <a href="/archive/">Archive</a></div>
<div id="story">
<h1>Weir Street bridge reopens after repairs</h1>
${story.join('\n<br><br>\n')}
</div>
<div id="comments">
<h3>Comments</h3>
<div class="comment"><b>riverside_rob</b> wrote: About time too, I have been driving round by the ring road for nearly three months and it has cost me a fortune in fuel, never mind the time.</div>
<div class="comment"><b>J. Pennant</b> wrote: Pleased to see the old railing pattern kept. The new one looks just like the photographs from the opening in the last century.</div>
</div>
<div class="teasers">
<div class="teaser"><a href="/stories/2026/fete.html">Summer fete returns to the green</a></div>
<div class="teaser"><a href="/stories/2026/library.html">Library hours extended</a></div>
<div class="teaser"><a href="/stories/2026/floods.html">Flood defences tested</a></div>
</div>
<div class="archive"><a href="/archive/2026-05.html">May 2026</a> <a href="/archive/2026-04.html">April 2026</a> <a href="/archive/2026-03.html">March 2026</a> <a href="/archive/2026-02.html">February 2026</a> <a href="/archive/2026-01.html">January 2026</a></div>
</body></html>
`;
  },
};
