import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../src/index.js';

// One row per refused range, named as classifyAddress names it (ipaddr.js 2.5.0 range
// names plus this package's extra rules), then public addresses that must pass.
const REFUSED: ReadonlyArray<readonly [ip: string, range: string]> = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.1.1', 'linkLocal'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.31.196.1', 'as112'],
  ['192.175.48.1', 'as112'],
  ['192.52.193.1', 'amt'],
  // Cloud metadata and host agents
  ['169.254.169.254', 'cloudMetadata'],
  ['169.254.170.2', 'cloudMetadata'],
  ['169.254.170.23', 'cloudMetadata'],
  ['100.100.100.200', 'cloudMetadata'],
  ['192.0.0.192', 'cloudMetadata'],
  ['168.63.129.16', 'cloudMetadata'],
  ['fd00:ec2::254', 'cloudMetadata'],
  ['fd00:ec2::23', 'cloudMetadata'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%lo', 'linkLocal'],
  ['2606:4700::1111%eth0', 'scoped'],
  ['febf:ffff::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::808:808', 'rfc6052'],
  ['64:ff9b:1::1', 'rfc6052'],
  ['2002:7f00:1::', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2001::1', 'teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001:db8::1', 'reserved'],
  ['2001:1ff::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'amt'],
  ['2001:4:112::1', 'as112v6'],
  ['2620:4f:8000::1', 'as112v6'],
  ['2001:10::1', 'deprecatedOrchid'],
  ['2001:20::1', 'orchid2'],
  ['2001:30::1', 'droneRemoteIdProtocolEntityTags'],
  ['5f00::1', 'segmentRouting'],
  // IPv4-compatible (::/96): ipaddr.js says "unicast", the extra rule refuses it.
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  // Outside 2000::/3 but not named by ipaddr.js.
  ['4000::1', 'notGlobalUnicast'],
  ['e000::1', 'notGlobalUnicast'],
  ['1::1', 'notGlobalUnicast'],
  // IPv4-mapped: judged by the IPv4 address inside.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a9fe:a9fe', 'cloudMetadata'],
  ['::ffff:169.254.169.254', 'cloudMetadata'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:100.64.0.1', 'carrierGradeNat'],
  // Not an address Node would connect to: classful, hex and octal forms, names, junk.
  ['127.1', 'invalid'],
  ['0x7f000001', 'invalid'],
  ['2130706433', 'invalid'],
  ['017700000001', 'invalid'],
  ['127.000.000.001', 'invalid'],
  ['[::1]', 'invalid'],
  ['localhost', 'invalid'],
  ['', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
];

describe('classifyAddress', () => {
  it.each(REFUSED)('refuses %s as %s', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
  });

  it.each(PUBLIC)('accepts %s as public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('refuses values that are not strings instead of throwing', () => {
    expect(classifyAddress(undefined as unknown as string)).toBe('invalid');
    expect(classifyAddress(2130706433 as unknown as string)).toBe('invalid');
  });
});
