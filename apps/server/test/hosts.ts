import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import {
  makeTestChain,
  type StubDns,
  type StubName,
  startStubDns,
  type TestChain,
} from '@storefront/test-utils';
import { createProbes, type Probes } from '../src/probes/index.js';

/**
 * The DNS fixture zone of the host audits: a well-kept domain, an SPF over 10 lookups,
 * no DMARC, a silent name (timeout), a name resolving to a private address, and the
 * names of the loopback TLS host. A name not listed is NXDOMAIN.
 */
export function auditZone(): Record<string, StubName> {
  const zone: Record<string, StubName> = {
    'good.example.com': {
      ad: true,
      records: {
        A: ['93.184.215.14'],
        NS: ['ns1.example.net', 'ns2.example.net'],
        MX: ['10 mx1.good.example.com', '20 mx2.good.example.com'],
        CAA: ['0 issue "letsencrypt.org"'],
        TXT: ['v=spf1 ip4:93.184.215.0/24 include:_spf.mail.example.net -all'],
      },
    },
    '_spf.mail.example.net': { records: { TXT: ['v=spf1 ip4:198.51.100.0/24 mx ~all'] } },
    '_dmarc.good.example.com': {
      records: { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@good.example.com'] },
    },
    '_mta-sts.good.example.com': { records: { TXT: ['v=STSv1; id=20261101T000000'] } },
    '_smtp._tls.good.example.com': {
      records: { TXT: ['v=TLSRPTv1; rua=mailto:tls-reports@good.example.com'] },
    },
    'heavy.example.org': {
      records: {
        A: ['198.51.100.7'],
        NS: ['ns1.example.net', 'ns2.example.net'],
        TXT: ['v=spf1 mx include:spf1.heavy.example.org ~all'],
      },
    },
    'nodmarc.example.org': { records: { A: ['198.51.100.8'], TXT: ['v=spf1 +all'] } },
    'slow.example.org': { drop: true },
    'private.example.com': { records: { A: ['10.0.0.1'] } },
  };
  for (let i = 1; i <= 4; i++) {
    const next = i < 4 ? ` include:spf${i + 1}.heavy.example.org` : '';
    zone[`spf${i}.heavy.example.org`] = {
      records: { TXT: [`v=spf1 a:one.heavy.example.org a:two.heavy.example.org${next} -all`] },
    };
  }
  // The loopback TLS host answers every one of these names (tls.test's certificates).
  for (const name of TLS_NAMES) zone[`${name}.tls.example.com`] = { records: { A: ['127.0.0.1'] } };
  return zone;
}

/** The TLS host's names, each served a different certificate. */
export const TLS_NAMES = ['good', 'expired', 'mismatch', 'self', 'broken'] as const;

const DAY = 86_400_000;

/** A loopback HTTPS host answering each of {@link TLS_NAMES} with its own certificate. */
export interface TlsHost {
  readonly port: number;
  /** `127.0.0.1:PORT`, as `SAFE_FETCH_ALLOW` lists it. */
  readonly allow: string;
  readonly chain: TestChain;
  close(): Promise<void>;
}

/**
 * Start the TLS host: `good` serves a leaf and the intermediate (the test root is no
 * public root), `expired` a leaf that expired 10 days ago, `mismatch` a leaf for another
 * name, `self` a self-signed leaf, and `broken` fails the handshake. Every answer
 * carries `Strict-Transport-Security: max-age=63072000; includeSubDomains`.
 */
export async function startTlsHost(listenPort = 0): Promise<TlsHost> {
  const chain = makeTestChain();
  const now = Date.now();
  const fresh = { notBefore: new Date(now - DAY), notAfter: new Date(now + 365 * DAY) };
  const context = (cert: { cert: string; key: string }, withIntermediate = true) =>
    createSecureContext({
      cert: withIntermediate ? `${cert.cert}${chain.intermediate.cert}` : cert.cert,
      key: cert.key,
    });
  const contexts = new Map<string, SecureContext>([
    ['good', context(chain.leaf({ names: ['good.tls.example.com'], ...fresh }))],
    [
      'expired',
      context(
        chain.leaf({
          names: ['expired.tls.example.com'],
          notBefore: new Date(now - 100 * DAY),
          notAfter: new Date(now - 10 * DAY),
        }),
      ),
    ],
    ['mismatch', context(chain.leaf({ names: ['other.example.net'], ...fresh }))],
    ['self', context(chain.selfSigned({ names: ['self.tls.example.com'], ...fresh }), false)],
  ]);
  const fallback = contexts.get('good') as SecureContext;
  const server: Server = createServer(
    {
      SNICallback(servername, done) {
        const name = servername.split('.')[0] ?? '';
        if (name === 'broken') return done(new Error('no certificate for this name'));
        done(null, contexts.get(name) ?? fallback);
      },
      cert: chain.intermediate.cert,
      key: chain.intermediate.key,
    },
    (_req, res) => {
      res.writeHead(200, {
        'strict-transport-security': 'max-age=63072000; includeSubDomains',
        'content-type': 'text/plain',
      });
      res.end('ok');
    },
  );
  // A handshake that fails is the test's point, not an error of the host.
  server.on('tlsClientError', () => {});
  server.listen(listenPort, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    allow: `127.0.0.1:${port}`,
    chain,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

/** The stub resolver, the TLS host, and the probes that use them. */
export interface AuditNet {
  readonly dns: StubDns;
  readonly tls: TlsHost;
  readonly probes: Probes;
  close(): Promise<void>;
}

/**
 * Start the stub resolver and the TLS host, and the probes of a test app: DNS through
 * the stub, TLS audits on the host's port (`TLS_AUDIT_PORT`), which the guard's test
 * allowlist opens for 127.0.0.1 only.
 */
export async function startAuditNet(
  options: { trustTestRoot?: boolean; dnsPort?: number; tlsPort?: number } = {},
): Promise<AuditNet> {
  const dns = await startStubDns(auditZone(), options.dnsPort ?? 0);
  const tls = await startTlsHost(options.tlsPort ?? 0);
  const probes = createProbes({
    dnsResolver: dns.server,
    safeFetchAllow: tls.allow,
    tlsPort: tls.port,
    dnsTimeoutMs: 300,
    ...(options.trustTestRoot ? { extraCa: [tls.chain.root.cert] } : {}),
  });
  return {
    dns,
    tls,
    probes,
    async close() {
      await tls.close();
      await dns.close();
    },
  };
}
