/**
 * A generated article page, deterministic for a seed: site chrome (header, nav, aside,
 * footer, cookie banner, scripts) around an article of headings, paragraphs with inline
 * formatting and links, lists, a table, code and quotes. Used by tests and timing runs.
 */
export function articlePage(seed: number, targetBytes: number): string {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: deterministic and dependency-free.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const pick = <T>(items: readonly T[]): T => items[next() % items.length]!;
  const words = [
    'market',
    'data',
    'the',
    'of',
    'and',
    'price',
    'analysis',
    'report',
    'growth',
    'system',
    'network',
    'value',
    'signal',
    'quarter',
    'revenue',
    'model',
    'page',
    'service',
    'content',
    'structure',
    'a',
    'to',
    'in',
    'is',
    'for',
    'with',
    'on',
    'that',
    'by',
    'this',
    'deterministic',
    'receipt',
    'markdown',
    'heading',
    'table',
    'review',
    'über',
    'naïve',
    'café',
    '2024',
    '42%',
  ];
  const sentence = () => {
    const count = 8 + (next() % 14);
    const parts: string[] = [];
    for (let i = 0; i < count; i++) {
      const word = pick(words);
      const roll = next() % 40;
      if (roll === 0)
        parts.push(`<a href="/articles/${word}-${next() % 1000}">${word} ${pick(words)}</a>`);
      else if (roll === 1) parts.push(`<em>${word}</em>`);
      else if (roll === 2) parts.push(`<strong>${word}</strong>`);
      else if (roll === 3) parts.push(`<code>${word}()</code>`);
      else if (roll === 4)
        parts.push(`<a href="https://example.org/${word}?q=${next() % 99}&amp;x=1">${word}</a>`);
      else parts.push(word);
    }
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => {
    const count = 2 + (next() % 5);
    const sentences: string[] = [];
    for (let i = 0; i < count; i++) sentences.push(sentence());
    return `<p>${sentences.join(' ')}</p>\n`;
  };
  const blocks: string[] = [];
  let size = 0;
  let section = 0;
  while (size < targetBytes) {
    let block: string;
    const roll = next() % 20;
    if (roll < 11) block = paragraph();
    else if (roll < 13)
      block = `<h2 id="s${++section}">Section ${section}: ${pick(words)} ${pick(words)}</h2>\n`;
    else if (roll === 13) {
      const items: string[] = [];
      for (let i = 0, n = 2 + (next() % 5); i < n; i++) items.push(`<li>${sentence()}</li>`);
      block = `<${roll % 2 ? 'ul' : 'ol'}>\n${items.join('\n')}\n</${roll % 2 ? 'ul' : 'ol'}>\n`;
    } else if (roll === 14) {
      const items: string[] = [];
      for (let i = 0, n = 2 + (next() % 4); i < n; i++) {
        items.push(`<li>${sentence()}<ul><li>${sentence()}</li><li>${sentence()}</li></ul></li>`);
      }
      block = `<ul>\n${items.join('\n')}\n</ul>\n`;
    } else if (roll === 15) {
      const rows: string[] = [];
      for (let i = 0, n = 3 + (next() % 6); i < n; i++) {
        rows.push(
          `<tr><td>${pick(words)}</td><td align="right">${next() % 10000}</td><td>${pick(words)} ${pick(words)}</td></tr>`,
        );
      }
      block = `<table>\n<thead><tr><th>Name</th><th align="right">Value</th><th>Note</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n`;
    } else if (roll === 16) {
      const lines: string[] = [];
      for (let i = 0, n = 3 + (next() % 10); i < n; i++) {
        lines.push(
          `  const ${pick(words).replace(/\W/g, '')}${i} = compute(&quot;${pick(words)}&quot;, ${next() % 100}); // &lt;note&gt;`,
        );
      }
      block = `<pre><code class="language-ts">${lines.join('\n')}</code></pre>\n`;
    } else if (roll === 17) block = `<blockquote><p>${sentence()} ${sentence()}</p></blockquote>\n`;
    else if (roll === 18) {
      block = `<figure><img src="/images/${pick(words)}-${next() % 100}.jpg" alt="${pick(words)} chart" loading="lazy"><figcaption>${sentence()}</figcaption></figure>\n`;
    } else
      block = `<div class="share-buttons"><a href="/share/x">Share</a> <a href="/share/y">Tweet</a></div>\n<p>${sentence()}<br>${sentence()}</p>\n`;
    blocks.push(block);
    size += block.length;
  }
  const nav: string[] = [];
  for (let i = 0; i < 30; i++) nav.push(`<li><a href="/section/${i}">Section ${i}</a></li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Article ${seed}: ${pick(words)} ${pick(words)}</title>
<link rel="stylesheet" href="/site.css"><script>window.dataLayer = [];</script>
<style>body { font-family: sans-serif; } .ad { display: block; }</style></head>
<body>
<header class="site-header"><a href="/" class="logo">Example News</a><nav><ul>${nav.join('')}</ul></nav></header>
<div id="cookie-banner">We use cookies. <button>Accept</button></div>
<main>
<article>
<h1>Article ${seed}: the ${pick(words)} ${pick(words)}</h1>
<p class="byline">By <a href="/authors/someone">Some One</a>, <time datetime="2024-05-01">1 May 2024</time></p>
${blocks.join('')}
</article>
<aside class="related"><h3>Related</h3><ul><li><a href="/r/1">One</a></li><li><a href="/r/2">Two</a></li></ul></aside>
<div class="ad-slot advertisement">Buy now!</div>
</main>
<footer class="site-footer"><p>© Example News</p><ul>${nav.slice(0, 10).join('')}</ul></footer>
<script src="/app.js"></script>
</body></html>`;
}
