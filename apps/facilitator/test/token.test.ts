import {
  type Address,
  domainSeparator,
  encodeFunctionData,
  type Hex,
  parseEventLogs,
  parseSignature,
  serializeSignature,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MULTICALL3 } from '../src/contracts.js';
import { deployContracts } from '../src/deploy.js';
import {
  DEV_CHAIN_ID,
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_PAYER,
  DEV_TOKEN_ADDRESS,
  DEV_TOKEN_EIP712,
  type LocalChain,
  MULTICALL3_ADDRESS,
  startChain,
  TEST_USDC,
} from '../src/index.js';

const token = { address: DEV_TOKEN_ADDRESS, abi: TEST_USDC.abi } as const;
const DOMAIN = {
  ...DEV_TOKEN_EIP712,
  chainId: DEV_CHAIN_ID,
  verifyingContract: DEV_TOKEN_ADDRESS,
} as const;
const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

let chain: LocalChain;
let nonceCounter = 0n;

beforeAll(async () => {
  chain = await startChain();
  await deployContracts(chain);
  await chain.walletClient(DEV_DEPLOYER).writeContract({
    ...token,
    functionName: 'mint',
    args: [DEV_PAYER.address, 1_000_000n],
  });
});

afterAll(async () => {
  await chain?.close();
});

