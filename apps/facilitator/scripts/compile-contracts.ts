/**
 * Compile the package's Solidity contracts with solc-js and write their artifacts (ABI and
 * bytecode) beside the sources, in `src/contracts/<Name>.json`. The artifacts are committed,
 * so running the stack needs no compiler; `test/artifacts.test.ts` compiles again and
 * compares, so a source change without a new artifact fails the tests.
 * Usage: pnpm --filter @storefront/facilitator compile:contracts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

/** Where the `.sol` sources and their `.json` artifacts live. */
export const CONTRACTS_DIR = resolve(import.meta.dirname, '..', 'src', 'contracts');

/** The contracts compiled, each from `<Name>.sol` into `<Name>.json`. */
export const CONTRACT_NAMES = [
  'TestUSDC',
  'Multicall3',
  'Permit2',
  'X402UptoPermit2Proxy',
  'X402BatchSettlement',
  'ERC3009DepositCollector',
  'Permit2DepositCollector',
] as const;

/**
 * `paris` has no PUSH0 (Solidity 0.8.20 and later emit it for `shanghai`), so the bytecode
 * runs on any chain or local node from the Merge on. The optimizer is on, as for a real token.
 */
const SETTINGS = {
  evmVersion: 'paris',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

/** One compiled contract as committed: enough to deploy it and to call it. */
export interface ContractArtifact {
  contractName: string;
  sourceName: string;
  compiler: { version: string; evmVersion: string; optimizer: { enabled: boolean; runs: number } };
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: unknown[];
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
      }
    >
  >;
}

/** Compile every contract; throws with the compiler's messages on any error or warning. */
export function compileContracts(): ContractArtifact[] {
  const sources = Object.fromEntries(
    CONTRACT_NAMES.map((name) => [
      `${name}.sol`,
      { content: readFileSync(join(CONTRACTS_DIR, `${name}.sol`), 'utf8') },
    ]),
  );
  const input = { language: 'Solidity', sources, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  // Warnings fail too: a contract that compiles with warnings is one nobody read twice.
  const problems = (output.errors ?? []).filter((e) => e.severity !== 'info');
  if (problems.length > 0) {
    throw new Error(`solc reported:\n${problems.map((e) => e.formattedMessage).join('\n')}`);
  }
  return CONTRACT_NAMES.map((name) => {
    const sourceName = `${name}.sol`;
    const compiled = output.contracts?.[sourceName]?.[name];
    if (!compiled) throw new Error(`solc produced no contract \`${name}\` from \`${sourceName}\``);
    return {
      contractName: name,
      sourceName,
      compiler: {
        version: solc.version(),
        evmVersion: SETTINGS.evmVersion,
        optimizer: SETTINGS.optimizer,
      },
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
    };
  });
}

/** The exact bytes written for an artifact: pretty JSON with a final newline. */
export function serializeArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

function main(): void {
  for (const artifact of compileContracts()) {
    const path = join(CONTRACTS_DIR, `${artifact.contractName}.json`);
    writeFileSync(path, serializeArtifact(artifact));
    console.log(`wrote ${path} (${(artifact.deployedBytecode.length - 2) / 2} bytes of code)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
