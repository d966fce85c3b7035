import type { Rng } from '../prng.js';
import {
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

const SHOP_MENU = [
  {
    name: 'Coffee machines',
    groups: [
      [
        'Espresso',
        ['Dual boiler', 'Heat exchanger', 'Single boiler', 'Lever machines', 'Bean-to-cup'],
      ],
      ['Filter', ['Drip brewers', 'Pour-over kits', 'Cold brew', 'Siphons']],
      ['Brands', ['Brevello', 'Castor & Finch', 'Lumo', 'Rocca', 'Tessaro']],
    ],
  },
  {
    name: 'Grinders',
    groups: [
      ['Electric', ['Flat burr', 'Conical burr', 'Single dose', 'Commercial']],
      ['Manual', ['Hand grinders', 'Travel grinders']],
    ],
  },
  {
    name: 'Accessories',
    groups: [
      ['Barista tools', ['Tampers', 'Distribution tools', 'Milk jugs', 'Knock boxes', 'Scales']],
      ['Maintenance', ['Descaler', 'Cleaning tablets', 'Water filters', 'Gaskets and screens']],
    ],
  },
  {
    name: 'Coffee',
    groups: [
      ['Beans', ['Espresso blends', 'Single origin', 'Decaf', 'Subscriptions']],
      ['Roasters', ['Hearth Roasting Co.', 'Little Owl', 'Marrow Coffee']],
    ],
  },
  { name: 'Deals', groups: [['This week', ['Open box', 'Bundles', 'Clearance', 'Gift cards']]] },
] as const satisfies readonly {
  name: string;
  groups: readonly (readonly [string, readonly string[]])[];
}[];

const REVIEWS = [
  [
    'Daniel K.',
    5,
    '2025-01-18',
    'Worth every cent after six months',
    'Temperature stability is excellent and the steam wand has plenty of power for two cappuccinos back to back. The PID display is simple to use. Heat-up is about 22 minutes from cold, so I use the timer.',
  ],
  [
    'Maria L.',
    4,
    '2024-12-02',
    'Great shots, loud pump',
    'Shots are consistent once you dial in the grinder. The vibration pump is louder than I expected; the rotary model would have been quieter but costs $400 more.',
  ],
  [
    'S. Patel',
    5,
    '2024-11-20',
    'Upgrade from a single boiler',
    'No more waiting between brewing and steaming. Build quality feels solid and the drip tray is big enough for a day of use.',
  ],
  [
    'Greg',
    3,
    '2024-10-07',
    'Good machine, poor packaging',
    'Arrived with a dented side panel. Support sent a replacement panel within a week, but for this price the box should be better.',
  ],
  [
    'Yuki T.',
    5,
    '2024-09-29',
    'Latte art finally possible',
    'The steam tip gives a smooth microfoam even with oat milk. Came with a decent tamper, though I replaced it with a 58.5 mm one.',
  ],
] as const;

export const productPage: PageSpec = {
  name: 'product-page',
  url: 'https://www.brewhausdirect.example/products/brevello-duo-pro-dual-boiler-espresso-machine',
  contentType: 'text/html; charset=utf-8',
  title: 'E-commerce product page with JSON-LD Product and schema.org microdata',
  description:
    'A specialist coffee retailer’s page for a $1,299.00 espresso machine. The same product is described three times, as real shops do: JSON-LD (Product with Offer, Brand, AggregateRating, Review), microdata on the visible markup (itemscope/itemprop with a content attribute on the price), and OpenGraph product:* tags. Around it: promo bar, mega-menu, breadcrumbs, gallery, variant swatches, add-to-cart form, specs table, reviews, Q&A, recommendation carousels and a consent banner.',
  exercises: [
    'price written as "$1,299.00" in text, `content="1299.00"` in microdata and `"price": "1299.00"` in JSON-LD; a struck-through was-price of "$1,499.00" nearby',
    'availability as a schema.org URL (`https://schema.org/InStock`) in JSON-LD and a `<link itemprop="availability">` in microdata',
    'brand, sku, gtin13, mpn and aggregateRating (4.6 from 312 reviews) present in both JSON-LD and microdata',
    'many other prices on the page (carousels, bundles) that must not be taken for the product price',
    'OpenGraph product:price:amount / product:price:currency / product:availability',
  ],
  build(rng: Rng) {
    const url = this.url;
    const name = 'Brevello Duo Pro Dual Boiler Espresso Machine';
    const description =
      'A dual boiler espresso machine with PID temperature control, a 58 mm commercial group head, pre-infusion and a 1.2 L steam boiler. Brushed stainless steel.';
    const images = [1, 2, 3, 4, 5, 6].map(
      (i) => `https://cdn.brewhausdirect.example/media/catalog/brevello-duo-pro-${i}-1600.jpg`,
    );
    const product = {
      '@context': 'https://schema.org/',
      '@type': 'Product',
      name,
      image: images,
      description,
      sku: 'BRV-DB920-SS',
      mpn: 'DB920SS',
      gtin13: '0735926004113',
      brand: { '@type': 'Brand', name: 'Brevello' },
      category: 'Coffee machines > Espresso > Dual boiler',
      color: 'Brushed stainless steel',
      offers: {
        '@type': 'Offer',
        url,
        priceCurrency: 'USD',
        price: '1299.00',
        priceValidUntil: '2025-12-31',
        itemCondition: 'https://schema.org/NewCondition',
        availability: 'https://schema.org/InStock',
        seller: { '@type': 'Organization', name: 'Brewhaus Direct' },
        shippingDetails: {
          '@type': 'OfferShippingDetails',
          shippingRate: { '@type': 'MonetaryAmount', value: '0', currency: 'USD' },
          shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'US' },
          deliveryTime: {
            '@type': 'ShippingDeliveryTime',
            handlingTime: {
              '@type': 'QuantitativeValue',
              minValue: 0,
              maxValue: 1,
              unitCode: 'DAY',
            },
            transitTime: {
              '@type': 'QuantitativeValue',
              minValue: 2,
              maxValue: 5,
              unitCode: 'DAY',
            },
          },
        },
        hasMerchantReturnPolicy: {
          '@type': 'MerchantReturnPolicy',
          applicableCountry: 'US',
          returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
          merchantReturnDays: 30,
        },
      },
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: '4.6',
        reviewCount: '312',
        bestRating: '5',
        worstRating: '1',
      },
      review: REVIEWS.slice(0, 3).map(([author, rating, date, title, text]) => ({
        '@type': 'Review',
        author: { '@type': 'Person', name: author },
        datePublished: date,
        name: title,
        reviewBody: text,
        reviewRating: { '@type': 'Rating', ratingValue: String(rating), bestRating: '5' },
      })),
    };
    const breadcrumbs = {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: ['Home', 'Coffee machines', 'Espresso', 'Dual boiler'].map((n, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        name: n,
        item: `https://www.brewhausdirect.example/${i === 0 ? '' : `${['', 'coffee-machines', 'coffee-machines/espresso', 'coffee-machines/espresso/dual-boiler'][i]}/`}`,
      })),
    };
    const head = standardHead({
      title: `${name} | Brewhaus Direct`,
      description,
      canonical: url,
      siteName: 'Brewhaus Direct',
      image: images[0] as string,
      ogType: 'product',
      twitterSite: '@brewhausdirect',
      twitterCard: 'summary',
      themeColor: '#3b2a20',
      extra: [
        '<meta property="product:brand" content="Brevello">',
        '<meta property="product:price:amount" content="1299.00">',
        '<meta property="product:price:currency" content="USD">',
        '<meta property="product:availability" content="in stock">',
        '<meta property="product:condition" content="new">',
        '<meta property="product:retailer_item_id" content="BRV-DB920-SS">',
        jsonLd(product),
        jsonLd(breadcrumbs),
      ].join('\n'),
      css: `
.promo-bar{background:#3b2a20;color:#fff;text-align:center;font-size:.875rem;padding:.4rem}
.pdp{display:grid;grid-template-columns:1.2fr 1fr;gap:2.5rem;max-width:80rem;margin:0 auto;padding:1.5rem}
.gallery__thumbs{display:flex;gap:.5rem}.gallery__thumbs img{width:72px;height:72px;object-fit:cover}
.price{font-size:1.75rem;font-weight:700}.price--was{text-decoration:line-through;color:#888;font-weight:400;font-size:1rem}
.swatches{display:flex;gap:.5rem}.swatch{width:32px;height:32px;border-radius:50%;border:2px solid transparent}
.specs{border-collapse:collapse;width:100%}.specs th,.specs td{padding:.5rem;border-bottom:1px solid #eee;text-align:left}
.carousel{display:grid;grid-auto-flow:column;grid-auto-columns:14rem;overflow-x:auto;gap:1rem}
.stars{color:#f5a623;letter-spacing:.1em}`,
      assets:
        '<link rel="stylesheet" href="/static/version1741/frontend/Brewhaus/default/en_US/css/styles-l.min.css">\n<script src="/static/version1741/requirejs/require.min.js"></script>\n<script type="text/x-magento-init">{"*":{"Magento_Ui/js/core/app":{"components":{"customer":{"component":"Magento_Customer/js/view/customer"}}}}}</script>',
    });

    const price = (cents: number) =>
      `$${Math.floor(cents / 100)
        .toString()
        .replace(/\B(?=(\d{3})+$)/g, ',')}.${String(cents % 100).padStart(2, '0')}`;
    const card = (title: string, cents: number, rating: number) =>
      `<li class="card"><a href="/products/${slug(title)}"><img src="https://cdn.brewhausdirect.example/media/catalog/${slug(title)}-400.jpg" alt="${esc(title)}" width="224" height="224" loading="lazy"><span class="card__title">${esc(title)}</span></a><span class="stars" aria-label="${rating} out of 5">${'★'.repeat(Math.round(rating))}${'☆'.repeat(5 - Math.round(rating))}</span><span class="card__price">${price(cents)}</span><button class="btn btn--small" data-add-to-cart="${slug(title)}">Add to cart</button></li>`;
    const grinders = [
      'Castor & Finch C64 Flat Burr Grinder',
      'Lumo Solo Single Dose Grinder',
      'Rocca Macina 54 Grinder',
      'Tessaro Conica Hand Grinder',
      'Lumo Solo Black Edition',
      'Castor & Finch C83 Commercial Grinder',
    ];
    const alsoViewed = [
      'Brevello Duo Rotary Dual Boiler',
      'Brevello Uno PID Single Boiler',
      'Rocca Serena Heat Exchanger',
      'Tessaro Leva Lever Machine',
      'Castor & Finch Barista Duo',
      'Lumo Compact Espresso',
      'Rocca Serena Pro',
      'Brevello Duo Pro Black',
      'Tessaro Mini Lever',
      'Lumo Dual Boiler Plus',
      'Castor & Finch Studio',
      'Brevello Classic',
    ];

    const specs: readonly (readonly [string, string])[] = [
      ['Boilers', 'Dual: 0.75 L brew (stainless), 1.2 L steam (copper)'],
      ['Group head', '58 mm E61-style, commercial'],
      ['Pump', 'Vibration pump, 15 bar, with adjustable over-pressure valve'],
      ['Temperature control', 'PID, brew and steam independently, ±0.5 °C'],
      ['Pre-infusion', 'Programmable, 0–10 s'],
      ['Water reservoir', '2.5 L, removable, top-fill'],
      ['Dimensions (W × D × H)', '32 × 44 × 39 cm'],
      ['Weight', '24.5 kg'],
      ['Power', '120 V, 1700 W, NEMA 5-15 plug'],
      ['Warranty', '2 years parts and labour; 5 years on boilers'],
      [
        'In the box',
        'Single and double portafilters, 58 mm tamper, backflush disc, 0.6 L milk jug, cleaning brush',
      ],
    ];

    const gallery = images
      .map(
        (src, i) =>
          `<li><button type="button" data-index="${i}"><img src="${src.replace('1600', '160')}" alt="View ${i + 1} of ${name}" width="72" height="72"></button></li>`,
      )
      .join('');

    const reviews = REVIEWS.map(
      ([
        author,
        rating,
        date,
        title,
        text,
      ]) => `<li class="review" itemprop="review" itemscope itemtype="https://schema.org/Review">
<div itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><meta itemprop="worstRating" content="1"><span class="stars" aria-label="${rating} out of 5 stars">${'★'.repeat(rating)}${'☆'.repeat(5 - rating)}</span><meta itemprop="ratingValue" content="${rating}"><meta itemprop="bestRating" content="5"></div>
<h3 itemprop="name">${esc(title)}</h3>
<p class="review__meta">By <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">${esc(author)}</span></span> on <time itemprop="datePublished" datetime="${date}">${date}</time> · <span class="verified">Verified buyer</span></p>
<div itemprop="reviewBody"><p>${esc(text)}</p></div>
<p class="review__helpful">Was this helpful? <button>Yes (${rng.int(2, 60)})</button> <button>No (${rng.int(0, 9)})</button></p>
</li>`,
    ).join('\n');

    const qa = [
      ['Can it be plumbed in?', 'Not this model. The Duo Rotary version has a plumb-in kit.'],
      [
        'Does it work on 220 V?',
        'No, the US model is 120 V only. An international version is sold in other regions.',
      ],
      [
        'How long until it is ready from cold?',
        'About 20–25 minutes for the group head to be fully heat-soaked.',
      ],
      [
        'Is the steam wand cool-touch?',
        'Yes, the wand is double-walled and has a two-hole tip; a one-hole tip is included.',
      ],
    ] as const;

    const main = `<main id="maincontent" class="page-main">
<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/coffee-machines/">Coffee machines</a></li><li><a href="/coffee-machines/espresso/">Espresso</a></li><li><a href="/coffee-machines/espresso/dual-boiler/">Dual boiler</a></li><li aria-current="page">${esc(name)}</li></ol></nav>
<div class="pdp" itemscope itemtype="https://schema.org/Product">
<section class="gallery" aria-label="Product images"><img class="gallery__main" itemprop="image" src="${images[0]}" alt="${esc(name)}, front view" width="800" height="800"><ul class="gallery__thumbs">${gallery}</ul><button class="gallery__zoom">Zoom</button><a class="gallery__video" href="https://vidtube.example/watch?v=brv-duo-pro">Watch the video review (12:40)</a></section>
<section class="buy-box">
<p class="brand" itemprop="brand" itemscope itemtype="https://schema.org/Brand"><a href="/brands/brevello/" itemprop="url"><span itemprop="name">Brevello</span></a></p>
<h1 class="product-title" itemprop="name">${esc(name)}</h1>
<div class="rating" itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><span class="stars" aria-hidden="true">★★★★½</span> <span itemprop="ratingValue">4.6</span> out of <span itemprop="bestRating">5</span> · <a href="#reviews"><span itemprop="reviewCount">312</span> reviews</a> · <a href="#qa">27 answered questions</a></div>
<p class="sku">SKU: <span itemprop="sku">BRV-DB920-SS</span> · Model: <span itemprop="mpn">DB920SS</span><meta itemprop="gtin13" content="0735926004113"></p>
<div class="offer" itemprop="offers" itemscope itemtype="https://schema.org/Offer">
<link itemprop="url" href="${url}">
<p class="price"><span class="visually-hidden">Sale price</span><span itemprop="priceCurrency" content="USD">$</span><span itemprop="price" content="1299.00">1,299.00</span> <span class="price--was"><span class="visually-hidden">Regular price</span>$1,499.00</span> <span class="badge badge--sale">Save $200</span></p>
<meta itemprop="priceValidUntil" content="2025-12-31">
<link itemprop="itemCondition" href="https://schema.org/NewCondition">
<p class="stock"><link itemprop="availability" href="https://schema.org/InStock">In stock — ships in 1 business day</p>
<p class="financing">Or 4 interest-free payments of $324.75 with <a href="/financing">PayLater</a>. <a href="/financing#terms">Terms apply</a>.</p>
</div>
<form class="add-to-cart" action="/checkout/cart/add/product/88231/" method="post">
<input type="hidden" name="form_key" value="Zq81mPvXc2LtR0aa">
<fieldset class="swatches"><legend>Finish: <strong>Brushed stainless steel</strong></legend>
<label class="swatch" style="background:#c9c9c9"><input type="radio" name="finish" value="ss" checked><span class="visually-hidden">Brushed stainless steel</span></label>
<label class="swatch" style="background:#1d1d1d"><input type="radio" name="finish" value="black"><span class="visually-hidden">Matte black (+$50.00)</span></label>
<label class="swatch swatch--soldout" style="background:#f4f1ea"><input type="radio" name="finish" value="cream" disabled><span class="visually-hidden">Cream (sold out)</span></label>
</fieldset>
<label for="qty">Quantity</label> <input id="qty" type="number" name="qty" value="1" min="1" max="5">
<button type="submit" class="btn btn--primary btn--large">Add to cart</button>
<button type="button" class="btn btn--ghost">♡ Add to wish list</button>
</form>
<ul class="perks"><li>Free 2–5 day shipping in the contiguous US</li><li>30-day returns</li><li>Price match guarantee</li><li>Free grinder setup call with a barista</li></ul>
<div class="bundle"><h2>Frequently bought together</h2><ol><li>This item: ${esc(name)} — <strong>$1,299.00</strong></li><li><a href="/products/castor-finch-c64-flat-burr-grinder">Castor &amp; Finch C64 Flat Burr Grinder</a> — $549.00</li><li><a href="/products/brevello-58mm-precision-tamper">Brevello 58 mm Precision Tamper</a> — $39.95</li></ol><p>Total price: $1,887.95 <button class="btn">Add all three to cart</button></p></div>
</section>
</div>
<section class="tabs">
<h2 id="description">Description</h2>
<div itemprop="description" class="description">
<p>The Duo Pro is for home baristas who have outgrown a single boiler machine. Two independent boilers mean you can pull a shot and steam milk at the same time, with each boiler held at its own temperature by a PID controller.</p>
<p>The 58 mm group head takes standard commercial baskets and portafilters, so you can use precision baskets and bottomless portafilters from any maker. Programmable pre-infusion wets the puck at low pressure before full extraction, which is more forgiving with light roasts.</p>
<ul><li>Shot timer built into the front display</li><li>Eco mode switches the steam boiler off when not needed</li><li>Hot water tap for Americanos and tea</li><li>Cup warmer tray with rail</li></ul>
</div>
<h2 id="specifications">Specifications</h2>
<table class="specs"><tbody>${specs.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>
<h2 id="reviews">Customer reviews</h2>
<div class="reviews-summary"><p><strong>4.6</strong> out of 5 (312 reviews)</p><ul class="histogram"><li>5 stars: 72%</li><li>4 stars: 18%</li><li>3 stars: 6%</li><li>2 stars: 2%</li><li>1 star: 2%</li></ul><a class="btn" href="/review/product/88231/new">Write a review</a></div>
<ul class="reviews">${reviews}</ul>
<a href="/products/brevello-duo-pro-dual-boiler-espresso-machine/reviews?page=2">See all 312 reviews</a>
<h2 id="qa">Questions &amp; answers</h2>
<dl class="qa">${qa.map(([q, a]) => `<dt>Q: ${esc(q)}</dt><dd>A: ${esc(a)} <span class="qa__by">— Brewhaus Direct staff</span></dd>`).join('')}</dl>
</section>
<section class="recs" aria-label="Grinders that pair well"><h2>Pair it with a grinder</h2><ul class="carousel">${grinders.map((g) => card(g, rng.int(189, 1499) * 100 + rng.pick([0, 95, 99]), rng.int(35, 50) / 10)).join('')}</ul></section>
<section class="recs" aria-label="Customers also viewed"><h2>Customers also viewed</h2><ul class="carousel">${alsoViewed.map((g) => card(g, rng.int(699, 2899) * 100 + rng.pick([0, 95, 99]), rng.int(35, 50) / 10)).join('')}</ul></section>
<section class="recently-viewed"><h2>Recently viewed</h2><p>You have not viewed any other products yet.</p></section>
</main>`;

    const body = `<body class="catalog-product-view page-layout-1column">
<div class="promo-bar"><p>Free shipping on orders over $49 · <a href="/deals">Spring sale: up to 25% off grinders</a></p></div>
<header class="page-header"><div class="header content"><a class="logo" href="/"><img src="/static/logo.svg" alt="Brewhaus Direct" width="180" height="40"></a>
<form class="minisearch" action="/catalogsearch/result/" method="get" role="search"><input id="search" type="text" name="q" placeholder="Search 4,000+ products" autocomplete="off"><button type="submit" title="Search">Search</button></form>
<ul class="header links"><li><a href="/customer/account/login/">Sign in</a></li><li><a href="/customer/account/create/">Create an account</a></li><li><a href="/stores">Store locator</a></li><li class="minicart"><a href="/checkout/cart/">Cart <span class="counter">0</span></a></li></ul></div>
${megaMenu(rng, SHOP_MENU)}
</header>
${main}
${siteFooter('Brewhaus Direct', [
  ['Shop', ['Coffee machines', 'Grinders', 'Accessories', 'Coffee', 'Gift cards', 'Open box']],
  ['Help', ['Shipping', 'Returns', 'Warranty', 'Order status', 'Contact us', 'Repair service']],
  ['Learn', ['Brew guides', 'Espresso 101', 'Video reviews', 'Comparisons', 'Blog']],
  ['Company', ['About us', 'Showroom', 'Careers', 'Affiliate program', 'Wholesale']],
])}
${cookieBanner('Brewhaus Direct', 'modal')}
<script type="text/x-magento-init">{"[data-role=swatch-options]":{"Magento_Swatches/js/swatch-renderer":{"jsonConfig":{"attributes":{"93":{"id":"93","code":"finish","options":[{"id":"ss","label":"Brushed stainless steel","products":["88231"]},{"id":"black","label":"Matte black","products":["88232"]}]}},"prices":{"oldPrice":{"amount":1499},"basePrice":{"amount":1299},"finalPrice":{"amount":1299}},"productId":"88231"}}}}</script>
${trackingScripts('BH-40177')}
</body>`;
    return `<!doctype html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const pricingPage: PageSpec = {
  name: 'pricing-page',
  url: 'https://www.ledgerly.example/pricing',
  contentType: 'text/html; charset=utf-8',
  title: 'SaaS pricing page with plan cards and a feature comparison table',
  description:
    'An invoicing product’s pricing page: a monthly/annual toggle, five plan cards (one “Contact sales”), a long comparison table with group header rows spanning all columns, a header cell spanning two rows, check marks and dashes as cell values, footnote markers, an FAQ accordion and a SoftwareApplication JSON-LD with an offer per plan.',
  exercises: [
    'comparison table: `colspan` group rows, a `rowspan` header, symbols (✓, —) and footnote markers as cell text',
    'two prices per plan (monthly and annual) present in the markup, one hidden with the `hidden` attribute',
    'JSON-LD SoftwareApplication with an AggregateOffer and an Offer per plan',
    'FAQ in `<details>` without FAQPage JSON-LD',
  ],
  build(rng: Rng) {
    const plans = [
      ['Free', 0, 0, 'For freelancers sending a few invoices a month.'],
      ['Starter', 12, 10, 'For small businesses getting paid on time.'],
      ['Growth', 39, 32, 'For growing teams with recurring billing.'],
      ['Scale', 99, 82, 'For finance teams with approvals and audits.'],
      ['Enterprise', -1, -1, 'For organisations with custom contracts and SSO.'],
    ] as const;
    const groups: readonly (readonly [
      string,
      readonly (readonly [string, readonly string[]])[],
    ])[] = [
      [
        'Invoicing',
        [
          ['Invoices per month', ['5', '100', 'Unlimited', 'Unlimited', 'Unlimited']],
          ['Custom branding', ['—', '✓', '✓', '✓', '✓']],
          ['Recurring invoices', ['—', '—', '✓', '✓', '✓']],
          ['Multi-currency', ['—', '3 currencies', '✓', '✓', '✓']],
          ['Late-payment reminders', ['—', '✓', '✓', '✓', '✓']],
          ['Credit notes', ['✓', '✓', '✓', '✓', '✓']],
        ],
      ],
      [
        'Payments',
        [
          ['Card payments', ['2.9% + 30¢', '2.9% + 30¢', '2.4% + 30¢', '2.1% + 30¢', 'Custom']],
          ['Bank transfers (ACH)', ['—', '✓', '✓', '✓', '✓']],
          ['Payouts', ['Weekly', 'Daily', 'Daily', 'Instant¹', 'Instant¹']],
        ],
      ],
      [
        'Team and controls',
        [
          ['Users', ['1', '2', '10', '50', 'Unlimited']],
          ['Approval workflows', ['—', '—', '—', '✓', '✓']],
          ['Audit log', ['—', '—', '30 days', '1 year', 'Unlimited']],
          ['SAML single sign-on', ['—', '—', '—', '—', '✓']],
        ],
      ],
      [
        'Support',
        [
          ['Email support', ['Community', '✓', '✓', '✓', '✓']],
          ['Phone support', ['—', '—', '—', '✓', '✓']],
          ['Dedicated account manager', ['—', '—', '—', '—', '✓']],
          ['Uptime SLA', ['—', '—', '—', '99.9%', '99.95%²']],
        ],
      ],
    ];
    const offers = plans
      .filter(([, monthly]) => monthly >= 0)
      .map(([name, monthly]) => ({
        '@type': 'Offer',
        name,
        price: monthly.toFixed(2),
        priceCurrency: 'USD',
        url: `https://www.ledgerly.example/signup?plan=${slug(name)}`,
      }));
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: 'Ledgerly',
      applicationCategory: 'BusinessApplication',
      operatingSystem: 'Web, iOS, Android',
      offers: {
        '@type': 'AggregateOffer',
        lowPrice: '0.00',
        highPrice: '99.00',
        priceCurrency: 'USD',
        offerCount: offers.length,
        offers,
      },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.7', ratingCount: '1840' },
    };
    const head = standardHead({
      title: 'Pricing – Plans for every business | Ledgerly',
      description:
        'Simple pricing for invoicing and payments. Start free, upgrade when you need recurring billing, approvals or SSO. Save 18% with annual billing.',
      canonical: this.url,
      siteName: 'Ledgerly',
      image: 'https://www.ledgerly.example/og/pricing.png',
      twitterSite: '@ledgerlyhq',
      themeColor: '#4338ca',
      extra: jsonLd(ld),
      css: `.plans{display:grid;grid-template-columns:repeat(5,1fr);gap:1rem}.plan--featured{outline:2px solid #4338ca}
.compare{border-collapse:separate;border-spacing:0;width:100%}.compare thead th{position:sticky;top:64px;background:#fff}
.compare .group th{background:#f5f5ff;text-align:left;font-weight:700}.toggle{display:inline-flex;border-radius:999px;background:#eef}`,
      assets:
        '<script type="module" src="/_astro/pricing.4f2c1a.js"></script>\n<link rel="stylesheet" href="/_astro/index.91ab3c.css">',
    });
    const cards = plans
      .map(([name, monthly, annual, blurb], i) => {
        const priceBlock =
          monthly < 0
            ? '<p class="plan__price plan__price--custom">Custom pricing</p>'
            : `<p class="plan__price" data-billing="monthly"><span class="amount">$${monthly}</span><span class="per">/user/month</span></p><p class="plan__price" data-billing="annual" hidden><span class="amount">$${annual}</span><span class="per">/user/month, billed annually</span></p>`;
        const cta =
          monthly < 0
            ? '<a class="btn" href="/contact-sales">Contact sales</a>'
            : `<a class="btn${i === 2 ? ' btn--primary' : ''}" href="/signup?plan=${slug(name)}">${monthly === 0 ? 'Start for free' : 'Start 14-day trial'}</a>`;
        return `<article class="plan${i === 2 ? ' plan--featured' : ''}">${i === 2 ? '<p class="plan__badge">Most popular</p>' : ''}<h2 class="plan__name">${name}</h2><p class="plan__blurb">${blurb}</p>${priceBlock}${cta}</article>`;
      })
      .join('\n');
    let table = `<table class="compare"><caption class="visually-hidden">Compare Ledgerly plans</caption><thead><tr><th rowspan="2" scope="col">Features</th>${plans.map(([name]) => `<th scope="col">${name}</th>`).join('')}</tr><tr>${plans.map(([, m]) => `<th scope="col" class="compare__price">${m < 0 ? 'Custom' : m === 0 ? '$0' : `$${m}/mo`}</th>`).join('')}</tr></thead>`;
    for (const [group, rows] of groups) {
      table += `<tbody><tr class="group"><th colspan="6" scope="colgroup">${group}</th></tr>`;
      for (const [feature, values] of rows) {
        table += `<tr><th scope="row">${esc(feature)}${rng.chance(0.25) ? ` <button class="tip" aria-label="About ${esc(feature.toLowerCase())}">?</button>` : ''}</th>${values.map((v) => `<td>${v === '✓' ? '<span aria-label="Included">✓</span>' : v === '—' ? '<span aria-label="Not included">—</span>' : esc(v)}</td>`).join('')}</tr>`;
      }
      table += '</tbody>';
    }
    table +=
      '<tfoot><tr><td colspan="6"><p>¹ Instant payouts cost 1% of the payout amount. ² Enterprise SLA with service credits, see the <a href="/legal/sla">SLA terms</a>.</p></td></tr></tfoot></table>';
    const faq = [
      [
        'Can I change plans later?',
        'Yes. Upgrades apply immediately and are prorated; downgrades apply at the end of your billing period.',
      ],
      [
        'Do you charge per invoice?',
        'No. Plans are priced per user. Card and bank payments have processing fees shown in the table above.',
      ],
      [
        'Is there a discount for non-profits?',
        'Registered non-profits get 50% off Starter and Growth. <a href="/nonprofits">Apply here</a>.',
      ],
      [
        'What happens when my trial ends?',
        'You move to the Free plan unless you add a payment method. Nothing is deleted.',
      ],
      [
        'Which currencies can I bill in?',
        'Starter supports USD, EUR and GBP. Growth and above support 135 currencies.',
      ],
      [
        'Do you offer annual invoicing for Enterprise?',
        'Yes, Enterprise contracts can be invoiced annually with net-30 terms.',
      ],
    ] as const;
    const logos = [
      'Northgate Builders',
      'Pinecrest Dental',
      'Alder & Moss',
      'Studio Kiln',
      'Bramble Logistics',
      'Cobalt Tutors',
    ];
    const body = `<body>
<header class="nav"><a href="/" class="nav__logo">Ledgerly</a><nav aria-label="Main"><ul><li><a href="/product">Product</a></li><li><a href="/integrations">Integrations</a></li><li><a href="/customers">Customers</a></li><li><a href="/pricing" aria-current="page">Pricing</a></li><li><a href="/resources">Resources</a></li></ul></nav><a href="https://app.ledgerly.example/login">Log in</a> <a class="btn btn--primary" href="/signup">Start free</a></header>
<main>
<section class="hero"><h1>Pricing that grows with you</h1><p>Start free. Upgrade when you need recurring billing, approvals or single sign-on.</p>
<div class="toggle" role="radiogroup" aria-label="Billing period"><button role="radio" aria-checked="true" data-set-billing="monthly">Monthly</button><button role="radio" aria-checked="false" data-set-billing="annual">Annual <span class="badge">Save 18%</span></button></div></section>
<section class="plans" aria-label="Plans">
${cards}
</section>
<section class="logos"><p>Trusted by 40,000 businesses</p><ul>${logos.map((l) => `<li><img src="/logos/${slug(l)}.svg" alt="${esc(l)}" width="120" height="32"></li>`).join('')}</ul></section>
<section class="compare-section"><h2>Compare plans</h2>
${table}
</section>
<section class="faq"><h2>Frequently asked questions</h2>${faq.map(([q, a]) => `<details><summary>${esc(q)}</summary><p>${a}</p></details>`).join('\n')}</section>
<section class="cta"><h2>Ready to get paid faster?</h2><a class="btn btn--primary" href="/signup">Start free</a> <a class="btn" href="/demo">Book a demo</a></section>
</main>
${siteFooter('Ledgerly Inc.', [
  [
    'Product',
    [
      'Invoicing',
      'Payments',
      'Recurring billing',
      'Expenses',
      'Reports',
      'Mobile apps',
      'Integrations',
      'API',
    ],
  ],
  [
    'Solutions',
    ['Freelancers', 'Agencies', 'Construction', 'Healthcare', 'Non-profits', 'Accountants'],
  ],
  ['Resources', ['Help center', 'Invoice templates', 'Blog', 'Webinars', 'Status', 'Developers']],
  ['Company', ['About', 'Careers', 'Press', 'Security', 'Legal', 'Contact']],
])}
${cookieBanner('Ledgerly')}
<script>document.querySelectorAll('[data-set-billing]').forEach(function(b){b.addEventListener('click',function(){var m=b.dataset.setBilling;document.querySelectorAll('[data-billing]').forEach(function(p){p.hidden=p.dataset.billing!==m})})})</script>
${trackingScripts('LG-22019')}
</body>`;
    return `<!DOCTYPE html><html lang="en" dir="ltr"><head>\n${head}\n</head>\n${body}</html>`;
  },
};

