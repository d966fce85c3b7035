import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { htmlToMarkdown as mdreamToMarkdown } from '@mdream/js';
import { Readability } from '@mozilla/readability';
import { decodeBytes, type FetchedDocument } from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import ogs from 'open-graph-scraper';
import { parse } from 'parse5';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { unified } from 'unified';
import { loadEvalSet } from './extraction.bench.js';
import { generateArticleCorpus } from './lib/article-corpus.js';
import {
  type ClockTiming,
  type CorpusTask,
  type CorpusTiming,
  median,
  timeCorpus,
} from './lib/corpus-timer.js';
import { generateDocsCorpus } from './lib/docs-corpus.js';
import { guardNetwork } from './lib/network-guard.js';
import { machine, printColumns } from './lib/report.js';

/** A product of ours: a fetched document in, a result with `ok` and `text` out. */
type Product = (doc: FetchedDocument) => { readonly ok: boolean; readonly text?: string };

/** One target, printed with its measured value; `met` is null when it could not be measured. */
export interface Target {
  readonly name: string;
  readonly measured: string;
  readonly goal: string;
  readonly met: boolean | null;
}

/** What {@link htmlBenchmark} hands back to `run.ts`. */
export interface HtmlBenchmarkResult {
  readonly targets: readonly Target[];
  /** Products of ours that could not be loaded, with the reason. */
  readonly missing: readonly string[];
}

const FETCHED_AT = '2026-01-01T00:00:00.000Z';
/** The goals, judged per generated corpus (docs and news). */
const GOALS = {
  /** storefront markdown MB/s over Turndown's. */
  turndown: 2.5,
  /** storefront markdown MB/s over mdream's JavaScript engine's. */
  mdream: 1,
  /** storefront text MB/s over Readability's. */
  readability: 5,
  /** metadata's cost beyond the shared parse, in bare parses. */
  metadata: 1,
  /** CPU ms of the slowest page, each product of ours. */
  worstPageMs: 50,
} as const;
/** Pages read from a public evaluation set given on the command line (spread evenly). */
const REAL_SET_PAGES = 30;

/**
 * The HTML products (markdown, text, metadata) on two generated corpora of 30 pages
 * each (about 4 MB each): documentation pages (`lib/docs-corpus.ts`) and news article
 * pages (`lib/article-corpus.ts`), next to the libraries a user would pick instead
 * (Turndown, mdream's JavaScript engine, the unified pipeline, Readability on linkedom,
 * open-graph-scraper) and two parser floors (parse5, htmlparser2). Targets are judged
 * per corpus. Public evaluation sets given on the command line are timed the same way,
 * unjudged. Then the same tools on the hand-made pages of `fixtures/pages/`, for
 * worst-page times on real-world shapes and encodings.
 */
