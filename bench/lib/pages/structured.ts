import type { Rng } from '../prng.js';
import {
  adSlot,
  commentThread,
  cookieBanner,
  esc,
  jsonLd,
  type PageSpec,
  siteFooter,
  slug,
  standardHead,
  trackingScripts,
} from './kit.js';

const BLOG_NAV = [
  'Recipes',
  'Weeknight dinners',
  'Baking',
  'Vegetarian',
  'Seasonal',
  'Meal plans',
  'About',
  'Shop',
];

function foodBlogHeader(site: string, nav: readonly string[]): string {
  return `<header class="site-header"><div class="wrap"><a class="site-title" href="/" rel="home">${esc(site)}</a><p class="site-description">Honest home cooking, tested twice</p>
<nav class="nav-primary" aria-label="Main"><ul class="menu">${nav
    .map(
      (n) =>
        `<li class="menu-item menu-item-has-children"><a href="/${slug(n)}/">${esc(n)}</a><ul class="sub-menu">${['Quick', 'Easy', 'Make-ahead', 'Freezer-friendly', 'Budget'].map((s) => `<li class="menu-item"><a href="/${slug(n)}/${slug(s)}/">${s} ${esc(n.toLowerCase())}</a></li>`).join('')}</ul></li>`,
    )
    .join('')}</ul></nav>
<form class="search-form" role="search" action="/"><label><span class="screen-reader-text">Search for:</span><input type="search" name="s" placeholder="Search recipes…"></label><button type="submit">Search</button></form></div></header>`;
}

function wordpressAssets(prefix: string): string {
  return [
    `<link rel="stylesheet" id="wp-block-library-css" href="https://${prefix}/wp-includes/css/dist/block-library/style.min.css?ver=6.7.2" media="all">`,
    `<link rel="stylesheet" id="theme-css" href="https://${prefix}/wp-content/themes/kitchen-child/style.css?ver=3.1.4" media="all">`,
    `<link rel="stylesheet" id="recipe-card-css" href="https://${prefix}/wp-content/plugins/recipe-card/dist/public.css?ver=9.8.1" media="all">`,
    `<script src="https://${prefix}/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>`,
    `<link rel="https://api.w.org/" href="https://${prefix}/wp-json/">`,
    `<link rel="EditURI" type="application/rsd+xml" title="RSD" href="https://${prefix}/xmlrpc.php?rsd">`,
    '<meta name="generator" content="WordPress 6.7.2">',
    `<link rel="shortlink" href="https://${prefix}/?p=${prefix.length * 977}">`,
  ].join('\n');
}

const RECIPE_COMMENTS: readonly (readonly [string, string])[] = [
  [
    'Anna',
    '★★★★★ Made this twice now. The second time I used chicken thighs instead of breast and cooked them 4 minutes longer. Perfect.',
  ],
  ['Joe M.', 'Can I use dried thyme? I only have fresh rosemary.'],
  [
    'Saltwater Kitchen',
    'Hi Joe, yes: use 1 teaspoon of dried thyme instead of the tablespoon of fresh. Rosemary works too, just chop it very finely.',
  ],
  [
    'Beth',
    '★★★★☆ Lovely, but my sauce split when I added the cream straight from the fridge. Next time I will warm it first.',
  ],
  [
    'Carlos R.',
    '★★★★★ Served with rice and green beans. The kids asked for seconds, which never happens.',
  ],
  ['Helen', 'Is the nutrition info per serving with or without the potatoes?'],
  [
    'Saltwater Kitchen',
    'Per serving of the chicken and sauce only, Helen. I have added a note to the card.',
  ],
  ['Priya', '★★★★★ Doubled the garlic. No regrets.'],
];

