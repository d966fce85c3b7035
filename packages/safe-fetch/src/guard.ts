import { isIP } from 'node:net';
import { StorefrontError } from '@storefront/core';
import { errors } from 'undici';
import { createAllowList } from './allow-list.js';
import { noAddresses, refusalOf, resolve, systemLookup } from './connector.js';
import type { AllowEntry, LookupFunction } from './types.js';
import { checkUrlWith, DEFAULT_ALLOWED_PORTS } from './url-policy.js';

/** Options of {@link createConnectGuard}: the fetcher's options that decide where it may connect. */
export interface ConnectGuardOptions {
  /** As the fetcher's `testOnlyAllow`; refused when `NODE_ENV` is `production`. */
  readonly testOnlyAllow?: ReadonlyArray<AllowEntry> | string | undefined;
  /** Destination ports that may be contacted (default 80, 443, 8080, 8443). */
  readonly allowedPorts?: ReadonlyArray<number> | undefined;
  /** Resolver of host names (default the system's `dns.lookup`). */
  readonly lookup?: LookupFunction | undefined;
  /** Bound on resolving one name (ms, default 5000). */
  readonly timeoutMs?: number | undefined;
}

/** Where a connection may go: the one checked address, or why not. */
export type GuardedTarget =
  | { readonly ok: true; readonly address: string; readonly family: 4 | 6 }
  | {
      readonly ok: false;
      readonly error: 'invalid_url' | 'blocked_ssrf' | 'dns_failure' | 'timeout';
      readonly message: string;
    };

/** The fetcher's connect-time check, for connections that are not HTTP requests. */
export interface ConnectGuard {
  /**
   * Check `host` on `port` exactly as the fetcher checks a connection: the early name
   * check (local and internal names, non-public literals, the port), then one
   * resolution, refused when ANY answer is not public. Connect to the returned address
   * (with the name as TLS server name), never to the name: there is no second lookup.
   */
  check(host: string, port: number): Promise<GuardedTarget>;
}

/**
 * The SSRF guard of {@link createFetcher} as a check of its own, for a caller that opens
 * a socket itself (a TLS handshake audit): the same name policy, the same allowlist
 * rules and the same connect-time address check (`refusalOf`), shared with the
 * fetcher's connector.
 *
 * @example
 *   const guard = createConnectGuard();
 *   const target = await guard.check('example.com', 443);
 *   if (target.ok) tls.connect({ host: target.address, port: 443, servername: 'example.com' });
 */
export function createConnectGuard(options: ConnectGuardOptions = {}): ConnectGuard {
  const allow = createAllowList(options.testOnlyAllow, process.env.NODE_ENV);
  const allowedPorts = new Set(options.allowedPorts ?? DEFAULT_ALLOWED_PORTS);
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.timeoutMs ?? 5000;
  if (typeof lookup !== 'function' || !Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new StorefrontError(
      'internal_error',
      'Expected `lookup` to be a function and `timeoutMs` a positive integer',
    );
  }
  const policy = { allow, allowedPorts, lookup, timeoutMs };
  return {
    check(host, port) {
      const bare = host.replace(/^\[(.*)\]$/, '$1');
      const shown = isIP(bare) === 6 ? `[${bare}]` : bare;
      const early = checkUrlWith(`https://${shown}:${port}/`, { allowedPorts, allow });
      if (!early.ok)
        return Promise.resolve({ ok: false, error: early.error, message: early.message });
      const literal = isIP(bare) !== 0;
      return new Promise((done) => {
        const judge = (addresses: readonly { address: string; family: number }[]) => {
          const first = addresses[0];
          if (first === undefined) {
            return done({ ok: false, error: 'dns_failure', message: noAddresses(bare).message });
          }
          const refusal = refusalOf(policy, bare, port, literal, addresses);
          if (refusal !== null) return done({ ok: false, error: 'blocked_ssrf', message: refusal });
          done({ ok: true, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 });
        };
        if (literal) return judge([{ address: bare, family: isIP(bare) }]);
        resolve(bare, policy, (error, addresses) => {
          if (error === null) return judge(addresses);
          const timedOut = error instanceof errors.ConnectTimeoutError;
          done({
            ok: false,
            error: timedOut ? 'timeout' : 'dns_failure',
            message: timedOut
              ? `Resolving \`${bare}\` took longer than ${timeoutMs} ms`
              : `The name \`${bare}\` did not resolve`,
          });
        });
      });
    },
  };
}
