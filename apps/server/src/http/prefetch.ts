import type { Fetcher, FetchInit, SafeFetchResult } from '@storefront/safe-fetch';

/** Options of {@link PrefetchPolicy}. */
export interface PrefetchLimits {
  /** How long a key stays trusted after this instance admitted it (ms). */
  readonly trustMs: number;
  /** Calls of one key whose upstream requests may run before their admission is known. */
  readonly perKey: number;
  /** Keys remembered at once; the least recently admitted are forgotten first. */
  readonly maxKeys: number;
}

/** One minute of trust, 8 early calls per key, 10,000 keys. */
export const PREFETCH_LIMITS: PrefetchLimits = { trustMs: 60_000, perKey: 8, maxKeys: 10_000 };

/**
 * Which calls may have their upstream requests started while the key door admits the
 * key (docs/decisions.md, "Upstream requests start during admission").
 *
 * Only a key this instance admitted on a paid plan within `trustMs` qualifies, and
 * only `perKey` of its calls at a time may be waiting for their admission with a
 * request already out: any refusal (no credits, rate limit, revoked, unknown) makes
 * the key wait for its admission again. So a caller without a working key never makes
 * the service reach out, and a key that runs dry wastes at most `perKey` requests.
 * Nothing but the request runs early: the product waits for the admission.
 */
export class PrefetchPolicy {
  readonly #limits: PrefetchLimits;
  readonly #now: () => number;
  /** Key hash → when its trust ends; in order of the latest admission. */
  readonly #trusted = new Map<string, number>();
  /** Key hash → calls with a request out and no admission yet. */
  readonly #early = new Map<string, number>();

  constructor(limits: PrefetchLimits = PREFETCH_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Whether this call of `keyHash` may start its requests now; if so, {@link settle} must follow. */
  begin(keyHash: string): boolean {
    const until = this.#trusted.get(keyHash);
    if (until === undefined) return false;
    if (until <= this.#now()) {
      this.#trusted.delete(keyHash);
      return false;
    }
    const early = this.#early.get(keyHash) ?? 0;
    if (early >= this.#limits.perKey) return false;
    this.#early.set(keyHash, early + 1);
    return true;
  }

  /**
   * Record how the admission of a call of `keyHash` ended: `paid` when it was reserved
   * on a paid plan (trusted for the next calls), false for anything else (refused, or
   * a sandbox key, which never starts early). `began` is what {@link begin} returned.
   */
  settle(keyHash: string, began: boolean, paid: boolean): void {
    if (began) {
      const early = (this.#early.get(keyHash) ?? 1) - 1;
      if (early > 0) this.#early.set(keyHash, early);
      else this.#early.delete(keyHash);
    }
    if (!paid) {
      this.#trusted.delete(keyHash);
      return;
    }
    this.#trusted.delete(keyHash);
    this.#trusted.set(keyHash, this.#now() + this.#limits.trustMs);
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

/**
 * A fetcher that starts plain GETs of `urls` now and hands each started request to the
 * first `fetch` of the same URL without options; every other call goes to `fetcher`.
 * `discard` drops requests nobody took (their answers are read and thrown away).
 */
export function prefetching(
  fetcher: Fetcher,
  urls: readonly string[],
): { fetcher: Fetcher; discard(): void } {
  const started = new Map<string, Promise<SafeFetchResult>>();
  for (const url of urls) {
    if (!started.has(url)) started.set(url, fetcher.fetch(url));
  }
  return {
    fetcher: {
      fetch(url: string, init?: FetchInit) {
        const early = init === undefined ? started.get(url) : undefined;
        if (early === undefined) return fetcher.fetch(url, init);
        started.delete(url);
        return early;
      },
      // The shared fetcher belongs to the server, which closes it.
      close: () => Promise.resolve(),
    },
    discard() {
      started.clear();
    },
  };
}