export const recipePage: PageSpec = {
  name: 'recipe',
  url: 'https://www.saltwaterkitchen.test/creamy-lemon-garlic-chicken/',
  contentType: 'text/html; charset=UTF-8',
  title:
    'Food blog recipe post with a long preamble, a recipe card and a Yoast-style JSON-LD graph',
  description:
    'A WordPress food blog post: several screens of personal preamble with step photos and ad slots, a “Jump to recipe” link, then a recipe card plugin block (ingredients with amounts and units, numbered instructions, notes, nutrition, rating) and reader comments with star ratings. The JSON-LD is one @graph holding WebSite, WebPage, Article, Person, BreadcrumbList and Recipe nodes linked by @id.',
  exercises: [
    'JSON-LD Recipe inside an @graph, referenced from the Article by @id (recipeIngredient, recipeInstructions as HowToSection/HowToStep, ISO-8601 durations PT15M, nutrition, aggregateRating, recipeYield as a list)',
    'long preamble before the real content; ads between paragraphs; pinning buttons on images',
    'recipe card markup with fractions (½, ¼) and units in separate spans',
    'comments that contain star characters and a reply from the author',
  ],
  build(rng: Rng) {
    const url = this.url;
    const site = 'https://www.saltwaterkitchen.test/';
    const title = 'Creamy Lemon Garlic Chicken (30 Minutes, One Pan)';
    const image =
      'https://www.saltwaterkitchen.test/wp-content/uploads/2025/02/creamy-lemon-garlic-chicken-1200x1200.jpg';
    const ingredients = [
      ['4', '', 'boneless skinless chicken breasts', '(about 1.5 lb / 680 g)'],
      ['1', 'teaspoon', 'fine sea salt', ''],
      ['½', 'teaspoon', 'black pepper', ''],
      ['2', 'tablespoons', 'olive oil', ''],
      ['2', 'tablespoons', 'unsalted butter', ''],
      ['6', 'cloves', 'garlic', 'finely chopped'],
      ['¾', 'cup', 'chicken stock', '(180 ml)'],
      ['¾', 'cup', 'heavy cream', 'at room temperature'],
      ['1', '', 'lemon', 'zest and 2 tablespoons juice'],
      ['1', 'tablespoon', 'fresh thyme leaves', 'or 1 teaspoon dried'],
      ['⅓', 'cup', 'grated Parmesan', '(30 g)'],
      ['2', 'tablespoons', 'chopped parsley', 'to serve'],
    ] as const;
    const steps = [
      [
        'Prepare the chicken',
        'Pat the chicken dry. If the breasts are thicker than 1 inch, slice them in half horizontally. Season both sides with the salt and pepper.',
      ],
      [
        'Sear',
        'Heat the oil in a large skillet over medium-high heat. Cook the chicken for 5–6 minutes per side until golden and cooked through (165 °F / 74 °C). Transfer to a plate.',
      ],
      [
        'Start the sauce',
        'Lower the heat to medium. Melt the butter in the same pan, add the garlic and cook for 30 seconds until fragrant, scraping up the browned bits.',
      ],
      [
        'Simmer',
        'Pour in the stock and lemon juice and simmer for 2 minutes. Stir in the cream, thyme and lemon zest and simmer for 3–4 minutes until slightly thickened.',
      ],
      [
        'Finish',
        'Stir in the Parmesan. Return the chicken and any juices to the pan and spoon the sauce over. Simmer for 1 minute, scatter with parsley and serve.',
      ],
    ] as const;
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'WebSite',
          '@id': `${site}#website`,
          url: site,
          name: 'Saltwater Kitchen',
          inLanguage: 'en-US',
        },
        {
          '@type': 'WebPage',
          '@id': url,
          url,
          name: `${title} - Saltwater Kitchen`,
          isPartOf: { '@id': `${site}#website` },
          primaryImageOfPage: { '@id': `${url}#primaryimage` },
          datePublished: '2025-02-11T14:02:37+00:00',
          dateModified: '2025-03-02T09:15:04+00:00',
          breadcrumb: { '@id': `${url}#breadcrumb` },
        },
        {
          '@type': 'ImageObject',
          '@id': `${url}#primaryimage`,
          url: image,
          width: 1200,
          height: 1200,
        },
        {
          '@type': 'Article',
          '@id': `${url}#article`,
          isPartOf: { '@id': url },
          author: { '@id': `${site}#/schema/person/mara` },
          headline: title,
          datePublished: '2025-02-11T14:02:37+00:00',
          dateModified: '2025-03-02T09:15:04+00:00',
          wordCount: 1240,
          commentCount: 86,
          mainEntityOfPage: { '@id': url },
          image: { '@id': `${url}#primaryimage` },
          articleSection: ['Chicken', 'Weeknight dinners'],
        },
        {
          '@type': 'Person',
          '@id': `${site}#/schema/person/mara`,
          name: 'Mara Quinlan',
          url: `${site}about/`,
        },
        {
          '@type': 'BreadcrumbList',
          '@id': `${url}#breadcrumb`,
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Home', item: site },
            {
              '@type': 'ListItem',
              position: 2,
              name: 'Weeknight dinners',
              item: `${site}weeknight-dinners/`,
            },
            { '@type': 'ListItem', position: 3, name: title },
          ],
        },
        {
          '@type': 'Recipe',
          '@id': `${url}#recipe`,
          isPartOf: { '@id': `${url}#article` },
          mainEntityOfPage: url,
          name: 'Creamy Lemon Garlic Chicken',
          author: { '@id': `${site}#/schema/person/mara` },
          description:
            'Pan-seared chicken breasts in a lemony garlic cream sauce with Parmesan and thyme. Ready in 30 minutes in one pan.',
          datePublished: '2025-02-11T14:02:37+00:00',
          image: [
            image,
            image.replace('1200x1200', '1200x900'),
            image.replace('1200x1200', '1200x675'),
          ],
          recipeYield: ['4', '4 servings'],
          prepTime: 'PT10M',
          cookTime: 'PT20M',
          totalTime: 'PT30M',
          recipeCategory: ['Main course'],
          recipeCuisine: ['American'],
          keywords: 'lemon garlic chicken, creamy chicken, one pan dinner',
          recipeIngredient: ingredients.map(
            ([a, u, n, note]) => [a, u, n].filter(Boolean).join(' ') + (note ? ` ${note}` : ''),
          ),
          recipeInstructions: [
            {
              '@type': 'HowToSection',
              name: 'Chicken',
              itemListElement: steps.slice(0, 2).map(([name, text], i) => ({
                '@type': 'HowToStep',
                name,
                text,
                url: `${url}#step-${i + 1}`,
              })),
            },
            {
              '@type': 'HowToSection',
              name: 'Sauce',
              itemListElement: steps.slice(2).map(([name, text], i) => ({
                '@type': 'HowToStep',
                name,
                text,
                url: `${url}#step-${i + 3}`,
              })),
            },
          ],
          nutrition: {
            '@type': 'NutritionInformation',
            servingSize: '1 serving',
            calories: '472 kcal',
            carbohydrateContent: '5 g',
            proteinContent: '41 g',
            fatContent: '31 g',
            saturatedFatContent: '16 g',
            sodiumContent: '912 mg',
            sugarContent: '1 g',
          },
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.86', ratingCount: '57' },
          video: {
            '@type': 'VideoObject',
            name: 'Creamy Lemon Garlic Chicken',
            description: 'How to make creamy lemon garlic chicken in one pan.',
            thumbnailUrl: image,
            contentUrl: 'https://videos.saltwaterkitchen.test/lemon-garlic-chicken.mp4',
            uploadDate: '2025-02-11T14:00:00+00:00',
            duration: 'PT1M12S',
          },
        },
      ],
    };
    const head = standardHead({
      title: `${title} - Saltwater Kitchen`,
      description:
        'Juicy pan-seared chicken in a creamy lemon garlic sauce with Parmesan and thyme. One pan, 30 minutes, and a sauce you will want to drink.',
      canonical: url,
      siteName: 'Saltwater Kitchen',
      image,
      ogType: 'article',
      charset: 'UTF-8',
      author: 'Mara Quinlan',
      twitterSite: '@saltwaterkitchn',
      extra: [
        '<meta property="article:published_time" content="2025-02-11T14:02:37+00:00">',
        '<meta property="article:modified_time" content="2025-03-02T09:15:04+00:00">',
        '<meta name="pinterest-rich-pin" content="true">',
        `<script type="application/ld+json" class="yoast-schema-graph">${JSON.stringify(graph)}</script>`,
      ].join('\n'),
      css: '.recipe-card{border:2px solid #e4d8c8;border-radius:8px;padding:1.5rem;margin:2rem 0}.recipe-card__times{display:flex;gap:1.5rem}.jump{display:inline-block;background:#c0563b;color:#fff;padding:.5rem 1rem;border-radius:4px}.pin{position:absolute;top:8px;left:8px}',
      assets: wordpressAssets('www.saltwaterkitchen.test'),
    });
    const para = (t: string) => `<p>${t}</p>`;
    const stepImage = (n: number, alt: string) =>
      `<figure class="wp-block-image size-full"><img decoding="async" src="https://www.saltwaterkitchen.test/wp-content/uploads/2025/02/lemon-chicken-step-${n}.jpg" alt="${esc(alt)}" width="800" height="1000" class="wp-image-${18200 + n}" data-pin-description="${esc(alt)}"><a class="pin" href="https://pinboard.example/pin/create?url=${encodeURIComponent(url)}">Save</a></figure>`;
    const preamble = [
      para(
        'There is a particular kind of Tuesday that calls for this chicken. You got home late, the fridge is mostly condiments, and someone has already asked what is for dinner twice. This is the recipe I make on those nights, and it has never once let me down.',
      ),
      para(
        'It is one pan, it takes half an hour, and the sauce is the kind of thing you want to mop up with bread. Lemon keeps it bright so the cream never feels heavy, and a handful of Parmesan pulls everything together.',
      ),
      '<p><a class="jump" href="#recipe">Jump to Recipe</a> <a class="print" href="/wprm_print/creamy-lemon-garlic-chicken">Print Recipe</a></p>',
      adSlot('ad-content-1', '300x250'),
      '<h2 class="wp-block-heading">Why you will love this recipe</h2>',
      '<ul class="wp-block-list"><li><strong>Fast:</strong> 30 minutes from fridge to table.</li><li><strong>One pan:</strong> the chicken and the sauce share a skillet, so the browned bits flavour everything.</li><li><strong>Pantry-friendly:</strong> garlic, a lemon, stock and cream are all you need beyond the chicken.</li><li><strong>Flexible:</strong> it works with thighs, with half-and-half, even with a splash of white wine.</li></ul>',
      '<h2 class="wp-block-heading">Ingredient notes</h2>',
      para(
        '<strong>Chicken:</strong> I use boneless breasts and slice the thick ones in half so they cook evenly. Thighs are more forgiving; add 3–4 minutes per side.',
      ),
      para(
        '<strong>Cream:</strong> heavy cream is the most stable. If you use half-and-half, keep the heat low once it goes in so the sauce does not split.',
      ),
      para(
        '<strong>Lemon:</strong> both zest and juice. The zest carries most of the flavour; the juice adds the sharpness.',
      ),
      stepImage(1, 'Raw chicken breasts seasoned with salt and pepper on a board'),
      adSlot('ad-content-2', '728x90'),
      '<h2 class="wp-block-heading">How to make creamy lemon garlic chicken</h2>',
      para(
        'Start by patting the chicken dry. This matters more than anything else for a golden crust: wet chicken steams. Season generously and get the pan properly hot before the chicken goes in.',
      ),
      stepImage(2, 'Chicken breasts searing in a cast iron skillet'),
      para(
        'Once both sides are golden, move the chicken to a plate. It will finish cooking in the sauce. Lower the heat before adding the butter and garlic, because garlic burns in seconds in a very hot pan.',
      ),
      stepImage(3, 'Garlic sizzling in butter'),
      para(
        'The stock and lemon juice lift the browned bits off the pan. Let them bubble for a couple of minutes before adding the cream, then simmer until the sauce coats the back of a spoon.',
      ),
      stepImage(4, 'Creamy sauce simmering with thyme'),
      adSlot('ad-content-3', '300x250'),
      '<h2 class="wp-block-heading">Serving suggestions</h2>',
      para(
        'Mashed potatoes, rice, buttered noodles or crusty bread all work. For something green, try roasted broccoli or a simple salad with a mustard dressing.',
      ),
      '<h2 class="wp-block-heading">Storing and reheating</h2>',
      para(
        'Keep leftovers in an airtight container in the fridge for up to 3 days. Reheat gently on the stove with a splash of stock; the microwave tends to make the sauce separate.',
      ),
    ].join('\n');
    const card = `<div id="recipe"></div><div class="recipe-card" id="recipe-18211" data-recipe-id="18211">
<div class="recipe-card__header"><img src="${image.replace('1200x1200', '300x300')}" alt="Creamy lemon garlic chicken in a skillet" width="150" height="150"><h2 class="recipe-card__name">Creamy Lemon Garlic Chicken</h2>
<div class="recipe-card__rating" data-rating="4.86"><span class="stars" aria-hidden="true">★★★★★</span> <span class="rating__average">4.86</span> from <span class="rating__count">57</span> votes</div>
<p class="recipe-card__summary">Pan-seared chicken breasts in a lemony garlic cream sauce with Parmesan and thyme. Ready in 30 minutes in one pan.</p>
<div class="recipe-card__buttons"><a href="/wprm_print/creamy-lemon-garlic-chicken" class="btn">Print</a> <a href="https://pinboard.example/pin/create?url=${encodeURIComponent(url)}" class="btn">Pin</a> <a href="#comment" class="btn">Rate</a></div></div>
<dl class="recipe-card__times"><div><dt>Prep Time</dt><dd><span class="recipe-card__time">10</span> mins</dd></div><div><dt>Cook Time</dt><dd><span class="recipe-card__time">20</span> mins</dd></div><div><dt>Total Time</dt><dd><span class="recipe-card__time">30</span> mins</dd></div></dl>
<dl class="recipe-card__meta"><div><dt>Course</dt><dd>Main Course</dd></div><div><dt>Cuisine</dt><dd>American</dd></div><div><dt>Servings</dt><dd><input type="number" class="servings" value="4" min="1" aria-label="Adjust servings"> servings</dd></div><div><dt>Calories</dt><dd>472 kcal</dd></div><div><dt>Author</dt><dd>Mara Quinlan</dd></div></dl>
<h3 class="recipe-card__heading">Ingredients</h3>
<p class="unit-toggle"><button class="active">US Customary</button> <button>Metric</button></p>
<ul class="recipe-card__ingredients">${ingredients.map(([a, u, n, note]) => `<li class="ingredient"><span class="ingredient__amount">${a}</span> ${u ? `<span class="ingredient__unit">${u}</span> ` : ''}<span class="ingredient__name">${esc(n)}</span>${note ? ` <span class="ingredient__notes">${esc(note)}</span>` : ''}</li>`).join('')}</ul>
<h3 class="recipe-card__heading">Instructions</h3>
<h4>Chicken</h4>
<ol class="recipe-card__instructions">${steps
      .slice(0, 2)
      .map(
        ([name, text], i) =>
          `<li id="step-${i + 1}" class="instruction"><strong>${esc(name)}.</strong> ${esc(text)}</li>`,
      )
      .join('')}</ol>
<h4>Sauce</h4>
<ol class="recipe-card__instructions" start="3">${steps
      .slice(2)
      .map(
        ([name, text], i) =>
          `<li id="step-${i + 3}" class="instruction"><strong>${esc(name)}.</strong> ${esc(text)}</li>`,
      )
      .join('')}</ol>
<h3 class="recipe-card__heading">Notes</h3>
<ul class="recipe-card__notes"><li>Nutrition is per serving of chicken and sauce, without sides.</li><li>To make it dairy-free, use full-fat coconut milk and skip the Parmesan; the sauce will be thinner.</li><li>For thighs, cook 8–9 minutes per side.</li></ul>
<h3 class="recipe-card__heading">Nutrition</h3>
<p class="recipe-card__nutrition">Calories: 472kcal | Carbohydrates: 5g | Protein: 41g | Fat: 31g | Saturated Fat: 16g | Cholesterol: 178mg | Sodium: 912mg | Potassium: 790mg | Sugar: 1g | Vitamin A: 1020IU | Calcium: 142mg | Iron: 1.6mg</p>
<p class="recipe-card__disclaimer">Nutrition information is an estimate calculated automatically.</p>
<p class="recipe-card__tried">Tried this recipe? Mention <strong>@saltwaterkitchen</strong> or tag <strong>#saltwaterkitchen</strong>!</p></div>`;
    const more = [
      'Honey garlic salmon',
      'Tuscan white bean soup',
      'Sheet pan gnocchi with sausage',
      'Lemon ricotta pasta',
      'Chicken and leek pie',
      'Crispy chickpea tacos',
    ];
    const body = `<body class="post-template-default single single-post postid-18211 single-format-standard">
<a class="skip-link screen-reader-text" href="#genesis-content">Skip to main content</a>
${foodBlogHeader('Saltwater Kitchen', BLOG_NAV)}
${adSlot('ad-header', '970x90')}
<div class="site-inner"><div class="content-sidebar-wrap">
<main class="content" id="genesis-content">
<article class="post-18211 post type-post status-publish entry" aria-label="${esc(title)}">
<header class="entry-header"><p class="entry-categories"><a href="/weeknight-dinners/" rel="category tag">Weeknight dinners</a>, <a href="/chicken/" rel="category tag">Chicken</a></p><h1 class="entry-title">${esc(title)}</h1>
<p class="entry-meta">By <span class="entry-author"><a href="/about/" class="entry-author-link" rel="author"><span class="entry-author-name">Mara Quinlan</span></a></span> · Published <time class="entry-time" datetime="2025-02-11T14:02:37+00:00">February 11, 2025</time> · Updated <time class="entry-modified-time" datetime="2025-03-02T09:15:04+00:00">March 2, 2025</time> · <a href="#comments">86 comments</a></p>
<p class="disclosure"><em>This post may contain affiliate links. Please read our <a href="/disclosure/">disclosure policy</a>.</em></p></header>
<div class="entry-content">
${preamble}
${card}
</div>
<footer class="entry-footer"><p class="share">Share: <a href="https://facegram.example/share?u=${encodeURIComponent(url)}">Facegram</a> · <a href="https://pinboard.example/pin/create?url=${encodeURIComponent(url)}">Pinboard</a> · <a href="mailto:?subject=${encodeURIComponent(title)}">Email</a></p></footer>
</article>
<section class="more-recipes"><h2>More weeknight dinners</h2><ul>${more.map((m) => `<li><a href="/${slug(m)}/"><img src="https://www.saltwaterkitchen.test/wp-content/uploads/2025/01/${slug(m)}-300x300.jpg" alt="" width="150" height="150" loading="lazy"><span>${esc(m)}</span></a></li>`).join('')}</ul></section>
${commentThread(rng, RECIPE_COMMENTS, { count: 86, date: '2025-02-12' })}
<div id="respond" class="comment-respond"><h3 id="reply-title">Leave a comment</h3><form action="/wp-comments-post.php" method="post" id="commentform"><fieldset class="rating-input"><legend>Recipe rating</legend>${[1, 2, 3, 4, 5].map((n) => `<input type="radio" name="rating" value="${n}" id="r${n}"><label for="r${n}">${n} stars</label>`).join('')}</fieldset><p><label for="comment">Comment</label><textarea id="comment" name="comment" rows="6"></textarea></p><p><label for="author">Name</label><input id="author" name="author" type="text"></p><p><label for="email">Email</label><input id="email" name="email" type="email"></p><p><input name="submit" type="submit" value="Post Comment"></p></form></div>
</main>
<aside class="sidebar sidebar-primary widget-area" role="complementary"><section class="widget"><img src="https://www.saltwaterkitchen.test/wp-content/uploads/mara-300.jpg" alt="Mara in her kitchen" width="300" height="300"><h3>Hi, I’m Mara!</h3><p>I write recipes for people who cook after work. Everything here is tested at least twice in a normal home kitchen.</p><a href="/about/">More about me →</a></section>${adSlot('ad-sidebar', '300x600')}<section class="widget"><h3>Popular</h3><ul>${more.map((m) => `<li><a href="/${slug(m)}/">${esc(m)}</a></li>`).join('')}</ul></section></aside>
</div></div>
${siteFooter('Saltwater Kitchen', [
  ['Recipes', ['Chicken', 'Pasta', 'Soup', 'Vegetarian', 'Desserts', 'Baking']],
  ['About', ['About Mara', 'Contact', 'Work with me', 'Disclosure', 'Privacy policy']],
])}
${cookieBanner('Saltwater Kitchen')}
<script id="recipe-card-js-extra">var recipeCard = {"ajax_url":"https:\\/\\/www.saltwaterkitchen.test\\/wp-admin\\/admin-ajax.php","nonce":"5a7c1e9b0d","recipe_id":18211,"servings":4};</script>
<script src="https://www.saltwaterkitchen.test/wp-content/plugins/recipe-card/dist/public.js?ver=9.8.1" id="recipe-card-js"></script>
${trackingScripts('SK-90017')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const recipeBrokenJsonLd: PageSpec = {
  name: 'recipe-broken-json-ld',
  url: 'https://crumbandhearth.example/recipes/overnight-sourdough-loaf',
  contentType: 'text/html; charset=utf-8',
  title:
    'Recipe page whose Recipe JSON-LD is not valid JSON, with microdata as the only readable recipe data',
  description:
    'A baking blog recipe whose hand-edited Recipe JSON-LD block is broken the way real ones are: trailing commas, an unescaped double quote inside a string, a raw line break inside a string and an HTML comment left in the script. A second JSON-LD block (WebSite) is valid, a third is empty. The visible recipe card carries schema.org/Recipe microdata, so a reader that skips the broken block can still find the recipe.',
  exercises: [
    'a JSON-LD block that does not parse must be skipped without failing the page (the valid WebSite block is still returned)',
    'an empty `<script type="application/ld+json">` element',
    'Recipe microdata (recipeIngredient, recipeInstructions, prepTime via `<meta content>`) as a fallback',
    'fractions and degree signs in ingredient text; baker’s percentages in a table',
  ],
  build(rng: Rng) {
    const url = this.url;
    const broken = `<script type="application/ld+json">
{
  "@context": "https://schema.org/",
  "@type": "Recipe",
  "name": "Overnight Sourdough Loaf",
  "description": "My "no-fuss" everyday loaf: mix in the evening, bake in the morning.",
  "author": {"@type": "Person", "name": "Tess Harrow",},
  "image": [
    "https://crumbandhearth.example/img/sourdough-loaf-1x1.jpg",
    "https://crumbandhearth.example/img/sourdough-loaf-4x3.jpg",
  ],
  "prepTime": "PT30M",
  "cookTime": "PT45M",
  "totalTime": "PT14H",
  "recipeYield": "1 loaf",
  <!-- TODO: fix ingredients after the plugin update -->
  "recipeIngredient": [
    "500 g bread flour",
    "350 g water at 80 °F",
    "100 g active sourdough starter",
    "10 g fine salt",
  ],
  "recipeInstructions": "Mix flour and water; rest 1 hour.
Add starter and salt; stretch and fold 4 times over 2 hours.
Shape, then proof overnight in the fridge.
Bake at 475 °F in a covered pot for 20 minutes, uncovered for 25.",
  "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.9", "ratingCount": "212",}
}
</script>`;
    const website = jsonLd({
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: 'Crumb & Hearth',
      url: 'https://crumbandhearth.example/',
      potentialAction: {
        '@type': 'SearchAction',
        target: 'https://crumbandhearth.example/?s={search_term_string}',
        'query-input': 'required name=search_term_string',
      },
    });
    const head = standardHead({
      title: 'Overnight Sourdough Loaf | Crumb & Hearth',
      description:
        'An everyday sourdough loaf you mix in the evening and bake in the morning. Crisp crust, open crumb, no special equipment beyond a lidded pot.',
      canonical: url,
      siteName: 'Crumb & Hearth',
      image: 'https://crumbandhearth.example/img/sourdough-loaf-1200x630.jpg',
      ogType: 'article',
      author: 'Tess Harrow',
      extra: `<meta property="article:published_time" content="2024-10-05T08:00:00-05:00">\n${website}\n${broken}\n<script type="application/ld+json"></script>`,
      css: '.recipe{border:1px solid #d6c7b0;padding:1.5rem;border-radius:6px}.timeline td,.timeline th{padding:.35rem .6rem;border-bottom:1px solid #eee}',
      assets: wordpressAssets('crumbandhearth.example'),
    });
    const ingredients = [
      ['500 g', 'bread flour (12–13% protein)'],
      ['350 g', 'water at 80 °F (27 °C)'],
      ['100 g', 'active sourdough starter, fed 6–8 hours earlier'],
      ['10 g', 'fine salt'],
      ['', 'rice flour, for dusting the banneton'],
    ] as const;
    const steps = [
      'Autolyse: mix the flour with 330 g of the water until no dry flour remains. Cover and rest for 1 hour.',
      'Add the starter and dimple it in. Add the salt with the remaining 20 g water and squeeze it through the dough until it comes together again.',
      'Bulk ferment at about 76 °F for 4–5 hours, with 4 sets of stretch-and-folds 30 minutes apart in the first 2 hours. The dough should grow by about half and look domed and bubbly.',
      'Turn the dough out, pre-shape into a round and rest 20 minutes. Shape into a tight boule or batard and place seam-side up in a floured banneton.',
      'Cover and proof in the fridge for 10–14 hours.',
      'Preheat the oven to 475 °F (245 °C) with a lidded cast iron pot inside for 45 minutes. Turn the loaf onto parchment, score it and lower it into the pot.',
      'Bake covered for 20 minutes, then uncovered at 450 °F for 20–25 minutes until deep brown. Cool for at least 1 hour before slicing.',
    ];
    const schedule = [
      ['9:00 pm', 'Feed starter', '—'],
      ['3:00 pm', 'Autolyse', '1 h'],
      ['4:00 pm', 'Mix in starter and salt', '15 min'],
      ['4:15 pm', 'Bulk ferment with folds', '4–5 h'],
      ['8:45 pm', 'Pre-shape and shape', '40 min'],
      ['9:30 pm', 'Cold proof', '10–14 h'],
      ['8:00 am', 'Bake', '45 min'],
    ];
    const percentages = [
      ['Bread flour', '500 g', '100%'],
      ['Water', '350 g', '70%'],
      ['Starter (100% hydration)', '100 g', '20%'],
      ['Salt', '10 g', '2%'],
    ];
    const faq = [
      'My loaf came out flat. What went wrong?',
      'Can I use whole wheat flour?',
      'Do I need a Dutch oven?',
      'Can I bake it the same day?',
    ];
    const body = `<body class="single-recipe">
