import { isIP } from 'node:net';
import { StorefrontError } from '@storefront/core';
import { parseIp } from './address-policy.js';
import type { AllowEntry } from './types.js';

/** The checked allowlist the connector consults: exact resolved `(IP, port)` pairs. */
export interface AllowList {
  readonly size: number;
  /** Whether this exact resolved address and port may be contacted. */
  has(ip: string, port: number): boolean;
  /** Whether some entry uses this port (so the early URL check can let it through). */
  hasPort(port: number): boolean;
}

const EMPTY: AllowList = Object.freeze({
  size: 0,
  has: () => false,
  hasPort: () => false,
});

/**
 * Parse the `SAFE_FETCH_ALLOW` format: comma- or space-separated exact `host:port`
 * pairs, IPv6 in brackets, such as `127.0.0.1:43123,[::1]:43124`. Each entry must be a
 * loopback IP with an explicit port from 1024 to 65535; anything else throws a
 * {@link StorefrontError}.
 */
export function parseAllowList(value: string): AllowEntry[] {
  if (typeof value !== 'string') {
    throw new StorefrontError(
      'internal_error',
      `Expected the allowlist to be a string, got \`${typeof value}\``,
    );
  }
  const entries: AllowEntry[] = [];
  for (const item of value.split(/[\s,]+/)) {
    if (item === '') continue;
    const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(item);
    if (match === null) {
      throw new StorefrontError(
        'internal_error',
        `Expected allowlist entries like \`127.0.0.1:43123\` or \`[::1]:43124\`, got \`${item}\``,
      );
    }
    const ip = (match[1] ?? match[2]) as string;
    if (match[1] !== undefined && isIP(ip) !== 6) {
      throw new StorefrontError(
        'internal_error',
        `Expected an IPv6 address inside brackets in allowlist entry \`${item}\``,
      );
    }
    entries.push(checkEntry({ ip, port: Number(match[3]) }));
  }
  return entries;
}

/**
 * Validate and freeze the test-only allowlist given to `createFetcher`. Throws when an
 * entry is not an exact loopback pair, and when any entry is given in production: the
 * list exists for loopback fixture servers and must never open the guard in a deployment.
 */
export function createAllowList(
  input: ReadonlyArray<AllowEntry> | string | undefined,
  env: string | undefined,
): AllowList {
  if (input === undefined) return EMPTY;
  let entries: AllowEntry[];
  if (typeof input === 'string') entries = parseAllowList(input);
  else if (Array.isArray(input)) entries = input.map((entry) => checkEntry(entry));
  else {
    throw new StorefrontError(
      'internal_error',
      `Expected \`testOnlyAllow\` to be an array of \`{ ip, port }\` or a string, got \`${typeof input}\``,
    );
  }
  if (entries.length === 0) return EMPTY;
  if (env === 'production') {
    throw new StorefrontError(
      'internal_error',
      `Expected no \`testOnlyAllow\` entries when \`NODE_ENV\` is \`production\`, got ${entries.length}`,
    );
  }
  const pairs = new Set(entries.map((entry) => key(entry.ip, entry.port)));
  const ports = new Set(entries.map((entry) => entry.port));
  return Object.freeze({
    size: pairs.size,
    has: (ip: string, port: number) => {
      const parsed = parseIp(ip);
      return parsed !== null && pairs.has(key(parsed.toString(), port));
    },
    hasPort: (port: number) => ports.has(port),
  });
}

function checkEntry(entry: AllowEntry): AllowEntry {
  const { ip, port } = (entry ?? {}) as Partial<AllowEntry>;
  const shown = typeof ip === 'string' ? `${ip}:${String(port)}` : JSON.stringify(entry);
  // Only plain loopback literals: no names (they would need DNS), no mapped forms.
  if (typeof ip !== 'string' || parseIp(ip)?.range() !== 'loopback') {
    throw new StorefrontError(
      'internal_error',
      `Expected allowlist entries to be loopback IPs (127.0.0.0/8 or ::1), got \`${shown}\``,
    );
  }
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new StorefrontError(
      'internal_error',
      `Expected an explicit allowlist port from 1024 to 65535, got \`${shown}\``,
    );
  }
  return Object.freeze({ ip: normalize(ip), port });
}

/** One spelling per address, so `::1` and `0:0:0:0:0:0:0:1` match the same entry. */
function normalize(ip: string): string {
  return (parseIp(ip) as NonNullable<ReturnType<typeof parseIp>>).toString();
}

function key(ip: string, port: number): string {
  return `${ip}|${port}`;
}
