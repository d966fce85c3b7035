import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, printColumns } from './lib/report.js';

/** Goal: no single call grows the server process by more than this. */
const GROWTH_GOAL_MB = 150;
/** Goal: RSS is back within this of its idle level ... */
const RETURN_GOAL_MB = 50;
/** ... this long after the call answered. */
const RETURN_WINDOW_MS = 10_000;
/** How often the server's RSS is read. */
const SAMPLE_MS = 10;
const ADMIN_TOKEN = 'memory-bench-admin-token-0123456789';

/** The small ordinary page every route reads once before idle is measured. */
const WARM_PAGE = `<!doctype html><html><head><title>Warm</title></head><body><main><h1>Warm-up</h1><p>An ordinary page, read once by every route before the service's idle level is measured: <a href="/next">next</a>.</p><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></main></body></html>`;

/** One page the loopback site serves. */
interface Page {
  readonly name: string;
  /** Hostile pages should be refused (or cut) cheaply; legit ones must still be served. */
  readonly hostile: boolean;
  readonly bytes: Buffer;
}

/** `count` copies of `unit` inside an HTML body, as one page. */
function repeated(name: string, unit: string, count: number, open = '', close = ''): Page {
  return {
    name,
    hostile: true,
    bytes: Buffer.from(
      `<!doctype html><html><head><title>${name}</title></head><body>${open}${unit.repeat(count)}${close}x</body></html>`,
    ),
  };
}

/** A data table of `rows` × `columns` short cells, with a header row. */
function dataTable(rows: number, columns: number): Page {
  const head = Array.from({ length: columns }, (_, c) => `<th>Column ${c + 1}</th>`).join('');
  const body: string[] = [];
  for (let r = 0; r < rows; r++) {
    let row = '<tr>';
    for (let c = 0; c < columns; c++) row += `<td>${(r * 7919 + c * 104_729) % 1_000_003}</td>`;
    body.push(`${row}</tr>`);
  }
  return {
    name: `data table ${rows}x${columns}`,
    hostile: false,
    bytes: Buffer.from(
      `<!doctype html><html><head><title>Data</title></head><body><h1>Readings</h1><table><thead><tr>${head}</tr></thead><tbody>${body.join('\n')}</tbody></table></body></html>`,
    ),
  };
}

/** An article of about `bytes`: headings, paragraphs with links and emphasis, lists. */
function longArticle(bytes: number): Page {
  const parts = ['<!doctype html><html><head><title>A long read</title></head><body><article>'];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const section =
      (i % 20 === 0 ? `<h2>Part ${i / 20 + 1}</h2>` : '') +
      `<p>Paragraph ${i} of the report, with <a href="/notes/${i}">a note</a>, some <em>emphasis</em> and ` +
      `${'plain words that carry the story along, '.repeat(6)}and a <strong>closing line</strong>.</p>` +
      (i % 10 === 5 ? '<ul><li>one point</li><li>another point</li></ul>' : '');
    parts.push(section);
    size += section.length;
  }
  parts.push('</article></body></html>');
  return { name: 'article 2 MB', hostile: false, bytes: Buffer.from(parts.join('\n')) };
}

/** The pages, generated the same on every run. */
function pages(): Page[] {
  return [
    repeated('1,000,000 unclosed <div>', '<div>', 1_000_000),
    repeated('2,000,000 <b>', '<b>', 2_000_000),
    repeated('200,000 table cells', '<td>cell</td>', 200_000, '<table><tr>', '</tr></table>'),
    repeated('100,000 nested tables', '<table><tr><td>', 100_000),
    repeated('200,000 links', '<a href="/p">a link</a> ', 200_000),
    repeated('300,000 <p> of text', '<p>word word</p>', 300_000),
    repeated('95,000 elements of 8 attributes', '<div a b c d e f g h>', 95_000),
    longArticle(2_000_000),
    dataTable(5_000, 9),
  ];
}

/** The routes called on every page, with their query besides `url`. */
const ROUTES: readonly { readonly path: string; readonly query: string }[] = [
  { path: '/buy/fetch', query: '' },
  { path: '/buy/markdown', query: '' },
  { path: '/buy/table', query: '' },
  { path: '/buy/links', query: '' },
];

