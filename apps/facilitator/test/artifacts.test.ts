import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  CONTRACT_NAMES,
  CONTRACTS_DIR,
  compileContracts,
  serializeArtifact,
} from '../scripts/compile-contracts.js';
import { MULTICALL3, PERMIT2, TEST_USDC, UPTO_PERMIT2_PROXY } from '../src/contracts.js';

// Loading solc-js and compiling takes a few seconds of CPU, much longer on a busy machine.
const COMPILE_TIMEOUT_MS = 180_000;

test(
  'the committed artifacts are exactly what the sources compile to',
  () => {
    const fresh = compileContracts();
    expect(fresh.map((artifact) => artifact.contractName)).toEqual([...CONTRACT_NAMES]);
    for (const artifact of fresh) {
      const committed = readFileSync(join(CONTRACTS_DIR, `${artifact.contractName}.json`), 'utf8');
      // Run `pnpm --filter @storefront/facilitator compile:contracts` after editing a `.sol`.
      expect(committed, `${artifact.contractName}.json is stale`).toBe(serializeArtifact(artifact));
    }
  },
  COMPILE_TIMEOUT_MS,
);

test('the stack deploys the committed artifacts', () => {
  for (const [name, contract] of [
    ['TestUSDC', TEST_USDC],
    ['Multicall3', MULTICALL3],
    ['Permit2', PERMIT2],
    ['X402UptoPermit2Proxy', UPTO_PERMIT2_PROXY],
  ] as const) {
    const committed = JSON.parse(readFileSync(join(CONTRACTS_DIR, `${name}.json`), 'utf8'));
    expect(contract.bytecode).toBe(committed.bytecode);
    expect(contract.deployedBytecode).toBe(committed.deployedBytecode);
    expect(contract.bytecode.length).toBeGreaterThan(2);
  }
});
