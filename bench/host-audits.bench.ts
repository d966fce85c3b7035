import { Resolver } from 'node:dns/promises';
import { cpus } from 'node:os';
import { connect } from 'node:tls';
import { auditDns, gatherDns } from '@storefront/dns-audit';
import { auditTls } from '@storefront/tls-audit';
import { Bench } from 'tinybench';
import { gatherTls } from '../apps/server/src/probes/tls.js';
import { startAuditNet } from '../apps/server/test/hosts.js';
import { machine, measured, printTable } from './lib/report.js';

/**
 * The host audits (issue 19) next to the plain Node calls they are built on, on
 * loopback, in one run: a `/buy/tls` audit (the SSRF check, a handshake with the chain,
 * OCSP and a HEAD for HSTS, then the graded audit) next to a bare `tls.connect`
 * handshake with the same host and name; and a `/buy/dns` audit (11 queries over the
 * wire client, then the graded audit) next to `node:dns` `Resolver` asking the same 11
 * questions of the same stub resolver.
 */
export async function hostAuditsBenchmark(options: { time: number }): Promise<void> {
  const net = await startAuditNet();
  try {
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([net.dns.server]);
    const domain = 'good.example.com';
    const settle = (p: Promise<unknown>) => p.catch(() => null);
    const plainDns = () =>
      Promise.all([
        settle(resolver.resolve4(domain)),
        settle(resolver.resolve6(domain)),
        settle(resolver.resolveCname(domain)),
        settle(resolver.resolveNs(domain)),
        settle(resolver.resolveMx(domain)),
        settle(resolver.resolveCaa(domain)),
        settle(resolver.resolveTxt(domain)),
        settle(resolver.resolveTxt(`_dmarc.${domain}`)),
        settle(resolver.resolveTxt(`_mta-sts.${domain}`)),
        settle(resolver.resolveTxt(`_smtp._tls.${domain}`)),
      ]).then(() => settle(resolver.resolveTxt('_spf.mail.example.net')));
    const ourDns = async () => {
      const facts = await gatherDns(domain, net.probes.dns);
      const result = auditDns(facts);
      if (!result.ok || facts.answers.length !== 11) throw new Error('dns audit failed');
    };
    const plainTls = () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect({
          host: '127.0.0.1',
          port: net.tls.port,
          servername: 'good.tls.example.com',
          rejectUnauthorized: false,
        });
        socket.once('secureConnect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      });
    const ourTls = async () => {
      const facts = await gatherTls('good.tls.example.com', net.probes, {
        signal: AbortSignal.timeout(5000),
      });
      const result = auditTls(facts, { at: new Date().toISOString() });
      if (!result.ok) throw new Error(`tls audit failed: ${result.message}`);
    };
    // Both must work before their speed means anything.
    await ourDns();
    await plainDns();
    await ourTls();
    await plainTls();

    const bench = new Bench({ time: options.time, warmupTime: 300 });
    bench.add('tls.connect handshake (plain)', plainTls);
    bench.add('storefront tls audit (guard, handshake, HEAD, grade)', ourTls);
    bench.add('node:dns Resolver, same 11 queries', plainDns);
    bench.add('storefront dns audit (11 queries, grade)', ourDns);
    await bench.run();
    const rows = measured(bench);
    printTable(`host audits on loopback (${machine()}, ${cpus().length} cores)`, rows);
    const mean = (name: string) => rows.find((r) => r.name.startsWith(name))?.meanMs ?? Number.NaN;
    console.log(
      `tls audit / plain handshake: ${(mean('storefront tls') / mean('tls.connect')).toFixed(2)}x; dns audit / plain Resolver: ${(mean('storefront dns') / mean('node:dns')).toFixed(2)}x`,
    );
  } finally {
    await net.close();
  }
}
