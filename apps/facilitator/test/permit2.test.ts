import { uptoPermit2WitnessTypes } from '@x402/evm';
import {
  type Abi,
  type Address,
  decodeErrorResult,
  domainSeparator,
  encodeAbiParameters,
  type Hex,
  keccak256,
  parseAbiParameters,
  parseEventLogs,
  toBytes,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEV_CHAIN_ID,
  DEV_DEPLOYER,
  DEV_FACILITATOR,
  DEV_PAYER,
  type DevWalletClient,
  type PaymentStack,
  PERMIT2,
  PERMIT2_ADDRESS,
  startPaymentStack,
  TEST_USDC,
  UPTO_PERMIT2_PROXY,
  UPTO_PERMIT2_PROXY_ADDRESS,
} from '../src/index.js';
import { randomPermit2Nonce, signUptoAuthorization, type UptoAuthorization } from './helpers.js';

/**
 * Our Permit2 and upto proxy on their own, called the way the official facilitator calls
 * them but without its checks in front: every refusal here comes from the contracts.
 */

/** The proxy's ABI with Permit2's errors, so a revert from either is decoded by name. */
const PROXY_ABI = [
  ...UPTO_PERMIT2_PROXY.abi,
  ...PERMIT2.abi.filter((item) => item.type === 'error'),
] as Abi;

/** How the upto witness completes Permit2's `PermitWitnessTransferFrom` type. */
const WITNESS_TYPE_STRING =
  'Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)';

let stack: PaymentStack;
let facilitatorWallet: DevWalletClient;

beforeAll(async () => {
  stack = await startPaymentStack();
  facilitatorWallet = stack.chain.walletClient(DEV_FACILITATOR);
});

afterAll(async () => {
  await stack?.close();
});

function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** An authorization from the payer of up to 50,000 units, settled by the facilitator, valid for a minute. */
function authorization(overrides: Partial<UptoAuthorization> = {}): UptoAuthorization {
  return {
    from: DEV_PAYER.address,
    permitted: { token: stack.asset, amount: '50000' },
    spender: UPTO_PERMIT2_PROXY_ADDRESS,
    nonce: randomPermit2Nonce(),
    deadline: (nowSeconds() + 60n).toString(),
    witness: { to: stack.payTo, facilitator: DEV_FACILITATOR.address, validAfter: '0' },
    ...overrides,
  };
}

/** `settle`'s arguments, as the official facilitator builds them. */
function settleArgs(auth: UptoAuthorization, amount: bigint, signature: Hex) {
  return [
    {
      permitted: { token: auth.permitted.token, amount: BigInt(auth.permitted.amount) },
      nonce: BigInt(auth.nonce),
      deadline: BigInt(auth.deadline),
    },
    amount,
    auth.from,
    {
      to: auth.witness.to,
      facilitator: auth.witness.facilitator,
      validAfter: BigInt(auth.witness.validAfter),
    },
    signature,
  ] as const;
}

/** Call `settle` from `caller` (simulated first, so a revert is named, then sent). */
async function settle(
  args: ReturnType<typeof settleArgs>,
  caller: DevWalletClient = facilitatorWallet,
): Promise<Hex> {
  const { request } = await caller.simulateContract({
    address: UPTO_PERMIT2_PROXY_ADDRESS,
    abi: PROXY_ABI,
    functionName: 'settle',
    args,
  });
  const hash = await caller.writeContract(request);
  const receipt = await caller.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

/**
 * The custom error a call reverted with, by name (or the reason of a plain `revert("…")`),
 * decoded from the revert data the node attached to the error.
 */
async function revertOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (thrown: unknown) => thrown,
  );
  const data = revertData(error);
  if (data === undefined) throw error;
  const decoded = decodeErrorResult({ abi: PROXY_ABI, data });
  return decoded.errorName === 'Error' ? String(decoded.args?.[0]) : decoded.errorName;
}

/** The first revert data (`0x…`) along an error's chain of causes. */
function revertData(error: unknown): Hex | undefined {
  for (
    let current = error;
    current instanceof Object;
    current = (current as { cause?: unknown }).cause
  ) {
    const { data } = current as { data?: unknown };
    if (typeof data === 'string' && data.startsWith('0x')) return data as Hex;
  }
  return undefined;
}

async function balances(): Promise<[bigint, bigint]> {
  return [await stack.balanceOf(DEV_PAYER.address), await stack.balanceOf(stack.payTo)];
}

async function nonceUsed(owner: Address, nonce: string): Promise<boolean> {
  const value = BigInt(nonce);
  const word = (await stack.chain.publicClient.readContract({
    address: PERMIT2_ADDRESS,
    abi: PERMIT2.abi,
    functionName: 'nonceBitmap',
    args: [owner, value >> 8n],
  })) as bigint;
  return (word & (1n << (value & 0xffn))) !== 0n;
}

