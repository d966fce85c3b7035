import { createRng, type Rng } from './prng.js';

/** One generated page of the benchmark corpus. */
export interface CorpusPage {
  readonly name: string;
  readonly url: string;
  readonly contentType: string;
  /** The page as a string: what a user hands to a string-based library. */
  readonly html: string;
  /** The page as UTF-8 bytes: what safe-fetch hands to our products. */
  readonly bytes: Uint8Array;
}

/** Options of {@link generateArticleCorpus}. */
export interface CorpusOptions {
  readonly pages?: number;
  /** Total size of the corpus in bytes (1 KB = 1000 B). */
  readonly totalBytes?: number;
  readonly minPageBytes?: number;
  readonly maxPageBytes?: number;
  readonly seed?: number;
}

/**
 * The benchmark corpus: article-like pages with the structure real pages have (a full
 * head with meta, OpenGraph, Twitter and JSON-LD; a heavy navigation; a cookie banner;
 * ad slots; an article of headings, paragraphs with inline markup and links, lists,
 * quotes, code blocks, tables and figures; a sidebar, comments and a footer). The
 * same options give the same bytes on every run.
 */
export function generateArticleCorpus(options: CorpusOptions = {}): CorpusPage[] {
  const count = options.pages ?? 30;
  const total = options.totalBytes ?? 4_000_000;
  const min = options.minPageBytes ?? 40_000;
  const max = options.maxPageBytes ?? 248_000;
  const rng = createRng(options.seed ?? 20260314);
  const sizes = pageSizes(rng, count, total, min, max);
  const encoder = new TextEncoder();
  return sizes.map((size, index) => {
    const site = SITES[index % SITES.length] as Site;
    const topic = TOPICS[
      site.topics[Math.floor(index / SITES.length) % site.topics.length] as number
    ] as Topic;
    const pageRng = createRng((options.seed ?? 20260314) + index * 7919);
    const { html, url } = buildArticle(pageRng, site, topic, index, size);
    return {
      name: `article-${String(index + 1).padStart(2, '0')}`,
      url,
      contentType: 'text/html; charset=utf-8',
      html,
      bytes: encoder.encode(html),
    };
  });
}

/** Target sizes: one page at each bound, the rest spread so the sum is `total`. */
export function pageSizes(
  rng: Rng,
  count: number,
  total: number,
  min: number,
  max: number,
): number[] {
  if (count < 3) return Array.from({ length: count }, () => Math.round(total / count));
  const weights = Array.from({ length: count - 2 }, () => 0.25 + rng.next());
  const rest = total - min - max;
  const base = (count - 2) * min;
  const spread = rest - base;
  const sum = weights.reduce((a, b) => a + b, 0);
  const middle = weights.map((w) => Math.min(max, Math.round(min + (spread * w) / sum)));
  const sizes = [max, ...middle, min];
  // Shuffle deterministically so the large and small pages are not at the ends.
  for (let i = sizes.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [sizes[i], sizes[j]] = [sizes[j] as number, sizes[i] as number];
  }
  return sizes;
}

interface Site {
  readonly name: string;
  readonly host: string;
  readonly prefix: string;
  readonly sections: readonly string[];
  readonly twitter: string;
  /** Indexes into {@link TOPICS} of what the site writes about. */
  readonly topics: readonly number[];
}

interface Topic {
  readonly slug: string;
  readonly section: string;
  readonly titles: readonly string[];
  readonly nouns: readonly string[];
  readonly adjectives: readonly string[];
  readonly verbs: readonly string[];
  readonly headings: readonly string[];
  readonly code: boolean;
}

const SITES: readonly Site[] = [
  {
    name: 'The Harbour Ledger',
    host: 'www.harbourledger.example',
    prefix: 'hl',
    sections: [
      'News',
      'Business',
      'Technology',
      'Science',
      'Climate',
      'Culture',
      'Opinion',
      'Sport',
    ],
    twitter: '@harbourledger',
    topics: [0, 6, 4],
  },
  {
    name: 'Quarry Lane Engineering',
    host: 'engineering.quarrylane.example',
    prefix: 'ql',
    sections: ['Platform', 'Data', 'Infrastructure', 'Frontend', 'Security', 'Culture', 'Careers'],
    twitter: '@quarrylane_eng',
    topics: [1, 5, 7],
  },
  {
    name: 'Field & Fathom',
    host: 'fieldandfathom.test',
    prefix: 'ff',
    sections: ['Outdoors', 'Gear', 'Trips', 'Food', 'Conservation', 'Photography'],
    twitter: '@fieldfathom',
    topics: [2, 6],
  },
  {
    name: 'Meridian Health Review',
    host: 'www.meridianhealth.example',
    prefix: 'mhr',
    sections: ['Research', 'Nutrition', 'Fitness', 'Mind', 'Conditions', 'Ageing', 'Policy'],
    twitter: '@meridianreview',
    topics: [3],
  },
  {
    name: 'Copperleaf Finance Daily',
    host: 'copperleaf-finance.test',
    prefix: 'cfd',
    sections: ['Markets', 'Economy', 'Personal finance', 'Companies', 'Property', 'Crypto', 'Tax'],
    twitter: '@copperleafdaily',
    topics: [4],
  },
];

