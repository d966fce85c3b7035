/**
 * docs/decisions.md cites only files that exist: every path from the repository root
 * (`apps/…`, `packages/…`, `bench/…`, `scripts/…`, `fixtures/…`, `docs/…`, `.ci/…`),
 * backticked or not, and every backticked relative path with a file extension
 * (`test/pool.test.ts`, `metering/tiers.ts`), which must be the end of some file's path.
 * Build output (`dist/`) and test artifacts are not in a checkout; for them the folder
 * that makes them must exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const DECISIONS = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');

/** Folders that hold what a build, an install or a test run writes. */
const GENERATED = new Set(['node_modules', 'dist', 'test-artifacts', 'coverage', '.git', '.data']);
const ROOTED = /^(?:apps|packages|bench|scripts|fixtures|docs|\.ci|\.changeset)(?:\/|$)/;
const FILE = /\.(?:ts|mts|mjs|cjs|js|json|md|sql|lua|sol|html|txt|yaml|yml|css)$/;

/** Every file of the checkout, as a path from the root, build output left out. */
function repositoryFiles(dir = ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (GENERATED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...repositoryFiles(path));
    else out.push(relative(ROOT, path));
  }
  return out;
}

const FILES = repositoryFiles();

/** `*` matches within one path segment. */
function pattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
  return new RegExp(`^${escaped}(?:/|$)`);
}

/** Whether a path from the root names a file or folder of the checkout (globs allowed). */
function exists(path: string): boolean {
  const segments = path.replace(/\/$/, '').split('/');
  const generated = segments.findIndex((segment) => GENERATED.has(segment));
  // Build output: the package that builds it must exist.
  if (generated !== -1) return existsSync(join(ROOT, ...segments.slice(0, generated)));
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const re = pattern(path.replace(/\/$/, ''));
  return FILES.some((file) => re.test(file));
}

/** Whether a relative path is the end of some file's path (a file or a folder). */
function endsSomePath(path: string): boolean {
  if (path.split('/').some((segment) => GENERATED.has(segment))) return true;
  const tail = path.replace(/\/$/, '');
  const re = new RegExp(
    `(?:^|/)${tail.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}(?:/|$)`,
  );
  return FILES.some((file) => re.test(file));
}

interface Citation {
  readonly line: number;
  readonly path: string;
  readonly from: 'root' | 'relative';
}

/** The paths the document cites, with their line numbers. */
function citations(text: string): Citation[] {
  const out: Citation[] = [];
  text.split('\n').forEach((content, i) => {
    const line = i + 1;
    for (const match of content.matchAll(/`([^`\s]+)`/g)) {
      const token = match[1]!.replace(/^\.\//, '').replace(/[.,:;]$/, '');
      // A placeholder (`<name>`, `*/x`) or a file outside the repository (`../shared/…`).
      if (token.includes('<') || token.startsWith('*') || token.startsWith('../')) continue;
      if (ROOTED.test(token)) out.push({ line, path: token, from: 'root' });
      else if (/^[\w.-]+(?:\/[\w.*-]+)+$/.test(token) && FILE.test(token)) {
        out.push({ line, path: token, from: 'relative' });
      }
    }
    // Paths from the root written without backticks ("see bench/README.md").
    const prose = content.replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, ' ');
    for (const match of prose.matchAll(
      /(?<![\w./-])(?:apps|packages|bench|scripts|fixtures|docs|\.ci|\.changeset)\/[\w.*/-]*[\w*/]/g,
    )) {
      out.push({ line, path: match[0], from: 'root' });
    }
  });
  return out;
}

describe('docs/decisions.md', () => {
  const cited = citations(DECISIONS);

  it('cites paths (the check reads some)', () => {
    expect(cited.filter((c) => c.from === 'root').length).toBeGreaterThan(20);
    expect(cited.filter((c) => c.from === 'relative').length).toBeGreaterThan(10);
  });

  it('cites only files that exist', () => {
    const missing = cited
      .filter((c) => !(c.from === 'root' ? exists(c.path) : endsSomePath(c.path)))
      .map((c) => `docs/decisions.md:${c.line}: \`${c.path}\` does not exist`);
    expect(missing).toStrictEqual([]);
  });

  it('the check finds a path that does not exist', () => {
    const text = 'See `apps/server/src/gone.ts`, bench/nothing.bench.ts and `work/gone.ts`.';
    const found = citations(text);
    expect(found.map((c) => c.path)).toStrictEqual([
      'apps/server/src/gone.ts',
      'work/gone.ts',
      'bench/nothing.bench.ts',
    ]);
    expect(
      found.filter((c) => (c.from === 'root' ? exists(c.path) : endsSomePath(c.path))),
    ).toStrictEqual([]);
    expect(exists('packages/*/src') && exists('apps/server/dist/main.js')).toBe(true);
    expect(endsSomePath('metering/tiers.ts')).toBe(true);
  });
});