${foodBlogHeader('Crumb & Hearth', ['Bread', 'Sourdough', 'Pastry', 'Cakes', 'Cookies', 'Tools', 'Start here'])}
<main id="content">
<article class="post">
<h1>Overnight Sourdough Loaf</h1>
<p class="byline">by <a href="/about">Tess Harrow</a> · <time datetime="2024-10-05">October 5, 2024</time> · 212 ratings</p>
<p>This is the loaf I bake three times a week. It fits around a working day: twenty minutes of hands-on time in the afternoon and evening, a long cold proof overnight, and fresh bread before breakfast.</p>
<p>If you are new to sourdough, read the <a href="/sourdough-starter-guide">starter guide</a> first. A lively starter matters more than any technique below.</p>
${adSlot('ad-1', '728x90')}
<h2>A sample timeline</h2>
<table class="timeline"><thead><tr><th>Time</th><th>Step</th><th>Duration</th></tr></thead><tbody>${schedule.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>
<h2>Baker’s percentages</h2>
<table class="percent"><thead><tr><th>Ingredient</th><th>Weight</th><th>Baker’s %</th></tr></thead><tbody>${percentages.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody><tfoot><tr><td>Total</td><td>960 g</td><td>192%</td></tr></tfoot></table>
<div class="recipe" itemscope itemtype="https://schema.org/Recipe" id="recipe">
<h2 itemprop="name">Overnight Sourdough Loaf</h2>
<img itemprop="image" src="https://crumbandhearth.example/img/sourdough-loaf-4x3.jpg" alt="A dark, blistered sourdough loaf cut in half" width="800" height="600">
<p itemprop="description">An everyday sourdough loaf: mix in the evening, bake in the morning.</p>
<p>By <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Tess Harrow</span></span></p>
<ul class="recipe__times"><li>Prep: <meta itemprop="prepTime" content="PT30M">30 minutes</li><li>Bake: <meta itemprop="cookTime" content="PT45M">45 minutes</li><li>Total: <meta itemprop="totalTime" content="PT14H">about 14 hours</li><li>Makes: <span itemprop="recipeYield">1 loaf</span></li></ul>
<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">Rated <span itemprop="ratingValue">4.9</span>/5 by <span itemprop="ratingCount">212</span> bakers</div>
<h3>Ingredients</h3>
<ul>${ingredients.map(([q, n]) => `<li itemprop="recipeIngredient">${q ? `<span class="qty">${q}</span> ` : ''}${esc(n)}</li>`).join('')}</ul>
<h3>Method</h3>
<ol itemprop="recipeInstructions">${steps.map((s) => `<li itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep"><span itemprop="text">${esc(s)}</span></li>`).join('')}</ol>
<p class="recipe__note"><strong>Note:</strong> if your kitchen is cooler than 72 °F, bulk fermentation can take 6–8 hours. Watch the dough, not the clock.</p>
</div>
${adSlot('ad-2', '300x250')}
<h2>Troubleshooting</h2>
${faq.map((q) => `<h3>${esc(q)}</h3><p>${esc(rng.pick(['Usually under-fermentation: give bulk another hour and look for a domed, jiggly dough.', 'Yes, up to 30% without changing anything else; add 10 g more water.', 'A lidded pot traps steam. A baking stone with a tray of boiling water also works.', 'Yes: proof at room temperature for 2–3 hours instead of overnight, and expect a milder flavour.']))}</p>`).join('\n')}
</article>
${commentThread(
  rng,
  [
    ['Ines', 'The timeline table is so helpful. Mine proofed 13 hours and was perfect.'],
    ['Rob K.', 'What hydration would you use for a rye version?'],
    ['Tess Harrow', 'Rob, I would drop to 65% with 20% rye; rye holds less structure.'],
    ['Maya', 'Baked this for the first time today. Ear and all!'],
  ],
  { count: 64, date: '2024-10-06' },
)}
</main>
${siteFooter(
  'Crumb & Hearth',
  [
    ['Recipes', ['Bread', 'Sourdough', 'Pastry', 'Cakes']],
    ['Site', ['About', 'Contact', 'Privacy', 'Newsletter']],
  ],
  { year: 2024 },
)}
${trackingScripts('CH-31100')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const faqPage: PageSpec = {
  name: 'faq-page',
  url: 'https://help.lumenfibre.example/billing/faq',
  contentType: 'text/html; charset=utf-8',
  title: 'Help-centre FAQ page with FAQPage JSON-LD mirroring a `<details>` accordion',
  description:
    'A broadband provider’s billing FAQ: a help-centre header with search, a category sidebar, sixteen questions as `<details>`/`<summary>` accordions whose answers contain lists, links and a small table, “Was this helpful?” widgets, a chat launcher and a FAQPage JSON-LD whose acceptedAnswer texts contain HTML.',
  exercises: [
    'JSON-LD FAQPage with Question/acceptedAnswer pairs; answer text containing HTML markup inside the JSON string',
    'answers hidden in closed `<details>` elements (they are content, not boilerplate)',
    'a category sidebar and feedback widgets repeated per answer',
  ],
  build(rng: Rng) {
    const qa: readonly (readonly [string, string])[] = [
      [
        'When will I receive my first bill?',
        '<p>Your first bill is issued about 7 days after your service starts. It covers a part month from your start date plus the next full month in advance, so it is usually higher than later bills.</p>',
      ],
      [
        'How do I pay my bill?',
        '<p>You can pay by:</p><ul><li>Direct Debit (recommended, and you save $3 a month)</li><li>Credit or debit card in <a href="https://my.lumenfibre.example/billing">My Lumen</a></li><li>Bank transfer using the reference on your bill</li></ul>',
      ],
      [
        'Why is my bill higher than usual?',
        '<p>The most common reasons are a promotional discount ending, calls to numbers outside your plan, or a one-off charge such as a router replacement. Your bill breakdown shows each charge with its date.</p>',
      ],
      [
        'What happens if I pay late?',
        '<p>We send a reminder 3 days after the due date. After 14 days a late payment fee of $10 is added. After 28 days your speed may be reduced to 1 Mbps until the balance is paid.</p>',
      ],
      [
        'Can I change my payment date?',
        '<p>Yes, once every 6 months. Go to <a href="https://my.lumenfibre.example/billing/date">Billing → Payment date</a> and choose any day between the 1st and the 28th.</p>',
      ],
      [
        'How do I get a copy of an old bill?',
        '<p>Bills from the last 24 months are in My Lumen under <strong>Billing → Bill history</strong>. For older bills, contact us and we will email a copy within 5 working days.</p>',
      ],
      [
        'Do you charge for paper bills?',
        '<p>Paper bills cost $2 per bill. They are free for customers over 75 and for customers registered as needing extra support.</p>',
      ],
      [
        'What is the early termination charge?',
        '<p>If you leave during your minimum term, you pay the remaining monthly charges minus a discount:</p><table><thead><tr><th>Months left</th><th>You pay</th></tr></thead><tbody><tr><td>1–3</td><td>100% of remaining charges</td></tr><tr><td>4–12</td><td>80% of remaining charges</td></tr><tr><td>13–24</td><td>60% of remaining charges</td></tr></tbody></table>',
      ],
      [
        'Will my price go up during my contract?',
        '<p>Your monthly price is fixed for your minimum term. After that, prices may change once a year in April; we give you at least 30 days’ notice.</p>',
      ],
      [
        'How do I update my card details?',
        '<p>Sign in to My Lumen, open <strong>Billing → Payment methods</strong> and choose <em>Replace card</em>. The new card is used from your next bill.</p>',
      ],
      [
        'Can someone else pay my bill?',
        '<p>Yes. Add them as a bill payer in My Lumen; they can pay by card without seeing your usage details.</p>',
      ],
      [
        'I think I have been charged twice. What should I do?',
        '<p>Check whether one of the payments is a pending card authorisation, which disappears within 5 days. If both have gone through, <a href="/contact">contact us</a> and we will refund the duplicate within 3 working days.</p>',
      ],
      [
        'Do you offer help if I am struggling to pay?',
        '<p>Yes. Our <a href="/support/extra-help">extra help team</a> can set up a payment plan, move you to our social tariff ($15 a month for 100 Mbps) or pause late fees.</p>',
      ],
      [
        'Are prices shown with tax?',
        '<p>All prices on our website and bills include sales tax unless marked “ex. tax” for business plans.</p>',
      ],
      [
        'How do refunds work when I leave?',
        '<p>Because you pay a month in advance, we refund any days after your service ends, within 10 working days of your final bill.</p>',
      ],
      [
        'Where can I see my data usage?',
        '<p>All our plans are unlimited, so we do not bill for data. You can still see usage by device in the Lumen app.</p>',
      ],
    ];
    const strip = (html: string) =>
      html
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: qa.map(([q, a], i) => ({
        '@type': 'Question',
        name: q,
        acceptedAnswer: { '@type': 'Answer', text: i % 3 === 0 ? a : strip(a) },
      })),
    };
    const head = standardHead({
      title: 'Billing FAQ | Lumen Fibre Help',
      description:
        'Answers to common billing questions: first bills, payment methods, late payments, early termination charges and refunds.',
      canonical: this.url,
      siteName: 'Lumen Fibre Help',
      image: 'https://help.lumenfibre.example/static/og-help.png',
      twitterSite: '@lumenfibre',
      themeColor: '#0f766e',
      extra: `${jsonLd(ld)}\n${jsonLd({
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          {
            '@type': 'ListItem',
            position: 1,
            name: 'Help',
            item: 'https://help.lumenfibre.example/',
          },
          {
            '@type': 'ListItem',
            position: 2,
            name: 'Billing',
            item: 'https://help.lumenfibre.example/billing',
          },
          { '@type': 'ListItem', position: 3, name: 'FAQ' },
        ],
      })}`,
      css: '.hc-layout{display:grid;grid-template-columns:16rem 1fr;gap:2rem;max-width:72rem;margin:auto}details{border-bottom:1px solid #e5e7eb;padding:1rem 0}summary{font-weight:600;cursor:pointer}.helpful{font-size:.85rem;color:#555}',
      assets:
        '<script src="https://widget.chatdesk.example/launcher.js" data-app-id="lumen-help" async></script>',
    });
    const categories = [
      'Getting started',
      'Billing',
      'Moving home',
      'Wi-Fi and router',
      'Outages',
      'TV',
      'Phone',
      'Account and security',
      'Accessibility',
      'Complaints',
    ];
    const body = `<body class="hc">
<header class="hc-header"><a href="https://www.lumenfibre.example/" class="logo"><img src="/static/lumen-logo.svg" alt="Lumen Fibre" width="140" height="32"></a><span class="hc-header__title">Help</span>
<nav aria-label="Site"><a href="https://www.lumenfibre.example/broadband">Broadband</a> <a href="https://www.lumenfibre.example/tv">TV</a> <a href="https://www.lumenfibre.example/deals">Deals</a> <a href="https://status.lumenfibre.example/">Service status</a> <a href="https://my.lumenfibre.example/">My Lumen</a></nav>
<form class="hc-search" action="/search" role="search"><label for="hc-q">How can we help?</label><input id="hc-q" name="q" type="search" placeholder="Search help articles"><button>Search</button></form></header>
<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">Help</a> › <a href="/billing">Billing</a> › <span aria-current="page">FAQ</span></nav>
<div class="hc-layout">
<aside class="hc-sidebar"><h2>Topics</h2><ul>${categories.map((c) => `<li${c === 'Billing' ? ' class="active"' : ''}><a href="/${slug(c)}">${c}</a></li>`).join('')}</ul><div class="hc-contact"><h2>Still need help?</h2><p>Chat with us 8am–10pm, 7 days a week.</p><button class="btn" data-chat-open>Start a chat</button><p>Or call <a href="tel:+15550100">555-0100</a></p></div></aside>
<main>
<h1>Billing FAQ</h1>
<p class="lead">Quick answers to the questions we are asked most about bills and payments. Last reviewed <time datetime="2025-02-20">20 February 2025</time>.</p>
${qa.map(([q, a], i) => `<details id="q${i + 1}"${i === 0 ? ' open' : ''}><summary>${esc(q)}</summary><div class="answer">${a}</div><div class="helpful">Was this helpful? <button data-vote="yes">Yes</button> <button data-vote="no">No</button> <span>${rng.int(40, 900)} people found this helpful</span></div></details>`).join('\n')}
<section class="related"><h2>Related articles</h2><ul><li><a href="/billing/understanding-your-bill">Understanding your bill</a></li><li><a href="/billing/direct-debit">Setting up Direct Debit</a></li><li><a href="/moving-home/leaving-lumen">Leaving Lumen</a></li></ul></section>
</main></div>
${siteFooter('Lumen Fibre', [
  ['Help', ['Contact us', 'Service status', 'Complaints', 'Accessibility']],
  ['Legal', ['Terms', 'Privacy', 'Cookies', 'Code of practice']],
])}
${cookieBanner('Lumen Fibre')}
<div id="chatdesk-launcher" class="chat-launcher"><button aria-label="Open chat">💬</button></div>
${trackingScripts('LF-12001')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const eventPage: PageSpec = {
  name: 'event-page',
  url: 'https://www.harbourfrontjazz.example/2025/festival',
  contentType: 'text/html; charset=utf-8',
  title: 'Music festival event page with JSON-LD Event, a lineup table and ticket tiers',
  description:
    'A three-day jazz festival page: JSON-LD Event with location (Place, PostalAddress, geo), several Offers (early bird sold out, standard, VIP), performers, organizer, eventStatus and eventAttendanceMode; a visible lineup table by day and stage with cells spanning rows, ticket cards with prices in pounds, a map iframe, accessibility information and sponsor logos.',
  exercises: [
    'JSON-LD Event with startDate/endDate carrying time-zone offsets, multiple Offers with availability SoldOut/InStock, performer array',
    'lineup table with `rowspan` for long sets and `colspan` for headliners on the main stage',
    'prices in GBP written as “£45” and “£189.50”; dates written for people (“Fri 18 July”)',
    'iframe (map) and `<video>` elements',
  ],
  build(rng: Rng) {
    const url = this.url;
    const performers = [
      'The Ada Quartet',
      'Marisol Vega Trio',
      'Kofi Boateng & The Northern Lights',
      'Harbour Big Band',
      'Lena Sundqvist',
      'Ezra Blue',
      'Samira Haddad Ensemble',
      'The Low Tide Orchestra',
    ];
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Harbourfront Jazz Festival 2025',
      description:
        'Three days of jazz on four stages along the harbour, with 40 acts, late-night jam sessions and free family concerts.',
      startDate: '2025-07-18T17:00:00+01:00',
      endDate: '2025-07-20T23:30:00+01:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [
        'https://www.harbourfrontjazz.example/media/2025/hero-1x1.jpg',
        'https://www.harbourfrontjazz.example/media/2025/hero-16x9.jpg',
      ],
      location: {
        '@type': 'Place',
        name: 'Harbourfront Quays',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Quayside Walk',
          addressLocality: 'Portlow',
          postalCode: 'PW4 0QX',
          addressRegion: 'West Shire',
          addressCountry: 'GB',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 50.512, longitude: -4.318 },
      },
      offers: [
        {
          '@type': 'Offer',
          name: 'Early bird weekend',
          price: '99.00',
          priceCurrency: 'GBP',
          availability: 'https://schema.org/SoldOut',
          validFrom: '2024-11-01T10:00:00+00:00',
          url: `${url}#tickets`,
        },
        {
          '@type': 'Offer',
          name: 'Weekend pass',
          price: '129.00',
          priceCurrency: 'GBP',
          availability: 'https://schema.org/InStock',
          validFrom: '2025-01-15T10:00:00+00:00',
          url: `${url}#tickets`,
        },
        {
          '@type': 'Offer',
          name: 'Day ticket',
          price: '45.00',
          priceCurrency: 'GBP',
          availability: 'https://schema.org/InStock',
          url: `${url}#tickets`,
        },
        {
          '@type': 'Offer',
          name: 'VIP weekend',
          price: '189.50',
          priceCurrency: 'GBP',
          availability: 'https://schema.org/LimitedAvailability',
          url: `${url}#tickets`,
        },
      ],
      performer: performers.slice(0, 5).map((name) => ({ '@type': 'MusicGroup', name })),
      organizer: {
        '@type': 'Organization',
        name: 'Harbourfront Arts Trust',
        url: 'https://www.harbourfrontjazz.example/about',
      },
      isAccessibleForFree: false,
      typicalAgeRange: '0-',
    };
    const head = standardHead({
      title: 'Harbourfront Jazz Festival 2025 · 18–20 July · Portlow',
      description:
        'Three days of jazz on four stages along the harbour: 40 acts, late-night jams and free family concerts. Weekend passes from £129.',
      canonical: url,
      siteName: 'Harbourfront Jazz Festival',
      image: 'https://www.harbourfrontjazz.example/media/2025/og.jpg',
      locale: 'en_GB',
      twitterSite: '@harbourjazz',
      themeColor: '#111827',
      extra: jsonLd(ld),
      css: '.lineup{border-collapse:collapse;width:100%}.lineup th,.lineup td{border:1px solid #333;padding:.5rem;vertical-align:top}.lineup .headliner{background:#fde68a}.tickets{display:grid;grid-template-columns:repeat(4,1fr);gap:1rem}.ticket--soldout{opacity:.5}',
      assets: '<script src="https://tickets.boxoffice.example/embed/v3/widget.js" defer></script>',
    });
    const stages = ['Main Stage', 'Quay Tent', 'Lighthouse Bar', 'Family Lawn'];
    const lineup = `<table class="lineup"><caption>Friday 18 July</caption><thead><tr><th scope="col">Time</th>${stages.map((s) => `<th scope="col">${s}</th>`).join('')}</tr></thead><tbody>
<tr><th scope="row">17:00</th><td>Portlow Youth Jazz Orchestra</td><td rowspan="2">Samira Haddad Ensemble<br><small>(90 min)</small></td><td>DJ set: Blue Note Sundays</td><td>Storytelling with music</td></tr>
<tr><th scope="row">18:00</th><td>Ezra Blue</td><td>Open jam</td><td>Instrument petting zoo</td></tr>
<tr><th scope="row">19:30</th><td>Marisol Vega Trio</td><td>Lena Sundqvist</td><td rowspan="2">Late-night jam, hosted by the Harbour Big Band rhythm section</td><td>—</td></tr>
<tr><th scope="row">21:00</th><td class="headliner" colspan="2"><strong>Headliner:</strong> The Ada Quartet with the Harbour Big Band</td><td>—</td></tr>
</tbody></table>`;
    const tickets = [
      ['Early bird weekend', '£99', 'Sold out', true],
      ['Weekend pass', '£129', 'All stages, all three days', false],
      ['Day ticket', '£45', 'Friday, Saturday or Sunday', false],
      ['VIP weekend', '£189.50', 'Reserved seating, lounge, artist Q&A', false],
    ] as const;
    const sponsors = [
      'Portlow City Council',
      'West Shire Arts Fund',
      'Quayside Brewing Co.',
      'Harbour Radio 96.2',
      'Tidewater Travel',
    ];
    const body = `<body>
<header class="fest-header"><a href="/" class="logo">Harbourfront Jazz</a><nav aria-label="Festival"><ul><li><a href="/2025/lineup">Lineup</a></li><li><a href="/2025/tickets">Tickets</a></li><li><a href="/2025/plan-your-visit">Plan your visit</a></li><li><a href="/2025/family">Family</a></li><li><a href="/volunteer">Volunteer</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav><a class="btn btn--tickets" href="#tickets">Buy tickets</a></header>
<main>
<section class="hero"><video autoplay muted loop playsinline poster="/media/2025/hero-16x9.jpg"><source src="/media/2025/hero-loop.mp4" type="video/mp4"></video><h1>Harbourfront Jazz Festival 2025</h1><p class="dates"><time datetime="2025-07-18">Fri 18</time> – <time datetime="2025-07-20">Sun 20 July 2025</time> · Harbourfront Quays, Portlow</p><a class="btn" href="#tickets">Get tickets</a></section>
<section class="intro"><p>Forty acts on four stages along the water, from big band to free improvisation. Friday and Saturday run until late with jam sessions in the Lighthouse Bar; Sunday afternoon is free for families on the lawn.</p><p>This is our twentieth festival. To mark it, the Harbour Big Band has commissioned a new suite from Kofi Boateng, premiered on Saturday night.</p></section>
<section class="lineup-section"><h2>Lineup</h2><ul class="artists">${performers.map((p) => `<li><a href="/2025/artists/${slug(p)}"><img src="/media/2025/artists/${slug(p)}.jpg" alt="" width="240" height="240" loading="lazy"><span>${esc(p)}</span></a></li>`).join('')}</ul>
<h3>Friday schedule</h3>${lineup}<p><a href="/2025/lineup">Full three-day schedule →</a></p></section>
<section id="tickets"><h2>Tickets</h2><div class="tickets">${tickets.map(([n, p, d, sold]) => `<article class="ticket${sold ? ' ticket--soldout' : ''}"><h3>${n}</h3><p class="ticket__price">${p}</p><p>${d}</p>${sold ? '<span class="badge">Sold out</span>' : `<a class="btn" href="https://tickets.boxoffice.example/harbourfront-jazz-2025?tier=${slug(n)}">Buy</a>`}</article>`).join('')}</div><p class="small">Under-12s free with a paying adult. Booking fee £1.50 per ticket. Concessions available for students and over-65s: <a href="/2025/tickets#concessions">details</a>.</p></section>
<section class="visit"><h2>Getting here</h2><p>Harbourfront Quays, Quayside Walk, Portlow PW4 0QX. The festival site is a 12-minute walk from Portlow station. There is no public parking on site; use the Park &amp; Ride from Northfield (buses every 10 minutes until midnight).</p><iframe title="Map of the festival site" src="https://maps.example/embed?q=50.512,-4.318&amp;z=16" width="600" height="400" loading="lazy"></iframe>
<h3>Accessibility</h3><ul><li>Step-free access to all stages, with viewing platforms at the Main Stage and Quay Tent</li><li>British Sign Language interpretation for Saturday headline sets</li><li>Free companion tickets: <a href="/access">apply by 30 June</a></li><li>Quiet area next to the Family Lawn</li></ul></section>
<section class="faq"><h2>Good to know</h2><dl><dt>Can I bring food and drink?</dt><dd>Sealed soft drinks and picnics for the Family Lawn only. No glass.</dd><dt>Is the festival cashless?</dt><dd>Yes, all bars and food stalls take cards and phones only.</dd><dt>What if it rains?</dt><dd>The Quay Tent and Lighthouse Bar are covered. The festival goes ahead in all but severe weather warnings.</dd></dl></section>
<section class="sponsors"><h2>Supported by</h2><ul>${sponsors.map((s) => `<li><img src="/media/sponsors/${slug(s)}.png" alt="${esc(s)}" width="160" height="60"></li>`).join('')}</ul></section>
</main>
${siteFooter(
  'Harbourfront Arts Trust',
  [
    ['Festival', ['Lineup', 'Tickets', 'Plan your visit', 'Family', 'Accessibility']],
    ['Get involved', ['Volunteer', 'Trade stalls', 'Press', 'Sponsorship']],
    ['About', ['The Trust', 'Contact', 'Privacy', 'Terms']],
  ],
  { address: `Harbourfront Arts Trust, registered charity no. ${rng.int(1000000, 1199999)}` },
)}
${cookieBanner('Harbourfront Jazz Festival')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en-GB">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const jobPosting: PageSpec = {
  name: 'job-posting',
  url: 'https://careers.tidewatertravel.example/jobs/4471203-senior-backend-engineer-payments',
  contentType: 'text/html; charset=utf-8',
  title: 'Job posting on an applicant-tracking page with JSON-LD JobPosting',
  description:
    'A careers-site job advert for a senior backend engineer: JSON-LD JobPosting whose description is an HTML string, salary as MonetaryAmount with a QuantitativeValue range, hybrid/remote location requirements and validThrough; the visible page has a job header, sections with lists, a benefits grid, an application form with a file upload and consent checkboxes, and similar jobs.',
  exercises: [
    'JSON-LD JobPosting with HTML markup inside the `description` string, `baseSalary` range in EUR, `employmentType` array, `jobLocationType: TELECOMMUTE` and `applicantLocationRequirements`',
    'salary in the visible text (“€78,000 – €96,000 a year”) with a non-breaking space',
    'application form with `<input type="file">`, `<select>` and required checkboxes',
  ],
  build(rng: Rng) {
    const url = this.url;
    const descriptionHtml =
      '<p>Tidewater Travel is looking for a <strong>Senior Backend Engineer</strong> to join the Payments team in Lisbon or remotely within Portugal, Spain or Ireland.</p><h3>What you will do</h3><ul><li>Design and run the services that take €1.4bn of bookings a year</li><li>Own integrations with card acquirers and local payment methods</li><li>Improve reliability of refunds and chargebacks</li></ul><h3>What we are looking for</h3><ul><li>5+ years building backend services in Go, Java or Kotlin</li><li>Experience with PostgreSQL and event-driven systems</li><li>Payments or fintech experience is a plus</li></ul>';
    const ld = {
      '@context': 'https://schema.org/',
      '@type': 'JobPosting',
      title: 'Senior Backend Engineer, Payments',
      description: descriptionHtml,
      identifier: { '@type': 'PropertyValue', name: 'Tidewater Travel', value: '4471203' },
      datePosted: '2025-03-03',
      validThrough: '2025-04-30T23:59:59+01:00',
      employmentType: ['FULL_TIME'],
      hiringOrganization: {
        '@type': 'Organization',
        name: 'Tidewater Travel',
        sameAs: 'https://www.tidewatertravel.example/',
        logo: 'https://careers.tidewatertravel.example/static/logo-square.png',
      },
      jobLocation: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Avenida da Ribeira 118',
          addressLocality: 'Lisbon',
          postalCode: '1200-109',
          addressCountry: 'PT',
        },
      },
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: [
        { '@type': 'Country', name: 'Portugal' },
        { '@type': 'Country', name: 'Spain' },
        { '@type': 'Country', name: 'Ireland' },
      ],
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'EUR',
        value: { '@type': 'QuantitativeValue', minValue: 78000, maxValue: 96000, unitText: 'YEAR' },
      },
      directApply: true,
      industry: 'Travel technology',
      occupationalCategory: '15-1252.00 Software Developers',
    };
    const head = standardHead({
      title: 'Senior Backend Engineer, Payments – Tidewater Travel Careers',
      description:
        'Join the Payments team at Tidewater Travel in Lisbon or remote (PT, ES, IE). €78,000–€96,000 plus equity and travel credit.',
      canonical: url,
      siteName: 'Tidewater Travel Careers',
      image: 'https://careers.tidewatertravel.example/static/og-careers.jpg',
      locale: 'en_GB',
      twitterCard: 'summary',
      extra: jsonLd(ld),
      css: '.job-header{background:#0e3a5b;color:#fff;padding:3rem 2rem}.benefits{display:grid;grid-template-columns:repeat(3,1fr);gap:1rem}.apply-form label{display:block;font-weight:600;margin-top:1rem}',
      assets:
        '<script src="https://boards.hireflow.example/embed/job_board/js?for=tidewater" async></script>',
    });
    const benefits = [
      ['Travel credit', '€1,500 a year to spend on Tidewater trips, plus 50% off for family.'],
      ['Equity', 'Share options in a company that has been profitable since 2021.'],
      ['Time off', '25 days of holiday, plus your birthday and local public holidays.'],
      ['Learning', '€2,000 a year for courses, books and conferences.'],
      ['Health', 'Private health insurance for you and your dependants.'],
      ['Flexibility', 'Work from the Lisbon office, from home, or both.'],
    ];
    const similar = [
      'Backend Engineer, Search',
      'Staff Engineer, Platform',
      'Engineering Manager, Payments',
      'Senior Data Engineer',
      'Site Reliability Engineer',
    ];
    const body = `<body class="job">
<header class="careers-nav"><a href="https://careers.tidewatertravel.example/"><img src="/static/logo.svg" alt="Tidewater Travel Careers" width="190" height="32"></a><nav aria-label="Careers"><a href="/teams">Teams</a> <a href="/locations">Locations</a> <a href="/life">Life at Tidewater</a> <a href="/jobs">All jobs</a></nav></header>
<div class="job-header"><p><a href="/jobs?team=engineering">Engineering</a> · Payments</p><h1>Senior Backend Engineer, Payments</h1><ul class="job-meta"><li>Lisbon, Portugal or Remote (PT, ES, IE)</li><li>Full-time</li><li>€78,000 – €96,000 a year + equity</li><li>Posted <time datetime="2025-03-03">3 March 2025</time></li></ul><a class="btn" href="#apply">Apply for this job</a></div>
<main class="job-body">
${descriptionHtml}
<h3>How we work</h3><p>We are a team of nine engineers, a product manager and a designer. We deploy several times a day, write design docs for anything that takes more than a week, and share an on-call rotation of one week in seven with a paid allowance.</p>
<h3>Our stack</h3><p>Go and Kotlin services on Kubernetes, PostgreSQL, Kafka, and a small amount of Python for reconciliation jobs. We use feature flags for every payment-method launch.</p>
<h3>Interview process</h3><ol><li>30-minute call with the recruiter</li><li>60-minute technical conversation about a system you built</li><li>Take-home exercise (3 hours, paid at €200) or a pairing session, your choice</li><li>Final interviews with the team and the VP of Engineering</li></ol>
<p>We aim to complete the process within three weeks and give feedback at every stage.</p>
<section class="benefits-section"><h2>Benefits</h2><div class="benefits">${benefits.map(([t, d]) => `<div class="benefit"><h3>${t}</h3><p>${d}</p></div>`).join('')}</div></section>
<p class="eeo"><em>Tidewater Travel is an equal opportunity employer. We welcome applications from people of all backgrounds and will make reasonable adjustments at any stage; tell us what you need in the form below.</em></p>
<section id="apply"><h2>Apply for this job</h2>
<form class="apply-form" action="https://boards.hireflow.example/tidewater/jobs/4471203/applications" method="post" enctype="multipart/form-data">
<input type="hidden" name="job_id" value="4471203"><input type="hidden" name="source" value="careers-site">
<label for="first">First name *</label><input id="first" name="first_name" required autocomplete="given-name">
<label for="last">Last name *</label><input id="last" name="last_name" required autocomplete="family-name">
<label for="mail">Email *</label><input id="mail" name="email" type="email" required>
<label for="loc">Where are you based? *</label><select id="loc" name="location" required><option value="">Select…</option><option>Portugal</option><option>Spain</option><option>Ireland</option><option>Elsewhere (we cannot sponsor visas for this role)</option></select>
<label for="cv">CV / résumé * <small>(PDF or DOCX, max 10 MB)</small></label><input id="cv" name="resume" type="file" accept=".pdf,.docx" required>
<label for="links">LinkedIn, GitHub or portfolio</label><input id="links" name="links" type="url">
<label for="adjust">Adjustments for the interview process</label><textarea id="adjust" name="adjustments" rows="3"></textarea>
<label><input type="checkbox" name="consent" required> I agree to the <a href="/privacy/candidates">candidate privacy notice</a> *</label>
<label><input type="checkbox" name="talent_pool"> Keep my details for future roles for 12 months</label>
<button type="submit" class="btn btn--primary">Submit application</button>
</form></section>
</main>
<aside class="similar"><h2>Similar jobs</h2><ul>${similar.map((s) => `<li><a href="/jobs/${rng.int(4400000, 4499999)}-${slug(s)}">${s}</a> <span>${rng.pick(['Lisbon', 'Remote', 'Dublin', 'Barcelona'])}</span></li>`).join('')}</ul></aside>
${siteFooter('Tidewater Travel', [
  ['Careers', ['Engineering', 'Product', 'Design', 'Customer care', 'Operations']],
  ['Company', ['About', 'Press', 'Investors', 'Privacy']],
])}
${trackingScripts('TT-77210')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};
