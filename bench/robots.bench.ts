import { cpus } from 'node:os';
import { isAllowed, parseRobots } from '@storefront/robots';
import robotsParser from 'robots-parser';
import { Bench } from 'tinybench';
import { type Measured, machine, measured, printTable } from './lib/report.js';

/** A realistic robots.txt: AI groups, a catch-all group with wildcards, sitemaps. */
const ROBOTS_TXT = `# robots.txt for shop.example
User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
User-agent: Google-Extended
User-agent: Bytespider
Disallow: /

User-agent: OAI-SearchBot
User-agent: PerplexityBot
Disallow: /checkout/
Disallow: /account/
Allow: /

User-agent: Googlebot
Disallow: /search
Disallow: /*?sort=
Disallow: /*?filter=
Allow: /search/help

User-agent: *
Disallow: /admin/
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /api/
Disallow: /search
Disallow: /*?session=
Disallow: /*?ref=
Disallow: /*&ref=
Disallow: /*.json$
Disallow: /*.pdf$
Disallow: /tmp/
Disallow: /private/
Disallow: /drafts/*/preview
Allow: /api/public/
Allow: /private/press-kit/
Allow: /search/help
Crawl-delay: 2

Sitemap: https://shop.example/sitemap.xml
Sitemap: https://shop.example/sitemaps/products.xml
`;

/** A deterministic mix of paths a crawler would ask about. */
function paths(): string[] {
  const bases = [
    '/',
    '/products/mug-blue-350ml',
    '/products/bowl-large?sort=price',
    '/search?q=mug',
    '/search/help',
    '/api/public/catalog.json',
    '/api/orders/123',
    '/private/press-kit/logo.png',
    '/private/contracts/2026.pdf',
    '/drafts/summer/preview',
    '/blog/2026/03/glazes?ref=newsletter',
    '/cart',
    '/account/settings',
    '/caf%C3%A9/menu',
  ];
  const out: string[] = [];
  for (let i = 0; i < 200; i++) out.push(`${bases[i % bases.length]}${i % 3 === 0 ? '' : `#${i}`}`);
  return out;
}

/**
 * robots.txt matching: our RFC 9309 parser and linear matcher next to `robots-parser`
 * 3.0.1, on a realistic file and 200 paths for three crawlers (600 decisions per task),
 * plus parsing alone, plus one pathological rule (200 wildcards on a 5,000-character
 * path) where `robots-parser`'s matcher is O(path × pattern). Reports ours / theirs for
 * the 600 decisions.
 */
export async function robotsBenchmark(options: {
  time: number;
}): Promise<{ ratio: number; rows: Measured[] }> {
  const list = paths();
  const urls = list.map((path) => `https://shop.example${path}`);
  const agents = ['GPTBot', 'PerplexityBot', 'SomeOtherBot'];
  const ours = parseRobots(ROBOTS_TXT);
  const theirs = robotsParser('https://shop.example/robots.txt', ROBOTS_TXT);

  // The two must agree before their speed means anything.
  let disagreements = 0;
  for (const agent of agents) {
    for (let i = 0; i < list.length; i++) {
      if (
        isAllowed(ours, agent, list[i] as string) !== theirs.isAllowed(urls[i] as string, agent)
      ) {
        disagreements++;
      }
    }
  }

  const nasty = `User-agent: *\nDisallow: /${'*a'.repeat(200)}*b$\n`;
  const nastyPath = `/${'a'.repeat(5000)}`;
  const oursNasty = parseRobots(nasty);
  const theirsNasty = robotsParser('https://shop.example/robots.txt', nasty);

  const bench = new Bench({ time: options.time, warmupTime: 300 });
  for (let round = 1; round <= 2; round++) {
    bench.add(`robots-parser isAllowed x600 #${round}`, () => {
      for (const agent of agents) for (const url of urls) theirs.isAllowed(url, agent);
    });
    bench.add(`storefront isAllowed x600 #${round}`, () => {
      for (const agent of agents) for (const path of list) isAllowed(ours, agent, path);
    });
  }
  bench.add('robots-parser parse', () => {
    robotsParser('https://shop.example/robots.txt', ROBOTS_TXT);
  });
  bench.add('storefront parseRobots', () => {
    parseRobots(ROBOTS_TXT);
  });
  bench.add('robots-parser 200 wildcards, 5000-char path', () => {
    theirsNasty.isAllowed(`https://shop.example${nastyPath}`, 'bot');
  });
  bench.add('storefront 200 wildcards, 5000-char path', () => {
    isAllowed(oursNasty, 'bot', nastyPath);
  });
  await bench.run();
  const rows = measured(bench);
  const mean = (prefix: string) => {
    const hits = rows.filter((r) => r.name.startsWith(prefix) && r.name.includes('x600'));
    return hits.reduce((sum, r) => sum + r.meanMs, 0) / hits.length;
  };
  const ratio = mean('storefront') / mean('robots-parser');
  printTable(
    `robots.txt matching, ${ROBOTS_TXT.length} B file, 600 decisions per task (${machine()}, ${cpus().length} cores)`,
    rows,
  );
  console.log(
    `storefront / robots-parser (mean latency, 600 decisions): ${ratio.toFixed(3)}x; verdicts that differ: ${disagreements} of ${agents.length * list.length}`,
  );
  return { ratio, rows };
}
