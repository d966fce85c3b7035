import { URL_MAX_CHARS } from '@storefront/core';
import { classifyAddress, describeRange } from './address-policy.js';
import type { AllowList } from './allow-list.js';

/**
 * URLs longer than this many characters are refused (before and after parsing): the
 * spec's limit on a URL, core's `URL_MAX_CHARS`, applied to redirect targets too.
 */
export const MAX_URL_LENGTH = URL_MAX_CHARS;

/** The destination ports contacted by default: plain and TLS HTTP and their usual alternates. */
export const DEFAULT_ALLOWED_PORTS: readonly number[] = Object.freeze([80, 443, 8080, 8443]);

/** Options of {@link checkUrl}. */
export interface CheckUrlOptions {
  /** Destination ports that may be contacted (default {@link DEFAULT_ALLOWED_PORTS}). */
  readonly allowedPorts?: ReadonlyArray<number> | undefined;
}

/** The outcome of {@link checkUrl}: the parsed URL, or why it is refused. */
export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | {
      readonly ok: false;
      readonly error: 'invalid_url' | 'blocked_ssrf';
      readonly message: string;
      /** The parsed URL, when it parsed and is not too long to repeat. */
      readonly url?: string;
    };

/** What the URL check consults: the port policy and the test-only allowlist. */
export interface UrlPolicy {
  readonly allowedPorts: ReadonlySet<number>;
  readonly allow: AllowList | null;
}

/**
 * Check a URL before any connection is made: WHATWG parsing, http(s) only, no
 * credentials, at most {@link MAX_URL_LENGTH} characters, no local or internal host
 * names, an allowed port, and no non-public IP literal. Host names are judged again
 * when they resolve, at connect time; this check only refuses early what is certain.
 *
 * @example
 *   checkUrl('http://0x7f000001/') // { ok: false, error: 'blocked_ssrf', … }
 */
export function checkUrl(raw: string, options: CheckUrlOptions = {}): UrlCheck {
  const ports = options.allowedPorts ?? DEFAULT_ALLOWED_PORTS;
  return checkUrlWith(raw, { allowedPorts: new Set(ports), allow: null });
}

/** {@link checkUrl} with the fetcher's own port policy and allowlist. */
export function checkUrlWith(raw: unknown, policy: UrlPolicy): UrlCheck {
  if (typeof raw !== 'string') {
    return invalid(`Expected the URL to be a string, got \`${typeof raw}\``);
  }
  if (raw.length > MAX_URL_LENGTH) {
    return invalid(`Expected a URL of at most ${MAX_URL_LENGTH} characters, got ${raw.length}`);
  }
  let url: URL;
  try {
    // WHATWG parsing normalises numeric IPv4 spellings (`2130706433`, `0x7f000001`,
    // `017700000001`, `127.1`, `0`) to dotted quads, so the address check sees them.
    url = new URL(raw);
  } catch {
    return invalid(`Expected an absolute http or https URL, got \`${clip(raw)}\``);
  }
  return checkParsed(url, policy);
}

/** The checks that apply to a parsed URL; redirect targets go through this too. */
export function checkParsed(url: URL, policy: UrlPolicy): UrlCheck {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalid(`Expected an http or https URL, got \`${clip(url.protocol)}\``, url);
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in the URL would be sent to whoever answers; never repeat them.
    return invalid('Expected a URL without credentials (`user:pass@`), got one with credentials');
  }
  if (url.href.length > MAX_URL_LENGTH) {
    return invalid(
      `Expected a URL of at most ${MAX_URL_LENGTH} characters, got ${url.href.length} after normalisation`,
    );
  }
  const host = url.hostname.replace(/\.+$/, '');
  if (isLocalName(host)) {
    return blocked(
      `Refused host \`${clip(url.hostname)}\`: local and internal names (\`localhost\`, \`*.localhost\`, \`*.local\`, \`*.internal\`) are never contacted`,
      url,
    );
  }
  const port = portOf(url);
  const ip = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const allowed = policy.allow?.has(ip, port) === true;
  if (!allowed && !policy.allowedPorts.has(port) && policy.allow?.hasPort(port) !== true) {
    return blocked(`Port \`${port}\` is not allowed (allowed: ${listPorts(policy)})`, url);
  }
  const range = literalRange(url.hostname);
  if (range !== null && !allowed) {
    return blocked(
      `Refused to connect to \`${clip(url.hostname)}\`: it is ${describeRange(range)}`,
      url,
    );
  }
  return { ok: true, url };
}

/** The port a URL connects to, with the scheme's default filled in. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Whether a host name is one that only ever means this machine or its private network. */
function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  );
}

/** The refused range of an IP-literal host, or null for names and public literals. */
function literalRange(hostname: string): string | null {
  if (hostname.startsWith('[')) return classifyAddress(hostname.slice(1, -1));
  // WHATWG parsing turns every IPv4 spelling into a dotted quad, and a host made of
  // digits and dots that is not one is a parse error, so this test is exact.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return classifyAddress(hostname);
  return null;
}

function listPorts(policy: UrlPolicy): string {
  const ports = [...policy.allowedPorts].sort((a, b) => a - b);
  return ports.length === 0 ? 'none' : ports.join(', ');
}

function invalid(message: string, url?: URL): UrlCheck {
  return url === undefined || url.href.length > MAX_URL_LENGTH
    ? { ok: false, error: 'invalid_url', message }
    : { ok: false, error: 'invalid_url', message, url: url.href };
}

function blocked(message: string, url: URL): UrlCheck {
  return { ok: false, error: 'blocked_ssrf', message, url: url.href };
}

/** Keep user-supplied values in messages short. */
export function clip(value: string, max = 100): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
