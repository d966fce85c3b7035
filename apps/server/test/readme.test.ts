/**
 * The root README's numbers, each compared with what it counts or quotes: the route
 * table against the registry (in its order, with prices and titles), the counts of MCP
 * tools, fixture pages, benchmarks and PostgreSQL-only tests, the plan table, the
 * configuration defaults and the figures of the walk-through. A README that drifts from
 * the code fails here with the sentence or row to change.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CRAWL_MAX_PAGES, MAP_MAX_FETCHES, MAP_MAX_URLS } from '@storefront/crawl';
import { DEV_PAYER_START_BALANCE } from '@storefront/facilitator';
import { HTML_MAX_ELEMENTS } from '@storefront/html';
import { DEFAULT_TIMEOUT_MS } from '@storefront/safe-fetch';
import { describe, expect, it } from 'vitest';
import serverPkg from '../package.json' with { type: 'json' };
import { COMPRESS_FROM_BYTES } from '../src/app.js';
import { TOPUP_MAX_USD, TOPUP_MIN_USD } from '../src/billing/plans.js';
import { USAGE_DAYS } from '../src/billing/store.js';
import {
  BASE_USDC,
  type Config,
  DEFAULT_LOCAL_CHAIN_PORT,
  DEFAULT_LOCAL_FACILITATOR_PORT,
  DEV_TOKEN_ADDRESS,
  defaultBaseUrl,
  defaultProductThreads,
  LOCAL_PAYMENTS_NETWORK,
  loadConfig,
} from '../src/config.js';
import { creditsFor, TIERS, tierPlans, UNITS_PER_CREDIT } from '../src/metering/tiers.js';
import { DRAINING_RETRY_SECONDS } from '../src/pipeline/call.js';
import { REGISTRY } from '../src/registry/index.js';
import { KEYS_PER_IP_PER_HOUR } from '../src/routes/dev-keys.js';
import { SWEEP_INTERVAL_MS } from '../src/server.js';

const ROOT = join(import.meta.dirname, '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  packageManager: string;
  engines: { node: string };
};

/** The captures of `pattern` in the README; fails naming the sentence when it is gone. */
function stated(pattern: RegExp, what: string): string[] {
  const match = pattern.exec(README);
  if (match === null) {
    throw new Error(`The README no longer says ${what} (looked for ${pattern}); update this test`);
  }
  return match.slice(1).map((group) => group ?? '');
}

/** A number as the README writes it: `1,000,000` is 1000000. */
const num = (text: string): number => Number(text.replaceAll(',', ''));