const TOPICS: readonly Topic[] = [
  {
    slug: 'transit',
    section: 'News',
    titles: [
      'Council backs a tram line for the river district after a two-year review',
      'What the new bus network changes for commuters on the east side',
      'Inside the depot where the city rebuilds its oldest trains',
    ],
    nouns: [
      'council',
      'tram line',
      'depot',
      'timetable',
      'bus network',
      'corridor',
      'ticket price',
      'ridership',
      'station',
      'budget',
      'contractor',
      'commuter',
      'bridge',
      'signal system',
      'planning committee',
    ],
    adjectives: [
      'proposed',
      'delayed',
      'electric',
      'regional',
      'overcrowded',
      'revised',
      'temporary',
      'funded',
      'municipal',
      'late-night',
    ],
    verbs: [
      'approved',
      'delayed',
      'reviewed',
      'extended',
      'replaced',
      'funded',
      'rerouted',
      'questioned',
      'published',
      'defended',
    ],
    headings: [
      'How the plan changed',
      'What it costs',
      'Who pays for it',
      'The timetable',
      'What residents said',
      'Next steps',
      'The engineering problem',
      'A look at the numbers',
    ],
    code: false,
  },
  {
    slug: 'databases',
    section: 'Platform',
    titles: [
      'How we cut replication lag from minutes to seconds',
      'Moving a billion rows without downtime: our migration playbook',
      'Why our query planner ignored the index, and how we fixed it',
    ],
    nouns: [
      'replica',
      'query planner',
      'index',
      'write-ahead log',
      'migration',
      'connection pool',
      'shard',
      'transaction',
      'vacuum job',
      'schema',
      'cache',
      'primary key',
      'batch job',
      'latency budget',
      'dashboard',
    ],
    adjectives: [
      'stale',
      'partitioned',
      'concurrent',
      'idempotent',
      'slow',
      'hot',
      'covering',
      'long-running',
      'read-only',
      'noisy',
    ],
    verbs: [
      'rewrote',
      'profiled',
      'sharded',
      'throttled',
      'backfilled',
      'replayed',
      'indexed',
      'benchmarked',
      'rolled back',
      'measured',
    ],
    headings: [
      'Background',
      'The symptom',
      'Measuring the problem',
      'A first attempt',
      'What actually worked',
      'Rolling it out',
      'Results',
      'Lessons learned',
      'Appendix: configuration',
    ],
    code: true,
  },
  {
    slug: 'hiking',
    section: 'Trips',
    titles: [
      'Three days on the ridge trail: a route guide for late summer',
      'The lightweight kit list we actually carried over the pass',
      'Walking the old drovers road from coast to moor',
    ],
    nouns: [
      'ridge',
      'trailhead',
      'campsite',
      'water source',
      'pass',
      'valley',
      'stove',
      'shelter',
      'map',
      'forecast',
      'switchback',
      'hut',
      'river crossing',
      'summit',
      'descent',
    ],
    adjectives: [
      'exposed',
      'muddy',
      'steep',
      'sheltered',
      'waymarked',
      'remote',
      'rocky',
      'gentle',
      'crowded',
      'quiet',
    ],
    verbs: [
      'climbed',
      'crossed',
      'followed',
      'skirted',
      'descended',
      'packed',
      'filtered',
      'reached',
      'avoided',
      'recommended',
    ],
    headings: [
      'Planning the route',
      'Day one',
      'Day two',
      'Day three',
      'What we packed',
      'Water and food',
      'Getting there',
      'Permits and rules',
      'Alternatives',
    ],
    code: false,
  },
  {
    slug: 'sleep',
    section: 'Research',
    titles: [
      'What a ten-year study says about sleep and memory in midlife',
      'Shift work, light and the body clock: what the trials show',
      'The evidence on naps, caffeine and afternoon slumps',
    ],
    nouns: [
      'trial',
      'participant',
      'cohort',
      'body clock',
      'melatonin level',
      'placebo group',
      'questionnaire',
      'sleep diary',
      'researcher',
      'dose',
      'outcome',
      'follow-up',
      'clinic',
      'sample',
      'risk',
    ],
    adjectives: [
      'randomised',
      'small',
      'observational',
      'significant',
      'modest',
      'self-reported',
      'older',
      'controlled',
      'nightly',
      'chronic',
    ],
    verbs: [
      'reported',
      'measured',
      'tracked',
      'compared',
      'found',
      'adjusted for',
      'recruited',
      'observed',
      'replicated',
      'cautioned',
    ],
    headings: [
      'What the study did',
      'Key findings',
      'How strong is the evidence?',
      'What experts say',
      'Limitations',
      'Practical advice',
      'Methods',
      'References',
    ],
    code: false,
  },
  {
    slug: 'rates',
    section: 'Markets',
    titles: [
      'Bond yields climb as the central bank signals a longer pause',
      'What a flat yield curve means for mortgage holders this spring',
      'Small caps rally while the dollar slips: the week in markets',
    ],
    nouns: [
      'yield',
      'central bank',
      'mortgage rate',
      'index',
      'dividend',
      'bond market',
      'inflation print',
      'investor',
      'currency',
      'earnings season',
      'forecast',
      'spread',
      'portfolio',
      'fund manager',
      'quarter',
    ],
    adjectives: [
      'quarterly',
      'volatile',
      'benchmark',
      'higher',
      'cautious',
      'annual',
      'core',
      'fixed',
      'long-dated',
      'weaker',
    ],
    verbs: [
      'rose',
      'fell',
      'signalled',
      'priced in',
      'outperformed',
      'revised',
      'hedged',
      'rallied',
      'slipped',
      'warned',
    ],
    headings: [
      'The week in numbers',
      'Why yields moved',
      'What analysts expect',
      'Impact on households',
      'Sector by sector',
      'Currencies',
      'The calendar ahead',
      'Data table',
    ],
    code: false,
  },
  {
    slug: 'frontend',
    section: 'Frontend',
    titles: [
      'Shipping a design system to forty teams without breaking them',
      'How we halved our JavaScript bundle and kept every feature',
      'Server rendering, streaming and the cost of hydration',
    ],
    nouns: [
      'component',
      'bundle',
      'design token',
      'build step',
      'route',
      'hydration pass',
      'render tree',
      'stylesheet',
      'test suite',
      'release',
      'dependency',
      'font file',
      'layout shift',
      'service worker',
      'code path',
    ],
    adjectives: [
      'lazy',
      'shared',
      'critical',
      'unused',
      'accessible',
      'responsive',
      'cached',
      'static',
      'interactive',
      'legacy',
    ],
    verbs: [
      'split',
      'inlined',
      'deferred',
      'audited',
      'migrated',
      'deprecated',
      'prefetched',
      'bundled',
      'tree-shook',
      'shipped',
    ],
    headings: [
      'Where we started',
      'Measuring the bundle',
      'The first cuts',
      'Code splitting',
      'Fonts and images',
      'Testing the change',
      'Results',
      'What we would do differently',
    ],
    code: true,
  },
  {
    slug: 'coastal',
    section: 'Climate',
    titles: [
      'Salt marshes are coming back on the estuary, slowly',
      'The sea wall debate: managed retreat or hold the line?',
      'Counting seabirds on the outer islands after a hard winter',
    ],
    nouns: [
      'salt marsh',
      'estuary',
      'sea wall',
      'tide gauge',
      'volunteer',
      'seabird colony',
      'sediment',
      'grant',
      'survey',
      'shoreline',
      'storm surge',
      'breeding season',
      'island',
      'ranger',
      'habitat',
    ],
    adjectives: [
      'tidal',
      'restored',
      'eroding',
      'protected',
      'seasonal',
      'fragile',
      'coastal',
      'long-term',
      'local',
      'rising',
    ],
    verbs: [
      'surveyed',
      'restored',
      'flooded',
      'counted',
      'monitored',
      'planted',
      'breached',
      'recovered',
      'mapped',
      'protected',
    ],
    headings: [
      'On the marsh',
      'A century of change',
      'The survey results',
      'Money and politics',
      'What happens next',
      'How to visit',
      'Data',
    ],
    code: false,
  },
  {
    slug: 'observability',
    section: 'Infrastructure',
    titles: [
      'Tracing every request without drowning in spans',
      'Alert fatigue: how we went from 400 pages a week to 12',
      'Structured logs, sampling and the bill that came with them',
    ],
    nouns: [
      'trace',
      'span',
      'alert',
      'on-call rotation',
      'sampling rate',
      'log line',
      'metric',
      'runbook',
      'incident',
      'service',
      'collector',
      'label',
      'dashboard',
      'error budget',
      'pager',
    ],
    adjectives: [
      'noisy',
      'distributed',
      'structured',
      'high-cardinality',
      'actionable',
      'tail-based',
      'flaky',
      'critical',
      'stale',
      'expensive',
    ],
    verbs: [
      'sampled',
      'dropped',
      'paged',
      'aggregated',
      'tagged',
      'deduplicated',
      'routed',
      'silenced',
      'instrumented',
      'exported',
    ],
    headings: [
      'The problem',
      'What we measured',
      'Sampling',
      'Cleaning up alerts',
      'Runbooks',
      'Cost',
      'Results',
      'Configuration reference',
    ],
    code: true,
  },
];

