import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedDatabase, serveEmbedded } from '../src/db/database.js';

// The embedded database served on loopback: many connections share PGlite's one session,
// and each connection's statements and transactions stay its own.

let served: ServedDatabase;

beforeAll(async () => {
  served = await serveEmbedded({ url: null, dataDir: null, maxConnections: 12 });
  await served.db.exec('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
  await served.db.exec('INSERT INTO counter VALUES (1, 0)');
}, 60_000);
afterAll(() => served?.db.close());

describe('the embedded database behind its socket', () => {
  it('keeps each connection’s parameterised statements apart under load', async () => {
    // Statements of different parameter counts, so a Bind that met another
    // connection's Parse would be refused (08P01) or answer the other's values.
    const answers = await Promise.all(
      Array.from({ length: 3000 }, (_, i) => {
        const width = (i % 3) + 1;
        const params = Array.from({ length: width }, (_, k) => i * 10 + k);
        const columns = params.map((_, k) => `$${k + 1}::int AS c${k}`).join(', ');
        return served.db
          .query<Record<string, number>>(`SELECT ${columns}`, params)
          .then(({ rows }) => ({ params, row: rows[0] as Record<string, number> }));
      }),
    );
    for (const { params, row } of answers) {
      expect(Object.values(row)).toEqual(params);
    }
  }, 60_000);

  it('keeps a transaction to its connection while others run', async () => {
    const increments = Array.from({ length: 300 }, () =>
      served.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>(
          'SELECT n FROM counter WHERE id = $1 FOR UPDATE',
          [1],
        );
        await tx.query('UPDATE counter SET n = $2 WHERE id = $1', [1, (rows[0]?.n ?? 0) + 1]);
      }),
    );
    const reads = Array.from({ length: 300 }, (_, i) =>
      served.db.query<{ v: number }>('SELECT $1::int AS v', [i]).then(({ rows }) => rows[0]?.v),
    );
    const [, values] = await Promise.all([Promise.all(increments), Promise.all(reads)]);
    expect(values).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const { rows } = await served.db.query<{ n: number }>('SELECT n FROM counter');
    expect(rows[0]?.n).toBe(300);
  }, 60_000);

  it('rolls back what a connection left open when it went away', async () => {
    const tx = served.db.transaction(async (inner) => {
      await inner.query('UPDATE counter SET n = -1 WHERE id = $1', [1]);
      throw new Error('give up');
    });
    await expect(tx).rejects.toThrow('give up');
    const { rows } = await served.db.query<{ n: number }>('SELECT n FROM counter');
    expect(rows[0]?.n).toBe(300);
  });
});
