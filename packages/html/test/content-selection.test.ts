import { makeDocument } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { contentText, loadHtml } from '../src/index.js';

// Hard cases of the main-content selection, each a small page built after a failure seen
// on real news pages: what the content must hold, and what it must leave out.

function contentOf(html: string): string {
  const loaded = loadHtml(makeDocument(html));
  if (!loaded.ok) throw new Error(`not loaded: ${loaded.error}`);
  return contentText(loaded.page);
}

test('a long reader comment is not chosen over a shorter article', () => {
  const text = contentOf(`<html><body><header><a href="/">Home</a></header>
<div class="wrap"><article><h1>Harbour plans approved</h1>
<p>The council met on Monday evening to discuss the new plans for the harbour, which would see the old pier rebuilt.</p>
<p>Work starts in spring, and the ferry terminal should open by the end of next year, officials said.</p>
</article>
<section id="comments" class="comments"><h2>Comments</h2>
<div class="comment-item"><div class="comment-author">river_rob</div><div class="comment-body">
<p>I have lived by the harbour for forty years, and I can tell you that every plan like this one has failed, because the council never listens to the people who actually use the pier, the fishermen, the sailors, the families.</p>
<p>Back in 1998 they promised a new breakwater, and what did we get? Nothing, a few signs, a fence, and a car park that floods every winter, while the money went somewhere else entirely, as usual.</p>
<p>So forgive me, but I will believe it when I see it, and I suspect most of my neighbours, who have seen the same promises, the same drawings, the same consultations, feel the same way.</p>
</div></div></section></div></body></html>`);
  expect(text).toContain('The council met on Monday evening');
  expect(text).toContain('officials said.');
  expect(text).not.toContain('forty years');
  expect(text).not.toContain('river_rob');
});

test('a page of comments alone still reads the comments', () => {
  const text = contentOf(`<html><body><div id="comments">
<div class="comment"><p>First, a long reply to the thread, written by a reader who has thought about it, at some length, with commas.</p></div>
<div class="comment"><p>Second, another reply to the thread, by another reader, who agrees with the first, mostly, and says so.</p></div>
</div></body></html>`);
  expect(text).toContain('First, a long reply');
});

/** A story whose body sits in a `…sidebar…` layout wrapper, each paragraph with a hover card. */
function sidebarStory(card: string): string {
  const paragraph = (i: number) =>
    `<p>Paragraph ${i} of the story: the <a href="/people/${i}">finance minister</a> said on Tuesday that the budget, which had been delayed twice, would now be published in full before the end of the month.<span ${card}><a href="/people/${i}">Minister profile and biography</a> <a href="/people/${i}/articles">All articles by the minister and more</a></span></p>`;
  return `<html><body><nav><a href="/">Home</a></nav><main><article><h1>Budget delayed</h1>
<p class="lede">The long-awaited budget is late again, and this time the minister says it is for good reasons.</p>
<div class="story-sidebar-layout">${[0, 1, 2, 3].map(paragraph).join('')}</div></article>
<div class="rail"><ul><li><a href="/a">Another story</a></li><li><a href="/b">Yet another story</a></li></ul></div>
</main></body></html>`;
}

test.each([
  ['a hiding class', 'class="hover-card hidden"'],
  ['the popover attribute', 'popover'],
])(
  'hover cards hidden by %s do not make an article body in a sidebar wrapper link-dense',
  (_, card) => {
    const text = contentOf(sidebarStory(card));
    expect(text).toContain('Paragraph 0 of the story');
    expect(text).toContain('Paragraph 3 of the story');
    expect(text).not.toContain('Minister profile');
    expect(text).not.toContain('Another story');
  },
);

test('the best-scoring block is kept whatever its class says', () => {
  // The hover cards are hidden by a stylesheet the selection does not read.
  const text = contentOf(sidebarStory('class="hover-card"'));
  expect(text).toContain('Paragraph 0 of the story');
  expect(text).toContain('Paragraph 3 of the story');
  expect(text).not.toContain('Another story');
});

