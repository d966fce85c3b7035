import { crawlBenchmark } from './crawl.bench.js';
import { extractionBenchmark } from './extraction.bench.js';
import { hostAuditsBenchmark } from './host-audits.bench.js';
import { htmlBenchmark } from './html.bench.js';
import { jobEngineBenchmark } from './job-engine.bench.js';
import { jobsBenchmark } from './jobs.bench.js';
import { ledgerBenchmark } from './ledger.bench.js';
import { mapBenchmark } from './map.bench.js';
import { memoryBenchmark } from './memory.bench.js';
import { pdfBenchmark } from './pdf.bench.js';
import { robotsBenchmark } from './robots.bench.js';
import { scaleBenchmark } from './scale.bench.js';
import { seoBenchmark } from './seo.bench.js';
import { serviceBenchmark } from './service.bench.js';
import { signBenchmark } from './sign.bench.js';
import { startupBenchmark } from './startup.bench.js';
import { validateBenchmark } from './validate.bench.js';
import { verdictBenchmark } from './verdict.bench.js';
import { x402Benchmark } from './x402.bench.js';
import { x402BatchBenchmark } from './x402-batch.bench.js';
import { x402CoreBenchmark } from './x402-core.bench.js';

/**
 * Run every benchmark and print its numbers next to the alternative a user would
 * pick. `--quick` shortens each measurement; `--check` exits 1 when a target is missed;
 * `--only=<name>` runs one benchmark (sign, html, robots, validate, map, crawl, pdf, seo, service, scale, ledger, x402, x402-batch, x402-core, job-engine, jobs, tls, memory, startup, extraction, verdict); `--profile`
 * adds CPU profiles of the service's key door to the service benchmark;
 * `--upstream-delay-ms=<N>` makes the service benchmark's loopback upstream answer N ms
 * late, as a remote site would. `--only=extraction <dir> [--format=readability|trafilatura]`
 * scores main-content extraction on a directory of public evaluation pages (never run
 * without `--only`: the pages live outside the repository); `--sample=N` reads N pages
 * spread evenly over the set. `--only=verdict [<dir>...]` measures page verdicts on the
 * hand-built pages and on the public sets given (quality only, never timed).
 */
const argv = process.argv.slice(2).filter((a) => a !== '--');
const args = new Set(argv);
const positional = argv.filter((a) => !a.startsWith('--'));
const quick = args.has('--quick');
const time = quick ? 500 : 3000;
const only = [...args].find((a) => a.startsWith('--only='))?.slice('--only='.length);
const check = args.has('--check');
const delayArg = [...args].find((a) => a.startsWith('--upstream-delay-ms='));
const upstreamDelayMs = Number(delayArg?.slice('--upstream-delay-ms='.length) ?? 0);
if (!Number.isInteger(upstreamDelayMs) || upstreamDelayMs < 0) {
  throw new Error(`--upstream-delay-ms takes a whole number of ms, 0 or more: ${delayArg}`);
}

