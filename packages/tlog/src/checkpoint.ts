import { TlogError } from './errors.js';
import { fromBase64, HASH_SIZE, toBase64 } from './hash.js';
import { type NoteVerifier, type OpenedNote, openNote } from './note.js';

/** A checkpoint body (C2SP tlog-checkpoint): the log's origin, its size and root. */
export interface Checkpoint {
  /** The log's unique identity, conventionally a schema-less URL (`example.com/log`). */
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
  /** Extension lines after the root (opaque, non-empty). */
  readonly extensions: readonly string[];
}

/** The note text of a checkpoint: origin, decimal size, base64 root, extensions; one per line. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, root, extensions } = checkpoint;
  if (origin === '' || origin.includes('\n')) {
    throw new TlogError('invalid_argument', 'a checkpoint origin is one non-empty line');
  }
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new TlogError('invalid_argument', `a checkpoint size is an integer ≥ 0, not ${size}`);
  }
  if (root.length !== HASH_SIZE) {
    throw new TlogError(
      'invalid_argument',
      `a root hash has ${HASH_SIZE} bytes, not ${root.length}`,
    );
  }
  for (const line of extensions) {
    if (line === '' || line.includes('\n')) {
      throw new TlogError('invalid_argument', 'an extension is one non-empty line');
    }
  }
  return [origin, String(size), toBase64(root), ...extensions].map((line) => `${line}\n`).join('');
}

/** Parses a checkpoint body (the text of its note); throws `malformed_checkpoint`. */
export function parseCheckpoint(text: string): Checkpoint {
  const bad = (why: string) => new TlogError('malformed_checkpoint', `not a checkpoint: ${why}`);
  if (!text.endsWith('\n')) throw bad('the text ends in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw bad('fewer than three lines');
  const [origin, sizeText, rootText, ...extensions] = lines as [
    string,
    string,
    string,
    ...string[],
  ];
  if (origin === '') throw bad('an empty origin');
  if (!/^(?:0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    throw bad(`\`${sizeText}\` is not a tree size`);
  }
  const root = fromBase64(rootText);
  if (root === null || root.length !== HASH_SIZE) throw bad(`\`${rootText}\` is not a root hash`);
  if (extensions.some((line) => line === '')) throw bad('an empty extension line');
  return { origin, size: Number(sizeText), root, extensions };
}

/**
 * Opens a signed checkpoint: checks the note's signatures (`openNote`), then that the log's
 * key (`verifier`) signed it and that its origin is the key's name, and parses the body.
 */
export function openCheckpoint(
  note: string,
  verifier: NoteVerifier,
  others: readonly NoteVerifier[] = [],
): { readonly checkpoint: Checkpoint; readonly note: OpenedNote } {
  const opened = openNote(note, [verifier, ...others]);
  if (!opened.signatures.some((s) => s.name === verifier.name && s.keyId === verifier.keyId)) {
    throw new TlogError(
      'unverified_note',
      `the log key ${verifier.name} did not sign the checkpoint`,
    );
  }
  const checkpoint = parseCheckpoint(opened.text);
  if (checkpoint.origin !== verifier.name) {
    throw new TlogError(
      'malformed_checkpoint',
      `the checkpoint's origin \`${checkpoint.origin}\` is not the log key's name \`${verifier.name}\``,
    );
  }
  return { checkpoint, note: opened };
}
