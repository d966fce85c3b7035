/**
 * One thing to time over a corpus: `run` handles one page and returns the size of
 * what it produced (characters), or null when it reported a failure for that page.
 */
export interface CorpusTask<P> {
  readonly name: string;
  readonly run: ((page: P) => number | null) | ((page: P) => Promise<number | null>);
  /** True when `run` returns a promise (awaited inside the timed region). */
  readonly async?: boolean;
}

/** Times of one task under one clock. */
export interface ClockTiming {
  /** Corpus bytes (10^6 B = 1 MB) / time of one pass, one value per measured pass. */
  readonly mbPerSecond: readonly number[];
  /** Time of one pass (ms), one value per measured pass. */
  readonly passMs: readonly number[];
  /** Per page: the median over passes of its time (ms). */
  readonly pageMs: readonly number[];
}

/**
 * The numbers of one task over the corpus, under two clocks: `wall` (performance.now)
 * and `cpu` (user + system CPU time of this process, `process.cpuUsage()`), which
 * other processes on a shared machine do not inflate.
 */
export interface CorpusTiming {
  readonly name: string;
  readonly wall: ClockTiming;
  readonly cpu: ClockTiming;
  /** Output size over the corpus from the warm-up (characters). */
  readonly outputChars: number;
  /** Pages the task handled without reporting a failure. */
  readonly okPages: number;
}

/** Options of {@link timeCorpus}. */
export interface TimeCorpusOptions {
  readonly warmup: number;
  readonly iterations: number;
}

/**
 * Time every task over every page. Passes are interleaved (task A, B, C, then A, B,
 * C again) so a noisy moment on a shared machine hits every task alike; warm-up
 * passes run first and are not counted. No garbage collection is forced between
 * passes: a forced full GC shrinks V8's young generation and made the next pass up to
 * eight times slower, which measures the harness, not the task. Each page is timed on its own with
 * `performance.now()` and `process.cpuUsage()`; a pass's time is the sum of its pages.
 */
export async function timeCorpus<P>(
  pages: readonly P[],
  bytesOf: (page: P) => number,
  tasks: readonly CorpusTask<P>[],
  options: TimeCorpusOptions,
): Promise<CorpusTiming[]> {
  const corpusBytes = pages.reduce((sum, page) => sum + bytesOf(page), 0);
  const state = tasks.map(() => ({
    passMs: [] as number[],
    pageMs: pages.map(() => [] as number[]),
    cpuPassMs: [] as number[],
    cpuPageMs: pages.map(() => [] as number[]),
    outputChars: 0,
    okPages: 0,
  }));

  for (let round = 0; round < options.warmup + options.iterations; round++) {
    const counted = round >= options.warmup;
    for (const [t, task] of tasks.entries()) {
      const s = state[t]!;
      let passMs = 0;
      let cpuPassMs = 0;
      for (const [p, page] of pages.entries()) {
        let produced: number | null;
        let elapsed: number;
        let cpu: NodeJS.CpuUsage;
        if (task.async) {
          const cpuStart = process.cpuUsage();
          const start = performance.now();
          produced = await task.run(page);
          elapsed = performance.now() - start;
          cpu = process.cpuUsage(cpuStart);
        } else {
          const cpuStart = process.cpuUsage();
          const start = performance.now();
          produced = task.run(page) as number | null;
          elapsed = performance.now() - start;
          cpu = process.cpuUsage(cpuStart);
        }
        const cpuMs = (cpu.user + cpu.system) / 1000;
        passMs += elapsed;
        cpuPassMs += cpuMs;
        if (counted) {
          s.pageMs[p]!.push(elapsed);
          s.cpuPageMs[p]!.push(cpuMs);
        }
        if (round === 0) {
          if (produced !== null) {
            s.okPages++;
            s.outputChars += produced;
          }
        }
      }
      if (counted) {
        s.passMs.push(passMs);
        s.cpuPassMs.push(cpuPassMs);
      }
    }
  }

  return tasks.map((task, t) => {
    const s = state[t]!;
    const clock = (passMs: number[], pageMs: number[][]): ClockTiming => ({
      passMs,
      mbPerSecond: passMs.map((ms) => corpusBytes / 1e6 / (ms / 1000)),
      pageMs: pageMs.map(median),
    });
    return {
      name: task.name,
      wall: clock(s.passMs, s.pageMs),
      cpu: clock(s.cpuPassMs, s.cpuPageMs),
      outputChars: s.outputChars,
      okPages: s.okPages,
    };
  });
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
