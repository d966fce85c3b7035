import dns from 'node:dns';
import net from 'node:net';

/** What {@link guardNetwork} returns: how many attempts it refused, and the undo. */
export interface NetworkGuard {
  attempts(): number;
  restore(): void;
}

/**
 * Refuse every outgoing connection, DNS lookup and `fetch` while the benchmark runs,
 * and count the attempts: a library that claims to work offline (open-graph-scraper
 * with its `html` option) is checked, not trusted. Every TCP/TLS client in Node
 * (undici included) goes through `net.Socket.prototype.connect`.
 */
export function guardNetwork(): NetworkGuard {
  let attempts = 0;
  const refuse = (what: string): never => {
    attempts++;
    throw new Error(`network access refused during the benchmark (${what})`);
  };
  const originalConnect = net.Socket.prototype.connect;
  const originalLookup = dns.lookup;
  const originalPromisesLookup = dns.promises.lookup;
  const originalFetch = globalThis.fetch;
  net.Socket.prototype.connect = function connect(): never {
    return refuse('socket connect');
  } as unknown as typeof originalConnect;
  dns.lookup = ((): never => refuse('dns.lookup')) as unknown as typeof originalLookup;
  dns.promises.lookup = ((): never =>
    refuse('dns.promises.lookup')) as unknown as typeof originalPromisesLookup;
  globalThis.fetch = ((): never => refuse('fetch')) as unknown as typeof originalFetch;
  return {
    attempts: () => attempts,
    restore: () => {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
      dns.promises.lookup = originalPromisesLookup;
      globalThis.fetch = originalFetch;
    },
  };
}