describe('Permit2', () => {
  test('signs in the EIP-712 domain the x402 client uses: "Permit2", no version, this chain and address', async () => {
    expect(
      await stack.chain.publicClient.readContract({
        address: PERMIT2_ADDRESS,
        abi: PERMIT2.abi,
        functionName: 'DOMAIN_SEPARATOR',
      }),
    ).toBe(
      domainSeparator({
        domain: { name: 'Permit2', chainId: DEV_CHAIN_ID, verifyingContract: PERMIT2_ADDRESS },
      }),
    );
  });

  test('moves only for the spender that was signed: the facilitator calling Permit2 itself is refused', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    const [permit, , owner, witness] = settleArgs(auth, 1n, signature);
    // The witness exactly as the proxy hashes it: only the caller (the spender) differs.
    const witnessHash = keccak256(
      encodeAbiParameters(parseAbiParameters('bytes32, address, address, uint256'), [
        keccak256(toBytes('Witness(address to,address facilitator,uint256 validAfter)')),
        witness.to,
        witness.facilitator,
        witness.validAfter,
      ]),
    );
    const call = facilitatorWallet.simulateContract({
      address: PERMIT2_ADDRESS,
      abi: PERMIT2.abi,
      functionName: 'permitWitnessTransferFrom',
      args: [
        permit,
        { to: DEV_FACILITATOR.address, requestedAmount: 1n },
        owner,
        witnessHash,
        WITNESS_TYPE_STRING,
        signature,
      ],
    });
    expect(await revertOf(call)).toBe('InvalidSigner');
  });

  test('the payer can cancel an authorization nobody settled yet', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    const payer = stack.chain.walletClient(DEV_PAYER);
    const nonce = BigInt(auth.nonce);
    const hash = await payer.writeContract({
      address: PERMIT2_ADDRESS,
      abi: PERMIT2.abi,
      functionName: 'invalidateUnorderedNonces',
      args: [nonce >> 8n, 1n << (nonce & 0xffn)],
    });
    const receipt = await payer.waitForTransactionReceipt({ hash });
    expect(
      parseEventLogs({ abi: PERMIT2.abi, logs: receipt.logs }).map((l) => l.eventName),
    ).toEqual(['UnorderedNonceInvalidation']);
    expect(await nonceUsed(DEV_PAYER.address, auth.nonce)).toBe(true);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe('InvalidNonce');
  });
});

describe('the upto proxy', () => {
  test('completes Permit2’s type with the witness type of the official client', async () => {
    const read = (functionName: 'WITNESS_TYPE_STRING' | 'WITNESS_TYPEHASH' | 'PERMIT2') =>
      stack.chain.publicClient.readContract({
        address: UPTO_PERMIT2_PROXY_ADDRESS,
        abi: UPTO_PERMIT2_PROXY.abi,
        functionName,
      });
    expect(await read('WITNESS_TYPE_STRING')).toBe(WITNESS_TYPE_STRING);
    expect(await read('WITNESS_TYPEHASH')).toBe(
      keccak256(toBytes('Witness(address to,address facilitator,uint256 validAfter)')),
    );
    expect(await read('PERMIT2')).toBe(PERMIT2_ADDRESS);
    // The official client's witness fields, in EIP-712's encoding, are what the string spells.
    const fields = uptoPermit2WitnessTypes.Witness.map((f) => `${f.type} ${f.name}`).join(',');
    expect(WITNESS_TYPE_STRING).toContain(`Witness(${fields})`);
  });

  test('settles a smaller amount than signed: exactly that moves, and the nonce is spent', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    const [payerBefore, payeeBefore] = await balances();
    expect(await nonceUsed(DEV_PAYER.address, auth.nonce)).toBe(false);
    const hash = await settle(settleArgs(auth, 37_000n, signature));
    expect(await balances()).toEqual([payerBefore - 37_000n, payeeBefore + 37_000n]);
    expect(await nonceUsed(DEV_PAYER.address, auth.nonce)).toBe(true);
    const receipt = await stack.chain.publicClient.getTransactionReceipt({ hash });
    expect(
      parseEventLogs({ abi: TEST_USDC.abi, logs: receipt.logs, eventName: 'Transfer' }).map(
        (log) => log.args,
      ),
    ).toEqual([{ from: DEV_PAYER.address, to: stack.payTo, value: 37_000n }]);

    // Once only, for any amount.
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe('InvalidNonce');
  });

  test('refuses more than the permitted maximum', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    expect(await revertOf(settle(settleArgs(auth, 50_001n, signature)))).toBe(
      'AmountExceedsPermitted',
    );
  });

  test('refuses any caller but the facilitator in the witness', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    const other = stack.chain.walletClient(DEV_DEPLOYER);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature), other))).toBe(
      'UnauthorizedFacilitator',
    );
  });

  test('refuses a signature by another key', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(generatePrivateKey(), auth);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe('InvalidSigner');
  });

  test('refuses a signed message changed afterwards: the payee, the maximum', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    const otherPayee = { ...auth, witness: { ...auth.witness, to: thief } };
    expect(await revertOf(settle(settleArgs(otherPayee, 1n, signature)))).toBe('InvalidSigner');
    const moreMoney = { ...auth, permitted: { ...auth.permitted, amount: '60000' } };
    expect(await revertOf(settle(settleArgs(moreMoney, 55_000n, signature)))).toBe('InvalidSigner');
  });

  test('refuses a malformed signature', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature.slice(0, -2) as Hex)))).toBe(
      'InvalidSignatureLength',
    );
  });

  test('refuses an expired deadline', async () => {
    const auth = authorization({ deadline: (nowSeconds() - 60n).toString() });
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe('SignatureExpired');
  });

  test('refuses a settlement before the witness’s validAfter', async () => {
    const auth = authorization();
    auth.witness.validAfter = (nowSeconds() + 3600n).toString();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe('PaymentTooEarly');
  });

  test('refuses a settlement of zero (the facilitator settles zero without a transaction)', async () => {
    const auth = authorization();
    const { signature } = await signUptoAuthorization(DEV_PAYER.privateKey, auth);
    expect(await revertOf(settle(settleArgs(auth, 0n, signature)))).toBe('InvalidAmount');
  });

  test('passes on the token’s own refusal: a payer without the funds', async () => {
    const key = generatePrivateKey();
    const auth = authorization({ from: privateKeyToAccount(key).address });
    const { signature } = await signUptoAuthorization(key, auth);
    // No balance and no allowance: the token says which check failed first.
    expect(await revertOf(settle(settleArgs(auth, 1n, signature)))).toBe(
      'ERC20: transfer amount exceeds allowance',
    );
  });
});
