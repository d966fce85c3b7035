import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchedDocument } from '@storefront/core';
import {
  loadHtml,
  PAGE_KINDS,
  PAGE_VERDICT_RUBRIC,
  type PageKind,
  type PageVerdict,
  pageVerdict,
} from '@storefront/html';
import { freshDocument, loadEvalSet } from './extraction.bench.js';
import { machine, printColumns } from './lib/report.js';

/** The hand-built pages: one folder per verdict, each page with its response beside it. */
export const VERDICT_FIXTURES = fileURLToPath(
  new URL('../packages/html/test/fixtures/verdicts', import.meta.url),
);

/** The repository's root, for the paths printed. */
const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

/** Goals of the issue: recall on the fixtures, pages flagged in the public sets. */
const RECALL_GOAL = 0.98;
const FLAGGED_GOAL = 0.005;

/** The response a fixture page came with (`<slug>.json` beside `<slug>.html`). */
export interface FixtureResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly url: string;
  readonly requestedUrl?: string;
  readonly about?: string;
}

/** One hand-built page and the verdict its folder names. */
export interface VerdictFixture {
  readonly expected: PageKind;
  readonly name: string;
  readonly doc: FetchedDocument;
}

/** Every fixture page under `root` (`<verdict>/<slug>.html` + `<slug>.json`), sorted. */
export function loadVerdictFixtures(root = VERDICT_FIXTURES): VerdictFixture[] {
  const fixtures: VerdictFixture[] = [];
  for (const kind of PAGE_KINDS) {
    const dir = join(root, kind);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.html')) continue;
      const slug = file.slice(0, -'.html'.length);
      const sidecar = join(dir, `${slug}.json`);
      const response: FixtureResponse = existsSync(sidecar)
        ? (JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureResponse)
        : { status: 200, headers: {}, url: `https://site.example/${slug}` };
      const headers = Object.fromEntries(
        Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      const contentType = headers['content-type'] ?? 'text/html; charset=utf-8';
      fixtures.push({
        expected: kind,
        name: `${kind}/${slug}`,
        doc: {
          requestedUrl: response.requestedUrl ?? response.url,
          url: response.url,
          status: response.status,
          headers: { ...headers, 'content-type': contentType },
          contentType,
          bytes: new Uint8Array(readFileSync(join(dir, file))),
          truncated: false,
          redirects:
            response.requestedUrl !== undefined && response.requestedUrl !== response.url
              ? [response.requestedUrl]
              : [],
          fetchedAt: '2026-01-01T00:00:00.000Z',
        },
      });
    }
  }
  return fixtures;
}

/** The verdict of a fetched document, as the products decide it; null when it does not parse. */
export function verdictOf(doc: FetchedDocument): PageVerdict | null {
  const loaded = loadHtml(doc);
  if (!loaded.ok) return null;
  return pageVerdict(loaded.page, doc);
}

/**
 * Page verdicts measured: recall on the hand-built non-content pages (and how the
 * hand-built hard negatives fare), then the share of real content pages flagged in the
 * public extraction sets given on the command line. No timing: quality only.
 */