export async function htmlBenchmark(options: { quick: boolean }): Promise<HtmlBenchmarkResult> {
  const warmup = options.quick ? 1 : 2;
  const iterations = options.quick ? 3 : 7;
  const guard = guardNetwork();
  try {
    const missing: string[] = [];
    const ours = {
      markdown: await loadProduct('@storefront/markdown', 'toMarkdown', missing),
      text: await loadProduct('@storefront/text', 'extractText', missing),
      metadata: await loadProduct('@storefront/metadata', 'extractMetadata', missing),
    };

    const peers = makePeers();
    const corpora: Corpus[] = [
      {
        key: 'docs',
        title: 'generated documentation pages',
        pages: generateDocsCorpus(),
        judged: true,
      },
      {
        key: 'news',
        title: 'generated news article pages',
        pages: generateArticleCorpus(),
        judged: true,
      },
      ...realSets(),
    ];
    const targets: Target[] = [];
    const ratioRows: string[][] = [];
    for (const corpus of corpora) {
      const corpusBytes = corpus.pages.reduce((sum, page) => sum + page.bytes.length, 0);
      const tasks = corpusTasks<TaskPage>(ours, peers);
      const started = performance.now();
      const timings = await timeCorpus(corpus.pages, (page) => page.bytes.length, tasks.list, {
        warmup,
        iterations,
      });
      const byName = new Map(timings.map((t) => [t.name, t]));
      const elapsed = (performance.now() - started) / 1000;

      printColumns(
        `HTML products on ${corpus.pages.length} ${corpus.title} (${corpus.key}), ${(corpusBytes / 1e6).toFixed(2)} MB ` +
          `(${machine()}, ${cpus().length} cores); median of ${iterations} interleaved passes after ${warmup} warm-up, ${elapsed.toFixed(0)} s`,
        HEADER,
        rowsFor(
          tasks.rows,
          byName,
          corpus.pages.map((p) => p.name),
        ),
        2,
      );
      ratioRows.push(...ratiosFor(corpus.key, byName));
      if (corpus.judged) targets.push(...computeTargets(corpus.key, byName, ours));
    }

    printColumns(
      'Ratios per corpus (CPU time, paired by round: median of the per-round ratios; wall clock in brackets)',
      ['corpus', 'ratio', 'value'],
      ratioRows,
    );

    const split = unifiedSplit(corpora[0]!.pages, peers);
    const splitTotal = split.parse + split.toMdast + split.stringify;
    printColumns(
      `unified pipeline on the ${corpora[0]!.key} corpus, one pass split by stage (after the passes above)`,
      ['stage', 'ms per corpus pass', 'share'],
      [
        ['rehype-parse (parse5 + hast)', split.parse.toFixed(0), percent(split.parse / splitTotal)],
        [
          'rehype-remark (hast -> mdast)',
          split.toMdast.toFixed(0),
          percent(split.toMdast / splitTotal),
        ],
        [
          'remark-stringify + remark-gfm',
          split.stringify.toFixed(0),
          percent(split.stringify / splitTotal),
        ],
        ['total', splitTotal.toFixed(0), '100%'],
      ],
    );

    printTargets(targets);

    const fixtures = readFixturePages();
    if (fixtures.length > 0) {
      const fixtureBytes = fixtures.reduce((sum, page) => sum + page.bytes.length, 0);
      const fixtureTasks = corpusTasks<FixturePage>(ours, peers);
      const fixtureTimings = await timeCorpus(
        fixtures,
        (page) => page.bytes.length,
        fixtureTasks.list,
        {
          warmup: 1,
          iterations: options.quick ? 3 : 5,
        },
      );
      printColumns(
        `The same tools on the ${fixtures.length} hand-made pages of fixtures/pages/, ${(fixtureBytes / 1e6).toFixed(2)} MB ` +
          `(informative: mixed encodings and page shapes; median of ${options.quick ? 3 : 5} passes)`,
        HEADER,
        rowsFor(
          fixtureTasks.rows,
          new Map(fixtureTimings.map((t) => [t.name, t])),
          fixtures.map((p) => p.name),
        ),
        2,
      );
    }

    console.log(
      `\nNetwork attempts refused during the run: ${guard.attempts()} (open-graph-scraper ran offline with its html option).`,
    );
    if (missing.length > 0) console.log(`Not available: ${missing.join('; ')}`);
    return { targets, missing };
  } finally {
    guard.restore();
  }
}

const HEADER = [
  'group',
  'task',
  'MB/s cpu',
  'cpu min-max',
  'MB/s wall',
  'worst ms cpu',
  'worst ms wall',
  'worst page',
  'p50 ms cpu',
  'output KB',
  'ok pages',
];

/** One corpus the tasks run on; targets are judged on the generated ones. */
interface Corpus {
  readonly key: string;
  readonly title: string;
  readonly pages: readonly TaskPage[];
  readonly judged: boolean;
}

