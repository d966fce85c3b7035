/**
 * A page built to make every field of a product huge: a title of character references,
 * meta values, anchor text, a table header, caption and cell, JSON-LD strings and keys,
 * and a `@graph` whose members all inherit one large `@context`. Every huge part holds
 * `size` characters once decoded, with astral characters (surrogate pairs) throughout, so
 * a cut that splits a pair would show. Tests check that products return capped fields
 * and a bounded result for it.
 *
 * @example
 *   makeDocument(hostilePage(200_000))
 */
export function hostilePage(size = 200_000): string {
  // `A😀` is three UTF-16 code units; as references it is `A&#x1F600;` (10 characters).
  const units = Math.ceil(size / 3);
  const text = 'A😀'.repeat(units);
  const references = 'A&#x1F600;'.repeat(units);
  const attribute = text.replace(/"/g, '&quot;');
  const jsonLd = JSON.stringify({
    '@context': { '@vocab': 'https://schema.org/', note: text },
    '@graph': Array.from({ length: 120 }, (_, i) =>
      i === 0
        ? { '@type': 'Product', name: text, [`k${text}`]: 'long key' }
        : { '@type': 'Product', name: `Item ${i}` },
    ),
  });
  return [
    '<!doctype html><html><head>',
    `<title>${references}</title>`,
    `<link rel="canonical" href="https://example.com/${'a'.repeat(size)}">`,
    `<meta name="description" content="${attribute}">`,
    `<meta property="og:title" content="${attribute}">`,
    `<meta name="twitter:title" content="${attribute}">`,
    `<meta name="k${'x'.repeat(size)}" content="long key">`,
    `<script type="application/ld+json">${jsonLd.replace(/</g, '\\u003c')}</script>`,
    '</head><body><main>',
    `<p>${text}</p>`,
    `<p><a href="/long">${text}</a></p>`,
    `<table><caption>${text}</caption>`,
    `<tr><th>${text}</th><th>Price</th></tr>`,
    `<tr><td>${text}</td><td>12</td></tr>`,
    '</table>',
    '</main></body></html>',
  ].join('');
}
