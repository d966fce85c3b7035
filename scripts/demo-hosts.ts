/**
 * A stub DNS resolver (UDP 127.0.0.1:4053) and a loopback HTTPS host (127.0.0.1:4443)
 * for trying /buy/dns and /buy/tls locally: the fixture zone and certificates of the
 * server's tests (good.example.com, heavy.example.org, good.tls.example.com,
 * expired.tls.example.com, …). Start Storefront with the variables this prints.
 * Usage: node --conditions=@storefront/source --import tsx scripts/demo-hosts.ts
 */
import { startAuditNet } from '../apps/server/test/hosts.js';

const net = await startAuditNet({ dnsPort: 4053, tlsPort: 4443 });
console.log(`Demo DNS resolver on ${net.dns.server}, demo TLS host on ${net.tls.allow}`);
console.log(
  `Start Storefront with: DNS_RESOLVER=${net.dns.server} TLS_AUDIT_PORT=${net.tls.port} SAFE_FETCH_ALLOW=${net.tls.allow}`,
);
const stop = () => net.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
