import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses that answer cloud instance-metadata or host-agent requests. Most already
 * fall in a refused range; they are named here so the refusal says what they are, and
 * because 168.63.129.16 (Azure WireServer) looks like an ordinary public address.
 */
const CLOUD_METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, DigitalOcean, OpenStack
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  '168.63.129.16', // Azure WireServer: public-looking, only the host answers
  'fd00:ec2:0:0:0:0:0:254', // AWS IMDS over IPv6
  'fd00:ec2:0:0:0:0:0:23', // AWS EKS pod identity over IPv6
]);

/** The IPv6 global unicast block 2000::/3; everything outside it is special-purpose. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** IPv4-compatible IPv6 (::/96, deprecated); ipaddr.js calls `::7f00:1` "unicast". */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Classify an IP address for outbound connections: `null` when it is public (global
 * unicast), otherwise the name of the range that makes it off-limits, such as
 * `loopback`, `private`, `linkLocal`, `cloudMetadata` or `ipv4Compatible`.
 *
 * The policy is an allowlist: anything not proven to be global unicast is refused,
 * including strings that are not IP addresses at all (`invalid`). Never throws.
 *
 * @example
 *   classifyAddress('8.8.8.8') // null
 *   classifyAddress('::ffff:127.0.0.1') // 'loopback'
 */
export function classifyAddress(ip: string): string | null {
  const parsed = parseIp(ip);
  if (parsed === null) return 'invalid';
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // An IPv4-mapped address reaches the IPv4 host, so the IPv4 address is what counts.
    if (v6.isIPv4MappedAddress()) return classifyIPv4(v6.toIPv4Address());
    return classifyIPv6(v6);
  }
  return classifyIPv4(parsed as ipaddr.IPv4);
}

/**
 * Parse an address exactly as Node will connect to it, or null when Node would not.
 *
 * ipaddr.js 2.5.0 reads an IPv6 address with a dotted IPv4 tail, such as `::8.8.8.8`, as
 * the IPv4-mapped `::ffff:8.8.8.8`, while Node connects to the IPv4-compatible
 * `::808:808`. Node's resolver prints IPv4-compatible answers in that dotted form, so
 * the tail is rewritten as two hex groups first and both parsers agree on the address.
 */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // ipaddr.js also accepts classful and hex IPv4 forms (`127.1`, `0x7f000001`), which
  // would let two parsers disagree; only strings Node itself would connect to get parsed.
  if (typeof ip !== 'string') return null;
  const family = isIP(ip);
  if (family === 0) return null;
  try {
    return ipaddr.parse(family === 6 ? hexTail(ip) : ip);
  } catch {
    return null;
  }
}

function hexTail(ip: string): string {
  const match = /^([^%]*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(ip);
  if (match === null) return ip;
  const [a, b, c, d] = [match[2], match[3], match[4], match[5]].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return `${match[1]}${high}:${low}${match[6] ?? ''}`;
}

function classifyIPv4(address: ipaddr.IPv4): string | null {
  if (CLOUD_METADATA.has(address.toString())) return 'cloudMetadata';
  const range = address.range();
  return range === 'unicast' ? null : range;
}

function classifyIPv6(address: ipaddr.IPv6): string | null {
  if (CLOUD_METADATA.has(address.toNormalizedString().replace(/%.*$/, ''))) return 'cloudMetadata';
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  if (!address.match(GLOBAL_UNICAST)) return 'notGlobalUnicast';
  // A zone id only makes sense for link-scoped addresses, which are refused above.
  if (address.zoneId !== undefined) return 'scoped';
  return null;
}

/** How a range name reads in a message: "it is a loopback address". */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  invalid: 'not a valid IP address',
  cloudMetadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a benchmarking address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT relay address',
  uniqueLocal: 'a unique-local address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  discard: 'a discard-only address',
  deprecatedSiteLocal: 'a site-local address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a special-purpose address',
  segmentRouting: 'a segment-routing address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  notGlobalUnicast: 'outside the IPv6 global unicast range',
  scoped: 'a scoped address',
};

/** The words for a range name returned by {@link classifyAddress}, for messages. */
export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}
