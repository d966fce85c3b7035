import type { LookupAddress } from 'node:dns';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { DnsQuery } from '@storefront/dns-audit';
import { type ConnectGuard, createConnectGuard, type LookupFunction } from '@storefront/safe-fetch';
import { createDnsClient } from './dns-client.js';

/**
 * The network a `gather` read may use besides HTTP fetches: DNS queries to the
 * configured resolver, and the fetcher's connect-time SSRF check for a socket opened
 * by hand (the TLS audit's), resolving names through that same resolver.
 */
export interface Probes {
  /** One DNS query to the configured resolver; never rejects. */
  readonly dns: DnsQuery;
  /** The fetcher's connect-time check: connect only to the address it returns. */
  readonly guard: ConnectGuard;
  /** The port a TLS audit connects to: 443, or a loopback test port outside production. */
  readonly tlsPort: number;
  /** The roots a TLS audit verifies against: Node's `tls.rootCertificates`. */
  readonly tlsCa: readonly string[];
  /**
   * The client context of TLS audits, made once (at the first audit): those roots, and TLS 1.0 allowed so that
   * an old server can be reported (parsing the roots on every call would cost more than
   * the handshake).
   */
  readonly tlsContext: SecureContext;
}

/** Options of {@link createProbes}, from the configuration. */
export interface ProbesOptions {
  /** `DNS_RESOLVER`: `host:port`; null for the system's first configured server. */
  readonly dnsResolver: string | null;
  /** `SAFE_FETCH_ALLOW`: the test-only loopback pairs the guard lets through. */
  readonly safeFetchAllow: string;
  /** `TLS_AUDIT_PORT`: 443 but in tests. */
  readonly tlsPort: number;
  /** How long one DNS query waits (ms, default 2000). */
  readonly dnsTimeoutMs?: number;
  /** Tests only: roots trusted besides Node's (a test CA); never set from the configuration. */
  readonly extraCa?: readonly string[];
}

/** The service's probes from its configuration. */
export function createProbes(options: ProbesOptions): Probes {
  const dns = createDnsClient({
    server: options.dnsResolver ?? undefined,
    timeoutMs: options.dnsTimeoutMs ?? 2000,
  });
  const guard = createConnectGuard({
    testOnlyAllow: options.safeFetchAllow,
    lookup: lookupThrough(dns),
    // The audited port, and only it: 443, or the test port the allowlist opens.
    allowedPorts: [options.tlsPort],
  });
  const tlsCa = Object.freeze([...rootCertificates, ...(options.extraCa ?? [])]);
  // Made at the first TLS audit: parsing the roots takes a fifth of a second of start-up.
  let tlsContext: SecureContext | undefined;
  return {
    dns,
    guard,
    tlsPort: options.tlsPort,
    tlsCa,
    get tlsContext() {
      tlsContext ??= createSecureContext({ ca: [...tlsCa], minVersion: 'TLSv1' });
      return tlsContext;
    },
  };
}

/**
 * A `dns.lookup`-shaped resolver that asks A and AAAA of the configured resolver, so
 * that a TLS audit resolves the name the DNS audit would (`ENOTFOUND` when it has no
 * address).
 */
export function lookupThrough(dns: DnsQuery): LookupFunction {
  return (hostname, _options, callback) => {
    Promise.all([dns(hostname, 'A'), dns(hostname, 'AAAA')]).then(
      ([v4, v6]) => {
        const addresses: LookupAddress[] = [
          ...v4.records.map((address) => ({ address, family: 4 })),
          ...v6.records.map((address) => ({ address, family: 6 })),
        ];
        if (addresses.length > 0) return callback(null, addresses);
        const timedOut = v4.rcode === 'TIMEOUT' && v6.rcode === 'TIMEOUT';
        const error = Object.assign(new Error(`No addresses for ${hostname}`), {
          code: timedOut ? 'EAI_AGAIN' : 'ENOTFOUND',
        });
        callback(error, []);
      },
      (error: Error) => callback(error, []),
    );
  };
}
