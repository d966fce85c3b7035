import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../src/index.js';
import { openSockets } from './fixture-server.js';

/** Whether the openssl command is there to make a throwaway certificate. */
function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())('TLS against a self-signed loopback server', () => {
  let server: https.Server;
  let port: number;
  let fetcher: Fetcher;
  const serverNames: string[] = [];
  const lookups: string[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'safe-fetch-tls-'));
    try {
      // A fresh self-signed certificate for this run only; nothing is stored in the repo.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=fixture.test',
        ],
        { stdio: 'ignore' },
      );
      server = https.createServer(
        {
          key: readFileSync(join(dir, 'key.pem')),
          cert: readFileSync(join(dir, 'cert.pem')),
          SNICallback: (name, done) => {
            serverNames.push(name);
            done(null, null as never);
          },
        },
        (_req, res) => res.end('secret'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    fetcher = createFetcher({
      testOnlyAllow: [{ ip: '127.0.0.1', port }],
      timeoutMs: 2000,
      lookup: (hostname, _options, callback) => {
        lookups.push(hostname);
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      },
    });
  });

  afterAll(async () => {
    await fetcher?.close();
    server?.closeAllConnections();
    server?.close();
    expect(await openSockets()).toStrictEqual([]);
  });

  it('fails an untrusted certificate with tls_error', async () => {
    const result = await fetcher.fetch(`https://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ ok: false, error: 'tls_error' });
    if (!result.ok) {
      expect(result.message).toBe(
        'TLS handshake with `127.0.0.1` failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
      );
    }
  });

  it('pins the checked address but keeps the name for SNI', async () => {
    serverNames.length = 0;
    lookups.length = 0;
    const result = await fetcher.fetch(`https://fixture.test:${port}/`);
    expect(result).toMatchObject({ ok: false, error: 'tls_error' });
    expect(serverNames).toStrictEqual(['fixture.test']);
    expect(lookups).toStrictEqual(['fixture.test']);
  });
});
