import fc from 'fast-check';

const TAGS = [
  'div', 'p', 'span', 'a', 'b', 'i', 'em', 'strong', 'ul', 'ol', 'li', 'table', 'tr', 'td', 'th',
  'thead', 'tbody', 'h1', 'h2', 'h3', 'pre', 'code', 'blockquote', 'br', 'img', 'nav', 'article',
  'main', 'header', 'footer', 'script', 'style', 'meta', 'link', 'title', 'head', 'body', 'html',
  'base', 'section', 'aside', 'form', 'input', 'select', 'option', 'iframe', 'svg', 'math',
  'template', 'noscript', 'caption', 'colgroup', 'col', 'dl', 'dt', 'dd', 'figure', 'figcaption',
] as const;

const ATTRS = [
  'href', 'src', 'alt', 'title', 'class', 'id', 'rel', 'name', 'content', 'property', 'charset',
  'colspan', 'rowspan', 'hidden', 'style', 'role', 'type', 'itemprop', 'itemscope', 'itemtype',
  'lang', 'dir', 'datetime',
] as const;

const ATTR_VALUES = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '/x', '../y?z=1#f', 'https://example.org/a', 'http://www.example.com/', 'mailto:a@b.c',
    'javascript:void(0)', '#top', '//cdn.example.net/i.png', 'data:text/html,hi', ' \n', '2',
    '0', '-1', '99999', 'og:title', 'description', 'canonical', 'application/ld+json',
    'nofollow', 'display:none', 'main', 'navigation', 'price', 'https://schema.org/Product',
  ),
);

/** A random text fragment: words, entities, markdown-significant punctuation, odd Unicode. */
export const textArbitrary = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    'hello', ' world ', '&amp;', '&lt;b&gt;', '&#x1F600;', '&nbsp;', '*', '_', '`', '#', '|', '[x]',
    '1.', '- ', '> ', '\\', '<', '>', '\n\n', '\t', '日本語', 'مرحبا', '\u0000', '\ud800', '$1,299.00',
  ),
);

/** Random, often malformed, HTML: unclosed, misnested and mixed with text. */
export const htmlArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: textArbitrary },
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...TAGS),
            fc.array(fc.tuple(fc.constantFrom(...ATTRS), ATTR_VALUES), { maxLength: 3 }),
          )
          .map(
            ([tag, attrs]) =>
              `<${tag}${attrs.map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`).join('')}>`,
          ),
      },
      { weight: 2, arbitrary: fc.constantFrom(...TAGS).map((tag) => `</${tag}>`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '<!doctype html>', '<!-- c -->', '<![CDATA[x]]>', '<meta charset="shift_jis">',
          '<script type="application/ld+json">{"@type":"Product","name":"N","offers":{"price":"9.50"}}</script>',
          '<script type="application/ld+json">{broken</script>', '<meta property="og:title" content="T">',
          '<table><tr><td colspan="3">a<td rowspan="2">b</table>',
        ),
      },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** Arbitrary bytes, biased towards byte patterns that matter: BOMs, NULs, magic numbers. */
export const bytesArbitrary: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 256 }),
  htmlArbitrary.map((html) => new TextEncoder().encode(html)),
  fc
    .tuple(
      fc.constantFrom([0xef, 0xbb, 0xbf], [0xfe, 0xff], [0xff, 0xfe], [0x25, 0x50, 0x44, 0x46, 0x2d], []),
      fc.uint8Array({ maxLength: 128 }),
    )
    .map(([prefix, rest]) => Uint8Array.from([...prefix, ...rest])),
);

/** A `Content-Type` header value, or null. */
export const contentTypeArbitrary: fc.Arbitrary<string | null> = fc.constantFrom(
  null, 'text/html', 'text/html; charset=utf-8', 'text/html; charset=windows-1252',
  'text/html; charset=shift_jis', 'text/plain', 'application/json', 'application/pdf',
  'image/png', 'application/octet-stream', 'text/html; charset=bogus', 'application/xhtml+xml',
);
