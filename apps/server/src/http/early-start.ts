/** Options of {@link EarlyStart}. */
export interface EarlyStartLimits {
  /** How long a key stays trusted after this instance admitted it (ms). */
  readonly trustMs: number;
  /** Calls of one key whose work may run before their admission is known. */
  readonly perKey: number;
  /** Keys remembered at once; the least recently admitted are forgotten first. */
  readonly maxKeys: number;
}

/** One minute of trust, 8 early calls per key, 10,000 keys. */
export const EARLY_START_LIMITS: EarlyStartLimits = {
  trustMs: 60_000,
  perKey: 8,
  maxKeys: 10_000,
};

/** A trusted key: until when, and whether its last admission was metered. */
interface Trust {
  readonly until: number;
  readonly metered: boolean;
}

/**
 * Which calls may start their work (upstream requests, the product, the receipt's
 * signature) while the key door admits the key (docs/decisions.md, "Work starts during
 * admission"). Nothing of that work reaches the caller before the reservation.
 *
 * Only a key this instance admitted on a paid plan within `trustMs` qualifies, and
 * only `perKey` of its calls at a time may be waiting for their admission with work
 * started: any refusal (no credits, rate limit, revoked, unknown) makes the key wait
 * for its admission again. So a caller without a working key never makes the service
 * reach out or compute, and a key that runs dry wastes at most `perKey` calls' work.
 */
export class EarlyStart {
  readonly #limits: EarlyStartLimits;
  readonly #now: () => number;
  /** Key hash → its trust; in order of the latest admission. */
  readonly #trusted = new Map<string, Trust>();
  /** Key hash → calls with work started and no admission yet. */
  readonly #early = new Map<string, number>();

  constructor(limits: EarlyStartLimits = EARLY_START_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /**
   * Whether this call of `keyHash` may start its work now, and if so whether its
   * last admission was metered (what the early work assumes; the door checks it).
   * A non-null answer must be followed by {@link settle}.
   */
  begin(keyHash: string): { readonly metered: boolean } | null {
    const trust = this.#trusted.get(keyHash);
    if (trust === undefined) return null;
    if (trust.until <= this.#now()) {
      this.#trusted.delete(keyHash);
      return null;
    }
    const early = this.#early.get(keyHash) ?? 0;
    if (early >= this.#limits.perKey) return null;
    this.#early.set(keyHash, early + 1);
    return { metered: trust.metered };
  }

  /**
   * Record how the admission of a call of `keyHash` ended: `paid` when it was reserved
   * on a paid plan (trusted for the next calls), null for anything else (refused, or
   * a sandbox key, which never starts early). `began` is whether {@link begin} let it
   * start early.
   */
  settle(keyHash: string, began: boolean, paid: { readonly metered: boolean } | null): void {
    if (began) {
      const early = (this.#early.get(keyHash) ?? 1) - 1;
      if (early > 0) this.#early.set(keyHash, early);
      else this.#early.delete(keyHash);
    }
    this.#trusted.delete(keyHash);
    if (paid === null) return;
    this.#trusted.set(keyHash, {
      until: this.#now() + this.#limits.trustMs,
      metered: paid.metered,
    });
    if (this.#trusted.size > this.#limits.maxKeys) {
      const oldest = this.#trusted.keys().next().value as string;
      this.#trusted.delete(oldest);
    }
  }

  /** Keys trusted now (for tests and metrics). */
  get size(): number {
    return this.#trusted.size;
  }
}