test('a list of linked headlines under a plain title is not kept as a heading', () => {
  const text = contentOf(`<html><body><article><h1>Aid resolution passes</h1><div class="body">
<p>The Security Council passed a resolution on Friday to boost humanitarian aid, after several delays over the last week, with thirteen votes in favour.</p>
<div class="more-on"><h2>Keep reading</h2>
<h3><a href="/a">What the latest resolution says</a></h3><h3><a href="/b">Population facing a hunger crisis</a></h3><h3><a href="/c">Toll rises as the vote is delayed</a></h3></div>
<p>The resolution calls for steps to create the conditions for a sustainable cessation of hostilities, and it passed with two abstentions, the text says.</p>
<p>Aid agencies welcomed the vote but said that the resolution alone would not be enough, and that the crossings had to open, and stay open, for the aid to reach the people who need it.</p>
<p>The next vote, on a wider text, is expected next week, diplomats said, though no date has been set and the drafts are still being discussed.</p>
</div></article></body></html>`);
  expect(text).toContain('thirteen votes in favour');
  expect(text).toContain('two abstentions');
  expect(text).not.toContain('Keep reading');
  expect(text).not.toContain('What the latest resolution says');
});

test('a short story is not widened to the teasers around it', () => {
  const text = contentOf(`<html><body><header><a href="/">Daily Post</a></header><main>
<article><h1>Library reopens</h1><div class="article-body">
<p>The town library reopened on Saturday after a six-month refit, with a new children's corner and longer opening hours.</p>
<p>About two hundred people came on the first day, the librarian said, many of them to return books borrowed before the closure.</p>
</div></article>
<section class="more"><h2>More from the Post</h2>
<div class="card"><h3><a href="/s/1">Council approves new cycle lanes on the high street</a></h3><p>Work begins in May.</p></div>
<div class="card"><h3><a href="/s/2">School wins national robotics prize for second year</a></h3><p>Pupils beat forty teams.</p></div>
<div class="card"><h3><a href="/s/3">Bakery on Mill Lane closes after ninety years of trading</a></h3><p>The owners are retiring.</p></div>
<div class="card"><h3><a href="/s/4">Bus timetable changes from next month across the county</a></h3><p>Three routes are affected.</p></div>
</section></main><footer>Copyright</footer></body></html>`);
  expect(text).toContain('The town library reopened on Saturday');
  expect(text).toContain('borrowed before the closure.');
  expect(text).not.toContain('More from the Post');
  expect(text).not.toContain('cycle lanes');
});

test('a paywall stub does not bring the most-popular lists of its article along', () => {
  const text = contentOf(`<html><body><header><a href="/">Daily Post</a></header>
<article><h1>What the budget means for you</h1>
<p class="standfirst">The chancellor's plans will change taxes for millions of households from April.</p>
<div class="paywall-stub"><p>Subscribe to read the full article.</p><a href="/subscribe">Subscribe</a></div>
<div class="most-popular"><h2>Most read</h2><ol>
<li><a href="/s/1">Council approves new cycle lanes on the high street after long debate</a></li>
<li><a href="/s/2">School wins national robotics prize for the second year running</a></li>
<li><a href="/s/3">Bakery on Mill Lane closes after ninety years of trading in town</a></li>
<li><a href="/s/4">Bus timetable changes from next month across the whole county</a></li>
</ol></div>
<ul class="trending-links"><li><a href="/s/6">Harbour plans approved by the council after a vote on Monday night</a></li><li><a href="/s/7">New ferry timetable announced for the summer season on the island</a></li><li><a href="/s/8">Hospital car park charges to rise from next year, trust confirms</a></li></ul>
</article><footer>Copyright</footer></body></html>`);
  expect(text).toContain('The chancellor');
  expect(text).not.toContain('Most read');
  expect(text).not.toContain('cycle lanes');
  expect(text).not.toContain('Harbour plans');
});