/** A README section: from its `## ` heading to the next one. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`The README has no section "## ${title}"`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The cells of each row of the first table in `text` that has a header starting `header`. */
function tableRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.startsWith(header));
  if (at === -1) throw new Error(`No table with the header "${header}" in the README`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    // Cells split on `|` not escaped as `\|`.
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** How the README writes a price in USDC atomic units: `$0.005`. */
function dollars(amount: number): string {
  const usd = amount / 1_000_000;
  const decimals = Math.max(3, (String(usd).split('.')[1] ?? '').length);
  return `$${usd.toFixed(decimals)}`;
}

const priceCell = (route: (typeof REGISTRY)[number]): string =>
  route.prices.map((price) => dollars(price.amount)).join(' / ');

function routeNamed(name: string): (typeof REGISTRY)[number] {
  const route = REGISTRY.find((r) => r.name === name);
  if (route === undefined)
    throw new Error(`The README names a route \`${name}\` the registry lacks`);
  return route;
}

/** Cheapest price of a route in credits: what a plain call costs a prepaid key. */
const credits = (name: string): number => creditsFor(routeNamed(name).prices[0]!.amount);

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

/**
 * The body of the block that starts at `from` (the first `{` after it), found by
 * counting braces outside strings, template literals and comments.
 */
function blockAt(source: string, from: number): string {
  const open = source.indexOf('{', source.indexOf('=>', from));
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') i = source.indexOf('\n', i);
    else if (c === '/' && source[i + 1] === '*') i = source.indexOf('*/', i) + 1;
    else if (c === "'" || c === '"' || c === '`') {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return source.slice(open, i + 1);
  }
  throw new Error(`Unbalanced block at ${from}`);
}

/** Tests that run only with `DATABASE_URL` (skipped on PGlite), per file. */
function postgresOnlyTests(): Record<string, number> {
  const gate =
    /\b(it|test|describe)\.(?:runIf\(DATABASE_URL !== null\)|skipIf\(DATABASE_URL === null\))/g;
  const testCall = /(?<![.\w])(?:it|test)(?:\.(?:only|concurrent|sequential))?\(/g;
  const counts: Record<string, number> = {};
  const dirs = ['apps', 'packages', 'bench'].map((d) => join(ROOT, d));
  for (const file of dirs.flatMap((d) => filesUnder(d, (p) => p.endsWith('.test.ts')))) {
    const source = readFileSync(file, 'utf8');
    let count = 0;
    for (const match of source.matchAll(gate)) {
      count +=
        match[1] === 'describe' ? [...blockAt(source, match.index).matchAll(testCall)].length : 1;
    }
    if (count > 0) counts[relative(ROOT, file)] = count;
  }
  return counts;
}

describe('the route table', () => {
  const rows = tableRows(section('Routes'), '| route | price | what |');
  const paid = rows
    .map((cells) => ({ cells, path: /^`GET (\/buy\/[a-z0-9-]+)/.exec(cells[0] ?? '')?.[1] }))
    .filter((row) => row.path !== undefined && row.path !== '/buy/signal');

  it('lists every paid route of the registry, in its order, with its prices and title', () => {
    const problems: string[] = [];
    const rowFor = (route: (typeof REGISTRY)[number]) =>
      `| \`GET ${route.path}?…\` | ${priceCell(route)} | **${route.title}**: … |`;
    const paths = REGISTRY.map((route) => route.path);
    REGISTRY.forEach((route, i) => {
      const row = paid.find((r) => r.path === route.path);
      if (row === undefined) {
        const where = i === 0 ? 'first' : `after the row of \`${paths[i - 1]}\``;
        problems.push(`no row for ${route.path}; add it ${where}: ${rowFor(route)}`);
        return;
      }
      if (row.path !== `/buy/${route.name}`) {
        problems.push(`${route.path}: its MCP tool and ledger name is \`${route.name}\``);
      }
      if (row.cells[1] !== priceCell(route)) {
        problems.push(
          `${route.path}: price "${row.cells[1]}", the registry says "${priceCell(route)}"`,
        );
      }
      if (!row.cells[2]?.startsWith(`**${route.title}**: `)) {
        problems.push(
          `${route.path}: "what" should start with **${route.title}**: (the route's title)`,
        );
      }
    });
    for (const row of paid) {
      if (!paths.includes(row.path!)) {
        problems.push(`the row of ${row.path} names no route of the registry: remove it`);
      }
    }
    const listed = paid.map((row) => row.path!).filter((path) => paths.includes(path));
    const order = paths.filter((path) => listed.includes(path));
    if (listed.join() !== order.join()) {
      problems.push(`the rows are not in the registry's order, which is: ${order.join(', ')}`);
    }
    expect(problems).toStrictEqual([]);
  });

  it('quotes the limits the products and the key routes enforce', () => {
    const [perHour] = stated(/mint a key \((\d+) per IP per hour\)/, 'the key issuance cap');
    expect(num(perHour!)).toBe(KEYS_PER_IP_PER_HOUR);
    const [min, max] = stated(/credit pack, \$(\d+) to \$(\d+)/, 'the top-up range');
    expect([num(min!), num(max!)]).toStrictEqual([TOPUP_MIN_USD, TOPUP_MAX_USD]);
    const [days] = stated(/per UTC day, last (\d+) days/, 'the usage history length');
    expect(num(days!)).toBe(USAGE_DAYS);
    const [urls, fetches] = stated(/at most ([\d,]+) URLs and (\d+) fetches/, "the map's caps");
    expect([num(urls!), num(fetches!)]).toStrictEqual([MAP_MAX_URLS, MAP_MAX_FETCHES]);
    const [pages] = stated(/crawl of at most (\d+) pages/, "the crawl's page cap");
    expect(num(pages!)).toBe(CRAWL_MAX_PAGES);
    const [sweep] = stated(/A sweep every (\d+) s/, 'how often the sweep runs');
    expect(num(sweep!) * 1000).toBe(SWEEP_INTERVAL_MS);
  });
});

describe('the counts', () => {
  it('one MCP tool per paid route', () => {
    const [tools] = stated(/one tool per paid route \((\d+)/, 'how many MCP tools there are');
    expect(num(tools!)).toBe(REGISTRY.length);
  });

  it('the fixture pages', () => {
    const dir = join(ROOT, 'fixtures/pages');
    const pages = readdirSync(dir).filter((name) => {
      try {
        return statSync(join(dir, name, 'page.html')).isFile();
      } catch {
        return false;
      }
    });
    const [count] = stated(
      /\(fixtures\/pages\) \| (\d+) realistic pages/,
      'how many pages fixtures/pages holds',
    );
    expect(num(count!)).toBe(pages.length);
  });

  it('the benchmarks: one per bench/*.bench.ts, each a name of `--only`', () => {
    const files = readdirSync(join(ROOT, 'bench')).filter((name) => name.endsWith('.bench.ts'));
    const run = readFileSync(join(ROOT, 'bench/run.ts'), 'utf8');
    const names = [...run.matchAll(/only === '([a-z0-9-]+)'/g)].map((m) => m[1]!);
    const unique = [...new Set(names)];
    const [count] = stated(
      /bench\s+# the (\d+) benchmarks of bench\//,
      'how many benchmarks there are',
    );
    expect(num(count!)).toBe(files.length);
    expect(unique).toHaveLength(files.length);
    // bench/README.md lists the names `--only` takes (extraction on its own line).
    const benchReadme = readFileSync(join(ROOT, 'bench/README.md'), 'utf8');
    const listed = /one benchmark: ([a-z0-9, -]+) or ([a-z0-9-]+)\n/.exec(benchReadme);
    expect(listed, 'bench/README.md: "--only=html   # one benchmark: …"').not.toBeNull();
    const inReadme = [...listed![1]!.split(', '), listed![2]!, 'extraction'];
    expect(inReadme.toSorted()).toStrictEqual(unique.toSorted());
  });

  it('the tests that need PostgreSQL', () => {
    const counts = postgresOnlyTests();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const [count] = stated(
      /\n(\w+) tests need PostgreSQL and are skipped on PGlite/,
      'how many tests need PostgreSQL',
    );
    const words = [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
    ];
    expect({ stated: words.indexOf(count!.toLowerCase()), counts }).toStrictEqual({
      stated: total,
      counts,
    });
  });
});

describe('versions', () => {
  it('pnpm as package.json pins it, and the Node major it declares', () => {
    const pinned = rootPkg.packageManager.split('@')[1];
    const used = [...README.matchAll(/pnpm@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(0);
    expect(new Set(used)).toStrictEqual(new Set([pinned]));
    const major = /(\d+)/.exec(rootPkg.engines.node)![1];
    expect(stated(/fresh Linux machine with Node (\d+)/, 'the Node version')[0]).toBe(major);
  });

  it("the quick starts' npm installs: the versions the server's tests run them with", () => {
    const deps: Record<string, string> = {
      ...serverPkg.dependencies,
      ...serverPkg.devDependencies,
    };
    const installs = [...README.matchAll(/`npm install ([^`]+)`/g)].flatMap((m) =>
      m[1]!.split(' '),
    );
    expect(installs.length).toBeGreaterThan(0);
    for (const spec of installs) {
      const at = spec.lastIndexOf('@');
      expect(`${spec.slice(0, at)}@${deps[spec.slice(0, at)]}`).toBe(spec);
    }
  });
});

describe('plans and money', () => {
  it('the plan table is the tier table', () => {
    const plans = tierPlans();
    const rows = tableRows(README, '| plan | key | included |');
    expect(rows.map((cells) => cells[0])).toStrictEqual([...TIERS]);
    for (const [tier, key, included, perMinute, inFlight, monthly] of rows) {
      const plan = plans[tier as keyof typeof plans];
      const firstNumber = /^([\d,]+)/.exec(included!)?.[1];
      expect({
        tier,
        key,
        included: firstNumber === undefined ? null : num(firstNumber),
      }).toStrictEqual({
        tier,
        key: plan.env === 'test' ? '`mk_test_`' : '`mk_live_`',
        included: plan.included,
      });
      expect([num(perMinute!), num(inFlight!), monthly]).toStrictEqual([
        plan.perMinute,
        plan.inFlight,
        `$${plan.monthlyUsd}`,
      ]);
    }
    const sandbox = plans.sandbox;
    const [calls, perMinute] = stated(
      /\(sandbox: (\d+) calls, (\d+) a minute\)/,
      'the sandbox in the walk-through',
    );
    expect([num(calls!), num(perMinute!)]).toStrictEqual([sandbox.included, sandbox.perMinute]);
    expect(num(stated(/The sandbox allows (\d+) calls a minute/, 'the sandbox rate')[0]!)).toBe(
      sandbox.perMinute,
    );
  });

  it('a credit, and what the walk-through spent', () => {
    const [credit] = stated(/1 credit = \$(\d+(?:\.\d+)?)/, 'what a credit is');
    expect(num(credit!)).toBe(UNITS_PER_CREDIT / 1_000_000);

    const [granted] = stated(/granted (\d+) credits to/, 'the credits the walk-through grants');
    const [list, total] = stated(
      /price in credits: ([^=]+) = (\d+):/,
      "the walk-through's spending",
    );
    const spent = list!
      .replace(/\s+/g, ' ')
      .split(', ')
      .map((term) => {
        const [, name, amounts] = /^(\w+) ([\d +]+)$/.exec(term.trim())!;
        const each = amounts!.split(' + ').map(num);
        for (const amount of each) expect(amount, `${name} costs`).toBe(credits(name!));
        return each;
      });
    const sum = spent.flat().reduce((a, b) => a + b, 0);
    expect(num(total!)).toBe(sum);
    const [calls, left] = stated(
      /\{"tier":"prepaid","calls":(\d+),"credits":(\d+)\}/,
      'the balance after the walk-through',
    );
    expect([num(calls!), num(left!)]).toStrictEqual([spent.flat().length, num(granted!) - sum]);

    const [map, crawl] = stated(
      /The map cost (\d+) credits and the crawl (\d+)/,
      'what map and crawl cost',
    );
    expect([num(map!), num(crawl!)]).toStrictEqual([credits('map'), credits('crawl')]);
    const [seo, pdf] = stated(
      /SEO audit and PDF text \([^)]*\)\s+cost (\d+) and (\d+) credits/,
      'what seo and pdf cost',
    );
    expect([num(seo!), num(pdf!)]).toStrictEqual([credits('seo'), credits('pdf')]);
    const [audit] = stated(/four charged at (\d+) credits/, 'what dns and tls cost');
    expect([credits('dns'), credits('tls')]).toStrictEqual([num(audit!), num(audit!)]);
  });

  it('the 402 of /buy/notarize and the development stack', () => {
    const notarize = routeNamed('notarize').prices[0]!.amount;
    expect(stated(/\/buy\/notarize costs (\$[\d.]+) per call/, 'the 402 message')[0]).toBe(
      dollars(notarize),
    );
    expect(num(stated(/"amount":"(\d+)"/, 'the 402 amount')[0]!)).toBe(notarize);
    expect(num(stated(/paid\s+([\d.]+) test USDC/, 'what pay paid')[0]!)).toBe(
      notarize / 1_000_000,
    );

    const [chain] = stated(/local chain \(chain id (\d+), Base's\)/, 'the local chain id');
    expect(`eip155:${chain}`).toBe(LOCAL_PAYMENTS_NETWORK);
    const [address] = stated(
      /placed at USDC's address\n\(`(0x[0-9a-fA-F]{40})`\)/,
      "USDC's address",
    );
    expect([address, address]).toStrictEqual([BASE_USDC, DEV_TOKEN_ADDRESS]);
    const usdc = Number(DEV_PAYER_START_BALANCE) / 1_000_000;
    expect(num(stated(/wallet funded with ([\d,]+) test USDC/, "the payer's funds")[0]!)).toBe(
      usdc,
    );
    expect(
      num(stated(/holds ([\d.]+) USDC \(test money/, "the payer's balance at start")[0]!),
    ).toBe(usdc);
  });
});

describe('configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-readme-'));
  const config = loadConfig({ NODE_ENV: 'development' }, dir);
  /** Where each default of the configuration table lives in the loaded configuration. */
  const DEFAULTS: Record<string, (c: Config) => unknown> = {
    PORT: (c) => c.port,
    HOST: (c) => c.host,
    // Unset, the base URL is derived from where the server listens.
    PUBLIC_BASE_URL: (c) => c.publicBaseUrl ?? defaultBaseUrl('HOST', 'PORT' as unknown as number),
    DATA_DIR: (c) => relative(dir, c.dataDir),
    TLS_AUDIT_PORT: (c) => c.tlsAuditPort,
    TRUST_PROXY: (c) => c.trustProxy,
    X402_NETWORK: (c) => c.payment.network,
    X402_LEGACY_NETWORK_NAMES: (c) => c.payment.legacyNetworkNames,
    LOCAL_CHAIN_PORT: () => DEFAULT_LOCAL_CHAIN_PORT,
    LOCAL_FACILITATOR_PORT: () => DEFAULT_LOCAL_FACILITATOR_PORT,
    FACILITATOR_TIMEOUT_MS: (c) => c.payment.facilitatorTimeoutMs,
    ENTERPRISE_PER_MINUTE: (c) => c.enterprisePerMinute,
    RESERVATION_TTL_SECONDS: (c) => c.reservationTtlSeconds,
    PRODUCT_IDLE_MS: (c) => c.products.idleMs,
    CALL_DEADLINE_MS: (c) => c.callDeadlineMs,
    PRODUCT_DEADLINE_MS: (c) => c.products.deadlineMs,
    PRODUCT_HEAP_MB: (c) => c.products.heapMb,
    LOG_LEVEL: (c) => c.logLevel,
    NODE_ENV: (c) => c.env,
  };
  const rows = tableRows(section('Configuration'), '| variable | default | meaning |');

  it('every default the table states is the one loadConfig applies', () => {
    const problems: string[] = [];
    for (const [names, defaults] of rows) {
      const vars = [...names!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
      const values = defaults!.split(' / ');
      if (vars.length !== values.length) continue;
      vars.forEach((name, i) => {
        const value = /^`([^`]*)`/.exec(values[i]!)?.[1];
        if (value === undefined) return;
        const read = DEFAULTS[name];
        if (read === undefined)
          problems.push(`${name}: the table says \`${value}\`; map it in DEFAULTS`);
        else if (String(read(config)) !== value) {
          problems.push(
            `${name}: the table says \`${value}\`, loadConfig gives \`${String(read(config))}\``,
          );
        }
      });
    }
    expect(problems).toStrictEqual([]);
  });

  it('the product threads, the admin token, the element cap and the fetch budget', () => {
    const [least, most] = stated(
      /`PRODUCT_THREADS` \| cores − 1, from (\d+) to (\d+)/,
      'the default threads',
    );
    expect([
      defaultProductThreads(1),
      defaultProductThreads(4),
      defaultProductThreads(64),
    ]).toStrictEqual([num(least!), 3, num(most!)]);
    const [chars] = stated(/bearer token \((\d+)\+ characters\)/, "the admin token's length");
    expect(() => loadConfig({ ADMIN_TOKEN: 'a'.repeat(num(chars!) - 1) }, dir)).toThrow(
      /ADMIN_TOKEN/,
    );
    expect(loadConfig({ ADMIN_TOKEN: 'a'.repeat(num(chars!)) }, dir).adminToken).toHaveLength(
      num(chars!),
    );
    expect(num(stated(/opens more than ([\d,]+) elements/, 'the element cap')[0]!)).toBe(
      HTML_MAX_ELEMENTS,
    );
    expect(num(stated(/gets what is left, at most (\d+) s\)/, "a fetch's own bound")[0]!)).toBe(
      DEFAULT_TIMEOUT_MS / 1000,
    );
  });

  it('the drain bound, compression and the draining retry', () => {
    const [margin, bound] = stated(
      /`CALL_DEADLINE_MS` \+ 2 × `FACILITATOR_TIMEOUT_MS` \+ (\d+) s \(([\d.]+) s by default/,
      'the drain bound',
    );
    const ms =
      config.callDeadlineMs + 2 * config.payment.facilitatorTimeoutMs + num(margin!) * 1000;
    expect(num(bound!)).toBe(ms / 1000);
    expect(num(stated(/Answers of (\d+) KiB and more/, 'the compression threshold')[0]!)).toBe(
      COMPRESS_FROM_BYTES / 1024,
    );
    expect(num(stated(/`draining` with `Retry-After: (\d+)`/, "the drain's Retry-After")[0]!)).toBe(
      DRAINING_RETRY_SECONDS,
    );
  });
});
