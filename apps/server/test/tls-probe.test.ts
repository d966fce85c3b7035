import { auditTls } from '@storefront/tls-audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherTls } from '../src/probes/tls.js';
import { type AuditNet, startAuditNet } from './hosts.js';

let net: AuditNet;
let trusting: AuditNet;
beforeAll(async () => {
  net = await startAuditNet();
  trusting = await startAuditNet({ trustTestRoot: true });
}, 60_000);
afterAll(async () => {
  await net?.close();
  await trusting?.close();
});

const at = () => new Date().toISOString();
const gather = (domain: string, on = net) =>
  gatherTls(domain, on.probes, { signal: AbortSignal.timeout(5000) });

describe('gatherTls through the guard, against the loopback TLS host', () => {
  it('reads the chain, protocol, cipher and HSTS; the test root is no trusted root', async () => {
    const facts = await gather('good.tls.example.com');
    if (!facts.ok) throw new Error(facts.message);
    expect(facts.chain).toHaveLength(2);
    expect(facts.protocol).toBe('TLSv1.3');
    expect(facts.authorized).toBe(false);
    expect(facts.authorizationError).toBe('UNABLE_TO_GET_ISSUER_CERT_LOCALLY');
    expect(facts.ocspStapled).toBe(false);
    expect(facts.hsts).toStrictEqual({
      status: 200,
      values: ['max-age=63072000; includeSubDomains'],
      error: null,
    });
    const result = auditTls(facts, { at: at() });
    if (!result.ok) throw new Error(result.message);
    expect(result.data).toMatchObject({ nameMatches: true, trusted: false, grade: 'F' });
    expect(result.data.chain[0]).toMatchObject({
      subject: 'CN=good.tls.example.com',
      issuer: 'CN=Storefront Test Intermediate CA',
      subjectAltNames: ['good.tls.example.com'],
      keyType: 'rsa',
      keyBits: 2048,
      signatureAlgorithm: 'sha256WithRSAEncryption',
    });
  });

  it('verifies the same chain once the test root is trusted (tests only), grading it A', async () => {
    const facts = await gather('good.tls.example.com', trusting);
    if (!facts.ok) throw new Error(facts.message);
    expect(facts.authorized).toBe(true);
    const result = auditTls(facts, { at: at() });
    if (!result.ok) throw new Error(result.message);
    // Everything passes but OCSP stapling (2 points): 98%.
    expect(result.data).toMatchObject({ trusted: true, grade: 'A', score: 98 });
    expect(result.data.findings.map((f) => f.check)).toStrictEqual(['ocsp-stapling']);
  });

  it('reports an expired, a mismatched and a self-signed certificate', async () => {
    const expired = auditTls(await gather('expired.tls.example.com', trusting), { at: at() });
    const mismatch = auditTls(await gather('mismatch.tls.example.com', trusting), { at: at() });
    const self = auditTls(await gather('self.tls.example.com', trusting), { at: at() });
    if (!expired.ok || !mismatch.ok || !self.ok) throw new Error('no handshake');
    expect(expired.data.trustError).toBe('CERT_HAS_EXPIRED');
    expect(expired.data.chain[0]?.daysLeft).toBeLessThan(0);
    expect(expired.data.checks.find((c) => c.id === 'valid-now')?.pass).toBe(false);
    expect(mismatch.data).toMatchObject({ nameMatches: false, trusted: true, grade: 'F' });
    expect(self.data).toMatchObject({ trusted: false, trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(self.data.chain[0]?.selfIssued).toBe(true);
    for (const result of [expired, mismatch, self]) expect(result.data.grade).toBe('F');
  });

  it('fails a broken handshake, an unknown name and a private address, and stops on abort', async () => {
    expect(await gather('broken.tls.example.com')).toMatchObject({ ok: false, error: 'tls_error' });
    expect(await gather('missing.tls.example.com')).toMatchObject({
      ok: false,
      error: 'dns_failure',
    });
    expect(await gather('private.example.com')).toMatchObject({
      ok: false,
      error: 'blocked_ssrf',
      message: expect.stringContaining('private address'),
    });
    // A loopback literal is refused unless it is the allowlisted pair.
    expect(await gather('127.0.0.2')).toMatchObject({ ok: false, error: 'blocked_ssrf' });
    const aborted = await gatherTls('good.tls.example.com', net.probes, {
      signal: AbortSignal.abort(),
    });
    expect(aborted).toMatchObject({ ok: false, error: 'timeout' });
  });
});
