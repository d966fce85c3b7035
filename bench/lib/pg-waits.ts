/** Something that runs one SQL statement (the server's `Database` fits). */
export interface SqlRunner {
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[] }>;
}

/** How the service's PostgreSQL connections spent a run, by state and wait event. */
export interface WaitSummary {
  readonly samples: number;
  /** State or wait event, and the mean number of connections in it per sample. */
  readonly states: readonly { readonly state: string; readonly connections: number }[];
}

/**
 * Sample `pg_stat_activity` every `intervalMs` while `work` runs, counting the
 * connections whose `application_name` is `applicationName` by what they are doing:
 * running a statement on CPU, waiting (lock, WAL flush, …), or idle, which means
 * waiting for the service to send the next statement.
 */
export async function sampleWaits<T>(
  db: SqlRunner,
  applicationName: string,
  work: () => Promise<T>,
  intervalMs = 10,
): Promise<{ result: T; waits: WaitSummary }> {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { rows } = await db.query<{ state: string; n: string | number }>(
        `SELECT CASE
             WHEN state = 'active' AND wait_event IS NULL THEN 'active: on CPU'
             WHEN state = 'active' THEN 'active: waiting on ' || wait_event_type || ':' || wait_event
             ELSE coalesce(state, 'unknown')
           END AS state, count(*) AS n
           FROM pg_stat_activity WHERE application_name = $1 GROUP BY 1`,
        [applicationName],
      );
      samples++;
      for (const row of rows) counts.set(row.state, (counts.get(row.state) ?? 0) + Number(row.n));
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  try {
    const result = await work();
    return {
      result,
      waits: {
        samples,
        states: [...counts]
          .sort((a, b) => b[1] - a[1])
          .map(([state, n]) => ({ state, connections: samples === 0 ? 0 : n / samples })),
      },
    };
  } finally {
    running = false;
    await sampler;
  }
}
