import type { Bench } from 'tinybench';

/** One measured task: throughput and latency percentiles. */
export interface Measured {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: number;
}

/** Pull the numbers out of a finished tinybench run. */
export function measured(bench: Bench): Measured[] {
  return bench.tasks.map((task) => {
    const result = task.result as unknown as {
      latency?: {
        mean: number;
        p50: number;
        p99: number;
        samplesCount?: number;
        samples?: number[];
      };
      throughput?: { mean: number };
      error?: unknown;
    };
    if (!result.latency || !result.throughput) {
      throw new Error(`Task ${task.name} did not complete: ${String(result.error ?? 'no result')}`);
    }
    return {
      name: task.name,
      opsPerSecond: result.throughput.mean,
      meanMs: result.latency.mean,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      samples: result.latency.samplesCount ?? result.latency.samples?.length ?? 0,
    };
  });
}

/** Print rows side by side as a fixed-width table. */
export function printTable(title: string, rows: readonly Measured[]): void {
  const header = ['task', 'ops/s', 'mean µs', 'p50 µs', 'p99 µs', 'samples'];
  const body = rows.map((r) => [
    r.name,
    r.opsPerSecond.toFixed(0),
    (r.meanMs * 1000).toFixed(1),
    (r.p50Ms * 1000).toFixed(1),
    (r.p99Ms * 1000).toFixed(1),
    String(r.samples),
  ]);
  printColumns(title, header, body);
}

/**
 * Print any rows of cells as a fixed-width table: the first `leftColumns` columns are
 * left-aligned (names), the rest right-aligned (numbers).
 */
export function printColumns(
  title: string,
  header: readonly string[],
  body: readonly (readonly string[])[],
  leftColumns = 1,
): void {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) =>
        i < leftColumns ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number),
      )
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

/** The machine the numbers came from. */
export function machine(): string {
  return `node ${process.version}, ${process.platform}/${process.arch}`;
}