const PEOPLE = [
  'Amara Okafor',
  'Lukas Brenner',
  'Sofia Marquez',
  'Hiroshi Tanaka',
  'Priya Raman',
  'Tomás Ferreira',
  'Ingrid Solberg',
  'Daniel Cho',
  'Fatima Haddad',
  'Owen Pritchard',
  'Mei Lin',
  'Rafael Duarte',
  'Nadia Petrova',
  'Kwame Mensah',
  'Elise Laurent',
  'Jonah Whitfield',
];
const ROLES = [
  'a senior analyst',
  'the project lead',
  'a local resident',
  'an engineer on the team',
  'the committee chair',
  'a researcher at the institute',
  'a spokesperson',
  'the site manager',
];
const CONNECTORS = [
  'However,',
  'Meanwhile,',
  'In practice,',
  'By contrast,',
  'As a result,',
  'At the same time,',
  'In the end,',
  'For now,',
  'Still,',
  'Crucially,',
];
const DETS = ['the', 'a', 'every', 'one', 'that', 'this', 'each'];
const PREPS = [
  'for',
  'across',
  'behind',
  'after',
  'before',
  'under',
  'around',
  'beyond',
  'during',
  'without',
];
const FILLER = [
  'over the past year',
  'in the first quarter',
  'by a wide margin',
  'more than expected',
  'for the third time',
  'in most cases',
  'on a typical day',
  'at peak hours',
  'with little warning',
  'according to the latest figures',
];
const LANGUAGES = ['typescript', 'python', 'bash', 'json', 'sql', 'yaml', 'go'];

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