export function verdictBenchmark(options: { dirs: readonly string[] }): { met: boolean } {
  console.log(`\nPage verdicts (${PAGE_VERDICT_RUBRIC}; ${machine()})`);
  const fixtures = loadVerdictFixtures();
  const confusion = new Map<PageKind, Map<PageKind | 'unparsed', number>>();
  const misses: string[] = [];
  for (const fixture of fixtures) {
    const verdict = verdictOf(fixture.doc);
    const got = verdict?.verdict ?? 'unparsed';
    const row = confusion.get(fixture.expected) ?? new Map();
    row.set(got, (row.get(got) ?? 0) + 1);
    confusion.set(fixture.expected, row);
    if (got !== fixture.expected) {
      misses.push(
        `${fixture.name}: ${got} (${verdict?.signals.join(', ') || 'no signals'}; ${verdict?.words ?? 0} words)`,
      );
    }
  }
  const kinds = PAGE_KINDS.filter((k) => confusion.has(k));
  printColumns(
    `1. Hand-built pages (${fixtures.length}, ${relative(REPOSITORY, VERDICT_FIXTURES)}): rows are the page's verdict, columns what was decided`,
    ['page', ...kinds, 'pages', 'right'],
    kinds.map((expected) => {
      const row = confusion.get(expected)!;
      const total = [...row.values()].reduce((a, b) => a + b, 0);
      return [
        expected,
        ...kinds.map((got) => String(row.get(got) ?? 0)),
        String(total),
        pct((row.get(expected) ?? 0) / total),
      ];
    }),
  );
  const nonContent = fixtures.filter((f) => f.expected !== 'content');
  const caught = nonContent.filter((f) => !misses.some((m) => m.startsWith(`${f.name}:`))).length;
  const recall = nonContent.length === 0 ? 0 : caught / nonContent.length;
  const negatives = fixtures.filter((f) => f.expected === 'content');
  const negativesRight = negatives.filter(
    (f) => !misses.some((m) => m.startsWith(`${f.name}:`)),
  ).length;
  console.log(
    `non-content pages given their own verdict: ${caught} of ${nonContent.length} (${pct(recall)}); hard negatives kept as content: ${negativesRight} of ${negatives.length}`,
  );
  for (const miss of misses) console.log(`  missed ${miss}`);

  let flagged = 0;
  let total = 0;
  const flaggedRows: string[][] = [];
  const perSet: string[][] = [];
  for (const dir of options.dirs) {
    const { format, root, pages } = loadEvalSet(
      resolve(process.env.INIT_CWD ?? process.cwd(), dir),
    );
    let setFlagged = 0;
    for (const page of pages) {
      const verdict = verdictOf(freshDocument(page));
      if (verdict === null) continue;
      total++;
      if (verdict.verdict !== 'content') {
        setFlagged++;
        flaggedRows.push([
          verdict.verdict,
          `${format}: ${page.name}`,
          String(verdict.words),
          verdict.signals.join(', '),
        ]);
      }
    }
    flagged += setFlagged;
    perSet.push([
      `${root.replace(/\/+$/, '')} (${format})`,
      String(pages.length),
      String(setFlagged),
      pct(setFlagged / Math.max(1, pages.length)),
    ]);
  }
  const rate = total === 0 ? 0 : flagged / total;
  if (options.dirs.length > 0) {
    printColumns(
      '2. Real content pages flagged, public extraction sets',
      ['set', 'pages', 'flagged', 'share'],
      [...perSet, ['all', String(total), String(flagged), pct(rate)]],
    );
    if (flaggedRows.length > 0) {
      printColumns('flagged pages', ['verdict', 'page', 'words', 'signals'], flaggedRows, 4);
    }
  } else {
    console.log(
      '2. Public sets: not measured (pnpm bench --only=verdict <dir>... ; see README.md, "Page verdicts")',
    );
  }

  const recallMet = recall >= RECALL_GOAL;
  const flaggedMet = options.dirs.length > 0 && rate <= FLAGGED_GOAL;
  printColumns(
    'targets',
    ['target', 'measured', 'goal', ''],
    [
      [
        'recall on hand-built non-content pages',
        pct(recall),
        `>= ${pct(RECALL_GOAL)}`,
        recallMet ? 'met' : 'NOT met',
      ],
      [
        'real content pages flagged (public sets)',
        options.dirs.length > 0 ? `${pct(rate)} (${flagged} of ${total})` : 'not measured',
        `<= ${pct(FLAGGED_GOAL)}`,
        options.dirs.length === 0 ? 'not measured' : flaggedMet ? 'met' : 'NOT met',
      ],
    ],
  );
  return { met: recallMet && flaggedMet };
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 2 : 1)} %`;
}