/**
 * Public evaluation sets given on the command line (`--only=html <dir>...`, any layout
 * `loadEvalSet` reads), each as up to {@link REAL_SET_PAGES} pages spread evenly over
 * it: timed and printed, never judged (the pages live outside the repository).
 */
function realSets(): Corpus[] {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  if (!argv.includes('--only=html')) return [];
  return argv
    .filter((a) => !a.startsWith('--'))
    .map((dir) => {
      const { pages } = loadEvalSet(dir);
      const step = Math.max(1, pages.length / REAL_SET_PAGES);
      const picked: TaskPage[] = [];
      for (let i = 0; i < pages.length && picked.length < REAL_SET_PAGES; i += step) {
        picked.push(pages[Math.floor(i)]!);
      }
      const name = dir.replace(/\/+$/, '').split('/').pop() ?? dir;
      return {
        key: name,
        title: `pages of ${dir} (of ${pages.length}, spread evenly)`,
        pages: picked,
        judged: false,
      };
    });
}

/** A page the tasks can read: the bytes we decode, the string peers get. */
interface TaskPage {
  readonly name: string;
  readonly url: string;
  readonly contentType: string;
  readonly html: string;
  readonly bytes: Uint8Array;
}

interface FixturePage extends TaskPage {
  readonly status: number;
}

interface Peers {
  readonly turndown: TurndownService;
  readonly processor: ReturnType<typeof makeProcessor>;
}

interface Row {
  readonly group: string;
  readonly name: string;
  /** Why the task is absent (a product of ours not written yet). */
  readonly missing?: string;
}

function makeProcessor() {
  return unified().use(rehypeParse).use(rehypeRemark).use(remarkGfm).use(remarkStringify);
}

function makePeers(): Peers {
  // The configuration a user would write: ATX headings, fenced code, the GFM plugin.
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  turndown.use(gfm);
  return { turndown, processor: makeProcessor() };
}

/** A fresh document object per call: our products cache the parse per object. */
function freshDocument(page: TaskPage, status = 200): FetchedDocument {
  return {
    requestedUrl: page.url,
    url: page.url,
    status,
    headers: { 'content-type': page.contentType },
    contentType: page.contentType,
    bytes: page.bytes,
    truncated: false,
    redirects: [],
    fetchedAt: FETCHED_AT,
  };
}

function corpusTasks<P extends TaskPage>(
  ours: { markdown: Product | string; text: Product | string; metadata: Product | string },
  peers: Peers,
): { list: CorpusTask<P>[]; rows: Row[] } {
  const list: CorpusTask<P>[] = [];
  const rows: Row[] = [];
  const add = (group: string, task: CorpusTask<P>) => {
    list.push(task);
    rows.push({ group, name: task.name });
  };
  const addOurs = (group: string, name: string, product: Product | string) => {
    if (typeof product === 'string') {
      rows.push({ group, name, missing: product });
      return;
    }
    add(group, {
      name,
      run: (page) => {
        const result = product(freshDocument(page, statusOf(page)));
        return result.ok ? (result.text?.length ?? 0) : null;
      },
    });
  };

  addOurs('markdown', OURS_MARKDOWN, ours.markdown);
  add('markdown', {
    name: PEER_TURNDOWN,
    run: (page) => peers.turndown.turndown(page.html).length,
  });
  add('markdown', {
    name: PEER_MDREAM,
    run: (page) => mdreamToMarkdown(page.html).length,
  });
  add('markdown', {
    name: 'unified: rehype-parse, rehype-remark, remark-gfm, remark-stringify',
    run: (page) => String(peers.processor.processSync(page.html)).length,
  });

  addOurs('text', OURS_TEXT, ours.text);
  add('text', {
    name: PEER_READABILITY,
    run: (page) => {
      const { document } = parseHTML(page.html);
      const article = new Readability(document as never).parse();
      return article?.textContent == null ? null : article.textContent.length;
    },
  });

  addOurs('metadata', OURS_METADATA, ours.metadata);
  add('metadata', {
    name: 'open-graph-scraper ({ html }, offline)',
    async: true,
    run: async (page) => {
      try {
        const { error, result } = await ogs({ html: page.html });
        return error ? null : JSON.stringify(result).length;
      } catch {
        return null;
      }
    },
  });

  add('shared', {
    name: OURS_LOAD,
    run: (page) => (loadHtml(freshDocument(page, statusOf(page))).ok ? 0 : null),
  });
  add('floor', {
    name: FLOOR_PARSE5,
    run: (page) => {
      parse(page.html);
      return 0;
    },
  });
  add('floor', {
    name: 'htmlparser2 Parser, no-op handlers',
    run: (page) => {
      const parser = new Parser(NO_OP_HANDLERS);
      parser.write(page.html);
      parser.end();
      return 0;
    },
  });
  return { list, rows };
}

