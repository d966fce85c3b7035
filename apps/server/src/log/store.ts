import {
  appendLeaves,
  type Ed25519NoteKey,
  formatCheckpoint,
  leafHash,
  type NodeId,
  nodeHash,
  openCheckpoint,
  signNote,
  TILE_HEIGHT,
  TlogError,
} from '@storefront/tlog';
import type { Database, Queryable } from '../db/database.js';

/** Most pending entries one sequencer transaction moves into the log. */
export const SEQUENCE_BATCH = 4096;

/** The log's size and its current signed checkpoint (null before the first sequencing). */
export interface LogState {
  readonly size: number;
  readonly checkpoint: string | null;
}

/** What one sequencing did: entries appended and the log's size after; null: another sequencer ran. */
export type Sequenced = { readonly appended: number; readonly size: number } | null;

/** Whether `checkpoint` is signed by `key` under its origin (cached: checked once per note). */
const checked = new WeakMap<Ed25519NoteKey, string>();
function signedBy(checkpoint: string | null, key: Ed25519NoteKey): boolean {
  if (checkpoint === null) return false;
  if (checked.get(key) === checkpoint) return true;
  try {
    openCheckpoint(checkpoint, key.verifier);
  } catch (error) {
    if (error instanceof TlogError) return false;
    throw error;
  }
  checked.set(key, checkpoint);
  return true;
}

/**
 * Sequence the log once (docs/decisions.md, "A transparency log of every receipt"): in one
 * transaction, holding the log's state row (so one sequencer runs at a time across every
 * instance; another one skips), take the oldest pending entries, give them the next
 * indices, store the node hashes they complete and the entries, and sign the new
 * checkpoint with `key`. With nothing pending, a checkpoint is signed only when there is
 * none by `key` (the first start, or a new origin or key).
 */
export async function sequence(db: Database, key: Ed25519NoteKey): Promise<Sequenced> {
  return db.transaction(async (tx) => {
    const { rows: state } = await tx.query<{
      size: string | number;
      frontier: string[];
      checkpoint: string | null;
    }>(
      'SELECT size, frontier, checkpoint FROM tlog_state WHERE id = 1 FOR UPDATE SKIP LOCKED',
      [],
      'tlog_state_lock',
    );
    const current = state[0];
    if (current === undefined) return null;
    const size = Number(current.size);
    // Taken and deleted in one statement (this transaction commits or restores them all);
    // a row another transaction still holds is left for the next run.
    const { rows: taken } = await tx.query<{ id: string | number; entry: string }>(
      `DELETE FROM tlog_pending WHERE id IN (
         SELECT id FROM tlog_pending ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, entry`,
      [SEQUENCE_BATCH],
      'tlog_pending_take',
    );
    const pending = taken.sort((a, b) => Number(a.id) - Number(b.id));
    if (pending.length === 0 && signedBy(current.checkpoint, key)) return { appended: 0, size };
    const frontier = current.frontier.map((hex) => new Uint8Array(Buffer.from(hex, 'hex')));
    const entries = pending.map((row) => row.entry);
    const appended = appendLeaves(
      size,
      frontier,
      entries.map((entry) => leafHash(entry)),
    );
    if (pending.length > 0) {
      // Only the levels tiles hold: the others are hashed from them when read.
      const nodes = appended.nodes.filter((n) => n.level % TILE_HEIGHT === 0);
      await tx.query(
        `INSERT INTO tlog_hashes (level, idx, hash)
         SELECT l, i, decode(h, 'hex') FROM unnest($1::smallint[], $2::bigint[], $3::text[]) AS t (l, i, h)`,
        [
          nodes.map((n) => n.level),
          nodes.map((n) => n.index),
          nodes.map((n) => Buffer.from(n.hash).toString('hex')),
        ],
        'tlog_hashes_add',
      );
      // The entries as one string (see `pendingInsert`); their receipt hashes made by SQL.
      await tx.query(
        `INSERT INTO tlog_entries (idx, entry, receipt_hash)
         SELECT $1::bigint + t.n - 1, t.e, sha256(convert_to(t.e, 'UTF8'))
           FROM unnest(string_to_array($2::text, E'\\n')) WITH ORDINALITY AS t (e, n)`,
        [size, entries.join('\n')],
        'tlog_entries_add',
      );
    }
    const body = formatCheckpoint({
      origin: key.signer.name,
      size: appended.size,
      root: appended.root,
      extensions: [],
    });
    const checkpoint = signNote(body, [key.signer]);
    await tx.query(
      'UPDATE tlog_state SET size = $1, frontier = $2, checkpoint = $3 WHERE id = 1',
      [appended.size, appended.frontier.map((h) => Buffer.from(h).toString('hex')), checkpoint],
      'tlog_state_set',
    );
    await tx.query(
      `INSERT INTO tlog_checkpoints (size, checkpoint) VALUES ($1, $2)
       ON CONFLICT (size) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, signed_at = now()`,
      [appended.size, checkpoint],
      'tlog_checkpoint_add',
    );
    checked.set(key, checkpoint);
    return { appended: pending.length, size: appended.size };
  });
}