class Writer {
  constructor(
    private readonly rng: Rng,
    private readonly site: Site,
    private readonly topic: Topic,
  ) {}

  phrase(): string {
    const r = this.rng;
    const adjective = r.chance(0.55) ? `${r.pick(this.topic.adjectives)} ` : '';
    return `${r.pick(DETS)} ${adjective}${r.pick(this.topic.nouns)}`;
  }

  /** A sentence of plain text (no markup). */
  plain(): string {
    const r = this.rng;
    const kind = r.int(0, 5);
    let s: string;
    if (kind === 0)
      s = `${this.phrase()} ${r.pick(this.topic.verbs)} ${this.phrase()} ${r.pick(FILLER)}`;
    else if (kind === 1)
      s = `${r.pick(PEOPLE)}, ${r.pick(ROLES)}, said ${this.phrase()} had ${r.pick(this.topic.verbs)} ${this.phrase()} ${r.pick(PREPS)} ${this.phrase()}`;
    else if (kind === 2)
      s = `${r.pick(CONNECTORS)} ${this.phrase()} ${r.pick(this.topic.verbs)} ${this.phrase()}, which ${r.pick(this.topic.verbs)} ${this.phrase()} ${r.pick(FILLER)}`;
    else if (kind === 3)
      s = `about ${r.int(2, 97)} percent of ${this.phrase()}s ${r.pick(this.topic.verbs)} ${this.phrase()} ${r.pick(PREPS)} ${this.phrase()}`;
    else if (kind === 4)
      s = `${this.phrase()} and ${this.phrase()} were ${r.pick(this.topic.verbs)} ${r.pick(PREPS)} ${this.phrase()}, ${r.pick(FILLER)}`;
    else
      s = `${this.phrase()} ${r.pick(this.topic.verbs)} ${r.int(3, 480)} ${r.pick(this.topic.nouns)}s ${r.pick(PREPS)} ${this.phrase()}`;
    s = capitalize(s.replace(/^(\w+,)/, '$1'));
    return `${s}${r.chance(0.08) ? '?' : '.'}`;
  }

  /** A sentence with inline markup: links, emphasis, code, abbreviations. */
  sentence(): string {
    const r = this.rng;
    let s = esc(this.plain());
    const words = s.split(' ');
    if (words.length > 6 && r.chance(0.35)) {
      const at = r.int(1, words.length - 4);
      const span = r.int(1, 3);
      const inner = words.slice(at, at + span).join(' ');
      const href = r.chance(0.7)
        ? `https://${this.site.host}/${slugify(r.pick(this.site.sections))}/${slugify(inner)}-${r.int(1000, 99999)}`
        : `https://${r.pick(['archive.example', 'data.example.org', 'docs.example.net', 'research.test'])}/${slugify(inner)}`;
      words.splice(at, span, `<a href="${href}">${inner}</a>`);
    }
    if (words.length > 6 && r.chance(0.2)) {
      const at = r.int(1, words.length - 3);
      const tag = r.pick(['strong', 'em', 'b', 'i']);
      words[at] = `<${tag}>${words[at]}</${tag}>`;
    }
    if (this.topic.code && r.chance(0.15)) {
      words.splice(
        r.int(1, words.length - 1),
        0,
        `<code>${r.pick(['maxConnections', 'retry_after', 'SELECT 1', 'useMemo()', 'p99', '--dry-run', 'ttl=300', 'NODE_ENV'])}</code>`,
      );
    }
    s = words.join(' ');
    if (r.chance(0.05))
      s += `<sup class="${this.site.prefix}-ref"><a href="#ref-${r.int(1, 30)}">[${r.int(1, 30)}]</a></sup>`;
    return s;
  }

  paragraph(min = 3, max = 7): string {
    const n = this.rng.int(min, max);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(this.sentence());
    return `<p>${parts.join(' ')}</p>`;
  }

