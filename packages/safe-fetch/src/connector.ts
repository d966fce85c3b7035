import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector, errors } from 'undici';
import { classifyAddress, describeRange } from './address-policy.js';
import type { AllowList } from './allow-list.js';
import { BLOCKED, GuardError } from './errors.js';
import type { LookupFunction } from './types.js';

/** What the connector enforces on every new connection. */
export interface ConnectPolicy {
  readonly allowedPorts: ReadonlySet<number>;
  readonly allow: AllowList;
  readonly lookup: LookupFunction;
  /** Bound on DNS resolution plus the TCP and TLS handshakes (ms). */
  readonly timeoutMs: number;
}

/**
 * The connect function of the fetcher's undici Agent: every connection, for every
 * redirect hop and every pooled socket, is made here, so the address check cannot be
 * skipped by a code path that forgets to call it.
 *
 * It resolves the host once, refuses when ANY answer is not public (a mixed answer such
 * as `[1.2.3.4, 127.0.0.1]` must not be accepted), and then connects to the checked
 * address itself. undici takes the Host header and the TLS server name from `host`,
 * which keeps the original name, so there is no second lookup and no window for DNS
 * rebinding.
 */
export function createConnector(policy: ConnectPolicy): buildConnector.connector {
  const base = buildConnector({ timeout: policy.timeoutMs });
  return (options, callback) => {
    let answered = false;
    const answer: buildConnector.Callback = (...args) => {
      if (answered) return;
      answered = true;
      callback(...args);
    };
    const refuse = (message: string) => answer(new GuardError(BLOCKED, message), null);

    const { protocol } = options;
    if (protocol !== 'http:' && protocol !== 'https:') {
      return refuse(`Refused protocol \`${protocol}\`: only http and https are fetched`);
    }
    if (options.socketPath) return refuse('Refused a Unix socket path');
    const port = Number(options.port) || (protocol === 'https:' ? 443 : 80);
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host) !== 0;

    const connect = (addresses: readonly LookupAddress[]) => {
      const first = addresses[0];
      if (first === undefined) return answer(noAddresses(host), null);
      const refusal = refusalOf(policy, host, port, literal, addresses);
      if (refusal !== null) return refuse(refusal);
      try {
        base({ ...options, hostname: first.address }, answer);
      } catch (error) {
        answer(error as Error, null);
      }
    };

    // net.connect never calls lookup for an IP literal, so literals are checked here.
    if (literal) return connect([{ address: host, family: isIP(host) }]);
    resolve(host, policy, (error, addresses) => {
      if (error !== null) return answer(error, null);
      connect(addresses);
    });
  };
}

/**
 * The connect-time check of every connection the guard makes (the fetcher's and
 * {@link createConnectGuard}'s): null when every resolved address may be contacted on
 * `port`, else the client-safe refusal. A test allowlist pair opens exactly that
 * resolved address and port; any other address must be public and the port allowed.
 */
export function refusalOf(
  policy: Pick<ConnectPolicy, 'allow' | 'allowedPorts'>,
  host: string,
  port: number,
  literal: boolean,
  addresses: readonly LookupAddress[],
): string | null {
  for (const { address } of addresses) {
    if (policy.allow.has(address, port)) continue;
    if (!policy.allowedPorts.has(port)) return `Port \`${port}\` is not allowed`;
    const range = classifyAddress(address);
    if (range !== null) {
      // The resolved address stays out of the message: clients must not learn it.
      return literal
        ? `Refused to connect to \`${host}\`: it is ${describeRange(range)}`
        : `Refused to connect to \`${host}\`: it resolves to ${describeRange(range)}`;
    }
  }
  return null;
}

/** The error of a name that resolved to no address at all. */
export function noAddresses(host: string): Error {
  return Object.assign(new Error(`No addresses for ${host}`), { code: 'ENOTFOUND' });
}

/**
 * Resolve a name with the policy's lookup, bounded by the connect timeout (the system
 * resolver has no deadline of its own), tolerating stubs that answer with one address.
 */
export function resolve(
  host: string,
  policy: ConnectPolicy,
  done: (error: Error | null, addresses: readonly LookupAddress[]) => void,
): void {
  let finished = false;
  const finish = (error: Error | null, addresses: readonly LookupAddress[]) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done(error, addresses);
  };
  const timer = setTimeout(
    () => finish(new errors.ConnectTimeoutError(`Resolving ${host} timed out`), []),
    policy.timeoutMs,
  );
  timer.unref();
  try {
    policy.lookup(host, { all: true }, (error, addresses: unknown, family?: unknown) => {
      if (error) return finish(error, []);
      finish(null, toAddresses(addresses, family));
    });
  } catch (error) {
    finish(error instanceof Error ? error : new Error(String(error)), []);
  }
}

function toAddresses(addresses: unknown, family: unknown): LookupAddress[] {
  if (typeof addresses === 'string') {
    return [{ address: addresses, family: typeof family === 'number' ? family : isIP(addresses) }];
  }
  if (!Array.isArray(addresses)) return [];
  const out: LookupAddress[] = [];
  for (const item of addresses) {
    if (typeof item === 'string') out.push({ address: item, family: isIP(item) });
    else if (item !== null && typeof item === 'object' && typeof item.address === 'string') {
      out.push({ address: item.address, family: Number(item.family) || isIP(item.address) });
    }
  }
  return out;
}

/** The system resolver, as a {@link LookupFunction}. */
export const systemLookup: LookupFunction = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);