/** The log's size and current checkpoint. */
export async function logState(db: Queryable): Promise<LogState> {
  const { rows } = await db.query<{ size: string | number; checkpoint: string | null }>(
    'SELECT size, checkpoint FROM tlog_state WHERE id = 1',
    [],
    'tlog_state_read',
  );
  const row = rows[0];
  return { size: Number(row?.size ?? 0), checkpoint: row?.checkpoint ?? null };
}

/** The signed checkpoint of tree size `size`, when one was signed. */
export async function checkpointAt(db: Queryable, size: number): Promise<string | null> {
  const { rows } = await db.query<{ checkpoint: string }>(
    'SELECT checkpoint FROM tlog_checkpoints WHERE size = $1',
    [size],
    'tlog_checkpoint_at',
  );
  return rows[0]?.checkpoint ?? null;
}

/**
 * The hashes of `nodes`, in order (a `HashReader`): a node at a tile level is stored; one
 * between two tile levels is hashed from the stored nodes it spans at the level below it.
 * Throws `missing_hash` on a gap.
 */
export async function readHashes(db: Queryable, nodes: readonly NodeId[]): Promise<Uint8Array[]> {
  if (nodes.length === 0) return [];
  // Each node as the run of stored nodes it spans.
  const runs = nodes.map(({ level, index }) => {
    const base = level - (level % TILE_HEIGHT);
    const span = 2 ** (level - base);
    return { level: base, first: index * span, count: span };
  });
  const levels: number[] = [];
  const indices: number[] = [];
  for (const run of runs) {
    for (let i = 0; i < run.count; i++) {
      levels.push(run.level);
      indices.push(run.first + i);
    }
  }
  const { rows } = await db.query<{ l: number; i: string | number; hash: string }>(
    `SELECT h.level AS l, h.idx AS i, encode(h.hash, 'hex') AS hash
       FROM unnest($1::smallint[], $2::bigint[]) AS t (l, i)
       JOIN tlog_hashes h ON h.level = t.l AND h.idx = t.i`,
    [levels, indices],
    'tlog_hashes_read',
  );
  const stored = new Map<string, Uint8Array>();
  for (const row of rows) {
    stored.set(`${row.l}/${row.i}`, new Uint8Array(Buffer.from(row.hash, 'hex')));
  }
  return runs.map((run, n) => {
    let level: Uint8Array[] = [];
    for (let i = 0; i < run.count; i++) {
      const hash = stored.get(`${run.level}/${run.first + i}`);
      if (hash === undefined) {
        const { level: l, index } = nodes[n] as NodeId;
        throw new TlogError('missing_hash', `the log holds no hash at level ${l}, index ${index}`);
      }
      level.push(hash);
    }
    // A perfect subtree: pair by pair, up to its root.
    while (level.length > 1) {
      const up: Uint8Array[] = [];
      for (let i = 0; i < level.length; i += 2) {
        up.push(nodeHash(level[i] as Uint8Array, level[i + 1] as Uint8Array));
      }
      level = up;
    }
    return level[0] as Uint8Array;
  });
}

/** The `count` stored hashes of `level` from `first` on, concatenated (a tile's bytes). */
export async function hashRun(
  db: Queryable,
  level: number,
  first: number,
  count: number,
): Promise<Buffer> {
  const { rows } = await db.query<{ hash: string }>(
    `SELECT encode(hash, 'hex') AS hash FROM tlog_hashes
      WHERE level = $1 AND idx >= $2 AND idx < $3 ORDER BY idx`,
    [level, first, first + count],
    'tlog_hash_run',
  );
  return Buffer.concat(rows.map((row) => Buffer.from(row.hash, 'hex')));
}

/** The entries from index `first`, `count` of them, in order. */
export async function entryRun(db: Queryable, first: number, count: number): Promise<string[]> {
  const { rows } = await db.query<{ entry: string }>(
    'SELECT entry FROM tlog_entries WHERE idx >= $1 AND idx < $2 ORDER BY idx',
    [first, first + count],
    'tlog_entry_run',
  );
  return rows.map((row) => row.entry);
}

/** The first entry whose receipt hash (SHA-256 of the entry) is `hash` (64 hex digits). */
export async function findEntry(
  db: Queryable,
  hash: string,
): Promise<{ readonly index: number; readonly entry: string } | null> {
  const { rows } = await db.query<{ idx: string | number; entry: string }>(
    `SELECT idx, entry FROM tlog_entries WHERE receipt_hash = decode($1, 'hex') ORDER BY idx LIMIT 1`,
    [hash],
    'tlog_entry_find',
  );
  const row = rows[0];
  return row === undefined ? null : { index: Number(row.idx), entry: row.entry };
}

/** Whether an entry whose receipt hash is `hash` waits to be sequenced. */
export async function isPending(db: Queryable, hash: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM tlog_pending WHERE encode(sha256(convert_to(entry, 'UTF8')), 'hex') = $1 LIMIT 1`,
    [hash],
    'tlog_pending_find',
  );
  return rows.length > 0;
}