const OURS_MARKDOWN = 'storefront toMarkdown(doc)';
const OURS_TEXT = 'storefront extractText(doc)';
const OURS_METADATA = 'storefront extractMetadata(doc)';
const OURS_LOAD = 'storefront loadHtml(doc): decode + tree';
const FLOOR_PARSE5 = 'parse5 parse(html)';
const PEER_TURNDOWN = 'Turndown + turndown-plugin-gfm';
const PEER_MDREAM = 'mdream JavaScript engine (@mdream/js htmlToMarkdown)';
const PEER_READABILITY = 'Readability on linkedom (.textContent)';

const noop = (): void => {};
const NO_OP_HANDLERS = {
  onopentag: noop,
  onattribute: noop,
  ontext: noop,
  onclosetag: noop,
  oncomment: noop,
  onprocessinginstruction: noop,
};

function statusOf(page: TaskPage): number {
  return 'status' in page ? (page as FixturePage).status : 200;
}

async function loadProduct(
  specifier: string,
  exportName: string,
  missing: string[],
): Promise<Product | string> {
  let reason: string;
  try {
    // A variable specifier: the package may not exist yet when the bench is typechecked.
    const module = (await import(specifier)) as Record<string, unknown>;
    const fn = module[exportName];
    if (typeof fn === 'function') return fn as Product;
    reason = `${specifier} has no ${exportName} export yet`;
  } catch (error) {
    reason = `${specifier} could not be imported (${firstLine(error)})`;
  }
  missing.push(reason);
  return reason;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

function rowsFor(
  rows: readonly Row[],
  byName: Map<string, CorpusTiming>,
  pageNames: readonly string[],
): string[][] {
  return rows.map((row) => {
    const timing = byName.get(row.name);
    if (row.missing !== undefined || timing === undefined) {
      return [row.group, row.name, 'not available', '-', '-', '-', '-', '-', '-', '-', '-'];
    }
    const worst = worstPage(timing.cpu);
    const mb = timing.cpu.mbPerSecond;
    return [
      row.group,
      row.name,
      median(mb).toFixed(2),
      `${Math.min(...mb).toFixed(2)}-${Math.max(...mb).toFixed(2)}`,
      median(timing.wall.mbPerSecond).toFixed(2),
      worst.ms.toFixed(1),
      worstPage(timing.wall).ms.toFixed(1),
      pageNames[worst.index] ?? '?',
      median(timing.cpu.pageMs).toFixed(1),
      timing.outputChars > 0 ? (timing.outputChars / 1000).toFixed(0) : '-',
      `${timing.okPages}/${pageNames.length}`,
    ];
  });
}

function worstPage(timing: ClockTiming): { ms: number; index: number } {
  let index = 0;
  for (let i = 1; i < timing.pageMs.length; i++) {
    if ((timing.pageMs[i] as number) > (timing.pageMs[index] as number)) index = i;
  }
  return { ms: timing.pageMs[index] ?? Number.NaN, index };
}

function unifiedSplit(
  corpus: readonly TaskPage[],
  peers: Peers,
): { parse: number; toMdast: number; stringify: number } {
  const split = { parse: 0, toMdast: 0, stringify: 0 };
  const processor = peers.processor;
  for (const page of corpus) {
    const t0 = performance.now();
    const hast = processor.parse(page.html);
    const t1 = performance.now();
    const mdast = processor.runSync(hast);
    const t2 = performance.now();
    processor.stringify(mdast);
    const t3 = performance.now();
    split.parse += t1 - t0;
    split.toMdast += t2 - t1;
    split.stringify += t3 - t2;
  }
  return split;
}

/**
 * Our pass time over a peer's, or any other function of one round's pass times, taken
 * per round and then the median: pass i of every task ran in the same round, so a slow
 * moment on the machine cancels out of the ratio.
 */
function paired(
  byName: Map<string, CorpusTiming>,
  clock: 'cpu' | 'wall',
  f: (pass: (name: string) => number) => number,
): number {
  const rounds = byName.get(FLOOR_PARSE5)?.[clock].passMs.length ?? 0;
  const values: number[] = [];
  for (let i = 0; i < rounds; i++) {
    values.push(f((name) => byName.get(name)?.[clock].passMs[i] ?? Number.NaN));
  }
  return median(values);
}

/** Our MB/s over the peer's MB/s (the peer's pass time over ours), CPU and wall. */
function speedRatio(
  byName: Map<string, CorpusTiming>,
  ours: string,
  peer: string,
): { cpu: number; wall: number } {
  return {
    cpu: paired(byName, 'cpu', (pass) => pass(peer) / pass(ours)),
    wall: paired(byName, 'wall', (pass) => pass(peer) / pass(ours)),
  };
}

function formatRatio(r: { cpu: number; wall: number }): string {
  return `${r.cpu.toFixed(2)}x (wall ${r.wall.toFixed(2)}x)`;
}

/**
 * The ratios the goals name, and the floors beside them: our shared load (decoding and
 * the tree) against a bare parse5 parse, and how fast against each peer a product
 * costing only the shared load would be (the ceiling of any of our products).
 */
function ratiosFor(key: string, byName: Map<string, CorpusTiming>): string[][] {
  const rows: [string, string, string][] = [
    ['markdown / Turndown', OURS_MARKDOWN, PEER_TURNDOWN],
    ['markdown / mdream JS', OURS_MARKDOWN, PEER_MDREAM],
    ['text / Readability', OURS_TEXT, PEER_READABILITY],
    ['loadHtml (decode + tree) / bare parse5', OURS_LOAD, FLOOR_PARSE5],
    ['ceiling: loadHtml / Readability', OURS_LOAD, PEER_READABILITY],
    ['ceiling: loadHtml / Turndown', OURS_LOAD, PEER_TURNDOWN],
    ['ceiling: loadHtml / mdream JS', OURS_LOAD, PEER_MDREAM],
  ];
  return rows
    .filter(([, a, b]) => byName.has(a) && byName.has(b))
    .map(([label, a, b]) => [key, label, formatRatio(speedRatio(byName, a, b))]);
}

function computeTargets(
  key: string,
  byName: Map<string, CorpusTiming>,
  ours: { markdown: Product | string; text: Product | string; metadata: Product | string },
): Target[] {
  // Targets are judged on CPU time (other processes on a shared machine do not inflate
  // it); the wall-clock value is printed beside it. Ratios are paired per round.
  const targets: Target[] = [];
  const ratio = (
    name: string,
    product: Product | string,
    task: string,
    peer: string,
    goal: number,
  ) => {
    if (typeof product === 'string') {
      targets.push({ name, measured: 'not available', goal: `>= ${goal}x`, met: null });
      return;
    }
    const value = speedRatio(byName, task, peer);
    targets.push({
      name,
      measured: formatRatio(value),
      goal: `>= ${goal}x`,
      met: value.cpu >= goal,
    });
  };
  ratio(
    `${key}: markdown MB/s / Turndown MB/s`,
    ours.markdown,
    OURS_MARKDOWN,
    PEER_TURNDOWN,
    GOALS.turndown,
  );
  ratio(
    `${key}: markdown MB/s / mdream JS MB/s`,
    ours.markdown,
    OURS_MARKDOWN,
    PEER_MDREAM,
    GOALS.mdream,
  );
  ratio(
    `${key}: text MB/s / Readability MB/s`,
    ours.text,
    OURS_TEXT,
    PEER_READABILITY,
    GOALS.readability,
  );

  const metadataName = `${key}: metadata cost beyond the shared parse / one bare parse`;
  if (typeof ours.metadata === 'string') {
    targets.push({ name: metadataName, measured: 'not available', goal: '< 1', met: null });
  } else {
    const share = (pass: (name: string) => number) =>
      (pass(OURS_METADATA) - pass(OURS_LOAD)) / pass(FLOOR_PARSE5);
    const value = paired(byName, 'cpu', share);
    const wall = paired(byName, 'wall', share);
    const extra = paired(byName, 'cpu', (pass) => pass(OURS_METADATA) - pass(OURS_LOAD));
    const bare = paired(byName, 'cpu', (pass) => pass(FLOOR_PARSE5));
    targets.push({
      name: metadataName,
      measured: `${value.toFixed(2)} (${extra.toFixed(0)} vs ${bare.toFixed(0)} ms per pass; wall ${wall.toFixed(2)})`,
      goal: `< ${GOALS.metadata}`,
      met: value < GOALS.metadata,
    });
  }

  for (const [label, name, product] of [
    ['markdown', OURS_MARKDOWN, ours.markdown],
    ['text', OURS_TEXT, ours.text],
    ['metadata', OURS_METADATA, ours.metadata],
  ] as const) {
    const timing = byName.get(name);
    const goal = `<= ${GOALS.worstPageMs} ms`;
    const targetName = `${key}: ${label} worst page`;
    if (typeof product === 'string' || timing === undefined) {
      targets.push({ name: targetName, measured: 'not available', goal, met: null });
      continue;
    }
    const worst = worstPage(timing.cpu).ms;
    targets.push({
      name: targetName,
      measured: `${worst.toFixed(1)} ms (wall ${worstPage(timing.wall).ms.toFixed(1)} ms)`,
      goal,
      met: worst <= GOALS.worstPageMs,
    });
  }
  return targets;
}

function printTargets(targets: readonly Target[]): void {
  printColumns(
    'Targets (judged on CPU time; wall clock in brackets)',
    ['target', 'measured', 'goal', 'result'],
    targets.map((t) => [
      t.name,
      t.measured,
      t.goal,
      t.met === null ? 'not measured' : t.met ? 'met' : 'NOT met',
    ]),
    1,
  );
}

function percent(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}

/** The hand-made pages of `fixtures/pages/`, decoded for the peers as a browser would. */
function readFixturePages(): FixturePage[] {
  const root = new URL('../fixtures/pages/', import.meta.url);
  if (!existsSync(root)) return [];
  const names = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();
  const pages: FixturePage[] = [];
  for (const name of names) {
    const folder = new URL(`${name}/`, root);
    const pageFile = new URL('page.html', folder);
    const documentFile = new URL('document.json', folder);
    if (!existsSync(pageFile) || !existsSync(documentFile)) continue;
    const bytes = new Uint8Array(readFileSync(pageFile));
    const doc = JSON.parse(readFileSync(documentFile, 'utf8')) as {
      url: string;
      contentType: string;
      status?: number;
    };
    const html = decodeBytes(bytes, { contentType: doc.contentType }).text;
    pages.push({
      name,
      url: doc.url,
      contentType: doc.contentType,
      status: doc.status ?? 200,
      html,
      bytes,
    });
  }
  return pages;
}