/** The resident set of process `pid` in MB, from `/proc/<pid>/status`. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}

/** The built server as its own process, listening on a free loopback port. */
async function startBuiltServer(
  allow: string,
  dataDir: string,
  extraEnv: Readonly<Record<string, string>>,
): Promise<{ child: ChildProcess; url: string; startedMs: number }> {
  const main = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      SAFE_FETCH_ALLOW: allow,
      // A facilitator is named, so the development payment stack is not started: this
      // benchmark measures the products, and key-door calls never reach the facilitator.
      FACILITATOR_URL: 'http://127.0.0.1:9/',
      ...(process.env.DATABASE_URL === undefined ? {} : { DATABASE_URL: process.env.DATABASE_URL }),
      // An allocator setting to compare with, handed on when the benchmark has it.
      ...(process.env.MALLOC_ARENA_MAX === undefined
        ? {}
        : { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX }),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Storefront is running at (\S+)/.exec(output);
      if (found !== null) resolve(found[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url, startedMs: performance.now() - started };
}

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/** One call's row. */
interface Row {
  readonly page: string;
  readonly route: string;
  readonly hostile: boolean;
  readonly status: number;
  readonly answer: string;
  readonly ms: number;
  readonly charged: number;
  readonly before: number;
  readonly peak: number;
  /** RSS when it came back within the goal of idle, or at the end of the window. */
  readonly after: number;
  /** ms after the answer until RSS was back within the goal, or null if it never was. */
  readonly backMs: number | null;
}

/** Options of {@link memoryBenchmark}. */
export interface MemoryOptions {
  readonly quick: boolean;
}

/** What {@link memoryBenchmark} measured. */
export interface MemoryResult {
  readonly idleMb: number;
  readonly rows: readonly Row[];
  readonly met: boolean;
}

/**
 * Hostile pages through the built server's key door, with the server's resident set
 * sampled every 10 ms from `/proc`: idle RSS, each call's peak growth over the RSS just
 * before it, and how soon RSS is back within 50 MB of idle (at most 10 s). PostgreSQL in
 * `DATABASE_URL` if set, else PGlite. `--quick` calls two routes on each page.
 */
export async function memoryBenchmark(options: MemoryOptions): Promise<MemoryResult> {
  const all = pages();
  const byPath = new Map(all.map((page, i) => [`/p${i}`, page]));
  const site = http.createServer((req, res) => {
    if (req.url === '/warm') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(WARM_PAGE);
      return;
    }
    const page = byPath.get(req.url ?? '');
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(page.bytes.length),
    });
    res.end(page.bytes);
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  const sitePort = (site.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-memory-bench-'));
  const { child, url, startedMs } = await startBuiltServer(`127.0.0.1:${sitePort}`, dataDir, {});
  const pid = child.pid as number;
  let current = rssMb(pid);
  let peak = current;
  const sampler = setInterval(() => {
    try {
      current = rssMb(pid);
      peak = Math.max(peak, current);
    } catch {
      // The process has gone; the last reading stands.
    }
  }, SAMPLE_MS);
  const rows: Row[] = [];
  try {
    const minted = await json(`${url}/api/dev/keys?live=true`, { method: 'POST' });
    const key = minted.body.key as string;
    const keyId = minted.body.keyId as string;
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    await json(`${url}/admin/keys/${keyId}/credits`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ credits: 10_000_000 }),
    });
    const credits = async () =>
      (await json(`${url}/admin/keys/${keyId}`, { headers: admin })).body.credits as number;
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The lowest reading of a second.
    const lowest = async () => {
      let low = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 100; i++) {
        low = Math.min(low, rssMb(pid));
        await delay(SAMPLE_MS);
      }
      return low;
    };
    // Fresh: a few seconds after start, with a key minted, before any product ran.
    await delay(3000);
    const fresh = await lowest();
    // Idle, the level a call is measured against: a serving instance at rest, after one
    // call per route on a small ordinary page (its product thread started and warm).
    const routes = options.quick ? ROUTES.slice(0, 2) : ROUTES;
    for (const route of routes) {
      const target = encodeURIComponent(`http://127.0.0.1:${sitePort}/warm`);
      await json(`${url}${route.path}?url=${target}${route.query}`, {
        headers: { authorization: `Bearer ${key}` },
      });
    }
    await delay(2000);
    const idle = await lowest();
    console.log(
      `\nMemory per call: server ${url} (${process.env.DATABASE_URL === undefined ? 'PGlite' : 'PostgreSQL'}${process.env.MALLOC_ARENA_MAX === undefined ? '' : `, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}`}), ready in ${startedMs.toFixed(0)} ms, RSS fresh ${fresh.toFixed(0)} MB, idle after one call per route ${idle.toFixed(0)} MB`,
    );
    for (const [path, page] of byPath) {
      for (const route of routes) {
        const before = current;
        peak = before;
        const paid = await credits();
        const started = performance.now();
        const target = encodeURIComponent(`http://127.0.0.1:${sitePort}${path}`);
        const res = await json(`${url}${route.path}?url=${target}${route.query}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const ms = performance.now() - started;
        const callPeak = Math.max(peak, current);
        // Back within the goal of idle, or the window is over.
        const answered = performance.now();
        let backMs: number | null = null;
        while (performance.now() - answered < RETURN_WINDOW_MS) {
          if (current - idle <= RETURN_GOAL_MB) {
            backMs = performance.now() - answered;
            break;
          }
          await delay(SAMPLE_MS);
        }
        const after = current;
        const charged = paid - (await credits());
        const answer =
          res.body.ok === true
            ? 'ok'
            : String(res.body.error ?? res.body.raw ?? JSON.stringify(res.body).slice(0, 40));
        rows.push({
          page: page.name,
          route: route.path,
          hostile: page.hostile,
          status: res.status,
          answer,
          ms,
          charged,
          before,
          peak: callPeak,
          after,
          backMs,
        });
        const row = rows[rows.length - 1] as Row;
        console.log(
          `  ${page.name} ${route.path}: ${row.status} ${answer} in ${ms.toFixed(0)} ms, +${(row.peak - row.before).toFixed(0)} MB, back ${backMs === null ? 'NOT within 10 s' : `in ${(backMs / 1000).toFixed(1)} s`}`,
        );
      }
    }
    const met = (row: Row) =>
      row.peak - row.before <= GROWTH_GOAL_MB && row.backMs !== null ? 'met' : 'NOT met';
    printColumns(
      `Memory per call on hostile and legitimate pages (${machine()}): idle RSS ${idle.toFixed(0)} MB; goals: growth <= ${GROWTH_GOAL_MB} MB, back within ${RETURN_GOAL_MB} MB of idle in ${RETURN_WINDOW_MS / 1000} s`,
      [
        'page',
        'route',
        'answer',
        'credits',
        'ms',
        'RSS before',
        'peak growth MB',
        'peak over idle',
        'back in s',
        'RSS after',
        'goals',
      ],
      rows.map((row) => [
        `${row.page} (${(byteSize(all, row.page) / 1e6).toFixed(1)} MB)`,
        row.route,
        `${row.status} ${row.answer}`,
        String(row.charged),
        row.ms.toFixed(0),
        row.before.toFixed(0),
        (row.peak - row.before).toFixed(0),
        (row.peak - idle).toFixed(0),
        row.backMs === null ? '> 10' : (row.backMs / 1000).toFixed(1),
        row.after.toFixed(0),
        met(row),
      ]),
      3,
    );
    const worst = Math.max(...rows.map((row) => row.peak - row.before));
    const notBack = rows.filter((row) => row.backMs === null).length;
    console.log(
      `\nworst growth ${worst.toFixed(0)} MB (goal <= ${GROWTH_GOAL_MB}: ${worst <= GROWTH_GOAL_MB ? 'met' : 'NOT met'}); calls not back within ${RETURN_GOAL_MB} MB of idle in 10 s: ${notBack} of ${rows.length} (goal 0: ${notBack === 0 ? 'met' : 'NOT met'}); calls on legitimate pages answered (200, or 404 for a page without a table): ${rows.filter((row) => !row.hostile && (row.status === 200 || row.answer === 'not_found')).length} of ${rows.filter((row) => !row.hostile).length}`,
    );
    return { idleMb: idle, rows, met: worst <= GROWTH_GOAL_MB && notBack === 0 };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    site.closeAllConnections();
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function byteSize(all: readonly Page[], name: string): number {
  return all.find((page) => page.name === name)?.bytes.length ?? 0;
}