export const searchResults: PageSpec = {
  name: 'search-results',
  url: 'https://search.findr.example/search?q=how+to+descale+an+espresso+machine&hl=en',
  contentType: 'text/html; charset=UTF-8',
  title: 'Web search engine results page',
  description:
    'A search engine results page for “how to descale an espresso machine”: sponsored results at the top and bottom, ten organic results (title link, breadcrumb-style URL, date, snippet with `<em>` highlights), a “People also ask” block, a video carousel, related searches and pagination. Most links point to other made-up hosts.',
  exercises: [
    'a page whose “content” is a list of links to other origins (link graph: third-party origins dominate)',
    'sponsored results marked only by a text label',
    'query terms highlighted with `<em>` and `<mark>` inside snippets',
    'redirect-style result URLs (`/url?q=...`) next to direct links',
    'almost no JSON-LD; `noindex` robots meta',
  ],
  build(rng: Rng) {
    const sites = [
      ['brewhausdirect.example', 'Brewhaus Direct', 'guides › maintenance'],
      ['coffeegeekery.test', 'Coffee Geekery', 'forum › espresso'],
      ['homebarista-notes.example', 'Home Barista Notes', '2024 › 06'],
      ['brevello.example', 'Brevello', 'support › descaling'],
      ['wiki.findr.example', 'Findr Wiki', 'wiki › Descaling'],
      ['thekitchenlab.test', 'The Kitchen Lab', 'cleaning › coffee'],
      ['vidtube.example', 'VidTube', 'watch'],
      ['lumo-coffee.example', 'Lumo', 'help › care'],
      ['waterhardness.test', 'Water Hardness Map', 'guides'],
      ['roastery-journal.example', 'Roastery Journal', 'blog › care'],
    ] as const;
    const titles = [
      'How to Descale an Espresso Machine (Step-by-Step Guide)',
      'Descaling vs backflushing: what your machine actually needs',
      'I descaled my dual boiler with citric acid – here is what happened',
      'Descaling your Brevello machine | Official support',
      'Descaling (coffee equipment)',
      'The best way to clean and descale any coffee maker',
      'Descaling a dual boiler espresso machine in 10 minutes',
      'Care and maintenance: descaling programme explained',
      'Hard water and espresso: how often to descale',
      'Why we stopped recommending vinegar for descaling',
    ];
    const snippets = [
      'Learn <em>how to descale an espresso machine</em> safely. Mix the descaler with water, run it through the group head and steam wand, then rinse twice with fresh water…',
      'Backflushing cleans coffee oils from the group; <em>descaling</em> removes mineral scale from the boiler. Most home users need to <em>descale</em> every 2–3 months…',
      'Citric acid works, but it can attack brass fittings at high concentrations. I used 20 g per litre and ran the <em>descaling</em> cycle twice…',
      'Use Brevello Descaling Solution only. Press and hold the MENU button for 5 seconds to start the <em>descale</em> programme on your <em>espresso machine</em>…',
      '<em>Descaling</em> is the removal of limescale from metal surfaces in contact with hot water, such as boilers, heating elements and <em>espresso machines</em>…',
      'From drip brewers to pod machines, here is the simplest routine to <em>descale</em> any coffee maker and keep it running for years…',
      '<mark>10:02</mark> · Step-by-step video: draining both boilers, mixing the solution and refilling without air locks…',
      'Your machine counts the litres of water used and shows a reminder when it is time to <em>descale</em>. The programme takes about 25 minutes…',
      'If your water hardness is above 120 ppm, <em>descale</em> monthly or use a softening filter. Check your area on our map…',
      'Vinegar leaves a taste and does not rinse well from <em>espresso machine</em> boilers. A lactic-acid descaler is gentler on seals…',
    ];
    const result = (i: number) => {
      const [host, name, crumbs] = sites[i] as (typeof sites)[number];
      const path = `/${slug(titles[i] as string)}`;
      const date = `${rng.int(1, 28)} ${rng.pick(['Jan', 'Mar', 'Jun', 'Aug', 'Oct', 'Nov'])} ${rng.int(2021, 2025)}`;
      const href =
        i % 3 === 1
          ? `/url?q=https://${host}${path}&amp;sa=U&amp;ved=2ahUKEwi${rng.int(100000, 999999)}`
          : `https://${host}${path}`;
      const sitelinks =
        i === 0
          ? `<ul class="sitelinks">${['What you need', 'Step 1: empty the tank', 'How often?', 'Descaler types'].map((s) => `<li><a href="https://${host}${path}#${slug(s)}">${s}</a></li>`).join('')}</ul>`
          : '';
      return `<div class="result" data-rank="${i + 1}"><div class="result__source"><img src="https://icons.findr.example/favicon?domain=${host}" alt="" width="18" height="18"><span class="result__site">${name}</span><cite>https://${host} › ${crumbs}</cite><button class="result__menu" aria-label="About this result">⋮</button></div><h3><a href="${href}" data-ved="${rng.int(1000, 9999)}">${esc(titles[i] as string)}</a></h3><div class="result__snippet"><span class="result__date">${date} — </span>${snippets[i]}</div>${sitelinks}</div>`;
    };
    const ad = (n: number, title: string, host: string, text: string) =>
      `<div class="ad-result" data-ad="${n}"><span class="ad-result__label">Sponsored</span><div class="result__source"><span class="result__site">${host}</span><cite>https://www.${host}/descaler</cite></div><h3><a href="https://ads.findr.example/aclk?sa=L&amp;ai=${rng.int(100000, 999999)}&amp;adurl=https://www.${host}/descaler">${esc(title)}</a></h3><p>${esc(text)}</p><ul class="ad-result__links"><li><a href="https://www.${host}/shop">Shop now</a></li><li><a href="https://www.${host}/offers">Offers</a></li></ul></div>`;
    const paa = [
      [
        'Can I descale with vinegar?',
        'Most manufacturers advise against vinegar for espresso machines because it is hard to rinse out and can damage seals.',
      ],
      [
        'How often should I descale an espresso machine?',
        'Every 2–3 months for average water hardness; monthly with hard water.',
      ],
      [
        'What happens if you never descale?',
        'Scale insulates heating elements and blocks narrow pipes, which leads to temperature swings and eventually failure.',
      ],
      [
        'Is descaling the same as cleaning?',
        'No. Cleaning removes coffee oils; descaling removes minerals from the water circuit.',
      ],
    ] as const;
    const related = [
      'descale espresso machine citric acid',
      'descaling solution for espresso machine',
      'how often descale espresso machine',
      'descale dual boiler espresso machine',
      'espresso machine descaling vinegar',
      'descale brevello machine',
      'best descaler for espresso machines',
      'espresso machine backflush vs descale',
    ];
    const head = `<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="origin">
<title>how to descale an espresso machine - Findr Search</title>
<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml" title="Findr">
<link rel="icon" href="https://icons.findr.example/findr-32.png" sizes="32x32">
<meta property="og:title" content="how to descale an espresso machine - Findr Search">
<meta property="og:type" content="website">
<style>body{font-family:Arial,sans-serif;margin:0}#top{display:flex;gap:1rem;padding:1rem 2rem;border-bottom:1px solid #eee}
.result,.ad-result{max-width:650px;margin:0 0 1.75rem}.result h3{font-size:20px;margin:.25rem 0}.result cite{color:#4d5156;font-style:normal;font-size:14px}
.result__snippet em{font-weight:700;font-style:normal}.paa details{border-bottom:1px solid #ddd;padding:.75rem 0}
#rhs{position:absolute;left:880px;top:140px;width:370px}</style>
<script nonce="s7d8f">window.findr={kEI:'aX3mZ_${rng.int(10000, 99999)}',kEXPI:'0,1302536,56873,6058,4',authuser:0};(function(){var e=Date.now();window.findr.timers={load:{t:{start:e}}}})();</script>`;
    const results = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(result);
    const videos = [
      'Descale a dual boiler in 10 minutes',
      'Citric acid vs commercial descaler: test',
      'Draining the steam boiler safely',
    ];
    const body = `<body>
<div id="top"><a href="/" aria-label="Findr home"><img src="https://icons.findr.example/logo-92x30.png" alt="Findr" width="92" height="30"></a>
<form action="/search" role="search"><input name="q" value="how to descale an espresso machine" aria-label="Search" autocomplete="off"><input type="hidden" name="hl" value="en"><button type="submit" aria-label="Search">🔍</button></form>
<div class="top__right"><a href="https://accounts.findr.example/signin">Sign in</a></div></div>
<div id="tabs" role="navigation"><a href="/search?q=how+to+descale+an+espresso+machine" aria-current="page">All</a> <a href="/search?q=how+to+descale+an+espresso+machine&amp;tbm=vid">Videos</a> <a href="/search?q=how+to+descale+an+espresso+machine&amp;tbm=shop">Shopping</a> <a href="/search?q=how+to+descale+an+espresso+machine&amp;tbm=isch">Images</a> <a href="/search?q=how+to+descale+an+espresso+machine&amp;tbm=nws">News</a> <a href="/maps?q=descale">Maps</a></div>
<div id="result-stats">About 4,310,000 results (0.41 seconds)</div>
<div id="center_col" role="main"><h1 class="visually-hidden">Search Results</h1>
<div id="tads" aria-label="Ads">${ad(1, 'Espresso Machine Descaler – 2 Bottles, Free Shipping', 'cleancup-supplies.example', 'Lactic-acid descaler safe for dual boilers. Ships today. 4.8★ from 2,100 reviews.')}${ad(2, 'Professional Descaling Service – Book Online', 'baristarepair.test', 'Certified technicians. Pickup and return in 5 days. From $89.')}</div>
<div id="search"><div id="rso">
${results.slice(0, 3).join('\n')}
<div class="paa" aria-label="People also ask"><h2>People also ask</h2>${paa.map(([q, a]) => `<details><summary>${esc(q)}</summary><p>${esc(a)}</p><a href="https://wiki.findr.example/wiki/Descaling">More on Findr Wiki</a></details>`).join('')}</div>
${results.slice(3, 6).join('\n')}
<div class="videos" aria-label="Videos"><h2>Videos</h2><ul>${videos.map((v, i) => `<li><a href="https://vidtube.example/watch?v=${slug(v).slice(0, 11)}"><img src="https://i.vidtube.example/vi/${i}/mqdefault.jpg" alt="" width="160" height="90"><span>${esc(v)}</span><span class="duration">${rng.int(3, 14)}:${String(rng.int(0, 59)).padStart(2, '0')}</span></a></li>`).join('')}</ul></div>
${results.slice(6).join('\n')}
</div></div>
<div id="bottomads">${ad(3, 'Water Filter Pitchers That Prevent Scale', 'purepour.example', 'Reduce limescale in your coffee machine by 90%. Shop filters.')}</div>
<div id="botstuff"><h2>Related searches</h2><ul class="related">${related.map((r) => `<li><a href="/search?q=${encodeURIComponent(r).replace(/%20/g, '+')}">${esc(r)}</a></li>`).join('')}</ul></div>
<nav class="pagination" aria-label="More results"><span class="current">1</span>${[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<a href="/search?q=how+to+descale+an+espresso+machine&amp;start=${(n - 1) * 10}">${n}</a>`).join('')}<a href="/search?q=how+to+descale+an+espresso+machine&amp;start=10" rel="next">Next</a></nav>
</div>
<div id="rhs" aria-label="Knowledge panel"><h2>Descaling</h2><p>Descaling is the removal of limescale from surfaces in contact with hot water. <a href="https://wiki.findr.example/wiki/Descaling">Findr Wiki</a></p></div>
<footer id="footer"><span>United States</span> · <a href="/preferences">Settings</a> · <a href="/policies/privacy">Privacy</a> · <a href="/policies/terms">Terms</a> · <a href="/feedback">Send feedback</a></footer>
<script nonce="s7d8f">(function(){var r=document.querySelectorAll('.result h3 a');for(var i=0;i<r.length;i++){r[i].addEventListener('mousedown',function(e){var t=e.currentTarget;navigator.sendBeacon&&navigator.sendBeacon('/gen_204?ved='+t.dataset.ved)})}})();</script>
</body>`;
    return `<!doctype html><html lang="en-US" itemscope itemtype="http://schema.org/SearchResultsPage"><head>${head}</head>${body}</html>`;
  },
};

const ORBIT_MENU = [
  {
    name: 'Product',
    groups: [
      [
        'Support',
        [
          'Shared inbox',
          'Live chat',
          'Help center',
          'Phone and voice',
          'Ticket routing',
          'SLA management',
        ],
      ],
      ['Automation', ['Workflows', 'Macros', 'AI triage', 'Chatbots', 'Auto-translate']],
      ['Insights', ['Reporting', 'CSAT surveys', 'Team performance', 'Custom dashboards']],
      ['Platform', ['Integrations', 'Developer API', 'Security', 'Data residency', 'What’s new']],
    ],
  },
  {
    name: 'Solutions',
    groups: [
      ['By team', ['Customer support', 'IT help desk', 'HR service desk', 'Sales success']],
      [
        'By industry',
        ['E-commerce', 'Software', 'Financial services', 'Healthcare', 'Education', 'Travel'],
      ],
      ['By size', ['Startups', 'Mid-market', 'Enterprise']],
    ],
  },
  {
    name: 'Resources',
    groups: [
      ['Learn', ['Blog', 'Guides', 'Webinars', 'Benchmark report 2025', 'Glossary']],
      ['Help', ['Documentation', 'Community', 'Status', 'Training academy']],
      ['Compare', ['Orbitdesk vs HelpHarbor', 'Orbitdesk vs Ticketly', 'Orbitdesk vs Supportal']],
    ],
  },
  {
    name: 'Company',
    groups: [['About', ['Our story', 'Careers', 'Press', 'Partners', 'Contact']]],
  },
] as const satisfies readonly {
  name: string;
  groups: readonly (readonly [string, readonly string[]])[];
}[];

export const landingPage: PageSpec = {
  name: 'landing-page',
  url: 'https://www.orbitdesk.example/',
  contentType: 'text/html; charset=utf-8',
  title: 'SaaS marketing home page with a mega-menu and a huge footer',
  description:
    'The home page of a customer-support software company: an announcement bar, a four-panel mega-menu (about 80 links), a hero with two calls to action, a logo wall, feature sections with screenshots, statistics, testimonials, an integrations grid, a final call to action and a footer with more than 60 links. Organization and WebSite (with SearchAction) JSON-LD.',
  exercises: [
    'navigation links far outnumber content links; the content is short marketing copy split into many small sections',
    'headings used as design elements (eyebrows, stat numbers)',
    'Organization + WebSite JSON-LD, sameAs profile links',
    'inline SVG icons and `aria-hidden` decorations',
  ],
  build(rng: Rng) {
    const ld = [
      {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        '@id': 'https://www.orbitdesk.example/#organization',
        name: 'Orbitdesk',
        url: 'https://www.orbitdesk.example/',
        logo: 'https://www.orbitdesk.example/brand/orbitdesk-logo-512.png',
        sameAs: [
          'https://chirp.example/orbitdesk',
          'https://linkpost.example/company/orbitdesk',
          'https://vidtube.example/@orbitdesk',
        ],
        contactPoint: {
          '@type': 'ContactPoint',
          contactType: 'sales',
          telephone: '+1-555-0142',
          availableLanguage: ['English', 'German', 'French'],
        },
      },
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        url: 'https://www.orbitdesk.example/',
        name: 'Orbitdesk',
        potentialAction: {
          '@type': 'SearchAction',
          target: 'https://www.orbitdesk.example/search?q={search_term_string}',
          'query-input': 'required name=search_term_string',
        },
      },
    ];
    const head = standardHead({
      title: 'Orbitdesk – Customer support software that scales with you',
      description:
        'Orbitdesk brings email, chat, phone and your help center into one inbox, with automation that resolves routine questions before they reach your team.',
      canonical: this.url,
      siteName: 'Orbitdesk',
      image: 'https://www.orbitdesk.example/og/home-2025.png',
      twitterSite: '@orbitdesk',
      themeColor: '#0f172a',
      extra: `${jsonLd(ld[0])}\n${jsonLd(ld[1])}\n<link rel="alternate" hreflang="en" href="https://www.orbitdesk.example/">\n<link rel="alternate" hreflang="de" href="https://www.orbitdesk.example/de/">\n<link rel="alternate" hreflang="fr" href="https://www.orbitdesk.example/fr/">\n<link rel="alternate" hreflang="x-default" href="https://www.orbitdesk.example/">`,
      css: `.announce{background:linear-gradient(90deg,#6366f1,#ec4899);color:#fff;text-align:center;padding:.5rem}
.hero{display:grid;grid-template-columns:1fr 1fr;gap:4rem;padding:6rem 2rem;background:#0f172a;color:#fff}
.logos ul{display:flex;flex-wrap:wrap;gap:3rem;justify-content:center;filter:grayscale(1)}
.feature{display:grid;grid-template-columns:1fr 1fr;gap:3rem;align-items:center;padding:4rem 2rem}
.stats{display:grid;grid-template-columns:repeat(4,1fr);text-align:center}.stat__value{font-size:3rem;font-weight:800}`,
      assets:
        '<link rel="stylesheet" href="/_next/static/css/3f8a1c2b9d.css">\n<script src="/_next/static/chunks/webpack-91ac.js" defer></script>\n<script src="/_next/static/chunks/framework-2c79.js" defer></script>\n<script src="/_next/static/chunks/main-6d02.js" defer></script>\n<script src="/_next/static/chunks/pages/index-ae51.js" defer></script>',
    });
    const icon = (d: string) =>
      `<svg class="icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${d}" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
    const features = [
      [
        'One inbox for every channel',
        'Email, chat, phone, social messages and web forms arrive in one queue, with the customer’s full history beside every conversation.',
        [
          'Shared views and collision detection',
          'Internal notes and @mentions',
          'Merge duplicate tickets automatically',
        ],
      ],
      [
        'Automation that does the busywork',
        'Route tickets by language, intent and customer tier. Let the assistant draft replies from your help center and hand over when it is unsure.',
        [
          'Visual workflow builder',
          'AI triage with confidence thresholds',
          'Macros with variables',
        ],
      ],
      [
        'A help center customers actually use',
        'Publish articles in 40 languages, suggest answers as customers type, and see which articles prevent tickets.',
        [
          'Custom domain and theme',
          'Article feedback and analytics',
          'Versioned drafts and approvals',
        ],
      ],
      [
        'Reports your CFO will read',
        'Track first response time, resolution time, CSAT and cost per ticket by team, channel and product line.',
        [
          'Scheduled reports by email',
          'Benchmarks against your industry',
          'Export to your data warehouse',
        ],
      ],
    ] as const;
    const logos = [
      'Northwind Air',
      'Pelican Bank',
      'Fable Books',
      'Cinder Games',
      'Juniper Health',
      'Kestrel Mobility',
      'Oakline Insurance',
      'Tidewater Travel',
      'Quill Learning',
      'Marlow & Sons',
    ];
    const integrations = [
      'Shopfront',
      'Payflow',
      'Chatterbox',
      'Salesdeck',
      'Trackwise',
      'CodeHub',
      'Callbridge',
      'Sheetly',
      'Docsy',
      'Calendarly',
      'Notely',
      'Bugbase',
    ];
    const testimonials = [
      [
        'We cut first response time from 9 hours to 40 minutes in the first quarter, without hiring.',
        'Leah Brandt',
        'Head of Support, Fable Books',
      ],
      [
        'The workflow builder replaced three tools and a lot of spreadsheets.',
        'Omar Siddiqui',
        'Director of CX, Kestrel Mobility',
      ],
      [
        'Our agents like it, which is the highest praise a help desk can get.',
        'Chloé Martin',
        'VP Operations, Tidewater Travel',
      ],
    ] as const;
    const body = `<body>
<div class="announce"><p>New: Orbitdesk AI Agent resolves 52% of chats on its own. <a href="/ai-agent">See how →</a></p></div>
<header class="header"><a class="header__logo" href="/" aria-label="Orbitdesk home"><svg width="132" height="28" viewBox="0 0 132 28" aria-hidden="true"><circle cx="14" cy="14" r="12" fill="#6366f1"/><text x="32" y="20" font-size="18" fill="#0f172a">orbitdesk</text></svg></a>
${megaMenu(rng, ORBIT_MENU)}
<ul class="header__links"><li><a href="/pricing">Pricing</a></li><li><a href="/contact-sales">Talk to sales</a></li><li><a href="https://app.orbitdesk.example/login">Log in</a></li><li><a class="btn btn--primary" href="/signup">Start free trial</a></li></ul>
<button class="header__burger" aria-label="Open menu" aria-expanded="false"><span></span><span></span><span></span></button></header>
<main>
<section class="hero"><div><p class="eyebrow">Customer support platform</p><h1>Support that feels personal, at any scale</h1><p class="lead">Orbitdesk brings every conversation into one place and automates the routine ones, so your team has time for the customers who need a person.</p><div class="hero__ctas"><a class="btn btn--primary btn--large" href="/signup">Start your free trial</a> <a class="btn btn--ghost btn--large" href="/demo">Watch a 3-minute demo</a></div><p class="small">14 days free · No credit card required · Set up in an afternoon</p></div>
<picture><source srcset="/img/hero-inbox.avif" type="image/avif"><img src="/img/hero-inbox.png" alt="The Orbitdesk inbox showing a chat, an email and a call in one queue" width="720" height="480"></picture></section>
<section class="logos" aria-label="Customers"><h2 class="visually-hidden">Trusted by</h2><p>Trusted by 12,000 support teams</p><ul>${logos.map((l) => `<li><img src="/logos/${slug(l)}.svg" alt="${esc(l)}" width="140" height="36" loading="lazy"></li>`).join('')}</ul></section>
${features
  .map(
    ([title, text, bullets], i) =>
      `<section class="feature${i % 2 ? ' feature--reverse' : ''}"><div><p class="eyebrow">${['Inbox', 'Automation', 'Help center', 'Reporting'][i]}</p><h2>${esc(title)}</h2><p>${esc(text)}</p><ul class="checks">${bullets.map((b) => `<li>${icon('M5 12l5 5L20 7')} ${esc(b)}</li>`).join('')}</ul><a class="link-arrow" href="/product/${slug(title)}">Learn more about ${esc(title.toLowerCase())} →</a></div><img src="/img/feature-${i + 1}.png" alt="" width="640" height="420" loading="lazy"></section>`,
  )
  .join('\n')}
<section class="stats" aria-label="Results"><div><p class="stat__value">52%</p><p>of chats resolved without an agent</p></div><div><p class="stat__value">3.1×</p><p>faster first response</p></div><div><p class="stat__value">98.7%</p><p>CSAT at Juniper Health</p></div><div><p class="stat__value">99.99%</p><p>uptime over the last 12 months</p></div></section>
<section class="testimonials"><h2>What support leaders say</h2>${testimonials.map(([q, n, r]) => `<figure><blockquote><p>“${esc(q)}”</p></blockquote><figcaption><img src="/people/${slug(n)}.jpg" alt="" width="48" height="48"> <strong>${esc(n)}</strong>, ${esc(r)}</figcaption></figure>`).join('')}<a href="/customers">Read customer stories →</a></section>
<section class="integrations"><h2>Works with the tools you already use</h2><ul>${integrations.map((n) => `<li><a href="/integrations/${slug(n)}"><img src="/integrations/${slug(n)}.svg" alt="" width="40" height="40"> ${n}</a></li>`).join('')}</ul><a href="/integrations">Browse 250+ integrations →</a></section>
<section class="security"><h2>Enterprise-grade security</h2><ul><li>SOC 2 Type II and ISO 27001 certified</li><li>EU and US data residency</li><li>SAML SSO, SCIM and audit logs</li><li>HIPAA-ready with a BAA</li></ul><a href="/security">Visit the trust center →</a></section>
<section class="cta-final"><h2>See Orbitdesk with your own tickets</h2><p>Import a week of conversations and see what automation would have resolved.</p><form action="/signup" method="get"><label for="cta-email" class="visually-hidden">Work email</label><input id="cta-email" type="email" name="email" placeholder="Work email"><button class="btn btn--primary">Start free trial</button></form></section>
</main>
${siteFooter(
  'Orbitdesk, Inc.',
  [
    [
      'Product',
      [
        'Inbox',
        'Live chat',
        'Help center',
        'Voice',
        'AI Agent',
        'Workflows',
        'Reporting',
        'Integrations',
        'Mobile apps',
        'Pricing',
        'What’s new',
      ],
    ],
    [
      'Solutions',
      [
        'Customer support',
        'IT help desk',
        'HR service desk',
        'E-commerce',
        'Software',
        'Financial services',
        'Healthcare',
        'Startups',
        'Enterprise',
      ],
    ],
    [
      'Resources',
      [
        'Blog',
        'Guides',
        'Webinars',
        'Templates',
        'Benchmark report',
        'Documentation',
        'API reference',
        'Community',
        'Status',
        'Academy',
      ],
    ],
    [
      'Company',
      [
        'About',
        'Careers',
        'Press',
        'Partners',
        'Events',
        'Contact',
        'Legal',
        'Privacy',
        'Security',
        'Accessibility statement',
      ],
    ],
    ['Compare', ['vs HelpHarbor', 'vs Ticketly', 'vs Supportal', 'vs Chatterbox', 'vs Deskhero']],
  ],
  { address: 'Orbitdesk, Inc., 400 Harbor Street, Suite 1200, Bayview, CA 94000' },
)}
${cookieBanner('Orbitdesk')}
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"locale":"en","experiments":{"hero_copy":"b","pricing_badge":"control"},"announcement":{"id":"ai-agent-2025","dismissible":true}},"__N_SSG":true},"page":"/","query":{},"buildId":"k3Jd9f2LmQ","isFallback":false,"gsp":true,"locale":"en","locales":["en","de","fr"],"defaultLocale":"en","scriptLoader":[]}</script>
${trackingScripts('OD-55102')}
</body>`;
    return `<!DOCTYPE html><html lang="en"><head>\n${head}\n</head>\n${body}\n</html>`;
  },
};

export const loginPage: PageSpec = {
  name: 'login-page',
  url: 'https://app.orbitdesk.example/login?next=%2Finbox%2Fviews%2Fassigned',
  contentType: 'text/html; charset=utf-8',
  title: 'Application login page with forms and almost no content',
  description:
    'The sign-in page of a web application: a centred card with an email/password form, a hidden CSRF token, “remember me”, single sign-on buttons, a second form for a magic link, a language selector, a bot-protection widget script and a short legal footer. No OpenGraph image, `noindex`.',
  exercises: [
    'a page with forms and labels but next to no readable content (text and markdown should be short, not empty)',
    'hidden inputs, `autocomplete` attributes, `<select>` options that must not leak into text',
    '`noindex, nofollow` robots meta; no JSON-LD',
  ],
  build() {
    const languages = [
      'English',
      'Deutsch',
      'Español',
      'Français',
      'Italiano',
      'Nederlands',
      'Polski',
      'Português (Brasil)',
      'Svenska',
      'Türkçe',
      '日本語',
      '한국어',
      '简体中文',
    ];
    const head = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in | Orbitdesk</title>
<meta name="description" content="Log in to your Orbitdesk account.">
<meta name="robots" content="noindex, nofollow">
<meta name="csrf-token" content="b3JiaXRkZXNrLWNzcmYtdG9rZW4tZXhhbXBsZQ">
<meta property="og:title" content="Log in | Orbitdesk">
<meta property="og:site_name" content="Orbitdesk">
<meta name="twitter:card" content="summary">
<link rel="icon" href="/favicon.ico">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/assets/auth-9d1c0e.css">
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;font-family:Inter,system-ui,sans-serif}
.card{width:100%;max-width:26rem;background:#fff;border-radius:12px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:2.5rem}
.field{display:grid;gap:.35rem;margin-bottom:1rem}.field input{padding:.7rem .8rem;border:1px solid #cbd5e1;border-radius:8px}
.divider{display:flex;align-items:center;gap:.75rem;color:#64748b;font-size:.8rem}.divider::before,.divider::after{content:"";flex:1;border-top:1px solid #e2e8f0}
.sso{display:grid;gap:.5rem}.sso a{display:flex;gap:.5rem;justify-content:center;border:1px solid #cbd5e1;border-radius:8px;padding:.6rem}
.error{color:#b91c1c;font-size:.875rem}[hidden]{display:none!important}
</style>
<script src="https://challenge.botguard.example/v2/api.js?render=explicit" async defer></script>
<script>window.__AUTH_CONFIG__={"region":"us-east","ssoProviders":["workplace","codehub","saml"],"passwordless":true,"captcha":"botguard","release":"2025.03.11-4"};</script>`;
    const body = `<body class="auth">
<main class="card" role="main">
<a href="https://www.orbitdesk.example/" class="logo"><img src="/assets/orbitdesk-logo.svg" alt="Orbitdesk" width="132" height="28"></a>
<h1>Log in to your account</h1>
<p class="muted">New to Orbitdesk? <a href="https://www.orbitdesk.example/signup">Start a free trial</a></p>
<div class="error" role="alert" id="login-error" hidden>The email or password is incorrect. <a href="/password/forgot">Reset your password</a>.</div>
<form id="login-form" action="/session" method="post" novalidate>
<input type="hidden" name="authenticity_token" value="b3JiaXRkZXNrLWNzcmYtdG9rZW4tZXhhbXBsZQ">
<input type="hidden" name="next" value="/inbox/views/assigned">
<div class="field"><label for="email">Work email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus placeholder="you@company.com"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required minlength="8"><a class="field__aside" href="/password/forgot">Forgot password?</a></div>
<div class="field field--inline"><input id="remember" name="remember_me" type="checkbox" value="1"><label for="remember">Keep me logged in for 30 days</label></div>
<div id="botguard-widget" data-sitekey="bg_live_7f2a91c0" data-size="invisible"></div>
<button type="submit" class="btn btn--primary btn--block">Log in</button>
</form>
<p class="divider">or</p>
<div class="sso">
<a href="/auth/workplace?next=%2Finbox" class="btn btn--sso"><img src="/assets/sso/workplace.svg" alt="" width="18" height="18">Continue with Workplace</a>
<a href="/auth/codehub?next=%2Finbox" class="btn btn--sso"><img src="/assets/sso/codehub.svg" alt="" width="18" height="18">Continue with CodeHub</a>
<a href="/auth/saml" class="btn btn--sso">Log in with SSO (SAML)</a>
</div>
<details class="magic"><summary>Email me a login link instead</summary>
<form action="/session/magic-link" method="post"><input type="hidden" name="authenticity_token" value="b3JiaXRkZXNrLWNzcmYtdG9rZW4tZXhhbXBsZQ"><label for="magic-email">Email</label><input id="magic-email" name="email" type="email" autocomplete="email"><button type="submit" class="btn">Send link</button></form></details>
<p class="small">This site is protected by BotGuard. Its <a href="https://botguard.example/privacy">privacy policy</a> and <a href="https://botguard.example/terms">terms</a> apply.</p>
</main>
<footer class="auth-footer"><form action="/locale" method="post" class="locale"><label for="locale">Language</label><select id="locale" name="locale" onchange="this.form.submit()">${languages.map((l, i) => `<option value="${i}"${i === 0 ? ' selected' : ''}>${l}</option>`).join('')}</select></form>
<nav aria-label="Legal"><a href="https://www.orbitdesk.example/legal/terms">Terms</a> · <a href="https://www.orbitdesk.example/legal/privacy">Privacy</a> · <a href="https://status.orbitdesk.example/">System status</a> · <a href="https://help.orbitdesk.example/">Help</a></nav>
<p>© 2025 Orbitdesk, Inc.</p></footer>
<script src="/assets/auth-5e77a2.js" defer></script>
<script>document.getElementById('login-form').addEventListener('submit',function(e){var f=e.currentTarget;if(!f.email.value||!f.password.value){e.preventDefault();document.getElementById('login-error').hidden=false}});</script>
</body>`;
    return `<!DOCTYPE html>\n<html lang="en" data-theme="light">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const errorPage: PageSpec = {
  name: 'error-404',
  url: 'https://www.brewhausdirect.example/products/brevello-classic-2019-edition',
  contentType: 'text/html; charset=utf-8',
  status: 404,
  title: 'Shop “page not found” page served with status 404 inside the full site chrome',
  description:
    'The 404 page of the coffee shop used by product-page: the complete header, mega-menu, footer and consent banner, with a short “We can’t find that page” message, a search form, popular categories and product suggestions. Served with HTTP status 404 (see document.json).',
  exercises: [
    'upstream status 404 with a full HTML body (products should still read the page; status is metadata)',
    'the only content is a heading, one paragraph and link lists: boilerplate filters must not strip everything',
    '`noindex` robots meta and an OpenGraph title that says “Page not found”',
  ],
  build(rng: Rng) {
    const head = standardHead({
      title: 'Page not found | Brewhaus Direct',
      description: 'Sorry, we couldn’t find the page you were looking for.',
      canonical: 'https://www.brewhausdirect.example/404',
      siteName: 'Brewhaus Direct',
      image: 'https://www.brewhausdirect.example/static/og-default.png',
      robots: 'noindex, follow',
      twitterCard: 'summary',
      themeColor: '#3b2a20',
      css: '.notfound{max-width:48rem;margin:4rem auto;text-align:center}.notfound h1{font-size:3rem}.suggestions{display:grid;grid-template-columns:repeat(4,1fr);gap:1rem}',
      assets:
        '<link rel="stylesheet" href="/static/version1741/frontend/Brewhaus/default/en_US/css/styles-l.min.css">',
    });
    const popular = [
      'Dual boiler espresso machines',
      'Flat burr grinders',
      'Descaler and cleaning',
      'Milk jugs',
      'Espresso blends',
      'Open box deals',
      'Gift cards',
      'Brew guides',
    ];
    const suggestions = [
      'Brevello Duo Pro Dual Boiler Espresso Machine',
      'Brevello Uno PID Single Boiler',
      'Lumo Solo Single Dose Grinder',
      'Brevello 58 mm Precision Tamper',
    ];
    const body = `<body class="cms-no-route">
<div class="promo-bar"><p>Free shipping on orders over $49</p></div>
<header class="page-header"><a class="logo" href="/"><img src="/static/logo.svg" alt="Brewhaus Direct" width="180" height="40"></a><form class="minisearch" action="/catalogsearch/result/" role="search"><input type="text" name="q" placeholder="Search 4,000+ products"><button>Search</button></form><ul class="header links"><li><a href="/customer/account/login/">Sign in</a></li><li><a href="/checkout/cart/">Cart (0)</a></li></ul>
${megaMenu(rng, SHOP_MENU)}
</header>
<main id="maincontent" class="notfound">
<h1>We can’t find that page</h1>
<p>The product you are looking for may have been discontinued or moved. Try searching, or start from one of our most popular categories.</p>
<form action="/catalogsearch/result/" role="search" class="notfound__search"><label for="nf-q">Search the shop</label><input id="nf-q" type="search" name="q" value="brevello classic 2019"><button class="btn btn--primary">Search</button></form>
<h2>Popular categories</h2>
<ul class="popular">${popular.map((p) => `<li><a href="/${slug(p)}/">${esc(p)}</a></li>`).join('')}</ul>
<h2>You might like</h2>
<ul class="suggestions">${suggestions.map((s) => `<li><a href="/products/${slug(s)}"><img src="https://cdn.brewhausdirect.example/media/catalog/${slug(s)}-400.jpg" alt="" width="200" height="200"><span>${esc(s)}</span></a><span class="price">$${rng.int(39, 1299)}.${rng.pick(['00', '95', '99'])}</span></li>`).join('')}</ul>
<p class="small">Error code: 404 · Reference: ${rng.int(100000, 999999)}-${rng.int(1000, 9999)}</p>
</main>
${siteFooter('Brewhaus Direct', [
  ['Shop', ['Coffee machines', 'Grinders', 'Accessories', 'Coffee', 'Gift cards', 'Open box']],
  ['Help', ['Shipping', 'Returns', 'Warranty', 'Order status', 'Contact us', 'Repair service']],
  ['Learn', ['Brew guides', 'Espresso 101', 'Video reviews', 'Comparisons', 'Blog']],
  ['Company', ['About us', 'Showroom', 'Careers', 'Affiliate program', 'Wholesale']],
])}
${cookieBanner('Brewhaus Direct', 'modal')}
${trackingScripts('BH-40177')}
</body>`;
    return `<!doctype html>\n<html lang="en">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};
