import type { Fetcher } from '@storefront/safe-fetch';

/**
 * Prove the SSRF guard is closed: fetching the service's own loopback port must be
 * refused with `blocked_ssrf`. Production runs it at start-up and refuses to serve
 * when the guard lets the request through (an allowlist left open, a broken build).
 */
export async function ssrfSelfCheck(fetcher: Fetcher, port: number): Promise<string | null> {
  const result = await fetcher.fetch(`http://127.0.0.1:${port}/healthz`);
  if (!result.ok && result.error === 'blocked_ssrf') return null;
  return result.ok
    ? `the fetcher reached its own port ${port}: the SSRF guard is open`
    : `the fetcher answered \`${result.error}\` instead of \`blocked_ssrf\` for its own port ${port}`;
}
