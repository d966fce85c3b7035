import { signBenchmark } from './sign.bench.js';

/**
 * Run every benchmark and print its numbers next to the alternative a user would
 * pick. `--quick` shortens each measurement; `--check` exits 1 when a target is missed.
 */
const args = new Set(process.argv.slice(2));
const time = args.has('--quick') ? 500 : 3000;

const sign = await signBenchmark({ time });
if (args.has('--check') && sign.ratio > 1.2) {
  console.error(`signing target missed: ${sign.ratio.toFixed(3)}x > 1.20x`);
  process.exitCode = 1;
}
