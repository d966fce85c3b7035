import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher } from '@storefront/safe-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssrfSelfCheck } from '../src/self-check.js';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('ssrfSelfCheck', () => {
  it('passes when the fetcher refuses the service’s own loopback port (the default wiring)', async () => {
    const fetcher = createFetcher();
    try {
      expect(await ssrfSelfCheck(fetcher, port)).toBeNull();
    } finally {
      await fetcher.close();
    }
  });

  it('fails when a test allowlist opens the service’s own port', async () => {
    const fetcher = createFetcher({ testOnlyAllow: `127.0.0.1:${port}` });
    try {
      expect(await ssrfSelfCheck(fetcher, port)).toMatch(/SSRF guard is open/);
    } finally {
      await fetcher.close();
    }
  });
});