test('an appeal hidden by a utility class is left out however long it is', () => {
  const appeal =
    'We believe that everyone needs high-quality journalism, but not everyone can afford to pay for expensive subscriptions, so we keep our stories free for all. ';
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1>
<p>The Weir Street bridge reopened on Monday, eleven weeks after a lorry struck its parapet, and traffic was flowing again by the afternoon rush.</p>
<div class="support-box hidden"><h4>Support us</h4><p>${appeal.repeat(4)}</p></div>
<p>The council said that the repairs cost less than expected, and that cameras at both ends will now watch for oversized vehicles, day and night.</p>
<p>Residents welcomed the news, though some said the detour had been a useful lesson in how much traffic the old town can take.</p>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).toContain('cameras at both ends');
  expect(text).not.toContain('Support us');
  expect(text).not.toContain('high-quality journalism');
});

test('captions and picture credits are left out of a story, kept where they are the text', () => {
  const story = contentOf(`<html><body><article><h1>Bridge reopens</h1>
<figure><img src="/bridge.jpg" alt=""><figcaption>The bridge on Monday morning. Photo: J. Smith / Agency</figcaption></figure>
<p>The Weir Street bridge reopened on Monday, eleven weeks after a lorry struck its parapet, and traffic was flowing again by the afternoon rush.</p>
<p>The council said that the repairs cost less than expected, and that cameras at both ends will now watch for oversized vehicles, day and night.</p>
<div class="wp-caption"><img src="/works.jpg" alt=""><p class="wp-caption-text">Workers on the parapet in March.</p></div>
<p>Residents welcomed the news, though some said the detour had been a useful lesson in how much traffic the old town can take, and a few hoped it would stay.</p>
<p>The next repairs, to the towpath under the bridge, start in the autumn and will close the path for a month, the council said in a statement on Monday.</p>
</article></body></html>`);
  expect(story).toContain('eleven weeks after a lorry');
  expect(story).toContain('a few hoped it would stay');
  expect(story).not.toContain('Photo: J. Smith');
  expect(story).not.toContain('Workers on the parapet');
  const steps = contentOf(`<html><body><article><h1>How to build a terrarium</h1>
<p>A terrarium is a small garden under glass, and it takes an afternoon to make.</p>
${['Put a layer of gravel at the bottom of the jar', 'Add a thin layer of charcoal over the gravel', 'Fill with potting soil to a third of the height', 'Plant the smallest plants first, then the larger ones'].map((step) => `<figure><img src="/s.jpg" alt=""><figcaption>${step}, and press it down gently.</figcaption></figure>`).join('\n')}
</article></body></html>`);
  expect(steps).toContain('Put a layer of gravel');
  expect(steps).toContain('Plant the smallest plants first');
});

test("an author's note at the end of the story is left out", () => {
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1><div class="entry-content">
<p>The Weir Street bridge reopened on Monday, eleven weeks after a lorry struck its parapet, and traffic was flowing again by the afternoon rush.</p>
<p>The council said that the repairs cost less than expected, and that cameras at both ends will now watch for oversized vehicles, day and night.</p>
<p>Residents welcomed the news, though some said the detour had been a useful lesson in how much traffic the old town can take, and a few hoped it would stay.</p>
<p class="author-bio"><b>About Jane Doe:</b> Jane Doe has covered transport and the town council for the Courier since 2015, and before that wrote about farming, rivers and the weather for the weekly papers of the county.</p></div>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).toContain('a few hoped it would stay');
  expect(text).not.toContain('About Jane Doe');
  expect(text).not.toContain('covered transport');
});

