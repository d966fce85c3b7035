import { zoneQuery } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { auditDns, checkDnsDomain, type DnsQuery, gatherDns } from '../src/index.js';
import { ZONE } from './zones.js';

const answer = zoneQuery(ZONE);

/** The zone's answers; a dropped name waits for the signal, as a silent resolver would. */
const zone: DnsQuery = (name, type, signal) =>
  answer(name, type).then((found) =>
    found.rcode !== 'TIMEOUT' || signal === undefined
      ? found
      : new Promise((resolve) => {
          const done = () => resolve(found);
          if (signal.aborted) done();
          else signal.addEventListener('abort', done, { once: true });
        }),
  );

describe('gatherDns over a query function', () => {
  it('reads every apex record, the policy names and the SPF includes, with the AD flag', async () => {
    const query = zone;
    const facts = await gatherDns('Good.Example.com.', query);
    expect(facts.domain).toBe('good.example.com');
    expect(facts.capped).toBe(false);
    expect(facts.answers.map((a) => `${a.name} ${a.type}`)).toStrictEqual([
      'good.example.com A',
      'good.example.com AAAA',
      'good.example.com CNAME',
      'good.example.com NS',
      'good.example.com MX',
      'good.example.com CAA',
      'good.example.com TXT',
      '_dmarc.good.example.com TXT',
      '_mta-sts.good.example.com TXT',
      '_smtp._tls.good.example.com TXT',
      '_spf.mail.example.net TXT',
    ]);
    const mx = facts.answers.find((a) => a.type === 'MX');
    expect(mx).toMatchObject({ rcode: 'NOERROR', ad: true });
    expect([...(mx?.records ?? [])].sort()).toStrictEqual([
      '10 mx1.good.example.com',
      '20 mx2.good.example.com',
    ]);
    const result = auditDns(facts);
    if (!result.ok) throw new Error(result.message);
    expect(result.data).toMatchObject({ grade: 'A', score: 100, dnssec: { authenticated: true } });
    expect(result.data.spf).toMatchObject({ valid: true, lookups: 2, all: '-' });
    expect(result.data.dmarc).toMatchObject({ policy: 'reject', dkimAlignment: 's' });
  });

  it('follows an SPF include chain and counts its lookups past the limit of 10', async () => {
    const query = zone;
    const result = auditDns(await gatherDns('heavy.example.org', query));
    if (!result.ok) throw new Error(result.message);
    // mx + include (2) + 4 levels of (a, a) and 3 further includes: 1 + 1 + 8 + 3 = 13.
    expect(result.data.spf).toMatchObject({
      lookups: 13,
      lookupLimitExceeded: true,
      lookupsComplete: true,
    });
    expect(result.data.checks.find((c) => c.id === 'spf-lookups')?.pass).toBe(false);
  });

  it('stops at the query cap and says the count is a lower bound', async () => {
    const query = zone;
    const facts = await gatherDns('heavy.example.org', query, { maxQueries: 12 });
    expect(facts.answers).toHaveLength(12);
    expect(facts.capped).toBe(true);
    const result = auditDns(facts);
    if (!result.ok) throw new Error(result.message);
    expect(result.data.spf.lookupsComplete).toBe(false);
    expect(result.data.queries).toBe(12);
  });

  it('reports NXDOMAIN as dns_failure and silence as timeout', async () => {
    const query = zone;
    const missing = auditDns(await gatherDns('missing.example.org', query));
    expect(missing).toMatchObject({ ok: false, error: 'dns_failure' });
    const slow = auditDns(await gatherDns('slow.example.org', query));
    expect(slow).toMatchObject({ ok: false, error: 'timeout' });
  });

  it('ends every query at once when the signal aborts', async () => {
    const query = zone;
    const controller = new AbortController();
    const gathering = gatherDns('slow.example.org', query, { signal: controller.signal });
    controller.abort();
    const facts = await gathering;
    const apex = facts.answers.filter((a) => a.name === 'slow.example.org');
    expect(apex).toHaveLength(7);
    expect(apex.every((a) => a.rcode === 'TIMEOUT')).toBe(true);
  });

  it('asks the apex and policy names once each and no name twice', async () => {
    const asked: string[] = [];
    const counting: DnsQuery = (name, type, signal) => {
      asked.push(`${name} ${type}`);
      return zone(name, type, signal);
    };
    await gatherDns('heavy.example.org', counting);
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toHaveLength(14);
  });
});

describe('checkDnsDomain', () => {
  it('takes names and refuses addresses and bad labels', () => {
    expect(checkDnsDomain('Example.COM.')).toStrictEqual({ ok: true, domain: 'example.com' });
    expect(checkDnsDomain('192.0.2.1')).toMatchObject({ ok: false });
    expect(checkDnsDomain('[2001:db8::1]')).toMatchObject({ ok: false });
    expect(checkDnsDomain('a..b')).toMatchObject({ ok: false });
    expect(checkDnsDomain(`${'a'.repeat(64)}.com`)).toMatchObject({ ok: false });
    expect(checkDnsDomain(`${'a.'.repeat(127)}a`)).toMatchObject({ ok: false });
  });
});
