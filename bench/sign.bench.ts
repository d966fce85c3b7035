import { cpus } from 'node:os';
import { createSigner } from '@storefront/attest';
import { Wallet } from 'ethers';
import { Bench } from 'tinybench';
import { type Measured, machine, measured, printTable } from './lib/report.js';

/**
 * Receipt signing: our signer (sha256 of the text, a fresh 128-bit nonce, the
 * versioned message, EIP-191 signature, attestation object) next to what a user
 * would write by hand: `await new Wallet(key).signMessage(message)` on a message of
 * the same shape. Target: ours costs at most 1.2x the bare call.
 */
export async function signBenchmark(options: {
  time: number;
}): Promise<{ ratio: number; rows: Measured[] }> {
  const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
  const wallet = new Wallet(key);
  const signer = createSigner(key);
  // A typical product text: about 20 KB of article text.
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(350);
  const meta = {
    route: 'fetch',
    url: 'https://example.com/articles/2026/some-story',
    status: 200,
    fetchedAt: new Date().toISOString(),
  };
  const sample = signer.sign(text, meta).verify.message;

  const bench = new Bench({ time: options.time, warmupTime: 300 });
  for (let round = 1; round <= 2; round++) {
    bench.add(`ethers Wallet.signMessage (bare) #${round}`, async () => {
      await wallet.signMessage(sample);
    });
    bench.add(`storefront signer.sign #${round}`, () => {
      signer.sign(text, meta);
    });
  }
  await bench.run();
  const rows = measured(bench);
  const mean = (prefix: string) => {
    const hits = rows.filter((r) => r.name.startsWith(prefix));
    return hits.reduce((sum, r) => sum + r.meanMs, 0) / hits.length;
  };
  const ratio = mean('storefront') / mean('ethers');
  printTable(`Receipt signing, ${text.length} B text (${machine()}, ${cpus().length} cores)`, rows);
  console.log(
    `storefront / bare ethers (mean latency): ${ratio.toFixed(3)}x  (target <= 1.20x: ${ratio <= 1.2 ? 'met' : 'NOT met'})`,
  );
  return { ratio, rows };
}