test('an AMP lightbox laid out as nodisplay is not the main content', () => {
  const rating = ['Perfect', 'Very good', 'Good', 'Could be better', 'Poor']
    .map((label) => `<li><button>${label}</button></li>`)
    .join('');
  const text = contentOf(`<html><body>
<amp-lightbox id="gallery" layout="nodisplay"><div class="gallery">${`<div class="slide"><p>Rate this picture: thank you for rating, you have already rated this picture, sign in to rate the picture, see the ratings of others, share it, save it, or print it.</p><ul>${rating}</ul></div>`.repeat(12)}</div></amp-lightbox>
<article><h1>Mandarin cheesecake</h1>
<p>The creamiest cake there is, with a shortcrust base, a quark filling and mandarins on top, for a 26 cm springform pan.</p>
<p>For the base, rub the flour, sugar and butter together, press into the pan, and chill for half an hour while you make the filling.</p>
</article></body></html>`);
  expect(text).toContain('The creamiest cake there is');
  expect(text).not.toContain('Rate this picture');
});

test('the attribution of a quoted testimonial is not a caption', () => {
  const quote = (who: string) =>
    `<figure><blockquote><p>Support tickets answered in half the time, and our customers noticed within a week of the switch.</p></blockquote><figcaption>${who}</figcaption></figure>`;
  const text = contentOf(`<html><body><main><h1>What our customers say</h1>
<p>Teams of every size use the helpdesk, from two-person shops to support desks of hundreds, and these are a few of them.</p>
<p>We asked them what changed after they moved, and what they would tell a team thinking about it, and here is what they said.</p>
${quote('Leah Brandt, Head of Support, Fable Books')}
${quote('Omar Siddiqui, Director of CX, Kestrel Mobility')}
<p>Every plan includes the shared inbox, the knowledge base and the reports, and you can try any of them free for a month.</p>
<p>Moving from another helpdesk takes an afternoon: the importer brings your tickets, contacts and macros across in one go.</p>
</main></body></html>`);
  expect(text).toContain('Leah Brandt, Head of Support');
  expect(text).toContain('Omar Siddiqui');
});

/** Five paragraphs of a story, enough for the rules that only apply to a story. */
const STORY = [
  'The Weir Street bridge reopened on Monday, eleven weeks after a lorry struck its parapet, and traffic was flowing again by the afternoon rush.',
  'The council said that the repairs cost less than expected, and that cameras at both ends will now watch for oversized vehicles, day and night.',
  'Residents welcomed the news, though some said the detour had been a useful lesson in how much traffic the old town can take, and a few hoped it would stay.',
  'Shops on the high street, which lost trade while the bridge was shut, said that customers came back within hours, some of them with flowers for the workers.',
  'The next repairs, to the towpath under the bridge, start in the autumn and will close the path for a month, the council said in a statement on Monday.',
]
  .map((p) => `<p>${p}</p>`)
  .join('\n');

test('a heading over a left-out list of related links goes with the list', () => {
  const related = `<div class="more"><h3>More on this story</h3><div class="teasers">${[1, 2, 3]
    .map(
      (i) => `<div><a href="/story/${i}">Another headline about the bridge, number ${i}</a></div>`,
    )
    .join('')}</div></div>`;
  const linkList = `<h2>Read also</h2><ul>${[1, 2, 3]
    .map((i) => `<li><a href="/more/${i}">A related story about the town, part ${i}</a></li>`)
    .join('')}</ul>`;
  const text = contentOf(`<html><body><article><div class="story">${STORY}
<h2>What happens next</h2><p>The towpath closes in the autumn, and the footbridge upstream stays open throughout, the council said.</p>
${related}${linkList}</div></article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).toContain('What happens next');
  expect(text).toContain('The towpath closes in the autumn');
  expect(text).not.toContain('More on this story');
  expect(text).not.toContain('Read also');
  expect(text).not.toContain('A related story about the town');
});

test('a section title beside its short edit link keeps its heading', () => {
  const section = (title: string) =>
    `<div class="heading"><h2>${title}</h2><span class="editsection">[<a href="/edit">edit</a>]</span></div>`;
  const text = contentOf(
    `<html><body><main><div class="content">${section('History')}${STORY}${section('Geography')}${STORY.replaceAll('bridge', 'ridge')}</div></main></body></html>`,
  );
  expect(text).toContain('History');
  expect(text).toContain('Geography');
});

test('picture credits are left out of a story like captions', () => {
  const text = contentOf(`<html><body><article>
<figure><img src="/bridge.jpg" alt=""><span class="photo-credit">Agency Photos / J. Smith</span></figure>
${STORY}
<p class="image"><img src="/works.jpg" alt=""><span class="copyright">(Photo: Town Council)</span></p>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).toContain('close the path for a month');
  expect(text).not.toContain('Agency Photos');
  expect(text).not.toContain('Photo: Town Council');
});