  list(depth = 0): string {
    const r = this.rng;
    const tag = r.chance(0.4) ? 'ol' : 'ul';
    const items: string[] = [];
    const n = r.int(3, 7);
    for (let i = 0; i < n; i++) {
      let item = this.sentence();
      if (depth === 0 && r.chance(0.12)) item += this.list(1);
      items.push(`<li>${item}</li>`);
    }
    return `<${tag}>${items.join('')}</${tag}>`;
  }

  quote(): string {
    return `<blockquote class="${this.site.prefix}-pullquote"><p>${esc(this.plain())} ${esc(this.plain())}</p><cite>${esc(this.rng.pick(PEOPLE))}</cite></blockquote>`;
  }

  code(): string {
    const r = this.rng;
    const lang = r.pick(LANGUAGES);
    const n = this.rng.int(6, 28);
    const lines: string[] = [];
    const ident = () =>
      r.pick([
        'pool',
        'replica',
        'span',
        'config',
        'result',
        'bundle',
        'route',
        'metric',
        'batch',
        'row',
      ]);
    for (let i = 0; i < n; i++) {
      const a = ident();
      const b = ident();
      const indent = '  '.repeat(r.int(0, 2));
      if (lang === 'typescript')
        lines.push(
          `${indent}const ${a}${i} = await ${b}.load({ limit: ${r.int(1, 500)}, retry: ${r.chance(0.5)} });`,
        );
      else if (lang === 'python')
        lines.push(
          `${indent}${a}_${i} = ${b}.fetch(limit=${r.int(1, 500)}, strict=${r.chance(0.5) ? 'True' : 'False'})`,
        );
      else if (lang === 'bash')
        lines.push(
          `${r.pick(['$ ', ''])}${r.pick(['kubectl get pods -n', 'psql -c "VACUUM ANALYZE', 'curl -sS https://api.example.com/v2/', 'grep -rn', 'make'])} ${a}-${i}${lang === 'bash' && r.chance(0.3) ? ' | head -n 20' : ''}`,
        );
      else if (lang === 'json')
        lines.push(
          `${indent}"${a}${i}": { "enabled": ${r.chance(0.5)}, "limit": ${r.int(1, 9000)} },`,
        );
      else if (lang === 'sql')
        lines.push(
          `SELECT ${a}_id, count(*) FROM ${b}s WHERE created_at > now() - interval '${r.int(1, 30)} days' GROUP BY 1;`,
        );
      else if (lang === 'yaml')
        lines.push(
          `${indent}${a}${i}: ${r.pick(['true', 'false', String(r.int(1, 900)), `"${b}"`])}`,
        );
      else
        lines.push(
          `${indent}if err := ${a}.Run(ctx, ${r.int(1, 64)}); err != nil { return fmt.Errorf("${b}: %w", err) }`,
        );
    }
    const body = esc(lines.join('\n'));
    return `<div class="${this.site.prefix}-code"><div class="${this.site.prefix}-code__bar"><span>${lang}</span><button type="button" class="copy" aria-label="Copy code">Copy</button></div><pre><code class="language-${lang}">${body}</code></pre></div>`;
  }

  table(): string {
    const r = this.rng;
    const cols = r.int(3, 6);
    const rows = r.int(5, 18);
    const head = [capitalize(r.pick(this.topic.nouns))];
    for (let c = 1; c < cols; c++)
      head.push(
        r.pick([
          '2023',
          '2024',
          '2025',
          'Change',
          'Share',
          'Median',
          'p95 (ms)',
          'Cost',
          'Notes',
          'Total',
        ]),
      );
    const grouped = r.chance(0.4);
    let html = `<figure class="${this.site.prefix}-table"><table><caption>${esc(capitalize(this.phrase()))} by ${esc(r.pick(this.topic.nouns))}</caption><thead>`;
    if (grouped)
      html += `<tr><th rowspan="2">${esc(head[0] as string)}</th><th colspan="${cols - 1}">Measured values</th></tr><tr>${head
        .slice(1)
        .map((h) => `<th>${h}</th>`)
        .join('')}</tr>`;
    else html += `<tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr>`;
    html += '</thead><tbody>';
    for (let i = 0; i < rows; i++) {
      const cells = [
        `<th scope="row">${esc(capitalize(`${r.pick(this.topic.adjectives)} ${r.pick(this.topic.nouns)}`))}</th>`,
      ];
      for (let c = 1; c < cols; c++)
        cells.push(
          `<td>${r.chance(0.1) ? '—' : `${thousands(r.int(0, 99999))}${r.chance(0.3) ? '.' + r.int(0, 9) : ''}`}</td>`,
        );
      html += `<tr>${cells.join('')}</tr>`;
    }
    return `${html}</tbody></table><figcaption>Source: ${esc(r.pick(PEOPLE))}, ${esc(this.site.name)} analysis.</figcaption></figure>`;
  }

