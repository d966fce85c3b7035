import fc from 'fast-check';

/** Pieces of text that markdown could take for syntax, and a few ordinary ones. */
const PIECES = [
  '*',
  '_',
  '`',
  '[',
  ']',
  '<',
  '>',
  '|',
  '~',
  '!',
  '#',
  '+',
  '-',
  '.',
  ')',
  '(',
  ':',
  '=',
  '\\',
  '&',
  'amp;',
  '&amp;',
  '&#42;',
  '&copy',
  '"',
  "'",
  '{',
  '}',
  '^',
  '$',
  '@',
  '/',
  '1',
  '12',
  '1.',
  '2)',
  '- ',
  '> ',
  '# ',
  '**',
  '__',
  '~~',
  '```',
  '~~~',
  '---',
  '***',
  '[ ]',
  '[x]',
  'www.x.com',
  'https://x',
  'http://a.b/c_d',
  'a@b.co',
  'mailto:a@b.co',
  'xmpp:a@b.co',
  ' ',
  '  ',
  '\n',
  '\t',
  'a',
  'b',
  'word',
  'É',
  '日本',
  '\u00a0',
  '\u3000',
  '😀',
  'مرحبا',
  '\u200b',
  '<div>',
  '<a>',
  '</p>',
  '<!--',
  '![x](y)',
  '[a](b)',
  '\\*',
  '1\\.',
] as const;

/** Adversarial text: markdown punctuation, entity-like runs, URL-like runs, odd spaces. */
export const adversarialText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''));

/** The same text as HTML source (so the text node holds exactly it). */
const textHtml = adversarialText.map(escapeHtml);

const WRAPPERS = [
  'em',
  'strong',
  'del',
  'b',
  'i',
  's',
  'span',
  'code',
  'kbd',
  'sup',
  'a href="/u?a=(b"',
  'a href="https://x.example/z w" title="t &quot;q&quot;"',
  'a href="javascript:x()"',
  'a href="mailto:m@x.example"',
  'a href="#frag"',
  'a',
] as const;

const LEAVES = [
  '<br>',
  '<img src="/i.png" alt="a*b">',
  '<img src="data:image/png;base64,AA" alt="alt">',
  '<img src="pic (1).png" alt="[x]" title="T">',
  ' ',
  '<input type="checkbox" checked>',
  '<wbr>',
] as const;

/** Inline HTML built from adversarial text, nested formatting, links, images and breaks. */
export const inlineHtml: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    { weight: 4, arbitrary: textHtml },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...WRAPPERS), fc.array(tie('node'), { maxLength: 3 }))
        .map(([tag, children]) => `<${tag}>${children.join('')}</${tag.split(' ')[0]}>`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...LEAVES) },
  ),
})).node;

const inlineRun = fc
  .array(inlineHtml, { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));

const leafBlock: fc.Arbitrary<string> = fc.oneof(
  inlineRun.map((x) => `<p>${x}</p>`),
  inlineRun,
  fc.tuple(fc.integer({ min: 1, max: 6 }), inlineRun).map(([n, x]) => `<h${n}>${x}</h${n}>`),
  fc
    .tuple(inlineRun, inlineRun, inlineRun)
    .map(
      ([a, b, c]) =>
        `<table><tr><th>${a}</th><th align="center">${b}</th></tr><tr><td>${c}</td><td><p>${a}</p><p>${b}</p></td></tr></table>`,
    ),
  fc
    .tuple(fc.constantFrom('language-js', 'lang-c++', 'x', ''), adversarialText)
    .map(([lang, x]) => `<pre><code class="${lang}">${escapeHtml(x)}</code></pre>`),
  fc.tuple(inlineRun, inlineRun).map(([a, b]) => `<dl><dt>${a}</dt><dd>${b}</dd></dl>`),
  fc.constant('<hr>'),
);

/** Blocks holding adversarial inline content, nested in lists, quotes and details. */
export const blockHtml: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => {
  const blocks = fc
    .array(tie('block'), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.join(''));
  return {
    block: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      { weight: 4, arbitrary: leafBlock },
      {
        weight: 1,
        arbitrary: fc
          .array(blocks, { minLength: 1, maxLength: 3 })
          .map((items) => `<ul>${items.map((x) => `<li>${x}</li>`).join('')}</ul>`),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: 0, max: 12 }), fc.array(blocks, { minLength: 1, maxLength: 3 }))
          .map(
            ([start, items]) =>
              `<ol start="${start}">${items.map((x) => `<li>${x}</li>`).join('')}</ol>`,
          ),
      },
      { weight: 1, arbitrary: blocks.map((x) => `<blockquote>${x}</blockquote>`) },
      { weight: 1, arbitrary: blocks.map((x) => `<div>${x}</div>`) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(inlineRun, blocks)
          .map(([s, x]) => `<details><summary>${s}</summary>${x}</details>`),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(inlineRun, blocks).map(([s, x]) => `<a href="/wrap">${s}${x}</a>`),
      },
    ),
  };
}).block;

/** A page body of several adversarial blocks. */
export const adversarialHtml: fc.Arbitrary<string> = fc
  .array(blockHtml, { minLength: 1, maxLength: 4 })
  .map((blocks) => blocks.join('\n'));

/** Escape text for HTML source. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
