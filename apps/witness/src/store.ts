import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** What a witness remembers of one log: the latest checkpoint it cosigned. */
export interface WitnessState {
  readonly size: number;
  /** The base64 root hash at `size`. */
  readonly root: string;
  /** The checkpoint note as submitted. */
  readonly checkpoint: string;
  /** The cosignature line the witness gave it. */
  readonly cosignature: string;
}

/** The outcome of an update: an answer, and the new state to persist first (if any). */
export interface Update<A> {
  readonly next?: WitnessState;
  readonly answer: A;
}

/** Where a witness keeps its states, one per log origin. */
export interface WitnessStore {
  read(origin: string): Promise<WitnessState | null>;
  /**
   * Runs `decide` on the origin's state under a lock held until the new state (if any)
   * is durably written, and resolves with its answer then.
   */
  update<A>(origin: string, decide: (state: WitnessState | null) => Update<A>): Promise<A>;
}

/**
 * States in files (one JSON file per origin in `dir`), written to a temporary file,
 * flushed, then renamed over the old one, so a crash leaves the old state or the new,
 * never a torn one. Updates of one origin run one at a time in this process; a
 * witness's directory belongs to one process.
 */
export class FileStore implements WitnessStore {
  readonly #dir: string;
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(origin: string): string {
    return join(this.#dir, `${Buffer.from(origin, 'utf8').toString('base64url')}.json`);
  }

  async read(origin: string): Promise<WitnessState | null> {
    try {
      return JSON.parse(await readFile(this.#file(origin), 'utf8')) as WitnessState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  update<A>(origin: string, decide: (state: WitnessState | null) => Update<A>): Promise<A> {
    const previous = this.#locks.get(origin) ?? Promise.resolve();
    const run = previous.then(async () => {
      const { next, answer } = decide(await this.read(origin));
      if (next !== undefined) await this.#write(origin, next);
      return answer;
    });
    const settled = run.catch(() => undefined);
    this.#locks.set(origin, settled);
    void settled.then(() => {
      if (this.#locks.get(origin) === settled) this.#locks.delete(origin);
    });
    return run;
  }

  async #write(origin: string, state: WitnessState): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const file = this.#file(origin);
    const temporary = `${file}.${randomUUID()}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(state)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  }
}