function now(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** An authorization from the payer, valid for the next minute, with a fresh nonce. */
function authorization(overrides: Partial<Authorization> = {}): Authorization {
  nonceCounter += 1n;
  return {
    from: DEV_PAYER.address,
    to: DEV_FACILITATOR.address,
    value: 100n,
    validAfter: 0n,
    validBefore: now() + 60n,
    nonce: `0x${nonceCounter.toString(16).padStart(64, '0')}`,
    ...overrides,
  };
}

async function sign(
  auth: Authorization,
  privateKey: Hex = DEV_PAYER.privateKey,
  primaryType:
    | 'TransferWithAuthorization'
    | 'ReceiveWithAuthorization' = 'TransferWithAuthorization',
): Promise<Hex> {
  return privateKeyToAccount(privateKey).signTypedData({
    domain: DOMAIN,
    types: { [primaryType]: AUTHORIZATION_FIELDS },
    primaryType,
    message: auth,
  } as never);
}

function authorizationArgs(auth: Authorization) {
  return [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;
}

/** Submit with the (v, r, s) overload, as the x402 facilitator does for an EOA's signature. */
async function transferWithVrs(auth: Authorization, signature: Hex, submitter = DEV_FACILITATOR) {
  const { v, r, s } = parseSignature(signature);
  const wallet = chain.walletClient(submitter);
  const hash = await wallet.writeContract({
    ...token,
    functionName: 'transferWithAuthorization',
    args: [...authorizationArgs(auth), Number(v), r, s],
  });
  return wallet.waitForTransactionReceipt({ hash });
}

/** The revert a call with these arguments would meet, as viem reports it. */
async function revertOf(functionName: string, args: readonly unknown[], from = DEV_FACILITATOR) {
  const wallet = chain.walletClient(from);
  const error = await wallet
    .simulateContract({ ...token, functionName, args, account: wallet.account } as never)
    .then(
      () => undefined,
      (e: Error) => e,
    );
  return error?.message ?? 'no revert';
}

async function balanceOf(address: Address): Promise<bigint> {
  return (await chain.publicClient.readContract({
    ...token,
    functionName: 'balanceOf',
    args: [address],
  })) as bigint;
}

describe('TestUSDC', () => {
  test('describes itself as USDC does', async () => {
    const read = (functionName: string) =>
      chain.publicClient.readContract({ ...token, functionName } as never);
    expect(await read('name')).toBe('USD Coin');
    expect(await read('symbol')).toBe('USDC');
    expect(await read('decimals')).toBe(6);
    expect(await read('version')).toBe('2');
    expect(await read('DOMAIN_SEPARATOR')).toBe(domainSeparator({ domain: DOMAIN }));
    expect(await read('minter')).toBe(DEV_DEPLOYER.address);
  });

  test('transferWithAuthorization (v, r, s) moves the value once and records the nonce', async () => {
    const auth = authorization({ value: 250n });
    const before = await Promise.all([balanceOf(auth.from), balanceOf(auth.to)]);
    const receipt = await transferWithVrs(auth, await sign(auth));
    expect(receipt.status).toBe('success');
    expect(await balanceOf(auth.from)).toBe(before[0] - 250n);
    expect(await balanceOf(auth.to)).toBe(before[1] + 250n);
    const events = parseEventLogs({ abi: TEST_USDC.abi, logs: receipt.logs });
    expect(events.map((e) => e.eventName)).toEqual(['AuthorizationUsed', 'Transfer']);
    expect(
      await chain.publicClient.readContract({
        ...token,
        functionName: 'authorizationState',
        args: [auth.from, auth.nonce],
      }),
    ).toBe(true);
  });

  test('transferWithAuthorization also takes the packed 65-byte signature', async () => {
    const auth = authorization({ value: 7n });
    const before = await balanceOf(auth.to);
    const wallet = chain.walletClient(DEV_FACILITATOR);
    const hash = await wallet.writeContract({
      ...token,
      functionName: 'transferWithAuthorization',
      args: [...authorizationArgs(auth), await sign(auth)],
    });
    expect((await wallet.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(auth.to)).toBe(before + 7n);
  });

  test('refuses a used nonce, with USDC’s message', async () => {
    const auth = authorization();
    const signature = await sign(auth);
    await transferWithVrs(auth, signature);
    expect(
      await revertOf('transferWithAuthorization', [...authorizationArgs(auth), signature]),
    ).toContain('FiatTokenV2: authorization is used or canceled');
  });

  test.each([
    ['expired', { validBefore: 1n }, 'FiatTokenV2: authorization is expired'],
    [
      'not yet valid',
      { validAfter: 4_000_000_000n, validBefore: 4_000_000_060n },
      'FiatTokenV2: authorization is not yet valid',
    ],
    ['more than the balance', { value: 10n ** 30n }, 'ERC20: transfer amount exceeds balance'],
  ] as const)('refuses an authorization that is %s', async (_case, overrides, message) => {
    const auth = authorization(overrides);
    expect(
      await revertOf('transferWithAuthorization', [...authorizationArgs(auth), await sign(auth)]),
    ).toContain(message);
  });

  test('refuses a signature by anyone but `from`, a changed value and a malleable twin', async () => {
    const auth = authorization();
    const byOther = await sign(auth, generatePrivateKey());
    const signature = await sign(auth);
    const { r, s, yParity } = parseSignature(signature);
    // (r, n - s) with the other parity recovers the same signer: EIP-2 rules it out.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const twin = serializeSignature({
      r,
      s: `0x${(n - BigInt(s)).toString(16).padStart(64, '0')}`,
      yParity: yParity === 0 ? 1 : 0,
    });
    for (const [args, what] of [
      [[...authorizationArgs(auth), byOther], 'another key'],
      [[...authorizationArgs({ ...auth, value: auth.value + 1n }), signature], 'a changed value'],
      [[...authorizationArgs(auth), twin], 'the malleable twin'],
      [[...authorizationArgs(auth), '0x1234'], 'a short signature'],
    ] as const) {
      expect(await revertOf('transferWithAuthorization', args), what).toContain(
        'FiatTokenV2: invalid signature',
      );
    }
  });

  test('receiveWithAuthorization must be submitted by the payee', async () => {
    const auth = authorization({ to: DEV_DEPLOYER.address, value: 3n });
    const signature = await sign(auth, DEV_PAYER.privateKey, 'ReceiveWithAuthorization');
    const { v, r, s } = parseSignature(signature);
    const args = [...authorizationArgs(auth), Number(v), r, s] as const;
    expect(await revertOf('receiveWithAuthorization', args, DEV_FACILITATOR)).toContain(
      'FiatTokenV2: caller must be the payee',
    );
    const payee = chain.walletClient(DEV_DEPLOYER);
    const before = await balanceOf(DEV_DEPLOYER.address);
    const hash = await payee.writeContract({
      ...token,
      functionName: 'receiveWithAuthorization',
      args,
    });
    expect((await payee.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(DEV_DEPLOYER.address)).toBe(before + 3n);
  });

  test('approve and transferFrom: the spender moves at most the allowance, which it spends', async () => {
    const owner = chain.walletClient(DEV_PAYER);
    const spender = chain.walletClient(DEV_FACILITATOR);
    const approval = await owner.writeContract({
      ...token,
      functionName: 'approve',
      args: [DEV_FACILITATOR.address, 100n],
    });
    const approved = await owner.waitForTransactionReceipt({ hash: approval });
    expect(parseEventLogs({ abi: TEST_USDC.abi, logs: approved.logs }).map((e) => e.args)).toEqual([
      { owner: DEV_PAYER.address, spender: DEV_FACILITATOR.address, value: 100n },
    ]);
    expect(
      await revertOf('transferFrom', [DEV_PAYER.address, DEV_DEPLOYER.address, 101n]),
    ).toContain('ERC20: transfer amount exceeds allowance');
    const before = await balanceOf(DEV_DEPLOYER.address);
    const hash = await spender.writeContract({
      ...token,
      functionName: 'transferFrom',
      args: [DEV_PAYER.address, DEV_DEPLOYER.address, 60n],
    });
    expect((await spender.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(DEV_DEPLOYER.address)).toBe(before + 60n);
    expect(
      await chain.publicClient.readContract({
        ...token,
        functionName: 'allowance',
        args: [DEV_PAYER.address, DEV_FACILITATOR.address],
      }),
    ).toBe(40n);
  });

  test('permit (EIP-2612): a signature approves, once, before its deadline', async () => {
    const key = generatePrivateKey();
    const owner = privateKeyToAccount(key).address;
    const readNonce = () =>
      chain.publicClient.readContract({ ...token, functionName: 'nonces', args: [owner] });
    const permit = { owner, spender: DEV_FACILITATOR.address, value: 500n, deadline: now() + 60n };
    const signPermit = async (message: typeof permit & { nonce: bigint }) =>
      parseSignature(
        await privateKeyToAccount(key).signTypedData({
          domain: DOMAIN,
          types: {
            Permit: [
              { name: 'owner', type: 'address' },
              { name: 'spender', type: 'address' },
              { name: 'value', type: 'uint256' },
              { name: 'nonce', type: 'uint256' },
              { name: 'deadline', type: 'uint256' },
            ],
          },
          primaryType: 'Permit',
          message,
        }),
      );
    const { v, r, s } = await signPermit({ ...permit, nonce: (await readNonce()) as bigint });
    const args = [owner, permit.spender, permit.value, permit.deadline, Number(v), r, s] as const;
    // Anyone may submit it (the x402 proxy does); the owner needs no ether.
    const submitter = chain.walletClient(DEV_DEPLOYER);
    const hash = await submitter.writeContract({ ...token, functionName: 'permit', args });
    expect((await submitter.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await readNonce()).toBe(1n);
    expect(
      await chain.publicClient.readContract({
        ...token,
        functionName: 'allowance',
        args: [owner, DEV_FACILITATOR.address],
      }),
    ).toBe(500n);
    expect(await revertOf('permit', args)).toContain('EIP2612: invalid signature');
    // An hour past: the chain's clock (the last block's time) may lag the wall clock by seconds.
    const deadline = now() - 3600n;
    const late = await signPermit({ ...permit, deadline, nonce: 1n });
    expect(
      await revertOf('permit', [
        owner,
        permit.spender,
        permit.value,
        deadline,
        Number(late.v),
        late.r,
        late.s,
      ]),
    ).toContain('FiatTokenV2: permit is expired');
  });

  test('only the deployer mints', async () => {
    expect(await revertOf('mint', [DEV_FACILITATOR.address, 1n], DEV_FACILITATOR)).toContain(
      'TestUSDC: caller is not the minter',
    );
  });
});

describe('Multicall3 at the canonical address', () => {
  test('has the compiled code', async () => {
    expect(await chain.publicClient.getCode({ address: MULTICALL3_ADDRESS })).toBe(
      MULTICALL3.deployedBytecode,
    );
  });

  test('tryAggregate reports each call, failures included (the facilitator’s diagnosis)', async () => {
    const calls = [
      {
        target: DEV_TOKEN_ADDRESS,
        callData: encodeFunctionData({ ...token, functionName: 'version' }),
      },
      { target: DEV_TOKEN_ADDRESS, callData: '0xdeadbeef' as Hex },
    ];
    const results = (await chain.publicClient.readContract({
      address: MULTICALL3_ADDRESS,
      abi: MULTICALL3.abi,
      functionName: 'tryAggregate',
      args: [false, calls],
    })) as { success: boolean }[];
    expect(results.map((r) => r.success)).toEqual([true, false]);
  });

  test('serves viem’s multicall (aggregate3) and getEthBalance', async () => {
    const [version, balance] = await chain.publicClient.multicall({
      contracts: [
        { ...token, functionName: 'version' },
        {
          address: MULTICALL3_ADDRESS,
          abi: MULTICALL3.abi,
          functionName: 'getEthBalance',
          args: [DEV_PAYER.address],
        },
      ],
      allowFailure: false,
    });
    expect(version).toBe('2');
    expect(balance).toBe(await chain.publicClient.getBalance({ address: DEV_PAYER.address }));
  });
});
