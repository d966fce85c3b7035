import type { StubName } from '@storefront/test-utils';

/** An SPF include chain of `n` levels, each with two `a` lookups: 1 + 3n lookups in all. */
function chain(prefix: string, n: number): Record<string, StubName> {
  const zone: Record<string, StubName> = {};
  for (let i = 1; i <= n; i++) {
    const next = i < n ? ` include:spf${i + 1}.${prefix}` : '';
    zone[`spf${i}.${prefix}`] = {
      records: { TXT: [`v=spf1 a:one.${prefix} a:two.${prefix}${next} -all`] },
    };
  }
  return zone;
}

/** The fixture zones: a well-kept domain, an SPF over 10 lookups, no DMARC, NXDOMAIN, a timeout. */
export const ZONE: Readonly<Record<string, StubName>> = {
  'good.example.com': {
    ad: true,
    records: {
      A: ['93.184.215.14', '93.184.215.15'],
      AAAA: ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      NS: ['ns2.example.net', 'ns1.example.net'],
      MX: ['20 mx2.good.example.com', '10 mx1.good.example.com'],
      CAA: ['0 issue "letsencrypt.org"', '0 iodef "mailto:security@good.example.com"'],
      TXT: [
        'v=spf1 ip4:93.184.215.0/24 include:_spf.mail.example.net -all',
        'google-site-verification=abc123',
      ],
    },
  },
  '_spf.mail.example.net': { records: { TXT: ['v=spf1 ip4:198.51.100.0/24 mx ~all'] } },
  '_dmarc.good.example.com': {
    records: { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@good.example.com; adkim=s'] },
  },
  '_mta-sts.good.example.com': { records: { TXT: ['v=STSv1; id=20261101T000000'] } },
  '_smtp._tls.good.example.com': {
    records: { TXT: ['v=TLSRPTv1; rua=mailto:tls-reports@good.example.com'] },
  },
  'heavy.example.org': {
    records: {
      A: ['198.51.100.7'],
      NS: ['ns1.example.net', 'ns2.example.net'],
      MX: ['10 mail.heavy.example.org'],
      TXT: ['v=spf1 mx include:spf1.heavy.example.org ~all'],
    },
  },
  '_dmarc.heavy.example.org': { records: { TXT: ['v=DMARC1; p=none'] } },
  ...chain('heavy.example.org', 4),
  'nodmarc.example.org': {
    records: {
      A: ['198.51.100.8'],
      NS: ['ns1.example.net'],
      TXT: ['v=spf1 +all'],
    },
  },
  'slow.example.org': { drop: true },
  'private.example.com': {
    records: { A: ['10.0.0.1'], NS: ['ns1.example.net', 'ns2.example.net'] },
  },
};
