import {
  findDefaultAsset,
  BATCH_SETTLEMENT_ADDRESS as OFFICIAL_BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS as OFFICIAL_ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  PERMIT2_ADDRESS as OFFICIAL_PERMIT2_ADDRESS,
  x402UptoPermit2ProxyABI,
  x402UptoPermit2ProxyAddress,
} from '@x402/evm';
import { getPermit2AllowanceReadParams } from '@x402/evm/upto/client';
import { createPublicClient, http, maxUint256 } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BATCH_SETTLEMENT,
  BATCH_SETTLEMENT_ADDRESS,
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_PAY_TO,
  DEV_PAYER,
  DEV_PAYER_START_BALANCE,
  DEV_RECEIVER_AUTHORIZER,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_DEPLOYMENT_ADDRESS,
  devChain,
  ERC3009_DEPOSIT_COLLECTOR,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  type PaymentStack,
  PERMIT2,
  PERMIT2_ADDRESS,
  PERMIT2_DEPOSIT_COLLECTOR,
  PERMIT2_DEPOSIT_COLLECTOR_ADDRESS,
  startPaymentStack,
  TEST_USDC,
  UPTO_PERMIT2_PROXY,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from '../src/index.js';

describe('startPaymentStack', () => {
  let stack: PaymentStack;

  beforeAll(async () => {
    stack = await startPaymentStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  test('answers with the development terms, on 127.0.0.1', () => {
    expect(stack).toMatchObject({
      network: 'eip155:8453',
      networkV1: 'base',
      chainId: 8453,
      asset: DEV_TOKEN_ADDRESS,
      extra: { name: 'USD Coin', version: '2' },
      payTo: DEV_PAY_TO,
      payer: DEV_PAYER,
      permit2: PERMIT2_ADDRESS,
      uptoProxy: UPTO_PERMIT2_PROXY_ADDRESS,
      batchSettlement: BATCH_SETTLEMENT_ADDRESS,
      receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address,
      facilitatorAddress: DEV_FACILITATOR.address,
    });
    expect(stack.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.facilitatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('deploys the token in the deployer’s first transaction and moves it to USDC’s address', async () => {
    const client = stack.chain.publicClient;
    const deployment = await client.getTransactionReceipt({
      hash: (await client.getBlock({ blockNumber: 1n })).transactions[0]!,
    });
    expect(deployment.from.toLowerCase()).toBe(DEV_DEPLOYER.address.toLowerCase());
    expect(deployment.contractAddress?.toLowerCase()).toBe(
      DEV_TOKEN_DEPLOYMENT_ADDRESS.toLowerCase(),
    );
    // The deployed code differs from the artifact's only in the immutable `minter`, filled in
    // at deployment; it now lives at USDC's address on Base alone.
    expect(DEV_TOKEN_ADDRESS).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(await client.getCode({ address: DEV_TOKEN_ADDRESS })).toHaveLength(
      TEST_USDC.deployedBytecode.length,
    );
    expect(await client.getCode({ address: DEV_TOKEN_DEPLOYMENT_ADDRESS })).toBeUndefined();
    expect(
      await client.readContract({
        address: DEV_TOKEN_ADDRESS,
        abi: TEST_USDC.abi,
        functionName: 'minter',
      }),
    ).toBe(DEV_DEPLOYER.address);
  });

  test('is the default USDC of the official x402 client on eip155:8453, EIP-712 domain and all', () => {
    const usdc = findDefaultAsset(DEV_TOKEN_ADDRESS, 'eip155:8453');
    expect(usdc).toMatchObject({ symbol: 'USDC', decimals: 6, ...stack.extra });
  });

  test('writes Permit2 and the upto proxy at the addresses the official x402 packages use', async () => {
    expect(PERMIT2_ADDRESS).toBe(OFFICIAL_PERMIT2_ADDRESS);
    expect(PERMIT2_ADDRESS).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3');
    expect(UPTO_PERMIT2_PROXY_ADDRESS).toBe(x402UptoPermit2ProxyAddress);
    expect(UPTO_PERMIT2_PROXY_ADDRESS).toBe('0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002');
    const client = stack.chain.publicClient;
    expect(await client.getCode({ address: PERMIT2_ADDRESS })).toBe(PERMIT2.deployedBytecode);
    expect(await client.getCode({ address: UPTO_PERMIT2_PROXY_ADDRESS })).toBe(
      UPTO_PERMIT2_PROXY.deployedBytecode,
    );
    // The proxy talks to Permit2 at its canonical address, a constant of its code.
    expect(
      await client.readContract({
        address: UPTO_PERMIT2_PROXY_ADDRESS,
        abi: x402UptoPermit2ProxyABI,
        functionName: 'PERMIT2',
      }),
    ).toBe(PERMIT2_ADDRESS);
  });

  test('writes the batch-settlement contract and its deposit collectors at the addresses the official x402 packages use', async () => {
    expect(BATCH_SETTLEMENT_ADDRESS).toBe(OFFICIAL_BATCH_SETTLEMENT_ADDRESS);
    expect(BATCH_SETTLEMENT_ADDRESS).toBe('0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003');
    expect(ERC3009_DEPOSIT_COLLECTOR_ADDRESS).toBe(OFFICIAL_ERC3009_DEPOSIT_COLLECTOR_ADDRESS);
    expect(ERC3009_DEPOSIT_COLLECTOR_ADDRESS).toBe('0x4020806089470a89826cB9fB1f4059150b550004');
    expect(PERMIT2_DEPOSIT_COLLECTOR_ADDRESS).toBe('0x4020425FAf3B746C082C2f942b4E5159887B0005');
    const client = stack.chain.publicClient;
    for (const [address, contract] of [
      [BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT],
      [ERC3009_DEPOSIT_COLLECTOR_ADDRESS, ERC3009_DEPOSIT_COLLECTOR],
      [PERMIT2_DEPOSIT_COLLECTOR_ADDRESS, PERMIT2_DEPOSIT_COLLECTOR],
    ] as const) {
      expect(await client.getCode({ address })).toBe(contract.deployedBytecode);
    }
    // Each collector hands deposits to the settlement contract at its fixed address, a constant.
    for (const [address, contract] of [
      [ERC3009_DEPOSIT_COLLECTOR_ADDRESS, ERC3009_DEPOSIT_COLLECTOR],
      [PERMIT2_DEPOSIT_COLLECTOR_ADDRESS, PERMIT2_DEPOSIT_COLLECTOR],
    ] as const) {
      expect(
        await client.readContract({ address, abi: contract.abi, functionName: 'SETTLEMENT' }),
      ).toBe(BATCH_SETTLEMENT_ADDRESS);
    }
  });

  test('the payer has approved Permit2 on the token without limit, as a wallet does once', async () => {
    const allowance = await stack.chain.publicClient.readContract(
      getPermit2AllowanceReadParams({
        tokenAddress: DEV_TOKEN_ADDRESS,
        ownerAddress: DEV_PAYER.address,
      }),
    );
    expect(allowance).toBe(maxUint256);
  });

  test('funds the payer with 1,000 test USDC and nobody else', async () => {
    expect(DEV_PAYER_START_BALANCE).toBe(1_000_000_000n);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(DEV_PAYER_START_BALANCE);
    expect(await stack.balanceOf(DEV_PAY_TO)).toBe(0n);
  });

  test('mint adds to a balance', async () => {
    const before = await stack.balanceOf(DEV_FACILITATOR.address);
    await stack.mint(DEV_FACILITATOR.address, 42n);
    expect(await stack.balanceOf(DEV_FACILITATOR.address)).toBe(before + 42n);
  });

  test('serves the chain over HTTP JSON-RPC to other clients', async () => {
    const client = createPublicClient({
      chain: devChain(stack.rpcUrl),
      transport: http(stack.rpcUrl),
    });
    expect(await client.getChainId()).toBe(8453);
    expect(
      await client.readContract({
        address: DEV_TOKEN_ADDRESS,
        abi: TEST_USDC.abi,
        functionName: 'balanceOf',
        args: [DEV_PAYER.address],
      }),
    ).toBe(await stack.balanceOf(DEV_PAYER.address));
  });

  test('answers JSON-RPC batches in order, and errors as JSON-RPC errors', async () => {
    const response = await fetch(stack.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: [] },
      ]),
    });
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x2105' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: expect.stringContaining('no_such_method') },
      },
    ]);
    const garbage = await fetch(stack.rpcUrl, { method: 'POST', body: '{nope' });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: { code: -32700 } });
  });

  test('GET /supported lists exactly the four kinds this chain settles', async () => {
    const response = await fetch(`${stack.facilitatorUrl}/supported`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      kinds: [
        { x402Version: 2, scheme: 'exact', network: 'eip155:8453' },
        {
          x402Version: 2,
          scheme: 'upto',
          network: 'eip155:8453',
          // The account that alone may settle an upto payment: the client signs it in.
          extra: { facilitatorAddress: DEV_FACILITATOR.address },
        },
        {
          x402Version: 2,
          scheme: 'batch-settlement',
          network: 'eip155:8453',
          // The key that signs claims and refunds for channels that name it.
          extra: { receiverAuthorizer: DEV_RECEIVER_AUTHORIZER.address },
        },
        { x402Version: 1, scheme: 'exact', network: 'base' },
      ],
      extensions: [],
      signers: { 'eip155:*': [DEV_FACILITATOR.address] },
    });
  });
});

describe('startPaymentStack options', () => {
  test('`fund` replaces the default funding', async () => {
    const stack = await startPaymentStack({ fund: { [DEV_PAY_TO]: 5n } });
    try {
      expect(await stack.balanceOf(DEV_PAY_TO)).toBe(5n);
      expect(await stack.balanceOf(DEV_PAYER.address)).toBe(0n);
    } finally {
      await stack.close();
    }
  });

  test('close stops the facilitator and the chain, and may be called twice', async () => {
    const stack = await startPaymentStack({ fund: {} });
    await Promise.all([stack.close(), stack.close()]);
    await expect(fetch(`${stack.facilitatorUrl}/supported`)).rejects.toThrow();
    await expect(fetch(stack.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  test('a taken facilitator port is an error', async () => {
    const first = await startPaymentStack({ fund: {} });
    try {
      const port = Number(new URL(first.facilitatorUrl).port);
      await expect(startPaymentStack({ port, fund: {} })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
