/**
 * Run the development payment stack on its own and print where everything is, until
 * interrupted. Development only.
 * Usage: node dist/main.js [--port N] [--chain-port N] [--host ADDRESS]
 */
import { parseArgs } from 'node:util';
import { DEV_TOKEN_DECIMALS } from './contracts.js';
import { startPaymentStack } from './stack.js';

function portOption(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`\`--${name}\` must be a port number (0 to 65535), got \`${value}\``);
  }
  return port;
}

function usdc(amount: bigint): string {
  const unit = 10n ** BigInt(DEV_TOKEN_DECIMALS);
  const fraction = (amount % unit).toString().padStart(DEV_TOKEN_DECIMALS, '0');
  return `${amount / unit}.${fraction} USDC`;
}

async function main(): Promise<void> {
  // pnpm passes a `--` before the script's arguments through (`pnpm start -- --port 1`).
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : args,
    options: {
      port: { type: 'string' },
      'chain-port': { type: 'string' },
      host: { type: 'string' },
    },
  });
  const stack = await startPaymentStack({
    port: portOption(values.port, 'port'),
    chainPort: portOption(values['chain-port'], 'chain-port'),
    ...(values.host ? { host: values.host } : {}),
  });
  const lines = [
    'x402 payment stack (development only: test USDC on a local chain, never real money)',
    `  facilitator  ${stack.facilitatorUrl}  (POST /verify, POST /settle, GET /supported)`,
    `  chain RPC    ${stack.rpcUrl}  (chain id ${stack.chainId}, ${stack.network}, v1 "${stack.networkV1}")`,
    `  asset        ${stack.asset}  (test USDC, EIP-712 "${stack.extra.name}" version "${stack.extra.version}")`,
    `  payTo        ${stack.payTo}`,
    `  payer        ${stack.payer.address}  holds ${usdc(await stack.balanceOf(stack.payer.address))}, has approved Permit2`,
    `  payer key    ${stack.payer.privateKey}  (public development key)`,
    `  Permit2      ${stack.permit2}  (upto proxy ${stack.uptoProxy})`,
    `  batch        ${stack.batchSettlement}  (receiver authorizer ${stack.receiverAuthorizer})`,
    `  facilitator wallet ${stack.facilitatorAddress}`,
  ];
  console.log(lines.join('\n'));
  const stop = () => {
    void stack.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`payment stack: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