  figure(index: number): string {
    const r = this.rng;
    const w = r.pick([640, 800, 1200]);
    const h = Math.round((w * r.pick([9, 10, 12])) / 16);
    const src = `https://img.${this.site.host.replace(/^www\./, '')}/${this.topic.slug}/${index}-${r.int(10000, 99999)}`;
    return `<figure class="${this.site.prefix}-figure"><picture><source type="image/avif" srcset="${src}-${w}.avif ${w}w, ${src}-${w * 2}.avif ${w * 2}w"><img src="${src}-${w}.jpg" srcset="${src}-${w}.jpg ${w}w, ${src}-${w * 2}.jpg ${w * 2}w" sizes="(max-width: 720px) 100vw, 720px" width="${w}" height="${h}" loading="lazy" decoding="async" alt="${esc(capitalize(this.phrase()))}"></picture><figcaption>${esc(this.plain())} <span class="credit">Photo: ${esc(r.pick(PEOPLE))}</span></figcaption></figure>`;
  }
}

function buildArticle(
  rng: Rng,
  site: Site,
  topic: Topic,
  index: number,
  target: number,
): { html: string; url: string } {
  const w = new Writer(rng, site, topic);
  const title = rng.pick(topic.titles);
  const slug = slugify(title);
  const month = String(rng.int(1, 12)).padStart(2, '0');
  const day = String(rng.int(1, 28)).padStart(2, '0');
  const url = `https://${site.host}/${slugify(topic.section)}/2025/${month}/${slug}-${index + 1}`;
  const published = `2025-${month}-${day}T${String(rng.int(5, 21)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`;
  const author = rng.pick(PEOPLE);
  const p = site.prefix;
  const description = esc(w.plain());
  const image = `https://img.${site.host.replace(/^www\./, '')}/${topic.slug}/lead-${index}.jpg`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': topic.code ? 'BlogPosting' : 'NewsArticle',
        headline: title,
        description: description,
        datePublished: published,
        dateModified: published,
        author: [
          {
            '@type': 'Person',
            name: author,
            url: `https://${site.host}/authors/${slugify(author)}`,
          },
        ],
        publisher: {
          '@type': 'Organization',
          name: site.name,
          logo: { '@type': 'ImageObject', url: `https://${site.host}/static/logo-600x60.png` },
        },
        image: [image],
        mainEntityOfPage: url,
        articleSection: topic.section,
        wordCount: Math.round(target / 9),
      },
      {
        '@type': 'BreadcrumbList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, name: 'Home', item: `https://${site.host}/` },
          {
            '@type': 'ListItem',
            position: 2,
            name: topic.section,
            item: `https://${site.host}/${slugify(topic.section)}/`,
          },
          { '@type': 'ListItem', position: 3, name: title },
        ],
      },
    ],
  };

  const head = `<!DOCTYPE html>
<html lang="en" class="no-js">
<head>
<meta charset="utf-8">
<meta http-equiv="x-ua-compatible" content="ie=edge">
<title>${esc(title)} | ${esc(site.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${description}">
<meta name="author" content="${esc(author)}">
<meta name="robots" content="index, follow, max-image-preview:large">
<meta name="keywords" content="${topic.nouns.slice(0, 6).map(esc).join(', ')}">
<meta name="theme-color" content="#0b3954">
<link rel="canonical" href="${url}">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="manifest" href="/site.webmanifest">
<link rel="alternate" type="application/rss+xml" title="${esc(site.name)}" href="https://${site.host}/feed.xml">
<link rel="preconnect" href="https://img.${site.host.replace(/^www\./, '')}">
<link rel="preload" href="/static/fonts/serif-text.woff2" as="font" type="font/woff2" crossorigin>
<link rel="stylesheet" href="/static/css/main.${((index * 2654435761) >>> 0).toString(16)}.css">
<meta property="og:type" content="article">
<meta property="og:site_name" content="${esc(site.name)}">
<meta property="og:title" content="${esc(title)}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
<meta property="og:image" content="${image}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:locale" content="en_GB">
<meta property="article:published_time" content="${published}">
<meta property="article:modified_time" content="${published}">
<meta property="article:section" content="${esc(topic.section)}">
<meta property="article:author" content="https://${site.host}/authors/${slugify(author)}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="${site.twitter}">
<meta name="twitter:title" content="${esc(title)}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${image}">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
<style>
:root{--${p}-ink:#1b1b1b;--${p}-accent:#0b3954;--${p}-muted:#6b7280;--${p}-max:72rem}
*,*::before,*::after{box-sizing:border-box}body{margin:0;font:1.0625rem/1.6 Georgia,serif;color:var(--${p}-ink)}
.${p}-header{position:sticky;top:0;background:#fff;border-bottom:1px solid #e5e7eb;z-index:20}
.${p}-nav__list{display:flex;gap:1rem;list-style:none;margin:0;padding:0}.${p}-nav__item{position:relative}
.${p}-nav__menu{display:none;position:absolute;top:100%;left:0;min-width:14rem;background:#fff;box-shadow:0 8px 24px rgba(0,0,0,.12)}
.${p}-nav__item:hover .${p}-nav__menu{display:block}.${p}-article{max-width:44rem;margin:0 auto;padding:0 1rem}
.${p}-figure img{max-width:100%;height:auto}.${p}-table table{border-collapse:collapse;width:100%}
.${p}-table th,.${p}-table td{border-bottom:1px solid #e5e7eb;padding:.25rem .5rem;text-align:left}
.${p}-ad{min-height:250px;background:#f3f4f6;display:grid;place-items:center;color:var(--${p}-muted)}
.${p}-cookie{position:fixed;inset:auto 0 0 0;background:#111;color:#fff;padding:1rem;z-index:50}
@media (max-width:720px){.${p}-nav__list{display:none}.${p}-sidebar{display:none}}
</style>
<script>document.documentElement.className=document.documentElement.className.replace('no-js','js');window.dataLayer=window.dataLayer||[];function track(){dataLayer.push(arguments)}track('init',{site:'${p}',section:'${slugify(topic.section)}'});</script>
<script async src="https://tags.analytics.example/loader.js?id=${p.toUpperCase()}-${1000 + index}"></script>
<script defer src="/static/js/app.${(index * 40503 + 17).toString(16)}.js"></script>
</head>`;

  // Heavy navigation: every section with a drop-down of sub-sections.
  let nav = `<header class="${p}-header" role="banner"><a class="skip-link" href="#main">Skip to content</a><div class="${p}-masthead"><a class="${p}-logo" href="/" aria-label="${esc(site.name)} home"><svg width="180" height="28" viewBox="0 0 180 28" aria-hidden="true"><rect width="28" height="28" rx="6" fill="#0b3954"/><text x="36" y="20" font-size="16">${esc(site.name)}</text></svg></a><form class="${p}-search" action="/search" role="search"><label for="q" class="visually-hidden">Search</label><input id="q" name="q" type="search" placeholder="Search ${esc(site.name)}"><button type="submit">Search</button></form><a class="${p}-subscribe" href="/subscribe">Subscribe</a><a href="/account/login">Sign in</a></div><nav class="${p}-nav" aria-label="Main"><ul class="${p}-nav__list">`;
  for (const section of site.sections) {
    nav += `<li class="${p}-nav__item"><a href="/${slugify(section)}/">${esc(section)}</a><ul class="${p}-nav__menu">`;
    const subs = rng.int(5, 10);
    for (let i = 0; i < subs; i++) {
      const sub = capitalize(`${rng.pick(topic.adjectives)} ${rng.pick(topic.nouns)}s`);
      nav += `<li><a href="/${slugify(section)}/${slugify(sub)}/">${esc(sub)}</a></li>`;
    }
    nav += '</ul></li>';
  }
  nav += `</ul></nav></header>
<div class="${p}-cookie" id="cookie-consent" role="dialog" aria-live="polite" aria-label="Cookie consent"><p>We use cookies and similar technologies to run this site, measure traffic and show you relevant advertising. You can accept all cookies, reject the optional ones or choose which to allow. Read our <a href="/legal/cookies">cookie policy</a>.</p><button type="button" data-consent="all">Accept all</button><button type="button" data-consent="necessary">Reject optional</button><a href="/legal/cookies#settings">Manage settings</a></div>
<div class="${p}-ad ${p}-ad--leaderboard" id="ad-top" data-ad-slot="top-728x90" aria-hidden="true"><span>Advertisement</span></div>`;

  let article = `<main id="main" class="${p}-layout"><article class="${p}-article" itemscope itemtype="https://schema.org/${topic.code ? 'BlogPosting' : 'NewsArticle'}">
<nav class="${p}-breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/${slugify(topic.section)}/">${esc(topic.section)}</a></li></ol></nav>
<header class="${p}-article__header"><p class="${p}-kicker">${esc(topic.section)}</p><h1 itemprop="headline">${esc(title)}</h1><p class="${p}-standfirst">${description}</p>
<div class="${p}-byline">By <a rel="author" href="/authors/${slugify(author)}" itemprop="author">${esc(author)}</a> · <time datetime="${published}" itemprop="datePublished">${published.slice(0, 10)}</time> · ${rng.int(4, 28)} min read</div>
<ul class="${p}-share"><li><a href="https://chirp.example/share?url=${encodeURIComponent(url)}">Share on Chirp</a></li><li><a href="https://facebook.example/sharer?u=${encodeURIComponent(url)}">Share on Facebook</a></li><li><a href="mailto:?subject=${encodeURIComponent(title)}">Email</a></li></ul></header>
${w.figure(0)}
<div class="${p}-article__body" itemprop="articleBody">`;

  let sidebar = `<aside class="${p}-sidebar" aria-label="More from ${esc(site.name)}"><section><h2>Most read</h2><ol>`;
  for (let i = 0; i < 10; i++)
    sidebar += `<li><a href="/${slugify(rng.pick(site.sections))}/${slugify(w.plain()).slice(0, 60)}">${esc(w.plain())}</a></li>`;
  sidebar += `</ol></section><div class="${p}-ad ${p}-ad--mpu" data-ad-slot="side-300x250"><span>Advertisement</span></div><section class="${p}-newsletter"><h2>Get the briefing</h2><p>The day's most important stories, every morning.</p><form action="/newsletter" method="post"><input type="email" name="email" placeholder="you@example.com" required><button>Sign up</button></form></section></aside>`;

  const footerParts: string[] = [
    `<footer class="${p}-footer" role="contentinfo"><div class="${p}-footer__cols">`,
  ];
  for (const heading of ['Sections', 'Company', 'Help', 'Follow us']) {
    footerParts.push(`<div><h2>${heading}</h2><ul>`);
    const items =
      heading === 'Sections'
        ? site.sections
        : [
            'About us',
            'Contact',
            'Careers',
            'Advertise',
            'Terms of use',
            'Privacy policy',
            'Accessibility',
            'Corrections',
          ];
    for (const item of items)
      footerParts.push(`<li><a href="/${slugify(heading)}/${slugify(item)}">${esc(item)}</a></li>`);
    footerParts.push('</ul></div>');
  }
  footerParts.push(`</div><p class="${p}-copyright">© 2025 ${esc(site.name)}. All rights reserved.</p></footer>
<script>(function(){var b=document.getElementById('cookie-consent');if(!b)return;b.addEventListener('click',function(e){var t=e.target;if(t&&t.dataset&&t.dataset.consent){document.cookie='consent='+t.dataset.consent+';path=/;max-age=31536000';b.hidden=true;track('consent',t.dataset.consent)}})})();</script>
</body>
</html>
`);
  const footer = footerParts.join('');

  // Comments, generated up front so the body fills the remaining budget.
  let comments = `<section class="${p}-comments" id="comments"><h2>Comments (${rng.int(12, 240)})</h2>`;
  const commentCount = rng.int(3, 8);
  for (let i = 0; i < commentCount; i++) {
    comments += `<article class="${p}-comment"><header><span class="${p}-comment__author">${esc(rng.pick(PEOPLE).split(' ')[0] as string)}${rng.int(1, 999)}</span> <time datetime="2025-${month}-${day}">${rng.int(1, 23)} hours ago</time></header><p>${esc(w.plain())} ${esc(w.plain())}</p><footer><button type="button">Reply</button> <button type="button">Report</button></footer></article>`;
  }
  comments += '</section>';

  const fixed =
    head.length +
    nav.length +
    article.length +
    sidebar.length +
    footer.length +
    comments.length +
    200;
  const budget = target - fixed;
  let body = '';
  let tables = 0;
  let figures = 1;
  let codes = 0;
  const headings = [...topic.headings];
  let h = 0;
  while (body.length < budget) {
    const heading = headings[h % headings.length] as string;
    const suffix = h >= headings.length ? ` (part ${Math.floor(h / headings.length) + 1})` : '';
    body += `<h2 id="${slugify(heading + suffix)}">${esc(heading + suffix)}</h2>`;
    h++;
    const blocks = rng.int(3, 8);
    for (let b = 0; b < blocks && body.length < budget; b++) {
      const roll = rng.next();
      if (roll < 0.6) body += w.paragraph();
      else if (roll < 0.7) body += w.list();
      else if (roll < 0.75) body += w.quote();
      else if (roll < 0.82 && topic.code && codes < 40) {
        body += w.code();
        codes++;
      } else if (roll < 0.86 && tables < 2 + Math.floor(target / 120_000)) {
        body += w.table();
        tables++;
      } else if (roll < 0.9) {
        body += w.figure(figures++);
      } else if (roll < 0.93) {
        body += `<h3>${esc(capitalize(w.phrase()))}</h3>${w.paragraph(2, 4)}`;
      } else if (roll < 0.95) {
        body += `<div class="${p}-ad ${p}-ad--inline" data-ad-slot="inline-${b}"><span>Advertisement</span></div>`;
      } else {
        body += `<aside class="${p}-related"><h3>Related</h3><ul><li><a href="/${slugify(topic.section)}/${slugify(w.phrase())}">${esc(w.plain())}</a></li><li><a href="/${slugify(topic.section)}/${slugify(w.phrase())}">${esc(w.plain())}</a></li></ul></aside>`;
      }
    }
    body += '\n';
  }
  if (tables === 0) body += w.table();

  article += `${body}</div>
<footer class="${p}-article__footer"><ul class="${p}-tags">${topic.nouns
    .slice(0, 5)
    .map((n) => `<li><a href="/tags/${slugify(n)}" rel="tag">${esc(n)}</a></li>`)
    .join(
      '',
    )}</ul><p class="${p}-corrections">Spotted an error? <a href="/corrections">Tell us</a>.</p></footer>
</article>${sidebar}${comments}</main>`;

  return { html: `${head}\n<body class="${p}-body">\n${nav}\n${article}\n${footer}`, url };
}
