/**
 * What `service.bench.ts` and `x402.bench.ts` share: the inline content they notarize,
 * the enterprise key they call the key door with, and how they print numbers.
 */
import { request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';

/** About 200 bytes of inline content to notarize. */
export const NOTARIZE_CONTENT =
  'Invoice 2026-0314 for order 88412: 3 x grinder burr set (SKU BG-44) and 1 x descaling kit. ' +
  'Total EUR 184.50 incl. VAT, paid by card ending 4242 on 14 March 2026. Ship to 12 Quay Road.';

/**
 * Mint a live key and move it to the enterprise tier through the operator API: neither
 * credits nor (with a large `ENTERPRISE_PER_MINUTE`) the rate window stop a run.
 */
export async function enterpriseKey(
  base: string,
  adminToken: string,
  from?: string,
): Promise<{ key: string; keyId: string }> {
  const minted = await post(`${base}/api/dev/keys?live=true&label=bench`, from);
  const body = JSON.parse(minted.text) as { ok: boolean; key: string; keyId: string };
  if (minted.status !== 201 || !body.ok) throw new Error(`minting a key: ${minted.status}`);
  const tier = await fetch(`${base}/admin/keys/${body.keyId}/tier`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tier: 'enterprise' }),
  });
  const set = (await tier.json()) as { ok: boolean; tier: string };
  if (!tier.ok || set.tier !== 'enterprise') {
    throw new Error(`setting the enterprise tier: ${tier.status} ${JSON.stringify(set)}`);
  }
  return { key: body.key, keyId: body.keyId };
}

/**
 * A bodiless POST, sent from the loopback address `from` when given: the service mints
 * at most 20 keys an hour per client address, so a benchmark that needs more keys sends
 * from 127.0.0.2, 127.0.0.3, … (all of 127.0.0.0/8 is loopback on Linux).
 */
function post(url: string, from: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', localAddress: from }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The calls the service has recorded on a key, through the operator API. */
export async function keyCalls(base: string, adminToken: string, keyId: string): Promise<number> {
  const answer = await fetch(`${base}/admin/keys/${keyId}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const body = (await answer.json()) as { calls: number };
  return body.calls;
}

/** The load averages (1, 5, 15 min), for the machine line. */
export function loadText(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** Milliseconds with 3 significant-ish digits: `0.839`, `4.57`, `10.1`, `184`. */
export function fmt(ms: number): string {
  const abs = Math.abs(ms);
  return abs >= 100
    ? ms.toFixed(0)
    : abs >= 10
      ? ms.toFixed(1)
      : abs >= 1
        ? ms.toFixed(2)
        : ms.toFixed(3);
}

/** A difference in ms with its sign: `+1.23` / `-0.45`. */
export function signed(ms: number): string {
  return `${ms >= 0 ? '+' : '-'}${fmt(Math.abs(ms))}`;
}