test("an article's own footer is left out, a quote's footer is kept", () => {
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1>${STORY}
<blockquote><p>We are glad to have our bridge back, and we will not take it for granted again.</p><footer>Mary Pole, resident</footer></blockquote>
<footer class="entry-meta">This entry was posted in Transport and tagged bridge, council. Bookmark the permalink.</footer>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).toContain('Mary Pole, resident');
  expect(text).not.toContain('This entry was posted');
});

test("a story's lead in its header is read with the story", () => {
  const text = contentOf(`<html><body><article>
<header><h1>Bridge reopens</h1><p class="article-dek">Repairs to the Weir Street bridge took eleven weeks and cost less than the council expected.</p>
<span class="byline">By Ann Lee</span></header>
<div class="article-body">${STORY}</div>
<aside><p>Most read: Council tax rises, a new bakery opens, and more stories from the town.</p></aside>
</article></body></html>`);
  expect(text).toContain('Repairs to the Weir Street bridge took eleven weeks');
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).not.toContain('By Ann Lee');
  expect(text).not.toContain('Most read');
});

test('a short paragraph that is mostly a link to another story is left out', () => {
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1>${STORY}
<p><strong>Read more:</strong> <a href="/towpath">Towpath closure dates announced by the council</a></p>
<p>A spokesman said the cameras are <a href="/cameras">the same model</a> that the county uses on its other bridges, and that they record only vehicle heights.</p>
</article></body></html>`);
  expect(text).toContain('close the path for a month');
  expect(text).toContain('the same model');
  expect(text).not.toContain('Towpath closure dates');
});

test('hide and invisible utility classes hide; a print-only block is not shown', () => {
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1>${STORY}
<div class="hide"><p>Profile of the engineer: thirty years of bridges across the county and beyond.</p></div>
<p class="invisible">A line kept for the layout and never seen by a reader of the page.</p>
<div class="d-none d-print-block">This document is subject to copyright and may not be reproduced.</div>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).not.toContain('Profile of the engineer');
  expect(text).not.toContain('never seen by a reader');
  expect(text).not.toContain('subject to copyright');
});

test('a chrome word run together with another is chrome: a related-posts block goes', () => {
  const text = contentOf(`<html><body><article><h1>Bridge reopens</h1>${STORY}
<div id="jp-relatedposts" class="jp-relatedposts"><h3>Related</h3>
<div class="jp-relatedposts-post"><p>Towpath repairs start in the autumn, and walkers are asked to use the lane behind the mill.</p></div>
<div class="jp-relatedposts-post"><p>The old mill reopens as a museum of the town's river trade with a new café.</p></div></div>
</article></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
  expect(text).not.toContain('walkers are asked');
  expect(text).not.toContain('museum of the town');
});

test('an article left out whole by its class is read rather than the site name alone', () => {
  const text = contentOf(`<html><body><header><a href="/">Daily Post</a></header>
<section class="site-content"><article class="sponsored">
<h1>Ten deals worth a look this week</h1>
${STORY.replaceAll('<p>', '<p><a href="/deal">Deal of the day</a> ').replaceAll('</p>', ' <a href="/shop">Shop now at the store and see every offer of the week</a></p>')}
</article></section>
<div class="more"><article><a href="/next">Another story</a></article></div></body></html>`);
  expect(text).toContain('eleven weeks after a lorry');
});
