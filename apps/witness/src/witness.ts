import {
  bytesEqual,
  type Cosigner,
  emptyRoot,
  fromBase64,
  HASH_SIZE,
  type NoteVerifier,
  openCheckpoint,
  TlogError,
  toBase64,
  verifyConsistency,
} from '@storefront/tlog';
import type { WitnessState, WitnessStore } from './store.js';

/** Most consistency proof lines a request may carry (C2SP tlog-witness). */
export const MAX_PROOF_LINES = 63;

/** The answer to an `add-checkpoint` request: status, content type and body. */
export interface WitnessAnswer {
  readonly status: 200 | 400 | 403 | 404 | 409 | 422;
  readonly contentType: string;
  readonly body: string;
}

const text = (status: WitnessAnswer['status'], body: string): WitnessAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: `${body}\n`,
});

/** The parts of an `add-checkpoint` body: old size, proof, and the checkpoint note. */
interface Request {
  readonly oldSize: number;
  readonly proof: readonly Uint8Array[];
  readonly note: string;
}

/** Parses an `add-checkpoint` body, or says why it is not one (400). */
function parseRequest(body: string): Request | string {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return 'expected an old size line, proof lines, an empty line, then a checkpoint';
  const head = body.slice(0, blank).split('\n');
  const note = body.slice(blank + 2);
  const sizeLine = head[0] ?? '';
  const match = /^old (0|[1-9][0-9]*)$/.exec(sizeLine);
  if (match === null) return `\`${sizeLine}\` is not an old size line (\`old <size>\`)`;
  const oldSize = Number(match[1]);
  if (!Number.isSafeInteger(oldSize)) return `the old size ${match[1]} is too large`;
  const lines = head.slice(1);
  if (lines.length > MAX_PROOF_LINES) {
    return `more than ${MAX_PROOF_LINES} consistency proof lines`;
  }
  const proof: Uint8Array[] = [];
  for (const line of lines) {
    const hash = fromBase64(line);
    if (hash === null || hash.length !== HASH_SIZE) {
      return `\`${line}\` is not a base64 SHA-256 hash`;
    }
    proof.push(hash);
  }
  return { oldSize, proof, note };
}

/**
 * A witness (C2SP tlog-witness): for each log it follows, identified by its origin and
 * key, it keeps the latest checkpoint it cosigned, and cosigns a new one only when a
 * consistency proof shows that the new tree extends it. The check of the old size and
 * the write of the new state happen under the store's lock for that origin, so two
 * racing requests can never roll a log back.
 */
export class Witness {
  readonly #cosigner: Cosigner;
  readonly #logs: ReadonlyMap<string, NoteVerifier>;
  readonly #store: WitnessStore;
  readonly #now: () => number;

  constructor(options: {
    readonly cosigner: Cosigner;
    /** The logs followed: each log's key (its name is the log's origin). */
    readonly logs: readonly NoteVerifier[];
    readonly store: WitnessStore;
    /** POSIX seconds; default the clock. */
    readonly now?: () => number;
  }) {
    this.#cosigner = options.cosigner;
    this.#logs = new Map(options.logs.map((log) => [log.name, log]));
    this.#store = options.store;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** The witness's verifier key (`vkey`, signature type 0x04). */
  get vkey(): string {
    return this.#cosigner.vkey;
  }

  /** The origins of the logs followed. */
  get origins(): readonly string[] {
    return [...this.#logs.keys()];
  }

  /** The latest checkpoint cosigned for `origin`, if any. */
  latest(origin: string): Promise<WitnessState | null> {
    return this.#store.read(origin);
  }

  /** Answers `POST <prefix>/add-checkpoint` with `body` (C2SP tlog-witness). */
  async addCheckpoint(body: string): Promise<WitnessAnswer> {
    const request = parseRequest(body);
    if (typeof request === 'string') return text(400, request);
    const end = request.note.indexOf('\n');
    if (end < 0) return text(400, 'the checkpoint is not a signed note');
    const originLine = request.note.slice(0, end);
    const log = this.#logs.get(originLine);
    if (log === undefined) return text(404, `this witness does not follow the log ${originLine}`);
    let opened: ReturnType<typeof openCheckpoint>;
    try {
      opened = openCheckpoint(request.note, log);
    } catch (error) {
      if (!(error instanceof TlogError)) throw error;
      const status =
        error.code === 'malformed_note' || error.code === 'malformed_checkpoint' ? 400 : 403;
      return text(status, error.message);
    }
    const { checkpoint } = opened;
    const { oldSize, proof } = request;
    if (oldSize > checkpoint.size) {
      return text(
        400,
        `the old size ${oldSize} is larger than the checkpoint's ${checkpoint.size}`,
      );
    }
    if (checkpoint.size === 0 && !bytesEqual(checkpoint.root, emptyRoot())) {
      return text(422, 'a checkpoint of size 0 has the root of the empty tree');
    }
    if (oldSize === 0 && proof.length > 0) {
      return text(422, 'a proof from size 0 is empty: the empty tree is consistent with any');
    }
    return this.#store.update(checkpoint.origin, (state) => {
      const latestSize = state?.size ?? 0;
      if (oldSize !== latestSize) {
        return {
          answer: { status: 409, contentType: 'text/x.tlog.size', body: `${latestSize}\n` },
        };
      }
      if (state !== null) {
        const oldRoot = fromBase64(state.root) ?? new Uint8Array();
        if (!verifyConsistency(oldSize, checkpoint.size, oldRoot, checkpoint.root, proof)) {
          const why =
            oldSize === checkpoint.size
              ? `the checkpoint's root differs from the one cosigned at size ${oldSize}`
              : `the proof does not show size ${checkpoint.size} extends size ${oldSize}`;
          return { answer: text(422, why) };
        }
      }
      const cosignature = this.#cosigner.cosign(opened.note.text, this.#now());
      return {
        next: {
          size: checkpoint.size,
          root: toBase64(checkpoint.root),
          checkpoint: `${request.note}`,
          cosignature,
        },
        answer: { status: 200, contentType: 'text/plain; charset=utf-8', body: cosignature },
      };
    });
  }
}