if (only === undefined || only === 'sign') {
  const sign = await signBenchmark({ time });
  if (check && sign.ratio > 1.2) {
    console.error(`signing target missed: ${sign.ratio.toFixed(3)}x > 1.20x`);
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'html') {
  const html = await htmlBenchmark({ quick });
  const missed = html.targets.filter((t) => t.met === false);
  if (check && missed.length > 0) {
    console.error(
      `HTML targets missed: ${missed.map((t) => `${t.name} (${t.measured})`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'robots') {
  const robots = await robotsBenchmark({ time });
  // Target: matching at least as fast as robots-parser (ours / theirs mean latency <= 1).
  if (check && robots.ratio > 1) {
    console.error(`robots target missed: ${robots.ratio.toFixed(3)}x of robots-parser's time`);
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'validate') {
  // Informative: the service's validation next to ajv used directly (no target).
  await validateBenchmark({ time });
}

if (only === undefined || only === 'map') {
  // Informative: /buy/map's walk next to sitemapper on the same loopback site (no target).
  await mapBenchmark({ time });
}

if (only === undefined || only === 'crawl') {
  // Informative: /buy/crawl's walk next to Crawlee's CheerioCrawler on one loopback site.
  await crawlBenchmark({ time });
}

if (only === undefined || only === 'pdf') {
  // Informative: the pdf product next to pdf.js used directly (no target).
  await pdfBenchmark({ time });
}

if (only === undefined || only === 'seo') {
  // Informative: the SEO audit next to the parse it starts with (no peer, no target).
  await seoBenchmark({ time });
}

if (only === undefined || only === 'service') {
  // Needs wrk and PostgreSQL (DATABASE_URL); without them it prints why and is skipped.
  const service = await serviceBenchmark({
    quick,
    profile: args.has('--profile'),
    upstreamDelayMs,
  });
  const missed = service.targets.filter((t) => t.met === false);
  if (check && missed.length > 0) {
    console.error(
      `service targets missed: ${missed.map((t) => `${t.name} (${t.measured})`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'scale') {
  // Needs PostgreSQL (DATABASE_URL): 2,000 key-door calls at once against a 1 s upstream,
  // next to a bare Express + undici proxy.
  const scale = await scaleBenchmark({ quick, profile: args.has('--profile') });
  const missed = scale.targets.filter((t) => t.met === false);
  if (check && missed.length > 0) {
    console.error(
      `scale targets missed: ${missed.map((t) => `${t.name} (${t.measured})`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'ledger') {
  // Informative: calls metered per second by one PostgreSQL primary, with pgbench running
  // the service's meter statement (needs DATABASE_URL and pgbench).
  await ledgerBenchmark({ quick });
}

if (only === undefined || only === 'tls') {
  // Informative: the tls and dns audits next to plain tls.connect and node:dns (no target).
  await hostAuditsBenchmark({ time });
}

if (only === undefined || only === 'x402') {
  // Informative: an x402-paid call next to a key-door call on the same route (no target).
  // Starts the development payment stack; PostgreSQL in DATABASE_URL if set, else PGlite.
  await x402Benchmark({ quick });
}

if (only === undefined || only === 'x402-batch') {
  // x402 batch-settlement: paid calls/s from one payer and p50 over the key door (issue 28's
  // goals), the books checked against the chain. Starts the development payment stack.
  await x402BatchBenchmark({ quick });
}

if (only === undefined || only === 'x402-core') {
  // Informative: the x402 door's protocol core next to @x402/core's resource server, per
  // call and case by case (no chain; PostgreSQL in DATABASE_URL if set, else PGlite).
  await x402CoreBenchmark({ time });
}

if (only === undefined || only === 'job-engine') {
  // Informative: graphile-worker next to pg-boss as the crawl jobs' engine (PostgreSQL in
  // DATABASE_URL; without it, skipped).
  await jobEngineBenchmark({ quick });
}

if (only === undefined || only === 'jobs') {
  // Crawl jobs on the built server and PostgreSQL (DATABASE_URL; `pnpm build` first):
  // one worker process vs two, and a 10,000-page crawl next to Crawlee's CheerioCrawler.
  const jobs = await jobsBenchmark({ quick });
  const missed = jobs.targets.filter((t) => t.met === false);
  if (check && missed.length > 0) {
    console.error(
      `crawl-job targets missed: ${missed.map((t) => `${t.name} (${t.measured})`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'memory') {
  // The built server's RSS per call on hostile pages (run `pnpm build` first).
  const memory = await memoryBenchmark({ quick });
  if (check && !memory.met) {
    console.error('memory targets missed (see the table)');
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'startup') {
  // The built server's start (spawn to /healthz) and idle memory, on PostgreSQL
  // (DATABASE_URL) and PGlite, with the payment stack's process apart.
  const startup = await startupBenchmark({ quick });
  const missed = startup.targets.filter((t) => t.met === false);
  if (check && missed.length > 0) {
    console.error(
      `start-up targets missed: ${missed.map((t) => `${t.name} (${t.measured})`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

if (only === undefined || only === 'verdict') {
  // Quality only, no timing: the hand-built pages, then the public sets given.
  const verdicts = verdictBenchmark({ dirs: positional });
  if (check && !verdicts.met) {
    console.error('page verdict targets missed (see the table)');
    process.exitCode = 1;
  }
}

if (only === 'extraction') {
  const sampleArg = [...args].find((a) => a.startsWith('--sample='));
  const sample = sampleArg === undefined ? undefined : Number(sampleArg.slice('--sample='.length));
  if (sample !== undefined && (!Number.isInteger(sample) || sample < 1)) {
    throw new Error(`--sample takes a whole number of pages, 1 or more: ${sampleArg}`);
  }
  const extraction = await extractionBenchmark({
    dir: positional[0],
    format: [...args].find((a) => a.startsWith('--format='))?.slice('--format='.length),
    quick,
    sample,
  });
  if (check && extraction !== null && !extraction.met) {
    console.error('extraction targets missed (see the table)');
    process.exitCode = 1;
  }
}
