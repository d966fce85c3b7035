import {
  type NoteVerifier,
  openNote,
  proveConsistency,
  TlogError,
  toBase64,
} from '@storefront/tlog';
import type { Queryable } from '../db/database.js';
import { readHashes } from './store.js';
import { type LogWitness, witnessId } from './witness-config.js';

/** What one submission came to. */
export type Witnessed =
  | { readonly kind: 'cosigned'; readonly size: number; readonly line: string }
  | { readonly kind: 'already'; readonly size: number }
  | { readonly kind: 'refused'; readonly status: number; readonly reason: string };

/** How long a witness has to answer one submission. */
export const WITNESS_TIMEOUT_MS = 5_000;

/** The largest tree size the witness cosigned for this log, as the log recorded it (0: none). */
async function lastCosigned(db: Queryable, id: string): Promise<number> {
  const { rows } = await db.query<{ size: string | number | null }>(
    'SELECT max(size) AS size FROM tlog_cosignatures WHERE witness = $1',
    [id],
    'tlog_cosigned_last',
  );
  return Number(rows[0]?.size ?? 0);
}

/**
 * Submit the log's checkpoint of tree size `size` to `witness` (C2SP tlog-witness
 * `add-checkpoint`), with a consistency proof from the last size it cosigned, and record
 * its cosignature (`tlog_cosignatures`) once it verifies against the witness's key. A 409
 * (the witness remembers another size: its state was reset, or another log instance
 * submitted meanwhile) is answered once more from the size it names.
 */
export async function submitCheckpoint(
  db: Queryable,
  logVerifier: NoteVerifier,
  witness: LogWitness,
  checkpoint: string,
  size: number,
): Promise<Witnessed> {
  const id = witnessId(witness);
  let old = await lastCosigned(db, id);
  if (old >= size) {
    const { rows } = await db.query(
      'SELECT 1 FROM tlog_cosignatures WHERE witness = $1 AND size = $2',
      [id, size],
      'tlog_cosigned_at',
    );
    if (rows.length > 0) return { kind: 'already', size };
    if (old > size) old = 0;
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const proof =
      old === 0 ? [] : await proveConsistency(old, size, (nodes) => readHashes(db, nodes));
    const body = `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${checkpoint}`;
    const answer = await fetch(`${witness.url}/add-checkpoint`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(WITNESS_TIMEOUT_MS),
    });
    const text = await answer.text();
    if (answer.status === 409) {
      const theirs = /^(0|[1-9][0-9]*)\n$/.exec(text);
      const at = theirs === null ? Number.NaN : Number(theirs[1]);
      if (attempt === 0 && Number.isSafeInteger(at) && at <= size && at !== old) {
        old = at;
        continue;
      }
      return { kind: 'refused', status: 409, reason: `the witness is at size ${text.trim()}` };
    }
    if (answer.status !== 200) {
      return { kind: 'refused', status: answer.status, reason: text.trim().slice(0, 200) };
    }
    const lines = text.split('\n').filter((line) => line.startsWith(`— ${witness.verifier.name} `));
    const { name, keyId } = witness.verifier;
    for (const line of lines) {
      let opened: ReturnType<typeof openNote>;
      try {
        opened = openNote(`${checkpoint}${line}\n`, [logVerifier, witness.verifier]);
      } catch (error) {
        if (error instanceof TlogError) continue;
        throw error;
      }
      if (!opened.signatures.some((s) => s.name === name && s.keyId === keyId)) continue;
      await db.query(
        `INSERT INTO tlog_cosignatures (witness, size, line) VALUES ($1, $2, $3)
         ON CONFLICT (witness, size) DO UPDATE SET line = EXCLUDED.line`,
        [id, size, `${line}\n`],
        'tlog_cosigned_add',
      );
      return { kind: 'cosigned', size, line: `${line}\n` };
    }
    return { kind: 'refused', status: 200, reason: 'no cosignature that verifies against its key' };
  }
  return { kind: 'refused', status: 409, reason: 'the witness moved while the log submitted' };
}

/** The cosignature lines recorded for the checkpoint of tree size `size`, by witness. */
export async function cosignaturesAt(db: Queryable, size: number): Promise<string> {
  const { rows } = await db.query<{ line: string }>(
    'SELECT line FROM tlog_cosignatures WHERE size = $1 ORDER BY witness',
    [size],
    'tlog_cosignatures_at',
  );
  return rows.map((row) => row.line).join('');
}
