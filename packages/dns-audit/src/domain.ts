import { DNS_MAX_NAME_CHARS } from './limits.js';

/** A host name checked as a DNS name: lower case, no trailing dot, or why not. */
export type DnsDomainCheck =
  | { readonly ok: true; readonly domain: string }
  | { readonly ok: false; readonly message: string };

/**
 * Check a host name (as WHATWG URL parsing gives it: lower case, IDNs in punycode) as a
 * domain to query: not an IP address, at most {@link DNS_MAX_NAME_CHARS} characters,
 * labels of 1 to 63 characters (RFC 1035 §2.3.4).
 *
 * @example
 *   checkDnsDomain('example.com.') // { ok: true, domain: 'example.com' }
 */
export function checkDnsDomain(hostname: string): DnsDomainCheck {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  // WHATWG URL parsing writes every IPv4 address as a dotted quad and IPv6 in brackets.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(bare) || bare.includes(':')) {
    return { ok: false, message: `Expected a domain name, got the IP address \`${bare}\`` };
  }
  const domain = bare.toLowerCase().replace(/\.$/, '');
  if (domain.length > DNS_MAX_NAME_CHARS) {
    return {
      ok: false,
      message: `Expected a domain name of at most ${DNS_MAX_NAME_CHARS} characters, got ${domain.length}`,
    };
  }
  const labels = domain.split('.');
  if (labels.some((label) => label.length === 0 || label.length > 63)) {
    return {
      ok: false,
      message: `Expected a domain name whose labels have 1 to 63 characters, got \`${domain.slice(0, 100)}\``,
    };
  }
  return { ok: true, domain };
}
